/**
 * The message protocol. Three boundaries, each with its own schemas:
 *  - panel → worker: requests over the long-lived port `PANEL_PORT` (each carries an `id` the reply echoes);
 *  - worker → panel: replies and pushed events on the same port;
 *  - worker → content script: in `contentMessages.ts`.
 * Later issues extend these unions; receivers validate with the `parse*` helpers and drop what does not parse.
 */
import { z } from './zod.ts';

export const PANEL_PORT = 'otto-panel';

const id = z.string().min(1).max(100);

// ---- panel → worker -------------------------------------------------------------------------------------------
export const PanelRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), id }),
  z.object({ type: z.literal('echo'), id, payload: z.unknown() }),
  z.object({ type: z.literal('config.get'), id }),
  z.object({ type: z.literal('config.save'), id, yaml: z.string().max(1_000_000) }),
  z.object({ type: z.literal('secrets.save'), id, yaml: z.string().max(100_000) }),
  z.object({ type: z.literal('frames.ping'), id, tabId: z.number().int().nonnegative() }),
]);
export type PanelRequest = z.infer<typeof PanelRequest>;

// ---- worker → panel -------------------------------------------------------------------------------------------
export const FramePong = z.object({
  frameId: z.number().int(),
  url: z.string(),
  isTop: z.boolean(),
  title: z.string(),
});
export type FramePong = z.infer<typeof FramePong>;

export const PanelReply = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('result'), id, ok: z.literal(true), data: z.unknown() }),
  z.object({ type: z.literal('result'), id, ok: z.literal(false), error: z.string() }),
]);
export type PanelReply = z.infer<typeof PanelReply>;

export const WorkerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.string(), startedAt: z.number() }),
]);
export type WorkerEvent = z.infer<typeof WorkerEvent>;

export const WorkerToPanel = z.union([PanelReply, WorkerEvent]);
export type WorkerToPanel = z.infer<typeof WorkerToPanel>;

/** Parses or returns an error string naming what was wrong (never throws). */
export function parseMessage<T>(schema: z.ZodType<T>, raw: unknown): { ok: true; value: T } | { ok: false; error: string } {
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const first = r.error.issues[0];
  const where = first && first.path.length ? ` at ${first.path.join('.')}` : '';
  return { ok: false, error: `invalid message${where}: ${first?.message ?? 'unknown'}` };
}
