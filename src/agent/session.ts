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
import type { AgentEvent } from './agentEvents.ts';
import type { TabAccess } from './tabAccess.ts';
import type { AgentToolHost, FlowBlock, ToolInfo } from './toolHost.ts';
import type { FunctionCallItem, OutputPart } from './transcript.ts';
import { functionCallOutput, preview } from './transcript.ts';
import { AbortedError, type Timers } from './timing.ts';
import { assistantText, judgeAnswerLinks, linkCorpus } from './answerLinkCheck.ts';
import type { AnswerLink } from '../shared/answerLink.ts';
import type { InlineApprovals } from './inlineApprovals.ts';

/** The part of the config the loop reads (OttoConfig satisfies it). Read at the start of every drive. */
export interface AgentConfigView {
  agent: Pick<OttoConfig['agent'], 'max_turns' | 'previous_response_id' | 'instructions'> & {
    /** `agent.plan_first` and `agent.mode` (#42 part 2): plan first is on in code mode only (shared/planFirst.ts). */
    plan_first?: boolean;
    mode?: OttoConfig['agent']['mode'];
    tool_timeout?: number;
    /** `agent.context_budget` (#23); absent: auto. */
    context_budget?: OttoConfig['agent']['context_budget'];
    /** The model (its known context window sets the automatic budget). */
    model?: string;
    /** `agent.task_scope` (#42): `model` widens the rules' scope by one model call on the user's words. */
    task_scope?: OttoConfig['agent']['task_scope'];
  };
  approvals: Pick<OttoConfig['approvals'], 'policy' | 'allowed_origins'>;
}

/** What the phases need from the runner. */
export interface RunnerDeps {
  model: ModelClient;
  tools: AgentToolHost;
  store: ConversationStore;
  sites: SitePermissions;
  /** Which tabs the run may reach (#27); absent, every tab is in reach (unit tests, the headless CLI). */
  tabs: TabAccess | undefined;
  origin: ((conversationId: string) => string | undefined | Promise<string | undefined>) | undefined;
  instructions:
    ((conversationId: string, config: AgentConfigView) => string | undefined | Promise<string | undefined>) | undefined;
  toolTimeoutMs: number;
  now: () => number;
  elapsed: () => number;
  timers: Timers;
  emit: (event: AgentEvent) => void;
  /** Approvals asked inside a running program (code mode); the runner answers them. */
  inline?: InlineApprovals;
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
  /** Labels of what the call read (data-flow guard), added to the run's origin set with the output. */
  labels?: readonly string[];
  /** The flow the guard stopped the call at while it ran (code mode), to ask the user about. */
  blocked?: FlowBlock;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type SessionEvent = DistributiveOmit<AgentEvent, 'conversationId'>;

/**
 * Each write gets its own snapshot: the live state goes on changing while earlier snapshots wait in the queue. Every
 * nested object of a RunState is flat (runRecords.ts), so one level of copies is a deep copy — several times cheaper
 * than structuredClone, on a path taken at every step.
 */
export function cloneState(state: RunState): RunState {
  const out: RunState = {
    ...state,
    pendingCalls: state.pendingCalls.map((c) => ({ ...c })),
    usage: { ...state.usage },
  };
  if (state.approval) out.approval = { ...state.approval };
  if (state.lastError) out.lastError = { ...state.lastError };
  if (state.chain) out.chain = { ...state.chain };
  if (state.context) out.context = { ...state.context };
  return out;
}

export class RunSession {
  /** The latest state (possibly not yet written: writes are queued in order; `stage` defers a change to the next). */
  state: RunState;
  inflight: Inflight | undefined;
  /** Serial write queue: snapshots reach IndexedDB in the order they were taken. */
  writes: Promise<unknown> = Promise.resolve();
  /**
   * The transcript as stored, kept for this run once read: loaded from the store the first time it is needed (or
   * handed over by `send`, which reads it anyway), and afterwards changed only after a write of this session
   * committed (append → push, truncate → cut), inside the write queue, so it is always a copy of what IndexedDB
   * holds. Only this session writes this conversation's items while its run is active (one run per conversation),
   * so the store need not be read again each turn, and appends need not look up the last seq.
   */
  #records: ItemRecord[] | undefined;
  /** Characters per token of this model's tokenizer, learnt from the server's counts (context/contextBudget.ts). */
  charsPerToken: number | undefined;
  /** The instructions of this drive's requests (turn.ts), once asked. */
  instructions: string | undefined;
  instructionsFixed = false;
  /** A budget the server taught this run: below the request it refused as too long (turn.ts). */
  budgetCap: number | undefined;
  /** The transcript already says this run is over its budget with nothing worth compacting (context/prepare.ts). */
  contextNoted = false;
  /** The last state known to be stored (written by this session, or read at its start). */
  #durable: RunState;
  /** Bumped when a write fails: snapshots taken before that are not written any more (see #failed). */
  #epoch = 0;
  #failure: unknown;

  constructor(
    readonly deps: RunnerDeps,
    readonly conversationId: string,
    readonly signal: AbortSignal,
    state: RunState,
  ) {
    this.state = state;
    this.#durable = state;
  }

  /** Takes the transcript as read from the store (before any write of this session). */
  adoptTranscript(records: ItemRecord[]): void {
    this.#records = records;
  }

  /**
   * The transcript, equal to what is stored once every queued write has landed (waits for them). The array is the
   * session's own: do not modify it.
   */
  async transcript(): Promise<readonly ItemRecord[]> {
    if (this.#records) {
      await this.writes;
      return this.#records;
    }
    const load = this.writes.then(async () => {
      const records = await this.deps.store.transcript(this.conversationId);
      this.#records = records;
      return records;
    });
    this.writes = load.catch(() => undefined);
    return load;
  }

