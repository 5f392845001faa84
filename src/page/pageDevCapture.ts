/**
 * When Otto captures a tab's console and requests (#19). The capture (content/contentDevCapture.ts) runs in the page's
 * own world, so it can only see what happens after it is installed. #26 forbids running anything in pages Otto is not
 * working on, so there is no capture "for every page from its start". Instead:
 *
 *  - a tab is **watched** once a run works on it (the content router injects Otto's content script into it, or a
 *    run calls dom.console / dom.network on it); closing the tab forgets it (at once while a run goes, else when the
 *    next run starts);
 *  - while a run is going (any conversation's status is `running`), a watched tab's next page gets the capture
 *    before its own scripts: when the tab starts a navigation (`webNavigation.onBeforeNavigate`), a content script
 *    (content/devCapture.iife.ts, MAIN world, `document_start`) is registered for that URL's path only, and removed
 *    again once the page's DOM is loaded (or the navigation fails). Injecting at `onCommitted` instead loses the race
 *    with a page's inline scripts (measured: a local page's load-time logs were gone). If the registration did not
 *    match (a redirect to another path), the capture is injected at commit as a fallback and says how late it is.
 *    Chrome registers scripts by URL, not by tab: another tab loading the very same path in that window gets the
 *    script too. There it wraps nothing: only the watched tabs' responses, while a run goes, carry the mark it
 *    looks for (pageStartMark.ts). A second guard for a page that fakes the mark: a tab that is not watched and commits such
 *    a URL is disarmed at once (pageStartDisarm.ts; the windows are kept in registrationWindows.ts, across worker
 *    restarts);
 *  - otherwise the capture is installed when a tool first asks, and says it began late (the browser's resource
 *    timing still lists the page's earlier requests; earlier console messages are lost). Reloading the tab then
 *    captures from the start.
 *
 * The same registration and fallback carry the listener registry (#14, content/listenerRegistry.ts), which finds
 * controls clickable only by a script listener; the content router injects it late, with the content script, into
 * a tab a run first works on.
 *
 * An idle Otto (no run going) injects nothing on any navigation, and a tab no run touched never gets anything.
 * The watched set lives in `chrome.storage.session`, so it survives the worker being stopped mid-run.
 */
import { devCapture, devRead, type DevLog } from '../content/contentDevCapture.ts';
import { pageStartDisarm } from '../content/pageStartDisarm.ts';
import devCaptureScript from '../content/devCapture.iife.ts?iife';
import { errorMessage } from '../shared/errorMessage.ts';
import { closeAllAtStart, closeWindow, inRegistrationWindow, openWindow, windowsEnd } from './registrationWindows.ts';
import { clearLoadMarks, markTabLoads, unmarkTabLoads } from './pageStartMark.ts';

const STORE_KEY = 'otto.devWatch';
const watched = new Set<number>();
const running = new Set<string>();
let loaded: Promise<void> | undefined;

function load(): Promise<void> {
  loaded ??= (async () => {
    const got = await chrome.storage.session?.get(STORE_KEY).catch(() => ({}) as Record<string, unknown>);
    const ids = (got as Record<string, unknown> | undefined)?.[STORE_KEY];
    if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'number') watched.add(id);
  })();
  return loaded;
}

function save(): void {
  void chrome.storage.session?.set({ [STORE_KEY]: [...watched] }).catch(() => undefined);
}

/** A run works on this tab: capture its next pages from their start (while a run is going). */
export async function watchTab(tabId: number): Promise<void> {
  await load();
  if (watched.has(tabId)) return;
  watched.add(tabId);
  save();
  if (runGoing()) await markTabLoads(tabId);
}

export async function isWatched(tabId: number): Promise<boolean> {
  await load();
  return watched.has(tabId);
}

/** The agent's run status events: a run going makes watched tabs' loads captured. */
export function noteRunStatus(conversationId: string, status: string): void {
  const before = runGoing();
  if (status === 'running') running.add(conversationId);
  else running.delete(conversationId);
  // The watched tabs' responses carry the page-start mark while a run goes (pageStartMark.ts). Set here, before
  // any navigation: Chrome settles a request's header rules when it starts, which is before the worker hears of it.
  if (!before && runGoing())
    void load()
      .then(forgetClosedTabs)
      .then(() => Promise.all([...watched].map((id) => markTabLoads(id))));
  else if (before && !runGoing()) void clearLoadMarks();
}

export function runGoing(): boolean {
  return running.size > 0;
}

const SCRIPT_PREFIX = 'otto-devcapture-';
const scriptId = (tabId: number) => `${SCRIPT_PREFIX}${tabId}`;

/** The match pattern for a URL's path, whatever its query (`http://host:8080/a/b*`); undefined for other schemes. */
export function pathPattern(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    // Match patterns take no port: the host alone, which only widens the window to the same path on other ports.
    return `${u.protocol}//${u.hostname}${u.pathname}*`;
  } catch {
    return undefined;
  }
}

