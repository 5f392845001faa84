/**
 * The fake API's script: a queue of turns. Each request is answered by the first pending turn whose `match`
 * accepts it (a turn without `match` accepts anything); a turn answers `times` requests (default 1) and is then
 * used up. Requests no turn accepts get the fallback (the friendly default script, or a 500 in strict mode).
 */

/** What the fake API recorded about one request. */
export interface RecordedRequest {
  method: string;
  /** Date.now() when the request arrived (tests measure retry waits with it). */
  receivedAt: number;
  /** Path without the query string, e.g. `/v1/responses`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: FakeRequestBody | undefined;
  rawBody: string;
  /** The text turns match on: the last user message's text, or the last function_call_output's output. */
  lastInput: string;
  /**
   * Validation errors of the body against `CreateResponse` (corpora/openai-openapi), one line each; `[]` when valid.
   * Undefined when the request was not a `POST /v1/responses` or the corpora are absent (see `api.schemaValidation`).
   */
  schemaErrors?: string[];
  /** Which turn answered: its label or queue position; 'fallback' for the default script. */
  turn?: string;
  /** The HTTP status the fake answered with. */
  status?: number;
}

/** The request body as the fake sees it (`POST /v1/responses`). */
export interface FakeRequestBody {
  model?: string;
  input?: string | Array<Record<string, unknown>>;
  instructions?: string;
  tools?: Array<Record<string, unknown>>;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  store?: boolean;
  stream?: boolean;
  include?: string[];
  reasoning?: { effort?: string; summary?: string };
  previous_response_id?: string;
  [key: string]: unknown;
}

/** Substring (or RegExp) of `lastInput`, or a predicate over the whole request. */
export type TurnMatcher = string | RegExp | ((request: RecordedRequest) => boolean);

export interface ScriptedCall {
  /** The wire name (already encoded, e.g. `dom_click`). */
  name: string;
  /** A JSON string, or an object to stringify. Default `{}`. */
  arguments?: string | Record<string, unknown>;
  /** Default: a fresh `call_…`. */
  callId?: string;
}

export interface Turn {
  /** Shown in `RecordedRequest.turn` and in the fake's log. */
  label?: string;
  match?: TurnMatcher;
  /** How many requests this turn answers (default 1; `Infinity` for all). */
  times?: number;
  /** A scripted model: computes this turn's content from the request (merged over the turn; in-process only). */
  respond?: (request: RecordedRequest) => Omit<Turn, 'respond' | 'match' | 'times'>;

  // ── The response content, streamed in this order: reasoning, text, function calls ──
  /** A reasoning item: summary paragraphs (streamed as summary parts) and, when the request asked for it or this
   *  is given, `encrypted_content`. */
  reasoning?: { summary: string | string[]; encryptedContent?: string };
  /** Assistant text: a string is split into word-sized deltas; an array gives the deltas exactly. */
  text?: string | string[];
  /** One or several function calls, arguments streamed in small deltas. */
  calls?: ScriptedCall[];
  usage?: { input_tokens?: number; output_tokens?: number; reasoning_tokens?: number; cached_tokens?: number };
  /** The model named in the response (default: the request's). */
  model?: string;

  // ── Instead of a stream ──
  /** Answer with this HTTP error (OpenAI-shaped body by default). A string body is sent as is (a 200 web page:
   *  `{ status: 200, body: '<html>…', headers: { 'content-type': 'text/html' } }`). */
  http?: { status: number; body?: unknown; headers?: Record<string, string> };
  /** Ignore `stream: true`: answer with the complete response object as JSON (what some servers do). */
  nonStream?: boolean;

  // ── Proxy quirks ──
  /** A new item id on every event of an item, and in the final output (as a GitHub Copilot proxy does). */
  rotateIds?: boolean;

  // ── Faults in the stream (event indexes count from 0 = response.created) ──
  /** Write N events, then destroy the socket. */
  cutAfter?: number;
  /** Write N events, then end the response cleanly — without response.completed. */
  endAfter?: number;
  /** Event N's data line is invalid JSON. */
  malformedAt?: number;
  /** Wait this long before each event. */
  delayMs?: number;
  /** Wait this long before even sending the response headers (a server that does not answer). */
  headersDelayMs?: number;
  /** After the content, an `error` event (nested, as real streams send it; `flat` for the spec's shape) and
   *  `response.failed`, instead of `response.completed`. */
  fail?: { code: string; message: string; type?: string; flat?: boolean };
  /** End with `response.incomplete` (this reason) instead of `response.completed`. */
  incomplete?: string;
}

