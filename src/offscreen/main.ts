/**
 * Otto's offscreen document (one per extension, as Chrome allows): the worker opens it on demand
 * (src/offscreen/offscreenClient.ts) for what a service worker cannot do, and it answers typed requests
 * (src/shared/offscreenMessages.ts) with handle.ts. It closes itself after a minute without requests
 * (offscreenClient.ts says why here, not in the worker).
 */
import { OFFSCREEN_TARGET, OffscreenRequest } from '../shared/offscreenMessages.ts';
import { handleOffscreen } from './handle.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export const IDLE_CLOSE_MS = 60_000;

let busy = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function closeWhenIdle(): void {
  clearTimeout(idleTimer);
  if (!busy) idleTimer = setTimeout(() => window.close(), IDLE_CLOSE_MS);
}

chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse: (r: unknown) => void) => {
  if ((raw as { target?: unknown } | null)?.target !== OFFSCREEN_TARGET) return false;
  if (sender.id !== chrome.runtime.id) return false;
  const parsed = OffscreenRequest.safeParse(raw);
  if (!parsed.success) {
    sendResponse({ ok: false, error: 'malformed offscreen request' });
    return false;
  }
  busy++;
  clearTimeout(idleTimer);
  handleOffscreen(parsed.data)
    .catch((e: unknown) => ({ ok: false as const, error: errorMessage(e) }))
    .then(sendResponse)
    .finally(() => {
      busy--;
      closeWhenIdle();
    });
  return true;
});

closeWhenIdle();
