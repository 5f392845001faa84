/**
 * Retry timing for requests that failed before any of the response streamed: the server's `retry-after-ms` /
 * `retry-after` when it gives one, else exponential backoff with jitter. Waits are abortable, because the user may
 * press Stop while we wait out a 429.
 */

export interface BackoffOptions {
  /** First delay (ms); doubles per attempt. */
  baseMs?: number;
  /** Upper bound of the computed backoff (ms). */
  maxMs?: number;
  random?: () => number;
}

/** A server-requested wait longer than this is not waited out: the user is told instead. */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

/** `retry-after-ms` (OpenAI's), else `retry-after` in seconds or as an HTTP date; undefined when absent or bad. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter for retry number `attempt` (0 = first retry): 75–100 % of min(base·2^n, max). */
export function backoffMs(attempt: number, options: BackoffOptions = {}): number {
  const { baseMs = 500, maxMs = 8_000, random = Math.random } = options;
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (1 - 0.25 * random()));
}
