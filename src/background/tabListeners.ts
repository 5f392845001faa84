/**
 * The worker's tab listeners, attached only while something needs them (#26: an idle Otto costs the browser nothing).
 *
 * Registered at the worker's top level, each was persistent: Chrome started a stopped worker for every tab the user
 * opened or closed, anywhere, to deliver an event the handler then mostly ignored. Measured with an idle Otto whose
 * worker had stopped: one start per tab opened or closed, 220–400 ms of CPU in Otto's process each
 * (scripts/idle-tab-cpu.ts; docs/decisions.md, "Idle worker: tab events" and "Idle worker: tab events while a group exists").
 *
 * What needs them (the caller decides, and says so through `set`):
 *  - created (tabs.onCreated): while a run goes, the rule that a tab a page opens from one of Otto's groups is taken
 *    back out of it (TabScope.onCreated, #27);
 *  - opened (webNavigation.onCreatedNavigationTarget): the same rule between runs, while an Otto group has tabs. Chrome
 *    fires it only for a tab a page or a link opened, never for one the user opens from the tab strip, the keyboard,
 *    a bookmark or the address bar, so those no longer start the worker (TabScope.onPageOpened);
 *  - groupGone (tabGroups.onRemoved): between runs, with the listener above, so the worker hears that Otto's last
 *    group closed and takes both off, rather than keeping them until the next popup;
 *  - removed (tabs.onRemoved): forgetting a closed tab's page-start capture (page/pageDevCapture.ts) while a run goes;
 *    a tab closed while none goes is forgotten when the next run starts.
 *
 * Like navigationListeners.ts: a fresh worker attaches all at once, synchronously (the event that woke it reaches
 * only listeners present when its script has run), then takes off what it finds unneeded. Chrome keeps waking a
 * worker for a listener it last saw attached, so leaving them off at start would lose events, not wake-ups.
 */

interface TabEvent<A extends unknown[]> {
  addListener(cb: (...args: A) => void): void;
  removeListener(cb: (...args: A) => void): void;
}

/** What a page-opened tab's event says: the new tab, and the tab whose page opened it. */
export interface OpenedTab {
  tabId: number;
  sourceTabId: number;
}

export interface TabEvents {
  onCreated: TabEvent<[chrome.tabs.Tab]>;
  onRemoved: TabEvent<[number]>;
  /** webNavigation.onCreatedNavigationTarget */
  onOpened: TabEvent<[OpenedTab]>;
  /** tabGroups.onRemoved */
  onGroupRemoved: TabEvent<[chrome.tabGroups.TabGroup]>;
}

export interface TabHandlers {
  onCreated(tab: chrome.tabs.Tab): void;
  onRemoved(tabId: number): void;
  onOpened(opened: OpenedTab): void;
  onGroupRemoved(): void;
}

/** Which listeners are to be attached. */
export interface TabNeeds {
  created: boolean;
  removed: boolean;
  opened: boolean;
  groupGone: boolean;
}

export const ALL_TAB_LISTENERS: TabNeeds = { created: true, removed: true, opened: true, groupGone: true };

export interface TabListeners {
  /** Attaches what is needed and is not on, removes what is on and not needed. */
  set(needs: TabNeeds): void;
  attached(): TabNeeds;
}

/** One attach/detach switch over one event, with the function kept so removeListener gets what addListener got. */
function toggle<A extends unknown[]>(event: TabEvent<A>, cb: (...args: A) => void) {
  let on = false;
  return {
    set(want: boolean) {
      if (want === on) return;
      if (want) event.addListener(cb);
      else event.removeListener(cb);
      on = want;
    },
    on: () => on,
  };
}

export function tabListeners(handlers: TabHandlers, events: TabEvents): TabListeners {
  const switches = {
    created: toggle(events.onCreated, (tab: chrome.tabs.Tab) => handlers.onCreated(tab)),
    removed: toggle(events.onRemoved, (tabId: number) => handlers.onRemoved(tabId)),
    opened: toggle(events.onOpened, (d: OpenedTab) =>
      handlers.onOpened({ tabId: d.tabId, sourceTabId: d.sourceTabId }),
    ),
    groupGone: toggle(events.onGroupRemoved, () => handlers.onGroupRemoved()),
  };
  return {
    set(needs) {
      for (const key of Object.keys(switches) as (keyof TabNeeds)[]) switches[key].set(needs[key]);
    },
    attached: () => ({
      created: switches.created.on(),
      removed: switches.removed.on(),
      opened: switches.opened.on(),
      groupGone: switches.groupGone.on(),
    }),
  };
}

/**
 * What to listen to: while a run goes, the run's two listeners; between runs, while an Otto group has tabs, only
 * the page-opened one and the group's end; otherwise nothing.
 */
export function tabNeeds(runGoing: boolean, groups: boolean): TabNeeds {
  const between = !runGoing && groups;
  return { created: runGoing, removed: runGoing, opened: between, groupGone: between };
}
