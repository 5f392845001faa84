/**
 * Chat Completions stream chunks → Otto's ModelEvents, ending in the same Responses-shaped output items the
 * Responses client delivers (message, reasoning, function_call), so the transcript, resume and the panel are the
 * same whatever the wire. A pure state machine, replayable against recorded streams.
 *
 * Tolerated, because real servers do it: tool-call deltas split across many chunks or sent whole in one; calls with
 * no `id` (one is made up) or no `index` (matched by id, else a new call); several calls sharing index 0 with
 * different ids; reasoning as `reasoning_content` (DeepSeek, vLLM, llama.cpp), `reasoning` (OpenRouter, Ollama) or `thinking` parts of
 * an array `content` (Mistral); an empty model and id in a first chunk (Azure);
 * usage in a last chunk with no choices; a stream that ends without `[DONE]` after its finish_reason; an error object
 * as a data line.
 */
import { failureFromResponseError } from './errors.ts';
import type { ModelErrorInfo, ModelEvent, ResponseItem, Usage } from './events.ts';
import type { WireMapper } from './streamEngine.ts';
import { isRecord } from '../shared/plainObject.ts';

/** What the client's parser hands over for `data: [DONE]`. */
export const CHAT_DONE = Object.freeze({ type: '[DONE]' });
/**
 * What the parser hands over for a data line that is not JSON. Unlike a Responses stream, whose final items restate
 * the whole answer, a chat stream's chunks ARE the answer: skipping one would silently drop words or arguments, so
 * the response fails (retryable) instead.
 */
export const CHAT_MALFORMED = Object.freeze({ type: '[MALFORMED]' });

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

interface Call {
  index: number | undefined;
  id: string | undefined;
  name: string;
  arguments: string;
  /** `function_call.added` sent (needs the name). */
  announced: boolean;
  itemId: string;
}

/** Chat usage → Otto's Usage. */
export function mapChatUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { inputTokens: num(raw.prompt_tokens) ?? 0, outputTokens: num(raw.completion_tokens) ?? 0 };
  const cached = isRecord(raw.prompt_tokens_details) ? num(raw.prompt_tokens_details.cached_tokens) : undefined;
  const reasoning = isRecord(raw.completion_tokens_details)
    ? num(raw.completion_tokens_details.reasoning_tokens)
    : undefined;
  if (cached !== undefined) usage.cachedTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * `delta.content` given as an array of parts (Mistral's thinking models): `text` parts are the answer, `thinking`
 * parts (their text given as a string or as nested text parts) the reasoning.
 */
function contentParts(content: unknown): { text: string; thinking: string } {
  const out = { text: '', thinking: '' };
  if (!Array.isArray(content)) return out;
  const textOf = (v: unknown): string =>
    typeof v === 'string' ? v : Array.isArray(v) ? v.map((p) => (isRecord(p) ? (str(p.text) ?? '') : '')).join('') : '';
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === 'thinking') out.thinking += textOf(part.thinking);
    else if (part.type === 'text') out.text += str(part.text) ?? '';
  }
  return out;
}

/** finish_reason values that end a response early but validly (as Responses' `incomplete`). */
const INCOMPLETE: Record<string, string> = { length: 'max_output_tokens', content_filter: 'content_filter' };

/**
 * A whole, non-streamed chat completion (a server that ignored `stream: true`) → chunks the mapper takes (it reads
 * `message` where a chunk has `delta`), then the end; an error object as it is. Anything else: undefined.
 */
export function chatDocumentEvents(doc: unknown): unknown[] | undefined {
  if (!isRecord(doc)) return undefined;
  if (Array.isArray(doc.choices) && doc.choices.some((c) => isRecord(c) && isRecord(c.message)))
    return [doc, CHAT_DONE];
  if (isRecord(doc.error)) return [doc];
  return undefined;
}

export class ChatStreamMapper implements WireMapper {
  private readonly now: () => number;
  private readonly startedAt: number;
  private responseId = '';
  private model: string | undefined;
  private started = false;
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private text = '';
  private reasoning = '';
  private readonly calls: Call[] = [];
  private finished = false;
  private chunks = 0;

  constructor(options: { startedAt?: number; now?: () => number } = {}) {
    this.now = options.now ?? (() => Date.now());
    this.startedAt = options.startedAt ?? this.now();
  }

  get done(): boolean {
    return this.finished;
  }

