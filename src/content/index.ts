/** Content script: answers the worker's requests in this frame. Only messages from our own extension are handled. */
import '../shared/zod.ts';
import { parseMessage } from '../shared/messages.ts';
import { ContentRequest, type ContentReply } from '../shared/contentMessages.ts';
import { isFromThisExtension } from '../shared/origin.ts';

function handle(req: ContentRequest): unknown {
  switch (req.type) {
    case 'content.ping':
      return { url: location.href, isTop: window.top === window, title: document.title };
  }
}

chrome.runtime.onMessage.addListener((raw, sender, sendResponse: (r: ContentReply) => void) => {
  // Content scripts receive only from extension contexts; the id check keeps it that way if that ever changes.
  if (!isFromThisExtension(sender, chrome.runtime.id)) return false;
  const parsed = parseMessage(ContentRequest, raw);
  if (!parsed.ok) {
    sendResponse({ ok: false, error: parsed.error });
    return false;
  }
  try {
    sendResponse({ ok: true, data: handle(parsed.value) });
  } catch (err) {
    sendResponse({ ok: false, error: (err as Error).message });
  }
  return false;
});
