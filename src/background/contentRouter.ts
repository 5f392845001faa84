/**
 * Requests from the worker to content scripts, addressed by tab and frame. Replies are validated like any other
 * message; a frame without our content script (restricted page, not yet injected) gives a clear error.
 */
import { parseMessage, type FramePong } from '../shared/messages.ts';
import { ContentPong, ContentReply, type ContentRequest } from '../shared/contentMessages.ts';

export async function requestContent(tabId: number, frameId: number, request: ContentRequest): Promise<unknown> {
  let raw: unknown;
  try {
    raw = await chrome.tabs.sendMessage(tabId, request, { frameId });
  } catch (err) {
    throw new Error(`No Otto content script answers in tab ${tabId}, frame ${frameId}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = parseMessage(ContentReply, raw);
  if (!parsed.ok) throw new Error(`Content script sent an ${parsed.error}`);
  if (!parsed.value.ok) throw new Error(parsed.value.error);
  return parsed.value.data;
}

/** Pings our content script in every frame of a tab (top, same-origin and cross-origin iframes alike). */
export async function pingFrames(tabId: number): Promise<FramePong[]> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const pongs = await Promise.all(
    frames.map(async (f) => {
      try {
        const data = ContentPong.parse(await requestContent(tabId, f.frameId, { type: 'content.ping' }));
        return { frameId: f.frameId, ...data };
      } catch {
        return undefined;
      }
    }),
  );
  return pongs.filter((p): p is FramePong => !!p).sort((a, b) => a.frameId - b.frameId);
}
