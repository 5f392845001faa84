/**
 * Validating a message at a boundary without throwing: for classic and mini schemas alike (both are zod v4 core
 * types), so the content script can use it without pulling in the classic API.
 */
import { safeParse, type $ZodType, type output } from 'zod/v4/core';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses or returns an error string naming what was wrong (never throws). */
export function parseMessage<S extends $ZodType>(schema: S, raw: unknown): Parsed<output<S>> {
  const r = safeParse(schema, raw);
  if (r.success) return { ok: true, value: r.data };
  const first = r.error.issues[0];
  const where = first && first.path.length ? ` at ${first.path.join('.')}` : '';
  return { ok: false, error: `invalid message${where}: ${first?.message ?? 'unknown'}` };
}
