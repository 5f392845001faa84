/**
 * The real ModelClient: the OpenAI Responses API (or any server that speaks it), streamed, through the `openai` SDK.
 *
 * The SDK builds and authenticates the request and raises typed HTTP errors; we read the SSE body ourselves
 * (see sse.ts for why) and map it with StreamMapper. Retries are ours, not the SDK's (`maxRetries: 0`), so that
 * each one is announced with a `retrying` event and its wait can be cut short by the Stop button — and they happen
 * only before anything of the response has been yielded: once text has streamed, a broken stream is reported as
 * `stream_cut` and the agent loop decides what to do.
 */
import OpenAI from 'openai';
import { apiKeyProblem } from './apiKey.ts';
import type { ErrorContext } from './errors.ts';
import type { CompactRequest, CompactResult, ModelClient, ModelEvent, ModelRequest } from './events.ts';
import { compactOnServer } from './compact.ts';
import { flattenToolsForResponsesApi, type ResponsesApiTool } from './flattenTools.ts';
import {
  buildRequestBody,
  type ReasoningEffort,
  type RequestSettings,
  type ResponsesRequestBody,
} from './requestBody.ts';
import type { BackoffOptions } from './retry.ts';
import { StreamEngine, parseJsonMessage, type WireProtocol } from './streamEngine.ts';
import { StreamMapper, responseDocumentEvents } from './streamMapper.ts';

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

const LOG_PREFIX = '[OpenAIResponsesClient]';
const NO_KEY = 'no-key-configured';

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

  /**
   * docs/specs/001-tool-flattening.md: nested tool definitions → the Responses API's flat shape (invalid ones dropped
   * with a warning).
   */
  createToolsJsonForResponsesApi(tools: unknown[]): ResponsesApiTool[] {
    return flattenToolsForResponsesApi(tools);
  }

  /** The exact body `stream(request)` would send. */
  buildRequestBody(request: ModelRequest): ResponsesRequestBody {
    return buildRequestBody(this.settings, request);
  }

  /** Server-side compaction (#23); `unsupported` when this server has no `/responses/compact`. */
  compact(request: CompactRequest): Promise<CompactResult> {
    return compactOnServer(this.openai, this.options.model, request, this.errorContext);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    // Checked before sending: fetch would refuse the header with a message that reads like a network failure.
    const keyProblem = apiKeyProblem(this.options.apiKey);
    if (keyProblem) {
      yield { type: 'failed', error: { kind: 'auth', message: keyProblem, retryable: false } };
      return;
    }
    const body = this.buildRequestBody(request);
    const secrets = this.errorContext.secrets;
    const protocol: WireProtocol = {
      send: (signal) =>
        this.openai.responses
          .create(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
            signal,
            timeout: this.timeoutMs,
            maxRetries: 0,
          })
          .asResponse(),
      mapper: (startedAt, now) => new StreamMapper({ startedAt, now }),
      // Decision: a malformed line is skipped. The final output_item.done / response.completed carry the full
      // content, and the mapper fills text gaps from the `.done` events, so one bad line need not cost the answer.
      parse: (message) => parseJsonMessage(message, { done: undefined, secrets, logPrefix: LOG_PREFIX }),
      document: responseDocumentEvents,
    };
    yield* new StreamEngine(protocol, {
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      backoff: this.backoff,
      now: this.now,
      errorContext: this.errorContext,
    }).stream(request.signal);
  }
}
