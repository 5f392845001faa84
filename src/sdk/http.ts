/**
 * `safe_request` (docs/specs/004-tool-sdk.md, "Safe HTTP Requests"): one HTTP request that never throws. It returns
 * `[true, data]` or `[false, message]` with the reference's messages:
 *
 *   HTTP error (<status>): <first 200 characters of the body>    4xx/5xx (nothing after `: ` when the body is empty)
 *   Request timeout: <url> did not answer within <s> s           the timeout (default 30 s) ran out
 *   Connection error: <reason>                                   the connection broke while reading the body, or the
 *                                                                 error names the connection
 *   Request failed: <reason>                                      anything else: the network refused (the browser says
 *                                                                 only "Failed to fetch"), a bad URL, an abort, bad JSON
 *
 * The reference classifies by the exception's text ("timeout" → timeout, "connection" → connection error, else
 * request failed), which is also why a refused connection reads `Request failed: ...` as the spec's scenario says.
 */

export type ParseMode = 'auto' | 'json' | 'text' | 'full';

export interface SafeRequestInit extends RequestInit {
  /** Milliseconds before giving up (default 30 000; 0 = no timeout of our own). */
  timeout?: number;
  /**
   * How to read a successful response: `auto` (default) = JSON when the content type says so, else text;
   * `json`; `text`; `full` = a `FullResponse` (status, final URL, headers, text or a binary note).
   */
  parse?: ParseMode;
  /** Read at most this many bytes of the body (default 10 MB); `full` responses say when they were cut. */
  maxBytes?: number;
  /** `fetch` to use (tests; default globalThis.fetch). */
  fetch?: typeof fetch;
}

export interface FullResponse {
  status: number;
  /** The URL after redirects. */
  url: string;
  contentType: string;
  headers: Record<string, string>;
  /** The body as text; undefined for binary content types (see `binary`). */
  text?: string;
  /** True when the content type is not text-like (images, PDFs, archives...): the body is not decoded. */
  binary: boolean;
  /** Bytes read (for binary: the Content-Length when given, else what was read). */
  bytes: number;
  /** True when the body was longer than `maxBytes` and cut there. */
  truncated: boolean;
}

export type SafeResult<T = unknown> = [true, T] | [false, string];

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const ERROR_BODY_CHARS = 200;

const TEXTUAL =
  /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|ecmascript|x-www-form-urlencoded|x-ndjson|ld\+json|yaml|x-yaml|toml|graphql|sql|csv))|^$/i;

/** Whether a content type is worth decoding as text (an empty one is: servers that omit it mostly send text). */
export function isTextual(contentType: string): boolean {
  return TEXTUAL.test(contentType.split(';')[0]!.trim());
}

class TimeoutSignal extends Error {
  override readonly name = 'TimeoutError';
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  // Node's fetch says only "fetch failed" and puts the reason (ECONNREFUSED...) in `cause`.
  const why = cause instanceof Error && cause.message && cause.message !== error.message ? `: ${cause.message}` : '';
  return `${error.message}${why}`;
}

/** The reference's wording for a request that produced no HTTP status. */
export function describeRequestError(error: unknown, url: string, timeoutMs: number): string {
  if (error instanceof TimeoutSignal || (error instanceof Error && error.name === 'TimeoutError'))
    return `Request timeout: ${url} did not answer within ${Math.round(timeoutMs / 100) / 10} s`;
  const msg = messageOf(error);
  if (/timeout|timed out/i.test(msg)) return `Request timeout: ${msg}`;
  if (/connection/i.test(msg)) return `Connection error: ${msg}`;
  return `Request failed: ${msg}`;
}

/** Reads up to `max` bytes of a body stream. */
async function readLimited(res: Response, max: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      chunks.push(value.subarray(0, max - size));
      size = max;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { bytes: out, truncated };
}

function charsetOf(contentType: string): string {
  return /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
}

function decode(bytes: Uint8Array, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * Fetches `url` and never throws. `[true, data]` on 2xx/3xx (data per `parse`), else `[false, message]` with the
 * reference's messages (see the module comment).
 */
export async function safeRequest<T = unknown>(url: string, init: SafeRequestInit = {}): Promise<SafeResult<T>> {
  const {
    timeout = DEFAULT_TIMEOUT_MS,
    parse = 'auto',
    maxBytes = DEFAULT_MAX_BYTES,
    fetch: fetchImpl,
    ...rest
  } = init;
  const doFetch = fetchImpl ?? globalThis.fetch;
  const timer = new AbortController();
  const handle = timeout > 0 ? setTimeout(() => timer.abort(new TimeoutSignal('timeout')), timeout) : undefined;
  const signal = rest.signal ? AbortSignal.any([rest.signal, timer.signal]) : timer.signal;
  const failed = (error: unknown): SafeResult<T> => {
    if (timer.signal.aborted) return [false, describeRequestError(new TimeoutSignal('timeout'), url, timeout)];
    return [false, describeRequestError(error, url, timeout)];
  };
  try {
    let res: Response;
    try {
      res = await doFetch(url, { ...rest, signal });
    } catch (error) {
      return failed(error);
    }
    const contentType = res.headers.get('content-type') ?? '';
    let body: { bytes: Uint8Array; truncated: boolean };
    const binary = !isTextual(contentType);
    try {
      // A binary body is not decoded: when its length is declared it is not even read.
      const declared = res.headers.get('content-length');
      body =
        res.ok && parse === 'full' && binary && declared !== null
          ? await (async () => {
              await res.body?.cancel().catch(() => undefined);
              return { bytes: new Uint8Array(), truncated: false };
            })()
          : await readLimited(res, res.ok ? maxBytes : 64 * 1024);
    } catch (error) {
      if (timer.signal.aborted) return failed(error);
      // The server answered, then the connection broke mid-body.
      return [false, `Connection error: ${messageOf(error)}`];
    }
    if (!res.ok) {
      const text = decode(body.bytes, contentType).trim().slice(0, ERROR_BODY_CHARS);
      // The spec's form even when the body is empty: `HTTP error (503): `.
      return [false, `HTTP error (${res.status}): ${text}`];
    }
    if (parse === 'full') {
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      const full: FullResponse = {
        status: res.status,
        url: res.url || url,
        contentType,
        headers,
        binary,
        bytes: binary ? Number(res.headers.get('content-length') ?? 0) || body.bytes.byteLength : body.bytes.byteLength,
        truncated: body.truncated,
      };
      if (!binary) full.text = decode(body.bytes, contentType);
      return [true, full as T];
    }
    const text = decode(body.bytes, contentType);
    const wantsJson = parse === 'json' || (parse === 'auto' && /[/+]json\b/i.test(contentType));
    if (!wantsJson) return [true, text as T];
    try {
      return [true, JSON.parse(text) as T];
    } catch (error) {
      return [false, `Request failed: invalid JSON in the response (${messageOf(error)})`];
    }
  } finally {
    if (handle !== undefined) clearTimeout(handle);
  }
}
