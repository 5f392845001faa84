/**
 * #26: the worker's tabs.onCreated / tabs.onRemoved listeners are attached only while something needs them, so an idle
 * Otto's stopped worker is not started by every tab the user opens or closes (src/background/tabListeners.ts).
 */
import { describe, expect, it } from 'vitest';
import { tabListeners, type TabEvents } from '../../src/background/tabListeners.ts';

function fakeEvent<A extends unknown[]>() {
  const listeners = new Set<(...a: A) => void>();
  return {
    listeners,
    addListener: (cb: (...a: A) => void) => void listeners.add(cb),
    removeListener: (cb: (...a: A) => void) => void listeners.delete(cb),
    fire: (...a: A) => listeners.forEach((cb) => cb(...a)),
  };
}

describe('tabListeners', () => {
  it('attaches and removes each listener by what is needed, once each, the same function both ways', () => {
    const events = { onCreated: fakeEvent<[chrome.tabs.Tab]>(), onRemoved: fakeEvent<[number]>() };
    const seen: string[] = [];
    const tabs = tabListeners(
      { onCreated: (t) => seen.push(`created ${t.id}`), onRemoved: (id) => seen.push(`removed ${id}`) },
      events satisfies TabEvents,
    );
    expect(events.onCreated.listeners.size + events.onRemoved.listeners.size).toBe(0);

    // A fresh worker: both at once, so the event that woke it is delivered.
    tabs.set({ created: true, removed: true });
    tabs.set({ created: true, removed: true });
    expect([events.onCreated.listeners.size, events.onRemoved.listeners.size]).toEqual([1, 1]);
    events.onCreated.fire({ id: 4 } as chrome.tabs.Tab);
    events.onRemoved.fire(4);
    expect(seen).toEqual(['created 4', 'removed 4']);

    // No run, an Otto group left: only the popup rule listens.
    tabs.set({ created: true, removed: false });
    expect([events.onCreated.listeners.size, events.onRemoved.listeners.size]).toEqual([1, 0]);
    expect(tabs.attached()).toEqual({ created: true, removed: false });
    events.onRemoved.fire(5);
    expect(seen).toEqual(['created 4', 'removed 4']);

    // Idle: nothing at all.
    tabs.set({ created: false, removed: false });
    expect([events.onCreated.listeners.size, events.onRemoved.listeners.size]).toEqual([0, 0]);
    events.onCreated.fire({ id: 6 } as chrome.tabs.Tab);
    expect(seen).toEqual(['created 4', 'removed 4']);

    // A run starts again.
    tabs.set({ created: true, removed: true });
    events.onCreated.fire({ id: 7 } as chrome.tabs.Tab);
    events.onRemoved.fire(7);
    expect(seen).toEqual(['created 4', 'removed 4', 'created 7', 'removed 7']);
    expect(tabs.attached()).toEqual({ created: true, removed: true });
  });
});
