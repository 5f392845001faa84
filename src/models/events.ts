/**
 * Otto's own typed model events: what the client makes of the Responses API stream, whatever wire quirks it had.
 * The agent loop consumes only these; nothing above `models/` sees SDK or wire types.
 */

/** A Responses API input/output item kept verbatim in the transcript and replayed as input. */
export type ResponseItem = Record<string, unknown> & { type: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens?: number;
  cachedTokens?: number;
}

export type ModelErrorKind =
  | 'auth' // 401/403: check the API key
  | 'model_not_found' // 404 about the model: check the model name
  | 'not_found' // 404 for the endpoint itself: the server has no /responses (check the base URL)
  | 'config' // the stored config does not validate: nothing was sent
  | 'rate_limit' // 429 after retries
  | 'server' // 5xx after retries
  | 'network' // could not connect
  | 'timeout'
  | 'stream_cut' // the stream ended or broke before response.completed
  | 'not_a_stream' // a 200 whose body is a web page, unusable JSON or text: check the base URL
  | 'bad_request' // 400: the request was refused
  | 'failed' // the model reported response.failed / an error event
  | 'aborted';

export interface ModelErrorInfo {
  kind: ModelErrorKind;
  /** A message for the user, with the API key redacted; says what to do. */
  message: string;
  status?: number;
  code?: string;
  retryable: boolean;
}

export type ModelEvent =
  | { type: 'created'; responseId: string; model?: string }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string }
  /** Something the user should know about the connection, said once (e.g. the transport was switched). */
  | { type: 'notice'; message: string }
  | { type: 'text.delta'; itemId: string; delta: string }
  | { type: 'reasoning.delta'; itemId: string; delta: string }
  | { type: 'function_call.added'; itemId: string; callId: string; name: string }
  | { type: 'function_call.arguments.delta'; itemId: string; delta: string }
  | { type: 'function_call.done'; itemId: string; callId: string; name: string; arguments: string }
  /** An output item is complete (message, reasoning, function_call, ...): persist it; replay it as input. */
  | { type: 'item.done'; item: ResponseItem }
  /**
   * The response finished. `incompleteReason` is set when the API ended it early but validly (`response.incomplete`,
   * e.g. `max_output_tokens` or `content_filter`): the items delivered so far stand, the answer may be truncated.
   */
  | {
      type: 'completed';
      responseId: string;
      model?: string;
      usage?: Usage;
      latencyMs: number;
      incompleteReason?: string;
    }
  | { type: 'failed'; error: ModelErrorInfo };

export interface ModelRequest {
  input: ResponseItem[];
  instructions?: string;
  /** Tools in the nested Chat-Completions shape (createToolDefinition(tool)); the client flattens them. */
  tools: unknown[];
  previousResponseId?: string;
  signal?: AbortSignal;
}

/** A request to compact the older part of a conversation on the server (`POST /responses/compact`, #23). */
export interface CompactRequest {
  input: ResponseItem[];
  instructions?: string;
  signal?: AbortSignal;
}

/**
 * The server's compacted window (the user's messages and an opaque `compaction` item), or why there is none:
 * `unsupported` when the server has no such endpoint (the caller summarises by itself, and may remember it).
 */
export type CompactResult =
  { ok: true; output: ResponseItem[]; usage?: Usage } | { ok: false; unsupported: boolean; error: ModelErrorInfo };

/** What the agent loop needs of a model. The real one is OpenAIResponsesClient; tests script their own. */
export interface ModelClient {
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
  /** Server-side compaction, where the client's wire has it; absent: the loop summarises with `stream`. */
  compact?(request: CompactRequest): Promise<CompactResult>;
}
