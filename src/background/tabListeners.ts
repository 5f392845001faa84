/**
 * The worker's tabs.onCreated and tabs.onRemoved listeners, attached only while something needs them (#26: an idle
 * Otto costs the browser nothing).
 *
 * Registered at the worker's top level, each was persistent: Chrome started a stopped worker for every tab the user
 * opened or closed, anywhere, to deliver an event the handler then mostly ignored. Measured with an idle Otto whose
 * worker had stopped: one start per tab opened or closed, 220–400 ms of CPU in Otto's process each
 * (scripts/idle-tab-cpu.ts; docs/decisions.md, "Idle worker: tab events").
 *
 * What needs them (the caller decides, and says so through `set`):
 *  - onCreated: the rule that a tab a page opens from one of Otto's groups is taken back out of it (TabScope.onCreated,
 *    #27). It must hold between runs too, since a group outlives its run, so it is on while a run goes or any Otto
 *    group exists, and off otherwise;
 *  - onRemoved: forgetting a closed tab's page-start capture (page/devCapture.ts) while a run goes; a tab closed
 *    while none goes is forgotten when the next run starts.
 *
 * Like navigationListeners.ts: a fresh worker attaches both at once, synchronously (the event that woke it reaches
 * only listeners present when its script has run), then takes off what it finds unneeded. Chrome keeps waking a
 * worker for a listener it last saw attached, so leaving them off at start would lose events, not wake-ups.
 */

interface TabEvent<A extends unknown[]> {
  addListener(cb: (...args: A) => void): void;
  removeListener(cb: (...args: A) => void): void;
}

export interface TabEvents {
  onCreated: TabEvent<[chrome.tabs.Tab]>;
  onRemoved: TabEvent<[number]>;
}

export interface TabHandlers {
  onCreated(tab: chrome.tabs.Tab): void;
  onRemoved(tabId: number): void;
}

/** Which of the two listeners are to be attached. */
export interface TabNeeds {
  created: boolean;
  removed: boolean;
}

export interface TabListeners {
  /** Attaches what is needed and is not on, removes what is on and not needed. */
  set(needs: TabNeeds): void;
  attached(): TabNeeds;
}

export function tabListeners(handlers: TabHandlers, events: TabEvents): TabListeners {
  // One function per event, kept so removeListener gets the same object addListener got.
  const created = (tab: chrome.tabs.Tab) => handlers.onCreated(tab);
  const removed = (tabId: number) => handlers.onRemoved(tabId);
  const on: TabNeeds = { created: false, removed: false };

  return {
    set(needs) {
      if (needs.created !== on.created) {
        if (needs.created) events.onCreated.addListener(created);
        else events.onCreated.removeListener(created);
        on.created = needs.created;
      }
      if (needs.removed !== on.removed) {
        if (needs.removed) events.onRemoved.addListener(removed);
        else events.onRemoved.removeListener(removed);
        on.removed = needs.removed;
      }
    },
    attached: () => ({ ...on }),
  };
}