  /**
   * Clone the state, mutate it, and write the snapshot together with `items` (one transaction), after every earlier
   * write of this run. Emits an `item` event per persisted item. The snapshot includes every staged change.
   */
  async commit(
    mutate?: (s: RunState) => void,
    items: ResponseItem[] = [],
    titleIfEmpty?: string,
    labels?: readonly (readonly string[] | undefined)[],
  ): Promise<ItemRecord[]> {
    const next = this.#next(mutate);
    const recs = await this.#enqueue(next, async () => {
      const records = this.#records;
      const seq = records ? (records.length ? records[records.length - 1]!.seq + 1 : 0) : undefined;
      const links = await this.#judgeLinks(items);
      const written = await this.deps.store.append(this.conversationId, items, {
        run: next,
        ...(links ? { links } : {}),
        // The user's message and the run's end move the conversation up the list; the steps between do not.
        touch: !!titleIfEmpty || next.status !== 'running',
        ...(titleIfEmpty ? { titleIfEmpty } : {}),
        ...(seq !== undefined && items.length ? { seq } : {}),
        ...(labels ? { labels } : {}),
      });
      this.#records?.push(...written);
      return written;
    });
    for (const r of recs)
      this.emit({ type: 'item', seq: r.seq, item: r.item as ResponseItem, ...(r.links ? { links: r.links } : {}) });
    return recs;
  }

  /**
   * The verdict on the links of each assistant message among `items` (answerLinkCheck.ts), judged against the
   * transcript before them; undefined when there is none to judge. Runs inside the write queue, so the transcript
   * is read from the store directly when this session has not loaded it.
   */
  async #judgeLinks(items: readonly ResponseItem[]): Promise<(AnswerLink[] | undefined)[] | undefined> {
    const texts = items.map((i) => assistantText(i));
    // Every link marked finds holds one of these (a `www.` autolink has no scheme).
    if (!texts.some((t) => t && /https?:|www\./i.test(t))) return undefined;
    try {
      const records = this.#records ?? (await this.deps.store.transcript(this.conversationId));
      const corpus = linkCorpus(records);
      return texts.map((t) => (t ? judgeAnswerLinks(t, corpus) : undefined));
    } catch {
      // The message is written all the same: with no verdict, the panel asks before opening any of its links.
      return undefined;
    }
  }

  /**
   * Changes the state in memory only; the next write (commit, truncate, heartbeat) carries it. Only for changes
   * after which the last written state is still a valid place to resume from — the state is just one step behind:
   * the start of a model request (until its first item is written, nothing of it is stored) and the move from a
   * finished tool phase to the next request (resume finds every call answered and moves on by itself).
   */
  stage(mutate: (s: RunState) => void): void {
    const next = cloneState(this.state);
    mutate(next);
    this.state = next;
  }

  /** Removes the transcript's tail from `fromSeq` and writes the (mutated) state in the same transaction. */
  async truncate(
    fromSeq: number,
    reason: Extract<AgentEvent, { type: 'items.discarded' }>['reason'],
    mutate?: (s: RunState) => void,
  ): Promise<void> {
    const next = this.#next(mutate);
    const removed = await this.#enqueue(next, async () => {
      const n = await this.deps.store.truncate(this.conversationId, fromSeq, next);
      if (this.#records) this.#records = this.#records.filter((r) => r.seq < fromSeq);
      return n;
    });
    if (removed) this.emit({ type: 'items.discarded', fromSeq, reason });
  }

  /**
   * Runs `write` after every earlier write. A write that fails leaves IndexedDB as it was, so the live state goes
   * back to the last stored one (what the failed write would have recorded did not happen), and the snapshots
   * already queued behind it — taken from the state the failure just disowned — are not written: they fail with the
   * same error. Writes asked for after the failure (ending the run, say) go ahead.
   */
  #enqueue<T>(next: RunState, write: () => Promise<T>): Promise<T> {
    const epoch = this.#epoch;
    const run = this.writes.then(async () => {
      if (epoch !== this.#epoch) throw this.#failure;
      try {
        const out = await write();
        this.#durable = next;
        return out;
      } catch (err) {
        this.#epoch++;
        this.#failure = err;
        this.state = cloneState(this.#durable);
        throw err;
      }
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  #next(mutate?: (s: RunState) => void): RunState {
    const next = cloneState(this.state);
    mutate?.(next);
    next.updatedAt = next.heartbeatAt = this.deps.now();
    this.state = next;
    return next;
  }

  /** `event` must be a fresh object (every caller passes a literal): it gets the conversation id in place. */
  emit(event: SessionEvent): void {
    (event as AgentEvent).conversationId = this.conversationId;
    this.deps.emit(event as AgentEvent);
  }

  emitStatus(): void {
    const s = this.state;
    this.emit({
      type: 'run.status',
      status: s.status,
      turn: s.turn,
      ...(s.stopReason ? { stopReason: s.stopReason } : {}),
      ...(s.lastError ? { error: s.lastError } : {}),
      ...(s.taskScope ? { taskScope: s.taskScope } : {}),
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
          // Its program will not run again (stepJournal.ts): its steps' results need not be stored any more.
          delete pc.stepJournal;
          delete pc.stepsRunning;
        }
        // The output enters the model's context in this write: so do its origins.
        if (result.labels?.length) s.origins = [...new Set([...(s.origins ?? []), ...result.labels])].sort();
        also?.(s);
      },
      [functionCallOutput(callId, result.parts ?? result.output)],
      undefined,
      [result.labels],
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
