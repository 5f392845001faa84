/**
 * The real ModelClient: the OpenAI Responses API (or any server that speaks it), streamed, through the `openai` SDK.
 *
 * The SDK builds and authenticates the request and raises typed HTTP errors; we read the SSE body ourselves
 * (see sse.ts for why) and map it with StreamMapper. Retries are ours, not the SDK's (`maxRetries: 0`), so that
 * each one is announced with a `retrying` event and its wait can be cut short by the Stop button — and they happen
 * only before anything of the response has been yielded: once text has streamed, a broken stream is reported as
 * `stream_cut` and the agent loop decides what to do.
 */
import OpenAI, { APIError } from 'openai';
import { redactSecrets } from '../config/redact.ts';
import { classifyError, redactErrorInfo, timeoutInfo, type ErrorContext } from './errors.ts';
import type { ModelClient, ModelErrorInfo, ModelEvent, ModelRequest } from './events.ts';
import { flattenToolsForResponsesApi, type ResponsesApiTool } from './flattenTools.ts';
import {
  buildRequestBody,
  type ReasoningEffort,
  type RequestSettings,
  type ResponsesRequestBody,
} from './requestBody.ts';
import { MAX_HONOURED_RETRY_AFTER_MS, backoffMs, retryAfterMs, sleep, type BackoffOptions } from './retry.ts';
import { readSseMessages, type SseMessage } from './sse.ts';
import { StreamMapper } from './streamMapper.ts';

export interface OpenAIResponsesClientOptions {
  /** e.g. `https://api.openai.com/v1` (the SDK appends `/responses`). */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Default instructions; a request's own `instructions` replace them. */
  instructions?: string;
  /** Default true. */
  parallelToolCalls?: boolean;
  /** Default false: nothing is kept server-side; the transcript is replayed each turn. */
  store?: boolean;
  reasoningEffort?: ReasoningEffort;
  /** `agent.hosted_tools`: the only hosted tools ever sent. */
  hostedTools?: Record<string, unknown>[];
  /** Time to the response headers, and the longest silence tolerated inside a stream. Default 120 s. */
  timeoutMs?: number;
  /** Retries of 429/5xx/network/timeout failures before anything streamed. Default 3. */
  maxRetries?: number;
  /** Override the model-name guess of whether the model reasons (drives `include: reasoning.encrypted_content`). */
  reasoningModel?: boolean;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  /** Backoff tuning (tests make it fast and deterministic). */
  backoff?: BackoffOptions;
  now?: () => number;
}

type AttemptOutcome = { done: true } | { done: false; error: ModelErrorInfo; headers?: Headers };

