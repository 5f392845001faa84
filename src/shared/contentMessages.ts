/**
 * Worker → content script requests, sent with `chrome.tabs.sendMessage(tabId, msg, { frameId })`, and the replies.
 * The content script validates each request on receipt; the worker validates each reply.
 */
import { z } from './zod.ts';

export const ContentRequest = z.discriminatedUnion('type', [z.object({ type: z.literal('content.ping') })]);
export type ContentRequest = z.infer<typeof ContentRequest>;

export const ContentPong = z.object({ url: z.string(), isTop: z.boolean(), title: z.string() });
export type ContentPong = z.infer<typeof ContentPong>;

export const ContentReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type ContentReply = z.infer<typeof ContentReply>;

