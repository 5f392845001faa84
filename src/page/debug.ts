/**
 * Exposes the page-tool router on `globalThis.otto.page` for DevTools and the e2e suite (the worker's global is not
 * reachable from web pages). Import it from the worker's composition root: `import './debug.ts';` — it attaches
 * both now and after the importing module has finished evaluating, so it survives an `Object.assign(globalThis,
 * { otto: {...} })` that runs later in index.ts.
 */
import { frameOfRef, injectContentScripts, pingFrames, prefixFor, requestContent, requestForRef, resolveTabId, restrictedReason } from './contentRouter.ts';
import { act, locateInPage, formatAction, pageDialogs, waitFor, waitForLoad } from './actions.ts';
import { describeInPage, findInPage, formatSnapshot, pageText, queryPage, readPage, snapshotPage } from './snapshot.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { readDevLog } from './devCapture.ts';
import { refBoxes } from './boxes.ts';

export const pageApi = {
  snapshot: snapshotPage,
  formatSnapshot,
  find: findInPage,
  query: queryPage,
  describe: describeInPage,
  text: pageText,
  read: readPage,
  act,
  locate: locateInPage,
  formatAction,
  waitFor,
  waitForLoad,
  dialogs: pageDialogs,
  requestContent,
  requestForRef,
  pingFrames,
  injectContentScripts,
  restrictedReason,
  resolveTabId,
  frameOfRef,
  prefixFor,
  wrapUntrusted,
  devlog: readDevLog,
  boxes: refBoxes,
};

function attach(): void {
  const g = globalThis as unknown as { otto?: Record<string, unknown> };
  g.otto ??= {};
  g.otto.page = pageApi;
}

attach();
queueMicrotask(attach);
