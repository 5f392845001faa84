/**
 * Responses API stream events → Otto's ModelEvents. A pure state machine fed raw, already-parsed event objects
 * (exactly what the `data:` lines hold), so recorded corpora can be replayed through it without a network.
 *
 * Wire quirks it absorbs (docs/design.md, platform fact 8, corpora/README): `function_call_arguments.done` carries no
 * name (name and call_id come from `output_item.added`); error events nest `{error:{code,message}}` (the spec shows
 * them flat — both are read); deltas carry `obfuscation`; `logprobs` may be missing; unknown event types occur; some
 * servers skip the deltas and send only the `.done` text. Nothing here throws on odd input.
 */
import type { ModelErrorInfo, ModelEvent, ResponseItem, Usage } from './events.ts';
import { failureFromResponseError } from './errors.ts';
import { isRecord } from '../shared/plainObject.ts';

export interface StreamMapperOptions {
  /** When the request was sent (ms, same clock as `now`), for `latencyMs`. */
  startedAt?: number;
  now?: () => number;
}

interface CallState {
  itemId: string;
  callId?: string;
  name?: string;
  arguments: string;
  addedEmitted: boolean;
  doneEmitted: boolean;
}

type Json = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The API's usage object → Otto's Usage (undefined when absent or null, as on failed responses). */
export function mapUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: Usage = { inputTokens: num(raw.input_tokens) ?? 0, outputTokens: num(raw.output_tokens) ?? 0 };
  const reasoning = isRecord(raw.output_tokens_details) ? num(raw.output_tokens_details.reasoning_tokens) : undefined;
  const cached = isRecord(raw.input_tokens_details) ? num(raw.input_tokens_details.cached_tokens) : undefined;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  if (cached !== undefined) usage.cachedTokens = cached;
  return usage;
}

/** The text a message item shows the user: its output_text and refusal parts, in order. */
export function messageText(item: unknown): string {
  if (!isRecord(item) || !Array.isArray(item.content)) return '';
  return item.content
    .map((part: unknown) => (isRecord(part) ? (str(part.text) ?? str(part.refusal) ?? '') : ''))
    .join('');
}

/** A reasoning item's summary paragraphs (or raw reasoning text, as LM Studio sends), joined like the deltas. */
export function summaryText(item: unknown): string {
  if (!isRecord(item)) return '';
  const parts = [item.summary, item.content].find((p): p is unknown[] => Array.isArray(p) && p.length > 0) ?? [];
  return parts.map((part: unknown) => (isRecord(part) ? (str(part.text) ?? '') : '')).join('\n\n');
}

/**
 * A whole, non-streamed Responses body (a server that ignored `stream: true`) → the events a stream of it would have
 * ended with, so it is used as the answer: a complete or incomplete response, a failed one, or a bare error object.
 * A response still in progress (background mode) or anything else is not an answer: undefined.
 */
export function responseDocumentEvents(doc: unknown): Json[] | undefined {
  if (!isRecord(doc)) return undefined;
  if (Array.isArray(doc.output)) {
    if (doc.status === 'failed') return [{ type: 'response.failed', response: doc }];
    if (doc.status === 'incomplete') return [{ type: 'response.incomplete', response: doc }];
    if (doc.status === undefined || doc.status === 'completed') return [{ type: 'response.completed', response: doc }];
    return undefined;
  }
  if (isRecord(doc.error)) return [{ type: 'error', error: doc.error }];
  return undefined;
}

export class StreamMapper {
  private readonly now: () => number;
  private readonly startedAt: number;
  private responseId = '';
  private model: string | undefined;
  private createdEmitted = false;
  private finished = false;
  private eventCount = 0;
  private readonly calls = new Map<string, CallState>();
  /** Text emitted so far per `${itemId}:${contentIndex}` (or summary index), to fill gaps from `.done` texts. */
  private readonly emittedText = new Map<string, string>();
  private readonly itemsDone = new Set<string>();
  /**
   * Output items by position (#34): a proxy (GitHub Copilot's) sends a new item id on every event of one item, so
   * an id it has not announced is replaced by the id its `output_index` was first known by. Ids a server did
   * announce are kept, so a server that reuses an index for several items still keeps them apart.
   */
  private readonly idAt = new Map<number, string>();
  private readonly knownIds = new Set<string>();
  private readonly doneAt = new Set<number>();

  constructor(options: StreamMapperOptions = {}) {
    this.now = options.now ?? (() => Date.now());
    this.startedAt = options.startedAt ?? this.now();
  }

  /** True once `completed` or `failed` has been emitted; later events are ignored. */
  get done(): boolean {
    return this.finished;
  }

  /** How many events were fed (for messages about cut streams). */
  get eventsSeen(): number {
    return this.eventCount;
  }

