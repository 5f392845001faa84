/**
 * What every streaming model client does the same way, whatever the wire: send the request, read the SSE body,
 * retry failures that happened before anything was yielded (announcing each with a `retrying` event, waiting
 * abortably), watch for silence inside the stream, and end with `completed` or `failed`. The wire itself — how the
 * request is sent, how one SSE message is parsed, how raw events become ModelEvents — is a `WireProtocol`:
 * OpenAIResponsesClient and ChatCompletionsClient each provide one.
 */
import { APIError } from 'openai';
import { redactSecrets } from '../config/redact.ts';
import { classifyError, notAStreamInfo, redactErrorInfo, timeoutInfo, type ErrorContext } from './errors.ts';
import type { ModelErrorInfo, ModelEvent } from './events.ts';
import { MAX_HONOURED_RETRY_AFTER_MS, backoffMs, retryAfterMs, type BackoffOptions } from './retry.ts';
import { sleep } from '../shared/sleep.ts';
import { readSseMessages, type SseMessage } from './sse.ts';
import { isRecord } from '../shared/plainObject.ts';

/** Raw wire events → ModelEvents, for one response. */
export interface WireMapper {
  push(raw: unknown): ModelEvent[];
  /** The stream ended: whatever is still owed (a `completed`, or the `failed` of a premature end). */
  end(): ModelEvent[];
  /** The response is complete: the rest of the body is drained, not awaited. */
  readonly done: boolean;
}

export interface WireProtocol {
  /** Sends the request and resolves with the streaming HTTP response; throws the SDK's typed errors. */
  send(signal: AbortSignal): Promise<Response>;
  /** A fresh mapper for one attempt. */
  mapper(startedAt: number, now: () => number): WireMapper;
  /** One SSE message → the raw event, or undefined to skip it. */
  parse(message: SseMessage): unknown;
  /**
   * A whole JSON body (the server ignored `stream: true`) → the raw events that deliver it, when it is a complete
   * response (or an error); undefined when it is not something the mapper can use.
   */
  document(json: unknown): unknown[] | undefined;
}

export interface EngineOptions {
  timeoutMs: number;
  maxRetries: number;
  backoff: BackoffOptions;
  now: () => number;
  errorContext: ErrorContext;
}

type AttemptOutcome = { done: true } | { done: false; error: ModelErrorInfo; headers?: Headers };

export const ABORTED: ModelErrorInfo = { kind: 'aborted', message: 'The request was stopped.', retryable: false };

/** A short label for the `retrying` event (the full message is for the final failure). */
function retryReason(info: ModelErrorInfo): string {
  switch (info.kind) {
    case 'rate_limit':
      return `rate limited (${info.status ?? 429})`;
    case 'server':
      return `server error (${info.status ?? 'stream'})`;
    case 'timeout':
      return 'timed out';
    case 'stream_cut':
      return 'stream ended before any output';
    default:
      return 'connection failed';
  }
}

/**
 * Parses an SSE message's JSON data (`[DONE]` → `done`), naming the event from its `event:` line when the data does
 * not. A malformed line is skipped with a warning: the final events carry the full content.
 */
