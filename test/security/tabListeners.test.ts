/**
 * #26: the worker's tab listeners are attached only while something needs them, so an idle Otto's stopped worker is
 * not started by every tab the user opens or closes (src/background/tabListeners.ts), nor, while an Otto group
 * exists, by a tab the user opens: between runs only a tab a page opened is heard.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_TAB_LISTENERS,
  tabListeners,
  tabNeeds,
  type OpenedTab,
  type TabEvents,
} from '../../src/background/tabListeners.ts';

function fakeEvent<A extends unknown[]>() {
  const listeners = new Set<(...a: A) => void>();
  return {
    listeners,
    addListener: (cb: (...a: A) => void) => void listeners.add(cb),
    removeListener: (cb: (...a: A) => void) => void listeners.delete(cb),
    fire: (...a: A) => listeners.forEach((cb) => cb(...a)),
  };
}

function setup() {
  const events = {
    onCreated: fakeEvent<[chrome.tabs.Tab]>(),
    onRemoved: fakeEvent<[number]>(),
    onOpened: fakeEvent<[OpenedTab]>(),
    onGroupRemoved: fakeEvent<[chrome.tabGroups.TabGroup]>(),
  };
  const seen: string[] = [];
  const tabs = tabListeners(
    {
      onCreated: (t) => seen.push(`created ${t.id}`),
      onRemoved: (id) => seen.push(`removed ${id}`),
      onOpened: (o) => seen.push(`opened ${o.tabId} from ${o.sourceTabId}`),
      onGroupRemoved: () => seen.push('group gone'),
    },
    events satisfies TabEvents,
  );
  const sizes = () => [
    events.onCreated.listeners.size,
    events.onRemoved.listeners.size,
    events.onOpened.listeners.size,
    events.onGroupRemoved.listeners.size,
  ];
  const fireAll = (id: number) => {
    events.onCreated.fire({ id } as chrome.tabs.Tab);
    events.onRemoved.fire(id);
    // The real event's details carry more (frame ids, url, timeStamp): only the two ids are passed on.
    events.onOpened.fire({ tabId: id, sourceTabId: 1, url: 'https://bank.example/' } as OpenedTab);
    events.onGroupRemoved.fire({ id: 9 } as chrome.tabGroups.TabGroup);
  };
  return { tabs, seen, sizes, fireAll };
}

describe('tabListeners', () => {
  it('attaches and removes each listener by what is needed, once each, the same function both ways', () => {
    const { tabs, seen, sizes, fireAll } = setup();
    expect(sizes()).toEqual([0, 0, 0, 0]);

    // A fresh worker: all at once, so the event that woke it is delivered.
    tabs.set(ALL_TAB_LISTENERS);
    tabs.set(ALL_TAB_LISTENERS);
    expect(sizes()).toEqual([1, 1, 1, 1]);
    fireAll(4);
    expect(seen).toEqual(['created 4', 'removed 4', 'opened 4 from 1', 'group gone']);

    // No run, an Otto group left: only a page-opened tab and the group's end are heard.
    seen.length = 0;
    tabs.set(tabNeeds(false, true));
    expect(sizes()).toEqual([0, 0, 1, 1]);
    expect(tabs.attached()).toEqual({ created: false, removed: false, opened: true, groupGone: true });
    fireAll(5);
    expect(seen).toEqual(['opened 5 from 1', 'group gone']);

    // Idle, no group: nothing at all.
    seen.length = 0;
    tabs.set(tabNeeds(false, false));
    expect(sizes()).toEqual([0, 0, 0, 0]);
    fireAll(6);
    expect(seen).toEqual([]);

    // A run starts again: the run's two.
    tabs.set(tabNeeds(true, true));
    fireAll(7);
    expect(seen).toEqual(['created 7', 'removed 7']);
    expect(tabs.attached()).toEqual({ created: true, removed: true, opened: false, groupGone: false });
  });

  it('what is needed: the run’s two while a run goes, the page-opened pair between runs only while a group exists', () => {
    expect(tabNeeds(true, false)).toEqual({ created: true, removed: true, opened: false, groupGone: false });
    expect(tabNeeds(true, true)).toEqual({ created: true, removed: true, opened: false, groupGone: false });
    // The case that started a worker for every tab the user opened: tabs.onCreated is off.
    expect(tabNeeds(false, true)).toEqual({ created: false, removed: false, opened: true, groupGone: true });
    expect(tabNeeds(false, false)).toEqual({ created: false, removed: false, opened: false, groupGone: false });
  });
});
