/**
 * Requests from the worker to content scripts, addressed by tab and frame. Replies are validated like any other
 * message. Otto's content script is not in the manifest (nothing of Otto runs in a page it is not working on): the
 * first request to a tab finds no receiver and injects it into every frame of the tab; a frame that appears later
 * (a new iframe, a navigation) gets it the first time a request to it finds no receiver. Injection is idempotent
 * (the script keeps one live copy per frame). Restricted pages (chrome://, the Web Store, other extensions) give a
 * clear error instead. Refs carry their frame (`f3e12` → frame 3), so `requestForRef` routes them.
 */
import { parseMessage, type FramePong } from '../shared/messages.ts';
import { CONTENT_ERROR, ContentPong, ContentReply, type ContentRequest } from '../shared/contentMessages.ts';
import contentScript from '../content/index.iife.ts?iife';
import readerScript from '../content/reader.iife.ts?iife';
import { LISTENER_REQUEST, listenerRegistry } from '../content/listenerRegistry.ts';
import { runGoing } from './pageDevCapture.ts';
import { errorMessage } from '../shared/errorMessage.ts';

/** An error from a page operation; `code` is set for the ones callers branch on. */
export class PageError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export const PAGE_ERROR = {
  ...CONTENT_ERROR,
  restricted: 'restricted',
  noReceiver: 'no-receiver',
  timeout: 'timeout',
  gone: 'gone',
} as const;

const RESTRICTED: [RegExp, string][] = [
  [/^chrome:\/\//i, 'a Chrome page (chrome://)'],
  [/^chrome-untrusted:\/\//i, 'a Chrome page (chrome-untrusted://)'],
  [/^chrome-search:\/\//i, 'the New Tab page'],
  [/^chrome-extension:\/\//i, 'an extension page (chrome-extension://)'],
  [/^devtools:\/\//i, 'DevTools'],
  [/^edge:\/\//i, 'a browser page (edge://)'],
  [/^view-source:/i, 'a view-source page'],
  [/^about:(?!blank|srcdoc)/i, 'a browser page (about:)'],
  [/^data:/i, 'a data: URL'],
  [/^https?:\/\/chrome\.google\.com\/webstore/i, 'the Chrome Web Store'],
  [/^https?:\/\/chromewebstore\.google\.com/i, 'the Chrome Web Store'],
];

/** Why Chrome will not let an extension script this URL, or undefined when it can. */
export function restrictedReason(url: string | undefined): string | undefined {
  if (!url) return undefined;
  for (const [re, what] of RESTRICTED) if (re.test(url)) return what;
  return undefined;
}

function restrictedError(url: string, what: string): PageError {
  return new PageError(
    `Otto cannot read or act on ${what} (${url.slice(0, 100)}): Chrome does not let extensions run there. Open a regular web page (tabs.navigate or tabs.open) and try again.`,
    PAGE_ERROR.restricted,
  );
}

/** The tab a page tool acts on: the given id, else the active tab of the last focused window. */
export async function resolveTabId(tabId?: number): Promise<number> {
  if (tabId !== undefined) return tabId;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab?.id === undefined)
    throw new PageError(
      'There is no active tab to act on. Open or activate one (tabs.open / tabs.activate), or pass a tab id.',
      PAGE_ERROR.gone,
    );
  return tab.id;
}

/** `''` in the top frame, `f<frameId>` in child frames. */
export function prefixFor(frameId: number): string {
  return frameId === 0 ? '' : `f${frameId}`;
}

/** The frame a ref belongs to: `e12` → 0, `f3e12` → 3. */
export function frameOfRef(ref: string): number {
  const m = /^(?:f(\d+))?(?:[a-df-z]{2})?e\d+$/.exec(ref.trim());
  if (!m)
    throw new PageError(
      `"${ref}" is not a ref (refs look like kqe12, as dom.snapshot shows them). Take a snapshot (dom.snapshot) and use a ref from it.`,
      PAGE_ERROR.staleRef,
    );
  return m[1] ? Number(m[1]) : 0;
}

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;
/** The frame went away while a request was in flight: navigation, reload, frame removed, back/forward cache. */
const GONE = /message (?:port|channel) closed|back\/forward cache|No frame with id|frame was removed|No tab with id/i;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface RequestOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Inject the content script when no one answers (default true): into every frame when the top frame does not
   * answer (a tab Otto has not touched yet, or a new page), else into that frame alone. */
  inject?: boolean;
}

function send(tabId: number, frameId: number, request: ContentRequest, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new PageError(
            `The page did not answer within ${Math.round(timeoutMs / 1000)} s (tab ${tabId}, frame ${frameId}); it may be busy or frozen. Try again, or reload it with tabs.reload.`,
            PAGE_ERROR.timeout,
          ),
        ),
      timeoutMs,
    );
    chrome.tabs.sendMessage(tabId, request, { frameId }).then(
      (v: unknown) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e as Error);
      },
    );
  });
}