export function parseJsonMessage(
  message: SseMessage,
  options: { done: unknown; secrets: readonly string[]; logPrefix: string; malformed?: unknown },
): unknown {
  if (message.data === '[DONE]') return options.done;
  try {
    const value: unknown = JSON.parse(message.data);
    if (isRecord(value) && typeof value.type !== 'string' && message.event) value.type = message.event;
    return value;
  } catch {
    const sample = redactSecrets(message.data.slice(0, 200), options.secrets);
    console.warn(
      `${options.logPrefix} Skipped a malformed stream event (${message.event ?? 'no event name'}): ${sample}`,
    );
    return options.malformed;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class StreamEngine {
  constructor(
    private readonly protocol: WireProtocol,
    private readonly options: EngineOptions,
  ) {}

  async *stream(signal: AbortSignal | undefined): AsyncGenerator<ModelEvent, void, undefined> {
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) {
        yield this.failed(ABORTED);
        return;
      }
      const outcome = yield* this.attempt(signal);
      if (outcome.done) return;
      const { error, headers } = outcome;
      const mayRetry =
        error.retryable && attempt < this.options.maxRetries && headers?.get('x-should-retry') !== 'false';
      if (!mayRetry) {
        yield this.failed(error);
        return;
      }
      const asked = retryAfterMs(headers);
      if (asked !== undefined && asked > MAX_HONOURED_RETRY_AFTER_MS) {
        yield this.failed({
          ...error,
          message: `${error.message} The server asked to wait ${Math.ceil(asked / 1000)} s before retrying.`,
        });
        return;
      }
      const delayMs = asked ?? backoffMs(attempt, this.options.backoff);
      yield { type: 'retrying', attempt: attempt + 1, delayMs, reason: retryReason(error) };
      try {
        await sleep(delayMs, signal);
      } catch {
        yield this.failed(ABORTED);
        return;
      }
    }
  }

  /**
   * One HTTP request. Yields the response's events; returns `{done:false, error}` only when nothing was yielded
   * (so the caller may retry), otherwise ends the stream itself with completed/failed.
   */
  private async *attempt(signal: AbortSignal | undefined): AsyncGenerator<ModelEvent, AttemptOutcome, undefined> {
    const { timeoutMs, errorContext, now } = this.options;
    // One controller for the request: the caller's signal is forwarded into it, and our own watchdog aborts it when
    // the stream goes silent (the SDK's timeout only covers the wait for headers). Cheaper than AbortSignal.any.
    const request = new AbortController();
    const combined = request.signal;
    let timedOut = false;
    const forward = () => request.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    const mapper = this.protocol.mapper(now(), now);
    let yielded = 0;
    // Silence is measured on the server's side only: the clock stops while we (and the consumer) handle a message.
    // One watchdog timer per stream that re-arms itself, instead of a new timer per message.
    let handling = false;
    let lastHeard = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = (ms: number) => {
      timer = setTimeout(() => {
        if (handling) {
          timer = undefined; // re-armed when the message is handled (a consumer may never come back)
          return;
        }
        const silentFor = performance.now() - lastHeard;
        if (silentFor < timeoutMs) {
          watch(timeoutMs - silentFor);
          return;
        }
        timedOut = true;
        request.abort();
      }, ms);
    };
    try {
      let response: Response;
      try {
        response = await this.protocol.send(combined);
      } catch (err) {
        if (signal?.aborted) return { done: false, error: ABORTED };
        return {
          done: false,
          error: classifyError(err, errorContext),
          ...(err instanceof APIError && err.headers ? { headers: err.headers } : {}),
        };
      }
      if (!response.body) {
        return {
          done: false,
          error: {
            kind: 'stream_cut',
            message: `The API at ${errorContext.baseURL} answered with an empty body.`,
            retryable: true,
          },
        };
      }

      try {
        lastHeard = performance.now();
        watch(timeoutMs);
        // Once the response is complete, the body's end is read in the background rather than the fetch aborted.
        const drain = () => mapper.done && !combined.aborted;
        for await (const message of readSseMessages(response.body, { drain })) {
          handling = true;
          if (message.document) {
            // Not a stream: a complete JSON response is the answer; anything else is named, never retried.
            const raws = message.document === 'json' ? this.protocol.document(parseJson(message.data)) : undefined;
            if (!raws) return { done: false, error: notAStreamInfo(message.document, message.data, errorContext) };
            for (const event of [...raws.flatMap((raw) => mapper.push(raw)), ...mapper.end()]) {
              yielded++;
              yield this.redact(event);
            }
            return { done: true };
          }
          const raw = this.protocol.parse(message);
          for (const event of raw === undefined ? [] : mapper.push(raw)) {
            yielded++;
            yield this.redact(event);
          }
          if (mapper.done) return { done: true };
          handling = false;
          lastHeard = performance.now();
          if (timer === undefined) watch(timeoutMs);
        }
        const tail = mapper.end();
        // An empty 200 stream delivered nothing: as safe to retry as a refused connection.
        if (yielded === 0) return { done: false, error: cutInfo(tail) };
        for (const event of tail) yield this.redact(event);
        return { done: true };
      } catch (err) {
        if (signal?.aborted) {
          yield this.failed(ABORTED);
          return { done: true };
        }
        const info = timedOut
          ? yielded > 0
            ? {
                ...cutInfo(mapper.end()),
                message: `The response stream went silent for ${Math.round(timeoutMs / 1000)} s and was dropped. Retry the turn.`,
              }
            : timeoutInfo(errorContext)
          : yielded > 0
            ? cutInfo(mapper.end())
            : classifyError(err, errorContext);
        if (yielded === 0) return { done: false, error: info };
        yield this.failed(info);
        return { done: true };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private redact(event: ModelEvent): ModelEvent {
    return event.type === 'failed'
      ? { type: 'failed', error: redactErrorInfo(event.error, this.options.errorContext.secrets) }
      : event;
  }

  private failed(error: ModelErrorInfo): ModelEvent {
    return { type: 'failed', error: redactErrorInfo(error, this.options.errorContext.secrets) };
  }
}

/** The stream_cut failure a mapper produces at a premature end (or a generic one). */
function cutInfo(tail: ModelEvent[]): ModelErrorInfo {
  const failed = tail.find((event) => event.type === 'failed');
  return failed?.type === 'failed'
    ? failed.error
    : { kind: 'stream_cut', message: 'The response stream ended before it was complete.', retryable: true };
}
