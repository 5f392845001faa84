/**
 * Content script (isolated world, every frame, document_start): answers the worker's requests in this frame and
 * nothing else. Only messages from our own extension are handled; it never acts on `window.postMessage` or page
 * events. The one page-facing channel is the dialog bridge (dialogs.ts), whose reports are data.
 *
 * Built as a self-contained IIFE so it runs synchronously at document_start and can be injected with
 * chrome.scripting.executeScript into tabs that were open before Otto was installed.
 */
import { parseMessage } from '../shared/parseMessage.ts';
import { ContentRequest, type ContentReply } from '../shared/contentMessages.ts';
import { isFromThisExtension } from '../shared/origin.ts';
import { startDialogBridge } from './dialogs.ts';
import { CodedError, handle } from './handlers.ts';
import { StaleRefError } from './refs.ts';
import { ActionError } from './targets.ts';

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
  // Once per frame and extension instance. A copy left behind by an updated/reloaded extension is orphaned (its
  // runtime is gone), so a fresh injection replaces it.
  const g = globalThis as unknown as Record<symbol, Alive | undefined>;
  if (g[ALIVE]?.()) return;
  g[ALIVE] = alive;

  startDialogBridge();

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
        const code = e instanceof CodedError ? e.code : e instanceof StaleRefError ? 'stale-ref' : e instanceof ActionError ? 'action' : undefined;
        sendResponse(code ? { ok: false, error: e.message, code } : { ok: false, error: e?.message ?? String(err) });
      },
    );
    return true;
  });
}

start();
