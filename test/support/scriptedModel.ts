/**
 * A ModelClient that plays scripted turns, for testing the agent loop without a server. Each call to `stream()`
 * takes the next turn; a turn is a list of steps: ModelEvents to yield, or control steps (wait for a promise, hang
 * until aborted, throw). It records every request it got (input deep-copied at the time of the call) and honours
 * the request's AbortSignal like the real client (throws an AbortError).
 */
import type {
  ModelClient,
  ModelErrorInfo,
  ModelEvent,
  ModelRequest,
  ResponseItem,
  Usage,
} from '../../src/models/events.ts';
import { ChatWireEncoder, TEST_WIRE, type ScriptWire } from './chatWire.ts';

export type Step =
  | ModelEvent
  | { type: 'wait'; until: Promise<unknown> }
  | { type: 'hang' }
  | { type: 'throw'; error: unknown }
  | { type: 'call'; fn: () => void };

export type Turn = Step[] | ((request: ModelRequest, index: number) => Step[]);

export interface RecordedRequest {
  input: ResponseItem[];
  instructions?: string;
  tools: unknown[];
  previousResponseId?: string;
  aborted: () => boolean;
}

function abortError(): Error {
  const e = new Error('This operation was aborted');
  e.name = 'AbortError';
  return e;
}

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return; // hangs forever: a worker that died
    if (signal.aborted) reject(abortError());
    signal.addEventListener('abort', () => reject(abortError()), { once: true });
  });
}

export class ScriptedModel implements ModelClient {
  readonly requests: RecordedRequest[] = [];
  readonly #turns: Turn[];
  /** Streams currently open. */
  open = 0;

  /** Over `chat`, every scripted event goes through a Chat Completions chunk and the real chat mapper. */
  readonly wire: ScriptWire;

  constructor(turns: Turn[] = [], opts: { wire?: ScriptWire } = {}) {
    this.#turns = [...turns];
    this.wire = opts.wire ?? TEST_WIRE;
  }

  push(...turns: Turn[]): this {
    this.#turns.push(...turns);
    return this;
  }

  get remaining(): number {
    return this.#turns.length;
  }

  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const index = this.requests.length;
    this.requests.push({
      input: structuredClone(request.input),
      tools: request.tools,
      ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
      ...(request.previousResponseId !== undefined ? { previousResponseId: request.previousResponseId } : {}),
      aborted: () => !!request.signal?.aborted,
    });
    const turn = this.#turns.shift();
    if (!turn) throw new Error(`ScriptedModel: no turn scripted for request #${index + 1}`);
    const steps = typeof turn === 'function' ? turn(request, index) : turn;
    const signal = request.signal;
    const counter = (d: number) => {
      this.open += d;
    };
    const encoder = this.wire === 'chat' ? new ChatWireEncoder() : undefined;
    return {
      async *[Symbol.asyncIterator]() {
        counter(1);
        try {
          for (const step of steps) {
            await Promise.resolve();
            if (signal?.aborted) throw abortError();
            if (step.type === 'wait') await Promise.race([step.until, untilAborted(signal)]);
            else if (step.type === 'hang') await untilAborted(signal);
            else if (step.type === 'throw') throw step.error;
            else if (step.type === 'call') step.fn();
            else if (encoder) yield* encoder.push(step);
            else yield step;
          }
        } finally {
          counter(-1);
        }
      },
    };
  }
}

// ---- turn builders ------------------------------------------------------------------------------------------------

let counter = 0;
const next = (prefix: string) => `${prefix}_${++counter}`;

export const DEFAULT_USAGE: Usage = { inputTokens: 10, outputTokens: 5 };

export function created(responseId = next('resp')): ModelEvent {
  return { type: 'created', responseId, model: 'scripted' };
}

export function completed(responseId: string, usage: Usage = DEFAULT_USAGE, latencyMs = 12.5): ModelEvent {
  return { type: 'completed', responseId, model: 'scripted', usage, latencyMs };
}

/** The events of one assistant message: deltas (split in two) and its item.done. */
export function messageSteps(text: string, itemId = next('msg')): Step[] {
  const half = Math.ceil(text.length / 2);
  const item: ResponseItem = {
    type: 'message',
    id: itemId,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  return [
    { type: 'text.delta', itemId, delta: text.slice(0, half) },
    { type: 'text.delta', itemId, delta: text.slice(half) },
    { type: 'item.done', item },
  ];
}

export function reasoningSteps(summary: string, itemId = next('rs')): Step[] {
  return [
    { type: 'reasoning.delta', itemId, delta: summary },
    {
      type: 'item.done',
      item: {
        type: 'reasoning',
        id: itemId,
        summary: [{ type: 'summary_text', text: summary }],
        encrypted_content: 'enc',
      },
    },
  ];
}

export interface CallSpec {
  name: string;
  /** An object (JSON-encoded) or a raw string (sent as is, e.g. malformed JSON). */
  args?: unknown;
  callId?: string;
}

export function callSteps(spec: CallSpec): Step[] {
  const itemId = next('fc');
  const callId = spec.callId ?? next('call');
  const args = typeof spec.args === 'string' ? spec.args : JSON.stringify(spec.args ?? {});
  const half = Math.ceil(args.length / 2);
  return [
    { type: 'function_call.added', itemId, callId, name: spec.name },
    { type: 'function_call.arguments.delta', itemId, delta: args.slice(0, half) },
    { type: 'function_call.arguments.delta', itemId, delta: args.slice(half) },
    { type: 'function_call.done', itemId, callId, name: spec.name, arguments: args },
    {
      type: 'item.done',
      item: {
        type: 'function_call',
        id: itemId,
        call_id: callId,
        name: spec.name,
        arguments: args,
        status: 'completed',
      },
    },
  ];
}

/** A full response: a text reply. */
export function say(text: string, opts: { usage?: Usage; responseId?: string } = {}): Step[] {
  const id = opts.responseId ?? next('resp');
  return [created(id), ...messageSteps(text), completed(id, opts.usage)];
}

/** A full response with function calls (optionally preceded by text). */
export function calls(specs: CallSpec[], opts: { text?: string; usage?: Usage; responseId?: string } = {}): Step[] {
  const id = opts.responseId ?? next('resp');
  return [
    created(id),
    ...(opts.text ? messageSteps(opts.text) : []),
    ...specs.flatMap(callSteps),
    completed(id, opts.usage),
  ];
}

/** A response that fails after `before` steps. */
export function failing(error: Partial<ModelErrorInfo> = {}, before: Step[] = []): Step[] {
  return [
    created(),
    ...before,
    {
      type: 'failed',
      error: {
        kind: 'server',
        message: 'The server failed (500). Retry later.',
        retryable: true,
        status: 500,
        ...error,
      },
    },
  ];
}

/** Deferred promise helper for gating steps and tools. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
