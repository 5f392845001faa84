/**
 * Whether the page starts to leave during an action: unloading (a full navigation; only the browser's own events
 * count, so a page cannot fake one), and whether its beforeunload listeners asked Chrome to confirm leaving. Otto
 * never answers that question: Chrome shows it to the user (when the page has had a user gesture).
 */
export interface PageLeaving {
  unloading: boolean;
  leaveAsked: boolean;
  stop(): void;
}

export function watchLeaving(): PageLeaving {
  const state = { unloading: false, leaveAsked: false };
  const onUnload = (e: Event): void => {
    if (e.isTrusted) state.unloading = true;
  };
  // Added after the page's own beforeunload listeners, so it sees whether they asked Chrome to confirm leaving.
  const onBeforeUnload = (e: Event): void => {
    if (!e.isTrusted) return;
    const rv = (e as BeforeUnloadEvent).returnValue as unknown;
    if (e.defaultPrevented || (typeof rv === 'string' && rv !== '') || rv === false) state.leaveAsked = true;
  };
  window.addEventListener('beforeunload', onUnload, true);
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('pagehide', onUnload, true);
  return {
    get unloading() {
      return state.unloading;
    },
    get leaveAsked() {
      return state.leaveAsked;
    },
    stop() {
      window.removeEventListener('beforeunload', onUnload, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onUnload, true);
    },
  };
}
