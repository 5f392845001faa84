/**
 * `PageApi`: what the tool packs may ask of a page — snapshot, find, read, act, wait, dialogs, console/network, ref
 * boxes. The page module owns it; the worker's composition root passes the real one (index.ts `pageApi`) to the pack
 * factories (`createDomTools({ page })`, `createTabsTools`, `createFilesTools`), and tests pass stubs.
 *
 * Only types are imported here, and packs import only this file's types: the implementations pull in the content
 * scripts through Vite-only `?iife` imports, which would break every place the registry is built outside the
 * extension bundle (unit tests, `npm run docs`, the CLI).
 */
import type { frameOfRef, resolveTabId } from './contentRouter.ts';
import type { readDevLog } from './pageDevCapture.ts';
import type { act, formatAction, locateInPage, pageDialogs, waitFor } from './actions.ts';
import type { refBoxes } from './pageBoxes.ts';
import type {
  describeInPage,
  findInPage,
  formatSnapshot,
  pageText,
  queryPage,
  readPage,
  snapshotPage,
} from './pageSnapshot.ts';

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
}

/**
 * The page where there is none (the registry built outside the extension: unit tests, `npm run docs`, the CLI): any
 * page tool that runs says so.
 */
export const noPage = (): PageApi => {
  throw new Error('The page tools are not available here (no content router: they only run in the extension).');
};
