/**
 * The worker's webNavigation listeners, attached only while Otto needs them (issue #26: an idle Otto does nothing for
 * the pages a user browses).
 *
 * A listener registered at the worker's top level is persistent: Chrome starts the stopped worker for every
 * navigation of every frame in every tab to deliver the event, even when the handler then returns at once. Measured
 * with an idle Otto whose worker had stopped (it stops after 30 s without events): each page load or reload started
 * it again, 260–370 ms of CPU in Otto's process per load (the whole worker: bundle, database, settings, tools),
 * against ~1.7–2.1 s for the rest of the browser loading a 5-frame page (docs/decisions.md, "Page-load overhead").
 *
 * The handlers (page/pageDevCapture.ts, #19) only act while a run is going: the page-start capture of a watched tab,
 * its unregistering once the DOM is loaded, and disarming another tab inside a registration's window. So they are
 * attached when a run starts and detached once none is going and the window's grace is over. A worker that stops
 * and restarts attaches them at once, synchronously (a navigation that woke it is delivered only to listeners
 * present when its script has run), and takes them off again once it knows no run goes and no registration window is
 * open: Chrome keeps waking a worker for a listener it last saw attached, so leaving them off at start would not
 * stop the wake-ups, only lose the events.
 */

interface NavEvent<T> {
  addListener(cb: (d: T) => void): void;
  removeListener(cb: (d: T) => void): void;
}

type Nav = { tabId: number; frameId: number; url: string };

export interface NavigationEvents {
  onBeforeNavigate: NavEvent<Nav>;
  onCommitted: NavEvent<Nav>;
  onDOMContentLoaded: NavEvent<Nav>;
  onErrorOccurred: NavEvent<Nav>;
}

export interface NavigationHandlers {
  onBeforeNavigate(d: Nav): void;
  onCommitted(d: Nav): void;
  /** The DOM is loaded or the navigation failed. */
  onLoadSettled(d: Nav): void;
  /** Called when the listeners come off: drop whatever a last navigation may have left registered. */
  onDetached(): void;
}

export interface NavigationListeners {
  /** Whether a run is going now: attaches at once; detaches `graceMs` (or `afterMs`) after the last run ended. */
  update(runGoing: boolean, afterMs?: number): void;
  attached(): boolean;
}

export function navigationListeners(
  handlers: NavigationHandlers,
  opts: { events: NavigationEvents; graceMs: number },
): NavigationListeners {
  const { events, graceMs } = opts;
  // One function per event, kept so removeListener gets the same object addListener got.
  const bound: [NavEvent<Nav>, (d: Nav) => void][] = [
    [events.onBeforeNavigate, (d) => handlers.onBeforeNavigate(d)],
    [events.onCommitted, (d) => handlers.onCommitted(d)],
    [events.onDOMContentLoaded, (d) => handlers.onLoadSettled(d)],
    [events.onErrorOccurred, (d) => handlers.onLoadSettled(d)],
  ];
  let on = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const detach = () => {
    timer = undefined;
    if (!on) return;
    for (const [event, cb] of bound) event.removeListener(cb);
    on = false;
    handlers.onDetached();
  };

  return {
    update(runGoing, afterMs) {
      if (runGoing) {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        if (!on) for (const [event, cb] of bound) event.addListener(cb);
        on = true;
      } else if (on && timer === undefined) {
        // The grace covers a navigation the run started that settles after it ended, and the registration window.
        timer = setTimeout(detach, afterMs ?? graceMs);
      }
    },
    attached: () => on,
  };
}
