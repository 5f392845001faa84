/**
 * One active run of one conversation: its state, its serial write queue, and the helpers every phase uses.
 * All state changes go through `commit` (or `truncate`), which write a snapshot of the state together with the
 * transcript change in one IndexedDB transaction, in the order they were made.
 */
import type { ModelClient, ResponseItem } from '../models/events.ts';
import type { OttoConfig } from '../config/schema.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import type { SitePermissions } from '../storage/sitePermissions.ts';
import type { ItemRecord } from '../storage/records.ts';
import type { PendingCall, RunState } from '../storage/runRecords.ts';
import type { AgentEvent } from './events.ts';
import type { AgentToolHost, ToolInfo } from './toolHost.ts';
import type { FunctionCallItem, OutputPart } from './transcript.ts';
import { functionCallOutput, preview } from './transcript.ts';
import { AbortedError, type Timers } from './timing.ts';

/** The part of the config the loop reads (OttoConfig satisfies it). Read at the start of every drive. */
export interface AgentConfigView {
  agent: Pick<OttoConfig['agent'], 'max_turns' | 'previous_response_id' | 'instructions'> & { tool_timeout?: number };
  approvals: Pick<OttoConfig['approvals'], 'policy' | 'allowed_origins'>;
}

/** What the phases need from the runner. */
export interface RunnerDeps {
  model: ModelClient;
  tools: AgentToolHost;
  store: ConversationStore;
  sites: SitePermissions;
  origin: ((conversationId: string) => string | undefined | Promise<string | undefined>) | undefined;
  instructions:
    | ((conversationId: string, config: AgentConfigView) => string | undefined | Promise<string | undefined>)
    | undefined;
  toolTimeoutMs: number;
  now: () => number;
  elapsed: () => number;
  timers: Timers;
  emit: (event: AgentEvent) => void;
}

/** The model response being streamed. */
export interface Inflight {
  startSeq: number;
  nextSeq: number;
  /** Text of messages not completed yet, by item id (kept as a partial message if the user stops). */
  partialText: Map<string, string>;
  callIdByItem: Map<string, string>;
  /** function_call.done events, in case a call never gets its item.done. */
  announced: Map<string, { name: string; arguments: string; itemId: string }>;
  doneCalls: FunctionCallItem[];
}

export type FinishReason = Extract<AgentEvent, { type: 'tool.finished' }>['reason'];

export interface CallResult {
  /** The output as text (for previews; and what the model gets unless `parts` is set). */
  output: string;
  /** Content parts the model gets instead of `output` (an image from tabs.screenshot). */
  parts?: OutputPart[];
  status: 'ok' | 'error';
  outcome: NonNullable<PendingCall['outcome']>;
  reason?: FinishReason;
  durationMs: number;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type SessionEvent = DistributiveOmit<AgentEvent, 'conversationId'>;

export const round2 = (n: number) => Math.round(n * 100) / 100;

export class RunSession {
  /** The latest state (possibly not yet written: writes are queued in order). */
  state: RunState;
  inflight: Inflight | undefined;
  /** Serial write queue: snapshots reach IndexedDB in the order they were taken. */
  writes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly deps: RunnerDeps,
    readonly conversationId: string,
    readonly signal: AbortSignal,
    state: RunState,
  ) {
    this.state = state;
  }

  /**
   * Clone the state, mutate it, and write the snapshot together with `items` (one transaction), after every earlier
   * write of this run. Emits an `item` event per persisted item.
   */
  async commit(mutate?: (s: RunState) => void, items: ResponseItem[] = [], titleIfEmpty?: string): Promise<ItemRecord[]> {
    const next = this.#next(mutate);
    const write = this.writes.then(() =>
      this.deps.store.append(this.conversationId, items, { run: next, ...(titleIfEmpty ? { titleIfEmpty } : {}) }),
    );
    this.writes = write.catch(() => undefined);
    const recs = await write;
    for (const r of recs) this.emit({ type: 'item', seq: r.seq, item: r.item as ResponseItem });
    return recs;
  }

  /** Removes the transcript's tail from `fromSeq` and writes the (mutated) state in the same transaction. */
  async truncate(
    fromSeq: number,
    reason: Extract<AgentEvent, { type: 'items.discarded' }>['reason'],
    mutate?: (s: RunState) => void,
  ): Promise<void> {
    const next = this.#next(mutate);
    const write = this.writes.then(() => this.deps.store.truncate(this.conversationId, fromSeq, next));
    this.writes = write.catch(() => undefined);
    if (await write) this.emit({ type: 'items.discarded', fromSeq, reason });
  }

  #next(mutate?: (s: RunState) => void): RunState {
    const next = structuredClone(this.state);
    mutate?.(next);
    next.updatedAt = next.heartbeatAt = this.deps.now();
    this.state = next;
    return next;
  }

  emit(event: SessionEvent): void {
    this.deps.emit({ ...event, conversationId: this.conversationId } as AgentEvent);
  }

  emitStatus(): void {
    const s = this.state;
    this.emit({
      type: 'run.status',
      status: s.status,
      turn: s.turn,
      ...(s.stopReason ? { stopReason: s.stopReason } : {}),
      ...(s.lastError ? { error: s.lastError } : {}),
    });
  }

  checkAbort(): void {
    if (this.signal.aborted) throw new AbortedError();
  }

  lookup(apiName: string): ToolInfo | undefined {
    try {
      return this.deps.tools.lookup(apiName);
    } catch {
      return undefined;
    }
  }

  /** The name shown to the user: qualified, never the encoded one. */
  displayName(apiName: string): string {
    return this.lookup(apiName)?.qualifiedName ?? apiName;
  }

  /** Persists a call's output and marks it done in the same transaction; emits tool.finished. */
  async finishCall(callId: string, name: string, result: CallResult, also?: (s: RunState) => void): Promise<void> {
    await this.commit(
      (s) => {
        const pc = s.pendingCalls.find((c) => c.callId === callId);
        if (pc) {
          pc.status = 'done';
          pc.outcome = result.outcome;
          pc.durationMs = result.durationMs;
        }
        also?.(s);
      },
      [functionCallOutput(callId, result.parts ?? result.output)],
    );
    this.emitFinished(callId, name, result);
  }

  emitFinished(callId: string, name: string, result: CallResult): void {
    this.emit({
      type: 'tool.finished',
      callId,
      name,
      status: result.status,
      ...(result.reason ? { reason: result.reason } : {}),
      durationMs: result.durationMs,
      output: preview(result.output),
    });
  }
}