/** Ready-made faults, so tests read as what they mean. */
export const faults = {
  rateLimit: (retryAfterSeconds = 1, message = 'Rate limit reached for requests. Please try again shortly.'): Turn => ({
    label: `429 retry-after ${retryAfterSeconds}s`,
    http: {
      status: 429,
      headers: { 'retry-after': String(retryAfterSeconds) },
      body: openAiError(message, 'requests', 'rate_limit_exceeded'),
    },
  }),
  serverError: (status = 500): Turn => ({
    label: `${status}`,
    http: {
      status,
      body: openAiError(
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      ),
    },
  }),
  badRequest: (message: string, param: string | null = null): Turn => ({
    label: '400',
    http: { status: 400, body: openAiError(message, 'invalid_request_error', null, param) },
  }),
  cut: (afterEvents: number, turn: Turn = { text: 'This answer will be cut off halfway through.' }): Turn => ({
    label: `cut after ${afterEvents}`,
    ...turn,
    cutAfter: afterEvents,
  }),
  malformed: (atEvent: number, turn: Turn = { text: 'One of these events is broken.' }): Turn => ({
    label: `malformed #${atEvent}`,
    ...turn,
    malformedAt: atEvent,
  }),
  slow: (delayMs: number, turn: Turn = { text: 'A slow, steady answer.' }): Turn => ({
    label: `slow ${delayMs}ms`,
    ...turn,
    delayMs,
  }),
  streamError: (code = 'server_error', message = 'The model failed to generate a response.'): Turn => ({
    label: `error event ${code}`,
    fail: { code, message },
  }),
};

/** The error body OpenAI sends with HTTP errors. */
export function openAiError(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): { error: Record<string, unknown> } {
  return { error: { message, type, param, code } };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

/** The text a turn matches on (see RecordedRequest.lastInput). */
export function lastInputText(body: FakeRequestBody | undefined): string {
  // Chat Completions: the last user message or tool result.
  const messages = (body as { messages?: { role?: string; content?: unknown }[] } | undefined)?.messages;
  if (Array.isArray(messages)) {
    const last = messages.findLast((m) => m.role === 'user' || m.role === 'tool');
    return last ? textOf(last.content) : '';
  }
  const input = body?.input;
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (!item) continue;
    if (item.type === 'function_call_output')
      return typeof item.output === 'string' ? item.output : textOf(item.output);
    if (item.role === 'user' && (item.type === undefined || item.type === 'message')) return textOf(item.content);
  }
  return '';
}

export function turnMatches(turn: Turn, request: RecordedRequest): boolean {
  const { match } = turn;
  if (match === undefined) return true;
  if (typeof match === 'string') return request.lastInput.includes(match);
  if (match instanceof RegExp) return match.test(request.lastInput);
  return match(request);
}

/** The pending turns, consumed first-match-first. */
export class TurnQueue {
  private turns: Array<{ turn: Turn; left: number; position: number }> = [];
  private counter = 0;

  /** Positions (`#0`, `#1`, … in RecordedRequest.turn) count from the latest replace. */
  replace(turns: Turn[]): void {
    this.turns = [];
    this.counter = 0;
    this.append(turns);
  }

  append(turns: Turn[]): void {
    for (const turn of turns) this.turns.push({ turn, left: turn.times ?? 1, position: this.counter++ });
  }

  get pending(): number {
    return this.turns.length;
  }

  /** The turn answering `request` (consuming one use of it), or undefined. */
  take(request: RecordedRequest): { turn: Turn; name: string } | undefined {
    const index = this.turns.findIndex((entry) => turnMatches(entry.turn, request));
    const entry = this.turns[index];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.turns.splice(index, 1);
    return { turn: entry.turn, name: entry.turn.label ?? `#${entry.position}` };
  }
}
