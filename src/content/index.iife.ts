/**
 * Content script (isolated world): answers the worker's requests in this frame and nothing else. Only messages from
 * our own extension are handled; it never acts on `window.postMessage` or page events, and it adds nothing a page
 * can see. It is not in the manifest: the worker injects it (chrome.scripting.executeScript, files) into the frames
 * of a tab when a run first reads or acts on that tab (page/contentRouter.ts), so pages Otto is not working on
 * never run any of it. Built as a self-contained IIFE so one `files` injection is enough.
 */
import { parseMessage } from '../shared/parseMessage.ts';
import { ContentRequest, type ContentReply } from '../shared/contentMessages.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { isFromThisExtension } from '../shared/origin.ts';
import { CodedError, handle } from './handlers.ts';
import { StaleRefError } from './refs.ts';
import { ActionError } from './targets.ts';
import { LocatorError } from './locator.ts';

const ALIVE = Symbol.for('otto.content.alive');
type Alive = () => boolean;

function alive(): boolean {
  try {
    return !!chrome.runtime?.id;
  } catch {
    return false;
  }
}

function start(): void {
  // Once per frame and extension instance (the worker may inject again, e.g. into a tab's frames when one of them
  // did not answer): a second copy must not add a second listener. A copy left behind by an updated/reloaded
  // extension is orphaned (its runtime is gone), so a fresh injection replaces it. The key lives on the isolated
  // world's own global object, which the page cannot see.
  const g = globalThis as unknown as Record<symbol, Alive | undefined>;
  if (g[ALIVE]?.()) return;
  g[ALIVE] = alive;

  chrome.runtime.onMessage.addListener((raw, sender, sendResponse: (r: ContentReply) => void) => {
    if (!isFromThisExtension(sender, chrome.runtime.id)) return false;
    const parsed = parseMessage(ContentRequest, raw);
    if (!parsed.ok) {
      sendResponse({ ok: false, error: parsed.error });
      return false;
    }
    handle(parsed.value).then(
      (data) => sendResponse({ ok: true, data }),
      (err: unknown) => {
        const e = err as Error;
        const code =
          e instanceof CodedError || e instanceof LocatorError
            ? e.code
            : e instanceof StaleRefError
              ? 'stale-ref'
              : e instanceof ActionError
                ? 'action'
                : undefined;
        const error = errorMessage(err);
        sendResponse(code ? { ok: false, error, code } : { ok: false, error });
      },
    );
    return true;
  });
}

start();