  push(input: unknown): ModelEvent[] {
    if (this.finished || !isRecord(input)) return [];
    this.eventCount++;
    const out: ModelEvent[] = [];
    const type = str(input.type) ?? '';
    const raw = this.byPosition(input, type === 'response.output_item.added');
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        this.noteResponse(raw.response, out);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.textDelta('text', raw, str(raw.delta), out);
        break;
      case 'response.output_text.done':
        this.textDone('text', raw, str(raw.text), out);
        break;
      case 'response.refusal.done':
        this.textDone('text', raw, str(raw.refusal), out);
        break;
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs: separate them in the running reasoning text.
        if ((num(raw.summary_index) ?? 0) > 0)
          out.push({ type: 'reasoning.delta', itemId: str(raw.item_id) ?? '', delta: '\n\n' });
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.textDelta('reasoning', raw, str(raw.delta), out);
        break;
      case 'response.reasoning_summary_text.done':
      case 'response.reasoning_text.done':
        this.textDone('reasoning', raw, str(raw.text), out);
        break;
      case 'response.output_item.added':
        this.itemAdded(raw.item, out);
        break;
      case 'response.function_call_arguments.delta':
        this.argumentsDelta(raw, out);
        break;
      case 'response.function_call_arguments.done':
        this.argumentsDone(raw, out);
        break;
      case 'response.output_item.done':
        this.itemDone(raw.item, out);
        if (num(raw.output_index) !== undefined) this.doneAt.add(num(raw.output_index) ?? 0);
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.completed(raw.response, type === 'response.incomplete', out);
        break;
      case 'error':
        // Nested in real streams ({error:{code,message}}), flat in the spec: accept both. It is terminal by itself
        // (a stream may end right after it); the response.failed that usually follows is then ignored.
        this.fail(failureFromResponseError(isRecord(raw.error) ? raw.error : raw), out);
        break;
      case 'response.failed': {
        const response = isRecord(raw.response) ? raw.response : {};
        this.noteResponse(response, out);
        this.fail(failureFromResponseError(response.error), out);
        break;
      }
      default:
        // Unknown or uninteresting event types (content_part.*, annotations, hosted tool progress, ...).
        break;
    }
    return out;
  }

  /** The stream ended. If it never completed or failed, that is a cut stream. */
  end(): ModelEvent[] {
    if (this.finished) return [];
    const out: ModelEvent[] = [];
    this.fail(
      {
        kind: 'stream_cut',
        message: `The response stream ended before it was complete (after ${this.eventCount} events). The partial answer was not saved as final; retry the turn.`,
        retryable: true,
      },
      out,
    );
    return out;
  }

  /** The event with its item id replaced by its position's, when the server changed it (see `idAt`). */
  private byPosition(raw: Json, announces: boolean): Json {
    const index = num(raw.output_index);
    if (index === undefined) return raw;
    const item = isRecord(raw.item) ? raw.item : undefined;
    const id = item ? str(item.id) : str(raw.item_id);
    if (id === undefined) return raw;
    if (announces && !this.knownIds.has(id)) {
      // A new item at this position (the first, or a server that reuses indexes after an item is done).
      if (!this.idAt.has(index) || this.doneAt.has(index)) {
        this.idAt.set(index, id);
        this.doneAt.delete(index);
        this.knownIds.add(id);
        return raw;
      }
    }
    if (this.knownIds.has(id)) return raw;
    const stable = this.idAt.get(index);
    if (stable === undefined) {
      this.idAt.set(index, id);
      this.knownIds.add(id);
      return raw;
    }
    return item ? { ...raw, item: { ...item, id: stable } } : { ...raw, item_id: stable };
  }

  private noteResponse(response: unknown, out: ModelEvent[]): void {
    if (!isRecord(response)) return;
    this.responseId = str(response.id) ?? this.responseId;
    this.model = str(response.model) ?? this.model;
    if (!this.createdEmitted && this.responseId) {
      this.createdEmitted = true;
      out.push({ type: 'created', responseId: this.responseId, ...(this.model ? { model: this.model } : {}) });
    }
  }

  private textKey(kind: 'text' | 'reasoning', raw: Json): string {
    const index =
      kind === 'text' ? (num(raw.content_index) ?? 0) : (num(raw.summary_index) ?? num(raw.content_index) ?? 0);
    return `${kind}:${str(raw.item_id) ?? ''}:${index}`;
  }

  private textDelta(kind: 'text' | 'reasoning', raw: Json, delta: string | undefined, out: ModelEvent[]): void {
    if (!delta) return;
    const key = this.textKey(kind, raw);
    this.emittedText.set(key, (this.emittedText.get(key) ?? '') + delta);
    const itemId = str(raw.item_id) ?? '';
    out.push(kind === 'text' ? { type: 'text.delta', itemId, delta } : { type: 'reasoning.delta', itemId, delta });
  }

  /** `.done` carries the full text: emit whatever the deltas did not (all of it, for servers that send no deltas). */
  private textDone(kind: 'text' | 'reasoning', raw: Json, full: string | undefined, out: ModelEvent[]): void {
    if (!full) return;
    const emitted = this.emittedText.get(this.textKey(kind, raw)) ?? '';
    if (full.length > emitted.length && full.startsWith(emitted))
      this.textDelta(kind, raw, full.slice(emitted.length), out);
  }

  private itemAdded(item: unknown, out: ModelEvent[]): void {
    if (!isRecord(item) || item.type !== 'function_call') return;
    const call = this.call(str(item.id) ?? str(item.call_id) ?? '');
    call.callId = str(item.call_id) ?? call.callId;
    call.name = str(item.name) ?? call.name;
    if (!call.arguments && str(item.arguments)) call.arguments = str(item.arguments) ?? '';
    this.emitCallAdded(call, out);
  }

  private argumentsDelta(raw: Json, out: ModelEvent[]): void {
    const delta = str(raw.delta);
    if (!delta) return;
    const call = this.call(str(raw.item_id) ?? '');
    call.arguments += delta;
    out.push({ type: 'function_call.arguments.delta', itemId: call.itemId, delta });
  }

  private argumentsDone(raw: Json, out: ModelEvent[]): void {
    const call = this.call(str(raw.item_id) ?? '');
    const args = str(raw.arguments);
    if (args !== undefined) call.arguments = args;
    // The spec says `name` is here; real streams omit it. Prefer what output_item.added told us.
    call.name ??= str(raw.name);
    call.callId ??= str(raw.call_id);
    // Without a name or call_id we cannot describe the call yet: output_item.done will.
    if (call.name && call.callId) this.emitCallDone(call, out);
  }

  private itemDone(item: unknown, out: ModelEvent[]): void {
    if (!isRecord(item) || typeof item.type !== 'string') return;
    const id = str(item.id);
    if (item.type === 'function_call') {
      const call = this.call(id ?? str(item.call_id) ?? '');
      call.callId = str(item.call_id) ?? call.callId;
      call.name = str(item.name) ?? call.name;
      if (str(item.arguments) !== undefined) call.arguments = str(item.arguments) ?? '';
      this.emitCallAdded(call, out);
      this.emitCallDone(call, out);
    } else if (id && (item.type === 'message' || item.type === 'reasoning')) {
      // A server that streamed none of the words still owes them to the user.
      const kind = item.type === 'message' ? 'text' : 'reasoning';
      const text = kind === 'text' ? messageText(item) : summaryText(item);
      if (text && !this.streamedAny(kind, id)) {
        out.push(
          kind === 'text'
            ? { type: 'text.delta', itemId: id, delta: text }
            : { type: 'reasoning.delta', itemId: id, delta: text },
        );
      }
    }
    if (id) this.itemsDone.add(id);
    // Verbatim: the transcript replays it as input (reasoning keeps encrypted_content; `status` is valid input).
    out.push({ type: 'item.done', item: item as ResponseItem });
  }

  private completed(response: unknown, incomplete: boolean, out: ModelEvent[]): void {
    const res = isRecord(response) ? response : {};
    this.noteResponse(res, out);
    // Items the stream never delivered as output_item.done (minimal servers): deliver them from the final output.
    // Matched by position first (ids may have changed on the way), then by id.
    if (Array.isArray(res.output)) {
      res.output.forEach((item: unknown, index: number) => {
        if (this.doneAt.has(index)) return;
        const placed = this.byPosition({ output_index: index, item }, false).item;
        const id = isRecord(placed) ? str(placed.id) : undefined;
        if (id && !this.itemsDone.has(id)) this.itemDone(placed, out);
      });
    }
    for (const call of this.calls.values()) {
      if (!call.doneEmitted && call.name && call.callId) this.emitCallDone(call, out);
    }
    const usage = mapUsage(res.usage);
    const details = isRecord(res.incomplete_details) ? str(res.incomplete_details.reason) : undefined;
    this.finished = true;
    out.push({
      type: 'completed',
      responseId: this.responseId,
      ...(this.model ? { model: this.model } : {}),
      ...(usage ? { usage } : {}),
      latencyMs: Math.max(0, this.now() - this.startedAt),
      ...(incomplete ? { incompleteReason: details ?? 'incomplete' } : {}),
    });
  }

  private fail(error: ModelErrorInfo, out: ModelEvent[]): void {
    this.finished = true;
    out.push({ type: 'failed', error });
  }

  private streamedAny(kind: 'text' | 'reasoning', itemId: string): boolean {
    for (const [key, text] of this.emittedText) if (text && key.startsWith(`${kind}:${itemId}:`)) return true;
    return false;
  }

  private call(itemId: string): CallState {
    let call = this.calls.get(itemId);
    if (!call) {
      call = { itemId, arguments: '', addedEmitted: false, doneEmitted: false };
      this.calls.set(itemId, call);
    }
    return call;
  }

  private emitCallAdded(call: CallState, out: ModelEvent[]): void {
    if (call.addedEmitted || !call.name || !call.callId) return;
    call.addedEmitted = true;
    out.push({ type: 'function_call.added', itemId: call.itemId, callId: call.callId, name: call.name });
  }

  private emitCallDone(call: CallState, out: ModelEvent[]): void {
    if (call.doneEmitted || !call.name || !call.callId) return;
    this.emitCallAdded(call, out);
    call.doneEmitted = true;
    out.push({
      type: 'function_call.done',
      itemId: call.itemId,
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
    });
  }
}
