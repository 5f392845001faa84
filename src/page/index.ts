/**
 * The page module's entry for the worker: the real `PageApi` (content router, snapshot, actions, dialogs, boxes,
 * console/network capture) that the composition root passes to the packs (`buildRegistry({ page })`), and the wider
 * handle it exposes as `globalThis.otto.page` for DevTools and the e2e suite (the worker's global is not reachable
 * from web pages). Only background/ imports this file: it pulls in the content scripts through Vite-only `?iife`
 * imports. Packs import the `PageApi` type from api.ts instead.
 */
import {
  frameOfRef,
  injectContentScripts,
  pingFrames,
  prefixFor,
  requestContent,
  requestForRef,
  resolveTabId,
  restrictedReason,
} from './contentRouter.ts';
import { act, locateInPage, formatAction, pageDialogs, waitFor, waitForLoad } from './actions.ts';
import {
  describeInPage,
  findInPage,
  formatSnapshot,
  pageText,
  queryPage,
  readPage,
  snapshotPage,
} from './pageSnapshot.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { readDevLog } from './pageDevCapture.ts';
import { refBoxes } from './pageBoxes.ts';
import type { PageApi } from './api.ts';

export type { PageApi } from './api.ts';

export const pageApi: PageApi = {
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
  dialogs: pageDialogs,
  resolveTabId,
  frameOfRef,
  devlog: readDevLog,
  boxes: refBoxes,
};

/** `otto.page`: the PageApi and the router's lower-level calls the e2e suite drives directly. */
export const pageDebug = {
  ...pageApi,
  waitForLoad,
  requestContent,
  requestForRef,
  pingFrames,
  injectContentScripts,
  restrictedReason,
  prefixFor,
  wrapUntrusted,
};
