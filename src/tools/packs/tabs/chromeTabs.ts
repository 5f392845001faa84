/** The few chrome.tabs operations the tabs pack needs, waiting for loads and honouring the run's abort signal. */

import { wrapUntrustedInline } from '../../../shared/untrusted.ts';
import { errorMessage } from '../../../shared/errorMessage.ts';

/** A tab as tools report it. The title is set by the page, so it is marked as untrusted data. */
export function describeTab(t: chrome.tabs.Tab) {
  const title = t.title ? wrapUntrustedInline(t.title) : '';
  return { id: t.id, title, url: t.url ?? t.pendingUrl ?? '', active: t.active, windowId: t.windowId };
}

/** "and 14 other tabs, not shared" — what tabs.list says instead of the tabs outside the run's reach (#27). */
export function othersLine(n: number): string {
  return `and ${n} other ${n === 1 ? 'tab' : 'tabs'}, not shared`;
}

export async function targetTab(tabId: number | undefined, ctxTabId: number | undefined): Promise<chrome.tabs.Tab> {
  const id = tabId ?? ctxTabId;
  if (id !== undefined) {
    try {
      return await chrome.tabs.get(id);
    } catch {
      throw new Error(`No tab with id ${id}. Use tabs.list() to see the open tabs.`);
    }
  }
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (!active) throw new Error('There is no active tab. Use tabs.list() and pass tab_id.');
  return active;
}

/** How often a load's wait also asks Chrome for the tab's status, in case its `complete` event never arrives. */
const LOAD_CHECK_MS = 500;

/**
 * Resolves when the tab finishes loading (status 'complete'), or rejects on timeout/abort. Chrome now and then
 * loses the `complete` event of a tab in a background window (#46: a scheduled run's tab, 1 navigation in ~20), so
 * the wait also reads the tab every LOAD_CHECK_MS: once it has been seen loading (or on another address than at the
 * start), `complete` ends the wait. A tab Chrome left `unloaded` (seen in a minimized background window: the
 * navigation never started) gets `onUnloaded` called, at most 3 times, to start it again. The timeout's message says
 * what the tab was doing.
 */
export function waitForLoad(
  tabId: number,
  signal: AbortSignal,
  timeoutMs = 30_000,
  onUnloaded?: () => void,
): Promise<chrome.tabs.Tab> {
  return new Promise((resolve, reject) => {
    let startUrl: string | undefined;
    let sawLoading = false;
    let kicks = 0;
    const done = (fn: () => void) => {
      chrome.tabs.onUpdated.removeListener(onUpdated);
      clearTimeout(timer);
      clearInterval(check);
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onUpdated = (id: number, info: { status?: string }, tab: chrome.tabs.Tab) => {
      if (id !== tabId) return;
      if (info.status === 'loading') sawLoading = true;
      if (info.status === 'complete') done(() => resolve(tab));
    };
    const read = () => chrome.tabs.get(tabId).catch(() => undefined);
    void read().then((t) => (startUrl = t?.url));
    const check = setInterval(() => {
      void read().then((t) => {
        if (t?.status === 'loading') sawLoading = true;
        else if (t?.status === 'unloaded' && onUnloaded && kicks < 3) {
          kicks++;
          onUnloaded();
        } else if (t?.status === 'complete' && (sawLoading || (startUrl !== undefined && t.url !== startUrl)))
          done(() => resolve(t));
      });
    }, LOAD_CHECK_MS);
    const onAbort = () => done(() => reject(new Error('aborted')));
    const timer = setTimeout(() => {
      void read().then((t) => {
        const state = t
          ? ` (the tab is ${t.status ?? 'in an unknown state'} at ${(t.url || t.pendingUrl || 'no address').slice(0, 200)})`
          : '';
        done(() => reject(new Error(`The page did not finish loading within ${timeoutMs / 1000} s${state}.`)));
      });
    }, timeoutMs);
    chrome.tabs.onUpdated.addListener(onUpdated);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const CAPTURE_RATE = /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/;
const NOT_ALLOWED = /Cannot access|cannot be (?:scripted|captured)|permission|extensions gallery|chrome:\/\//i;

/**
 * The visible area of a tab's window as a data URL (`chrome.tabs.captureVisibleTab`). Chrome allows two captures a
 * second: one refused for that is retried once. Pages Chrome keeps from extensions give a clear error.
 */
export async function captureVisible(
  tab: chrome.tabs.Tab,
  options: chrome.extensionTypes.ImageDetails,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await chrome.tabs.captureVisibleTab(tab.windowId, options);
    } catch (err) {
      const message = errorMessage(err);
      if (CAPTURE_RATE.test(message) && attempt === 0) {
        await new Promise((r) => setTimeout(r, 600));
        continue;
      }
      if (NOT_ALLOWED.test(message))
        throw new Error(
          `Chrome does not let extensions capture this page (${(tab.url ?? '').slice(0, 100)}): ${message}. Open a regular web page and try again.`,
          { cause: err },
        );
      throw new Error(`Could not capture tab ${tab.id}: ${message}`, { cause: err });
    }
  }
}