  push(raw: unknown): ModelEvent[] {
    if (this.finished) return [];
    if (raw === CHAT_DONE || (isRecord(raw) && raw.type === '[DONE]')) return this.finish();
    if (raw === CHAT_MALFORMED) {
      this.finished = true;
      return [{ type: 'failed', error: this.unreadable() }];
    }
    if (!isRecord(raw)) return [];
    this.chunks++;
    if (isRecord(raw.error)) {
      this.finished = true;
      return [{ type: 'failed', error: failureFromResponseError(raw.error) }];
    }
    const out: ModelEvent[] = [];
    if (!this.started) {
      this.started = true;
      this.responseId = str(raw.id) || `chatcmpl-${Math.round(this.startedAt)}`;
      this.model = str(raw.model) || undefined;
      out.push({ type: 'created', responseId: this.responseId, ...(this.model ? { model: this.model } : {}) });
    }
    // Azure's first chunk has an empty model (and id): take the first real one.
    this.model ||= str(raw.model) || undefined;
    const usage = mapChatUsage(raw.usage);
    if (usage) this.usage = usage;
    const choice = Array.isArray(raw.choices)
      ? raw.choices.find((c) => isRecord(c) && (c.index ?? 0) === 0)
      : undefined;
    if (!isRecord(choice)) return out;
    // A server that ignored `stream` per chunk and sent whole messages (`message` instead of `delta`).
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
    const parts = contentParts(delta.content);
    const thinking = (str(delta.reasoning_content) ?? str(delta.reasoning) ?? '') + parts.thinking;
    if (thinking) {
      this.reasoning += thinking;
      out.push({ type: 'reasoning.delta', itemId: this.reasoningId, delta: thinking });
    }
    const content = (str(delta.content) ?? str(delta.refusal) ?? '') + parts.text;
    if (content) {
      this.text += content;
      out.push({ type: 'text.delta', itemId: this.messageId, delta: content });
    }
    if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls) out.push(...this.toolCallDelta(tc));
    const finish = str(choice.finish_reason);
    if (finish) this.finishReason = finish;
    return out;
  }

  /** The body ended: finish if the response said it was done, else report a cut stream. */
  end(): ModelEvent[] {
    if (this.finished) return [];
    if (this.finishReason) return this.finish();
    this.finished = true;
    return [{ type: 'failed', error: this.cut() }];
  }

  private cut(): ModelErrorInfo {
    return {
      kind: 'stream_cut',
      message: `The response stream ended before it was complete (after ${this.chunks} chunks). The partial answer was not saved as final; retry the turn.`,
      retryable: true,
    };
  }

  private unreadable(): ModelErrorInfo {
    return {
      kind: 'stream_cut',
      message: `The server sent a part of the answer that could not be read (not valid JSON, after ${this.chunks} chunks), so the answer would be incomplete. It was not saved as final; retry the turn.`,
      retryable: true,
    };
  }

  private get messageId(): string {
    return `msg_${this.responseId}`;
  }

  private get reasoningId(): string {
    return `rs_${this.responseId}`;
  }

  private slotFor(tc: Json): Call {
    const index = num(tc.index);
    const id = str(tc.id) || undefined;
    const fn = isRecord(tc.function) ? tc.function : {};
    let call = id ? this.calls.find((c) => c.id === id) : undefined;
    if (!call && index !== undefined) {
      const same = this.calls.findLast((c) => c.index === index);
      // Index 0 reused for a second call (a new id, the first already named): a new call, not a continuation.
      if (same && !(id && same.id && same.id !== id && str(fn.name))) call = same;
    }
    if (!call) {
      const n = this.calls.length;
      call = { index, id, name: '', arguments: '', announced: false, itemId: `fc_${this.responseId}_${n}` };
      this.calls.push(call);
    }
    if (id && !call.id) call.id = id;
    return call;
  }

  private toolCallDelta(raw: unknown): ModelEvent[] {
    if (!isRecord(raw)) return [];
    const call = this.slotFor(raw);
    const fn = isRecord(raw.function) ? raw.function : {};
    const out: ModelEvent[] = [];
    const name = str(fn.name);
    if (name && !call.announced) call.name += name;
    const args =
      typeof fn.arguments === 'string' ? fn.arguments : isRecord(fn.arguments) ? JSON.stringify(fn.arguments) : '';
    if (!call.announced && call.name) {
      call.announced = true;
      out.push({ type: 'function_call.added', itemId: call.itemId, callId: this.callId(call), name: call.name });
      // Arguments that arrived before the name go out now.
      if (call.arguments)
        out.push({ type: 'function_call.arguments.delta', itemId: call.itemId, delta: call.arguments });
    }
    if (args) {
      call.arguments += args;
      if (call.announced) out.push({ type: 'function_call.arguments.delta', itemId: call.itemId, delta: args });
    }
    return out;
  }

  private callId(call: Call): string {
    call.id ??= `call_${this.responseId}_${this.calls.indexOf(call)}`;
    return call.id;
  }

  private finish(): ModelEvent[] {
    this.finished = true;
    const out: ModelEvent[] = [];
    if (!this.started) return [{ type: 'failed', error: this.cut() }];
    if (this.reasoning) {
      const item: ResponseItem = {
        type: 'reasoning',
        id: this.reasoningId,
        summary: [{ type: 'summary_text', text: this.reasoning }],
      };
      out.push({ type: 'item.done', item });
    }
    if (this.text || !this.calls.length) {
      const item: ResponseItem = {
        type: 'message',
        id: this.messageId,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: this.text, annotations: [] }],
      };
      out.push({ type: 'item.done', item });
    }
    for (const call of this.calls) {
      if (!call.name) continue; // a fragment that never named its function: nothing to run
      const callId = this.callId(call);
      const args = call.arguments || '{}';
      if (!call.announced) out.push({ type: 'function_call.added', itemId: call.itemId, callId, name: call.name });
      out.push({ type: 'function_call.done', itemId: call.itemId, callId, name: call.name, arguments: args });
      const item: ResponseItem = {
        type: 'function_call',
        id: call.itemId,
        call_id: callId,
        name: call.name,
        arguments: args,
        status: 'completed',
      };
      out.push({ type: 'item.done', item });
    }
    const incomplete = this.finishReason ? INCOMPLETE[this.finishReason] : undefined;
    out.push({
      type: 'completed',
      responseId: this.responseId,
      ...(this.model ? { model: this.model } : {}),
      ...(this.usage ? { usage: this.usage } : {}),
      latencyMs: Math.round((this.now() - this.startedAt) * 100) / 100,
      ...(incomplete ? { incompleteReason: incomplete } : {}),
    });
    return out;
  }
}