async function unregister(tabId: number): Promise<void> {
  await closeWindow(tabId);
  await chrome.scripting.unregisterContentScripts({ ids: [scriptId(tabId)] }).catch(() => undefined);
}

/** webNavigation.onBeforeNavigate: a watched tab's next page, while a run goes, gets the capture at document_start. */
export async function onBeforeNavigate(d: { tabId: number; frameId: number; url: string }): Promise<void> {
  if (d.frameId !== 0 || !runGoing()) return;
  const matches = pathPattern(d.url);
  if (!matches || !(await isWatched(d.tabId))) return;
  await unregister(d.tabId);
  // Stored before the registration exists: a worker that stops right after still knows to disarm (#19).
  await openWindow(d.tabId, matches.slice(0, -1));
  await chrome.scripting
    .registerContentScripts([
      {
        id: scriptId(d.tabId),
        matches: [matches],
        js: [devCaptureScript],
        runAt: 'document_start',
        world: 'MAIN',
        allFrames: false,
        persistAcrossSessions: false,
      },
    ])
    .catch(() => undefined);
}

/** The registration is for one load: gone once the page's DOM is there, or the navigation failed. */
export function onLoadSettled(d: { tabId: number; frameId: number }): void {
  if (d.frameId === 0) void unregister(d.tabId);
}

/**
 * At worker start: registrations left by a worker that stopped mid-load go, and their windows close with the grace
 * (the stored list keeps disarming what committed with them meanwhile). Resolves to when the last window ends.
 */
export async function clearStaleRegistrations(): Promise<number | undefined> {
  const all = await chrome.scripting.getRegisteredContentScripts().catch(() => []);
  const ids = all.map((s) => s.id).filter((id) => id.startsWith(SCRIPT_PREFIX));
  if (ids.length) await chrome.scripting.unregisterContentScripts({ ids }).catch(() => undefined);
  await clearLoadMarks();
  await closeAllAtStart();
  return windowsEnd();
}

/** webNavigation.onCommitted, registered at the worker's top level: the fallback when the registration missed. */
export async function onCommitted(d: { tabId: number; frameId: number; url: string }): Promise<void> {
  if (d.frameId !== 0 || !/^(https?|file):/i.test(d.url)) return;
  // Another tab loaded a watched tab's registered path meanwhile: take Otto back out of it (the window of #19).
  if ((await inRegistrationWindow(d.url)) && !(await isWatched(d.tabId))) {
    await chrome.scripting
      .executeScript({
        target: { tabId: d.tabId, frameIds: [0] },
        world: 'MAIN',
        injectImmediately: true,
        func: pageStartDisarm,
      })
      .catch(() => undefined);
    return;
  }
  if (!runGoing() || !(await isWatched(d.tabId))) return;
  // The registered script's own file: the capture and the listener registry in one injection (two would leave the
  // page's scripts a second round trip to run in between).
  await chrome.scripting
    .executeScript({
      target: { tabId: d.tabId, frameIds: [0] },
      world: 'MAIN',
      injectImmediately: true,
      files: [devCaptureScript],
    })
    .catch(() => undefined);
}

/**
 * Tabs closed while no run went: the worker hears tabs.onRemoved only during runs (background/tabListeners.ts, #26),
 * so those are forgotten when the next run starts. Tab ids are not reused within a browser session.
 */
async function forgetClosedTabs(): Promise<void> {
  const open = await chrome.tabs.query({}).catch(() => undefined);
  if (!open) return;
  const ids = new Set(open.map((t) => t.id));
  let dropped = false;
  for (const id of watched)
    if (!ids.has(id)) {
      watched.delete(id);
      dropped = true;
    }
  if (dropped) save();
}

export function onTabRemoved(tabId: number): void {
  if (watched.delete(tabId)) {
    save();
    void unmarkTabLoads(tabId);
  }
}

/** The tab's log: installs the capture (late) if the page has none yet, and watches the tab from now on. */
export async function readDevLog(tabId: number): Promise<DevLog> {
  await watchTab(tabId);
  const target = { tabId, frameIds: [0] };
  try {
    await chrome.scripting.executeScript({
      target,
      world: 'MAIN',
      injectImmediately: true,
      func: devCapture,
      args: ['late'],
    });
    const [r] = await chrome.scripting.executeScript({ target, world: 'MAIN', func: devRead });
    if (!r?.result) throw new Error('the page returned nothing');
    return r.result as DevLog;
  } catch (e) {
    const msg = errorMessage(e);
    if (/Cannot access|cannot be scripted|chrome:\/\//i.test(msg))
      throw new Error(`Otto cannot read the console of this page: Chrome does not let extensions run there (${msg}).`, {
        cause: e,
      });
    throw new Error(`Could not read the page's console and requests: ${msg}`, { cause: e });
  }
}