const LOG_PREFIX = '[OpenAIResponsesClient]';
const NO_KEY = 'no-key-configured';
const ABORTED: ModelErrorInfo = { kind: 'aborted', message: 'The request was stopped.', retryable: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

export class OpenAIResponsesClient implements ModelClient {
  private readonly openai: OpenAI;
  private readonly settings: RequestSettings;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;
  private readonly now: () => number;
  private readonly errorContext: ErrorContext;

  constructor(private readonly options: OpenAIResponsesClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoff = options.backoff ?? {};
    this.now = options.now ?? (() => Date.now());
    this.settings = {
      model: options.model,
      parallelToolCalls: options.parallelToolCalls ?? true,
      store: options.store ?? false,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(options.reasoningEffort !== undefined ? { reasoningEffort: options.reasoningEffort } : {}),
      ...(options.hostedTools !== undefined ? { hostedTools: options.hostedTools } : {}),
      ...(options.reasoningModel !== undefined ? { reasoningModel: options.reasoningModel } : {}),
    };
    this.errorContext = {
      model: options.model,
      baseURL: options.baseURL,
      timeoutMs: this.timeoutMs,
      secrets: options.apiKey ? [options.apiKey] : [],
    };
    this.openai = new OpenAI({
      // The SDK refuses to construct without a key, but local servers (LM Studio, Ollama, vLLM) need none; OpenAI
      // answers the placeholder with a 401, which becomes the "check OPENAI_API_KEY" message.
      apiKey: options.apiKey || NO_KEY,
      baseURL: options.baseURL,
      // Hard fact 4: the service worker is a browser context to the SDK.
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
      timeout: this.timeoutMs,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  get model(): string {
    return this.options.model;
  }

  get baseURL(): string {
    return this.options.baseURL;
  }

  /** Seed 001: nested tool definitions → the Responses API's flat shape (invalid ones dropped with a warning). */
  createToolsJsonForResponsesApi(tools: unknown[]): ResponsesApiTool[] {
    return flattenToolsForResponsesApi(tools);
  }

  /** The exact body `stream(request)` would send. */
  buildRequestBody(request: ModelRequest): ResponsesRequestBody {
    return buildRequestBody(this.settings, request);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    const { signal } = request;
    const body = this.buildRequestBody(request);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) {
        yield this.failed(ABORTED);
        return;
      }
      const outcome = yield* this.attempt(body, signal);
      if (outcome.done) return;
      const { error, headers } = outcome;
      const mayRetry = error.retryable && attempt < this.maxRetries && headers?.get('x-should-retry') !== 'false';
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
      const delayMs = asked ?? backoffMs(attempt, this.backoff);
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
  private async *attempt(
    body: ResponsesRequestBody,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelEvent, AttemptOutcome, undefined> {
    // One controller for the request: the caller's signal is forwarded into it, and our own watchdog aborts it when
    // the stream goes silent (the SDK's timeout only covers the wait for headers). Cheaper than AbortSignal.any.
    const request = new AbortController();
    const combined = request.signal;
    let timedOut = false;
    const forward = () => request.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    const mapper = new StreamMapper({ startedAt: this.now(), now: this.now });
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
        if (silentFor < this.timeoutMs) {
          watch(this.timeoutMs - silentFor);
          return;
        }
        timedOut = true;
        request.abort();
      }, ms);
    };
    try {
      let response: Response;
      try {
        response = await this.openai.responses
          .create(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
            signal: combined,
            timeout: this.timeoutMs,
            maxRetries: 0,
          })
          .asResponse();
      } catch (err) {
        if (signal?.aborted) return { done: false, error: ABORTED };
        return {
          done: false,
          error: classifyError(err, this.errorContext),
          ...(err instanceof APIError && err.headers ? { headers: err.headers } : {}),
        };
      }
      if (!response.body) {
        return {
          done: false,
          error: {
            kind: 'stream_cut',
            message: `The API at ${this.options.baseURL} answered with an empty body.`,
            retryable: true,
          },
        };
      }

      try {
        lastHeard = performance.now();
        watch(this.timeoutMs);
        // Once the response is complete, the body's end is read in the background rather than the fetch aborted.
        const drain = () => mapper.done && !combined.aborted;
        for await (const message of readSseMessages(response.body, { drain })) {
          handling = true;
          const raw = this.parse(message);
          for (const event of raw === undefined ? [] : mapper.push(raw)) {
            yielded++;
            yield this.redact(event);
          }
          if (mapper.done) return { done: true };
          handling = false;
          lastHeard = performance.now();
          if (timer === undefined) watch(this.timeoutMs);
        }
        const tail = mapper.end();
        // An empty 200 stream delivered nothing: as safe to retry as a refused connection.
        if (yielded === 0) return { done: false, error: this.cutInfo(tail) };
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
                ...this.cutInfo(mapper.end()),
                message: `The response stream went silent for ${Math.round(this.timeoutMs / 1000)} s and was dropped. Retry the turn.`,
              }
            : timeoutInfo(this.errorContext)
          : yielded > 0
            ? this.cutInfo(mapper.end())
            : classifyError(err, this.errorContext);
        if (yielded === 0) return { done: false, error: info };
        yield this.failed(info);
        return { done: true };
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  /** The stream_cut failure the mapper produces at a premature end (or a generic one). */
  private cutInfo(tail: ModelEvent[]): ModelErrorInfo {
    const failed = tail.find((event) => event.type === 'failed');
    return failed?.type === 'failed'
      ? failed.error
      : { kind: 'stream_cut', message: 'The response stream ended before it was complete.', retryable: true };
  }

  /** One SSE message → the event object, or undefined for `[DONE]` and (tolerated, logged) malformed data. */
  private parse(message: SseMessage): unknown {
    if (message.data === '[DONE]') return undefined;
    try {
      const value: unknown = JSON.parse(message.data);
      // Some servers name the event only in the `event:` line.
      if (isRecord(value) && typeof value.type !== 'string' && message.event) value.type = message.event;
      return value;
    } catch {
      // Decision: skip it. The final output_item.done / response.completed carry the full content, and the mapper
      // fills text gaps from the `.done` events, so one bad line need not cost the whole answer.
      const sample = redactSecrets(message.data.slice(0, 200), this.errorContext.secrets);
      console.warn(`${LOG_PREFIX} Skipped a malformed stream event (${message.event ?? 'no event name'}): ${sample}`);
      return undefined;
    }
  }

  private redact(event: ModelEvent): ModelEvent {
    return event.type === 'failed'
      ? { type: 'failed', error: redactErrorInfo(event.error, this.errorContext.secrets) }
      : event;
  }

  private failed(error: ModelErrorInfo): ModelEvent {
    return { type: 'failed', error: redactErrorInfo(error, this.errorContext.secrets) };
  }
}
