/**
 * The page router the dom tools call: the worker's content router (src/background/contentRouter.ts,
 * pageSnapshot.ts, pageActions.ts), injected rather than imported. The router pulls in a Vite-only `?iife` import,
 * so importing it here would break every place the registry is built outside the extension bundle (unit tests,
 * `npm run docs`). The worker configures it once at start-up (`configureDomPage(pageApi)` in background/index.ts);
 * tests pass stubs to `createDomTools({ page })`.
 *
 * Only types are imported from background/: they are erased at build time.
 */
import type { frameOfRef, resolveTabId } from '../../../page/contentRouter.ts';
import type { readDevLog } from '../../../page/devCapture.ts';
import type { act, formatAction, locateInPage, pageDialogs, waitFor } from '../../../page/actions.ts';
import type { refBoxes } from '../../../page/boxes.ts';
import type {
  describeInPage,
  findInPage,
  formatSnapshot,
  pageText,
  queryPage,
  readPage,
  snapshotPage,
} from '../../../page/snapshot.ts';

export interface PageApi {
  resolveTabId: typeof resolveTabId;
  frameOfRef: typeof frameOfRef;
  snapshot: typeof snapshotPage;
  formatSnapshot: typeof formatSnapshot;
  find: typeof findInPage;
  query: typeof queryPage;
  /** What a ref or selector names, for the approval card (optional: stubs in tests may leave it out). */
  describe?: typeof describeInPage;
  text: typeof pageText;
  read: typeof readPage;
  act: typeof act;
  /** #17: the ref of the one element a readable locator names (absent in stubs that do not need it). */
  locate?: typeof locateInPage;
  formatAction: typeof formatAction;
  waitFor: typeof waitFor;
  dialogs: typeof pageDialogs;
  /** The tab's console messages and requests (dom.console / dom.network, #19). */
  devlog?: typeof readDevLog;
  /** The refs' boxes on screen (tabs.screenshot's overlay); absent in stubs. */
  boxes?: typeof refBoxes;
  /** The URL of a tab (for the cross-origin link check); default `chrome.tabs.get`. */
  tabUrl?: (tabId: number) => Promise<string | undefined>;
}

let configured: PageApi | undefined;

/** Called once by the worker's composition root with the real router. */
export function configureDomPage(api: PageApi): void {
  configured = api;
}

export function configuredPage(): PageApi {
  if (!configured)
    throw new Error('The page tools are not available here (no content router: they only run in the extension).');
  return configured;
}

/** The URL of a tab, through the API's `tabUrl` or chrome.tabs. */
export async function tabUrlOf(page: PageApi, tabId: number): Promise<string | undefined> {
  if (page.tabUrl) return page.tabUrl(tabId);
  if (typeof chrome === 'undefined' || !chrome.tabs?.get) return undefined;
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  return tab?.url ?? tab?.pendingUrl;
}