/** Sends one request to the content script of a frame and returns its validated data (or throws a PageError). */
export async function requestContent(
  tabId: number,
  frameId: number,
  request: ContentRequest,
  opts: RequestOptions = {},
): Promise<unknown> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let raw: unknown;
  try {
    raw = await send(tabId, frameId, request, timeoutMs);
  } catch (err) {
    if (err instanceof PageError) throw err;
    const message = errorMessage(err);
    if (GONE.test(message))
      throw new PageError(
        `The page in tab ${tabId} navigated or its frame ${frameId} closed before answering (${message}). Take a new snapshot.`,
        PAGE_ERROR.gone,
      );
    if (!NO_RECEIVER.test(message) || opts.inject === false)
      throw new PageError(
        `No Otto content script answers in tab ${tabId}, frame ${frameId}: ${message}`,
        PAGE_ERROR.noReceiver,
      );
    await injectContentScripts(tabId, frameId === 0 ? undefined : [frameId]);
    try {
      raw = await send(tabId, frameId, request, timeoutMs);
    } catch (again) {
      if (again instanceof PageError) throw again;
      throw new PageError(
        `No Otto content script answers in tab ${tabId}, frame ${frameId} even after injecting it: ${errorMessage(again)}`,
        PAGE_ERROR.noReceiver,
      );
    }
  }
  const parsed = parseMessage(ContentReply, raw);
  if (!parsed.ok) throw new PageError(`Content script sent an ${parsed.error}`);
  if (!parsed.value.ok) throw new PageError(parsed.value.error, parsed.value.code);
  return parsed.value.data;
}

/**
 * Makes sure Otto's content script runs in the tab (injecting it into every frame when the top frame lacks it), so
 * that a request fanned out to all frames injects once rather than once per frame.
 */
export async function ensureContentScript(tabId: number): Promise<void> {
  await requestContent(tabId, 0, { type: 'content.ping' }, { timeoutMs: 10_000 });
}

/** Sends a request to the frame a ref lives in (adding that frame's prefix). */
export function requestForRef(
  tabId: number,
  ref: string,
  request: ContentRequest,
  opts?: RequestOptions,
): Promise<unknown> {
  const frameId = frameOfRef(ref);
  const withPrefix =
    'prefix' in request || request.type.startsWith('dom.') ? { ...request, prefix: prefixFor(frameId) } : request;
  return requestContent(tabId, frameId, withPrefix as ContentRequest, opts);
}

/**
 * Injects Otto's content script (isolated world) into the given frames, or every frame of the tab. Frames that
 * already run it keep their copy (its guard returns at once). Restricted pages throw a PageError naming why.
 */
export async function injectContentScripts(tabId: number, frameIds?: number[]): Promise<void> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab)
    throw new PageError(`Tab ${tabId} does not exist (it was closed). List tabs with tabs.list.`, PAGE_ERROR.gone);
  const url = tab.url ?? tab.pendingUrl ?? '';
  const what = restrictedReason(url);
  if (what) throw restrictedError(url, what);
  const target: chrome.scripting.InjectionTarget = frameIds ? { tabId, frameIds } : { tabId, allFrames: true };
  // A run works on this tab now: its console and requests are captured from its next page's start (#19).
  if (!frameIds) injectionObserver?.(tabId);
  try {
    // The page-world listener registry (#14), only while a run goes — as for #19's capture, a page Otto reads
    // outside a run stays as clean as before (e2e/dialogs.spec.ts). Into the same frames, now: it sees the
    // listeners added from here on (the snapshot says the earlier ones are unseen). Its failure does not stop the
    // content script.
    if (runGoing())
      await chrome.scripting
        .executeScript({
          target,
          world: 'MAIN',
          injectImmediately: true,
          func: listenerRegistry,
          args: ['late', LISTENER_REQUEST],
        })
        .catch(() => undefined);
    await chrome.scripting.executeScript({
      target,
      files: [contentScript],
      world: 'ISOLATED',
      injectImmediately: true,
    });
  } catch (err) {
    const message = errorMessage(err);
    if (/Cannot access|cannot be scripted|extensions gallery|chrome:\/\//i.test(message))
      throw restrictedError(url, 'this page');
    if (/file:/.test(url))
      throw new PageError(
        `Otto cannot run on local files unless "Allow access to file URLs" is on for it (chrome://extensions → Otto → Details).`,
        PAGE_ERROR.restricted,
      );
    throw new PageError(`Could not inject Otto's content script into tab ${tabId}: ${message}`, PAGE_ERROR.noReceiver);
  }
}

let injectionObserver: ((tabId: number) => void) | undefined;
/** Told of every tab the content script is injected into (page/pageDevCapture.ts watches them). */
export function observeInjections(fn: (tabId: number) => void): void {
  injectionObserver = fn;
}

/** Loads the article reader (Readability) into a frame; dom.read calls it. */
export async function ensureReader(tabId: number, frameId: number): Promise<void> {
  await chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    files: [readerScript],
    injectImmediately: true,
  });
}

/** Pings our content script in every frame of a tab (top, same-origin and cross-origin iframes alike). */
export async function pingFrames(tabId: number): Promise<FramePong[]> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const pongs = await Promise.all(
    frames.map(async (f) => {
      try {
        const data = ContentPong.parse(
          await requestContent(tabId, f.frameId, { type: 'content.ping' }, { inject: false, timeoutMs: 5000 }),
        );
        return { frameId: f.frameId, ...data };
      } catch {
        return undefined;
      }
    }),
  );
  return pongs.filter((p): p is FramePong => !!p).sort((a, b) => a.frameId - b.frameId);
}
