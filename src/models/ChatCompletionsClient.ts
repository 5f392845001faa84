/**
 * The second ModelClient: servers that speak only Chat Completions (`POST /chat/completions`) — the
 * OpenAI-compatible endpoints of Anthropic and Gemini, llama.cpp's server, DeepSeek, Mistral, older Ollama and LM
 * Studio builds, most gateways. Same interface, same retries, Stop and silence watchdog (StreamEngine) as the
 * Responses client; the conversation is converted to messages on the way out (chatRequestBody.ts) and the stream
 * back into Responses-shaped items (chatStreamMapper.ts), so nothing above `models/` knows which wire was used.
 */
import OpenAI from 'openai';
import { apiKeyProblem } from './apiKey.ts';
import type { ErrorContext } from './errors.ts';
import type { ModelClient, ModelEvent, ModelRequest } from './events.ts';
import { buildChatRequestBody, type ChatRequestBody, type ChatSettings } from './chatRequestBody.ts';
import { CHAT_DONE, CHAT_MALFORMED, ChatStreamMapper, chatDocumentEvents } from './chatStreamMapper.ts';
import type { OpenAIResponsesClientOptions } from './OpenAIResponsesClient.ts';
import { StreamEngine, parseJsonMessage, type WireProtocol } from './streamEngine.ts';

const LOG_PREFIX = '[ChatCompletionsClient]';
const NO_KEY = 'no-key-configured';

export interface ChatCompletionsClientOptions extends Omit<
  OpenAIResponsesClientOptions,
  'store' | 'hostedTools' | 'reasoningModel'
> {
  /** Whether the server takes images in messages (screenshots); default true, else a text note is sent. */
  images?: boolean;
}

export class ChatCompletionsClient implements ModelClient {
  private readonly openai: OpenAI;
  private readonly settings: ChatSettings;
  private readonly timeoutMs: number;
  private readonly errorContext: ErrorContext;

  constructor(private readonly options: ChatCompletionsClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.settings = {
      model: options.model,
      parallelToolCalls: options.parallelToolCalls ?? true,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(options.reasoningEffort !== undefined ? { reasoningEffort: options.reasoningEffort } : {}),
      ...(options.images !== undefined ? { images: options.images } : {}),
    };
    this.errorContext = {
      model: options.model,
      baseURL: options.baseURL,
      timeoutMs: this.timeoutMs,
      secrets: options.apiKey ? [options.apiKey] : [],
      endpoint: { name: 'Chat Completions', request: 'POST /chat/completions' },
    };
    this.openai = new OpenAI({
      apiKey: options.apiKey || NO_KEY,
      baseURL: options.baseURL,
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

  /** The exact body `stream(request)` would send. */
  buildRequestBody(request: ModelRequest): ChatRequestBody {
    return buildChatRequestBody(this.settings, request);
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
        this.openai.chat.completions
          .create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, {
            signal,
            timeout: this.timeoutMs,
            maxRetries: 0,
          })
          .asResponse(),
      mapper: (startedAt, now) => new ChatStreamMapper({ startedAt, now }),
      parse: (message) =>
        parseJsonMessage(message, { done: CHAT_DONE, malformed: CHAT_MALFORMED, secrets, logPrefix: LOG_PREFIX }),
      document: chatDocumentEvents,
    };
    yield* new StreamEngine(protocol, {
      timeoutMs: this.timeoutMs,
      maxRetries: this.options.maxRetries ?? 3,
      backoff: this.options.backoff ?? {},
      now: this.options.now ?? (() => Date.now()),
      errorContext: this.errorContext,
    }).stream(request.signal);
  }
}
