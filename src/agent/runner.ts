/**
 * The run loop's public face. One run per conversation at a time; several conversations may run at once.
 *
 *   send(text) → user message persisted → [model turn (turn.ts) → items persisted as they complete → function calls
 *   executed in order (toolPhase.ts) → one function_call_output each] × n → a response with no calls (`completed`)
 *   or `agent.max_turns` responses (`max_turns`) — or a stop, an error, an approval pause (endings.ts).
 *
 * Everything needed to continue lives in IndexedDB: the transcript and the RunState, written together in one
 * transaction at every step boundary (session.ts). See README.md in this folder for the retry and resume rules.
 */
import { keptHandles } from './context/kept.ts';
import type { ModelClient } from '../models/events.ts';
import { ConversationNotFoundError, type ConversationStore } from '../storage/conversations.ts';
import type { SitePermissions } from '../storage/sitePermissions.ts';
import { emptyUsage, type RunError, type RunState } from '../storage/runRecords.ts';
import type { AgentEvent, AgentEventListener } from './agentEvents.ts';
import type { AgentToolHost } from './toolHost.ts';
import { isLocalItem, userMessage } from './transcript.ts';
import { KeepAlive, defaultKeepAlivePing, defaultTimers, type Timers } from './timing.ts';
import { RunSession, type AgentConfigView, type RunnerDeps } from './session.ts';
import { modelTurn } from './turn.ts';
import { reconcileCalls, runTools } from './toolPhase.ts';
import { abortRun, failRun, finishRun, settleRun } from './endings.ts';
import { deniedShareOutput, isShareApproval, type TabAccess } from './tabAccess.ts';
import { deniedFlowOutput } from './flowFacts.ts';
import { deniedScopeOutput, widenedBy } from './scopeGate.ts';
import { scopeFromWords } from './scopeRules.ts';
import { mergeModelScope, scopeByModel, SCOPE_TIMEOUT_MS } from './scopeModel.ts';
import { widenScope, type TaskScope } from '../shared/taskScope.ts';
import { siteHost } from '../shared/origin.ts';
import { InlineApprovals } from './inlineApprovals.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export type { AgentConfigView } from './session.ts';

export interface AgentRunnerOptions {
  model: ModelClient;
  tools: AgentToolHost;
  store: ConversationStore;
  sites: SitePermissions;
  /** Which tabs a run may reach (Otto's tab group, #27). Absent: every tab (unit tests, a browser of the run's own). */
  tabs?: TabAccess;
  /** Read at the start of every drive (send, approve, deny, resume), so config edits apply to the next step. */
  config: () => AgentConfigView | Promise<AgentConfigView>;
  /** The origin of the page a tool call would act on (e.g. the active tab's), if any. Used for approvals. */
  origin?: (conversationId: string) => string | undefined | Promise<string | undefined>;
  /** Instructions for each request; default `agent.instructions` (omitted when empty). */
  instructions?: (conversationId: string, config: AgentConfigView) => string | undefined | Promise<string | undefined>;
  /** A cheap extension API call that keeps the worker alive; default `chrome.runtime.getPlatformInfo`. */
  keepAlive?: () => unknown;
  /** Default 20 000 ms. */
  keepAliveIntervalMs?: number;
  /** A tool call not finished after this long is aborted and reported as timed out. Default 120 000 ms; 0 = never. */
  toolTimeoutMs?: number;
  /** Wall clock for timestamps (default Date.now). */
  now?: () => number;
  /** Monotonic clock for durations (default performance.now). */
  elapsed?: () => number;
  timers?: Timers;
  newId?: () => string;
  onEvent?: AgentEventListener;
}

export class RunBusyError extends Error {
  constructor(readonly conversationId: string) {
    super('a run is already active in this conversation');
    this.name = 'RunBusyError';
  }
}

export class NoPendingApprovalError extends Error {
  constructor(
    readonly conversationId: string,
    readonly callId: string,
  ) {
    super(`no approval is pending for call '${callId}' in this conversation`);
    this.name = 'NoPendingApprovalError';
  }
}

export class NothingToResumeError extends Error {
  constructor(readonly conversationId: string) {
    super('this conversation has no run to resume');
    this.name = 'NothingToResumeError';
  }
}

/** A conversation claimed by this runner: claimed synchronously, so two calls can never race into one run. */
interface Slot {
  controller: AbortController;
  session?: RunSession;
  done?: Promise<RunState>;
}

export class AgentRunner {
  readonly #deps: RunnerDeps;
  readonly #config: () => AgentConfigView | Promise<AgentConfigView>;
  readonly #newId: () => string;
  readonly #listeners = new Set<AgentEventListener>();
  readonly #active = new Map<string, Slot>();
  readonly #keepAlive: KeepAlive;

  constructor(opts: AgentRunnerOptions) {
    this.#config = opts.config;
    this.#newId = opts.newId ?? (() => crypto.randomUUID());
    if (opts.onEvent) this.#listeners.add(opts.onEvent);
    const timers = opts.timers ?? defaultTimers;
    this.#deps = {
      model: opts.model,
      tools: opts.tools,
      store: opts.store,
      sites: opts.sites,
      tabs: opts.tabs,
      origin: opts.origin,
      instructions: opts.instructions,
      toolTimeoutMs: opts.toolTimeoutMs ?? 120_000,
      now: opts.now ?? Date.now,
      elapsed: opts.elapsed ?? (() => performance.now()),
      timers,
      emit: (event) => this.#emit(event),
      inline: new InlineApprovals(),
    };
    this.#keepAlive = new KeepAlive({
      ping: opts.keepAlive ?? defaultKeepAlivePing,
      intervalMs: opts.keepAliveIntervalMs ?? 20_000,
      timers,
      onTick: () => this.#heartbeat(),
    });
  }

  // ---- public API ------------------------------------------------------------------------------------------------

  /** Listens to every event of every conversation; returns the unsubscribe function. */
  subscribe(listener: AgentEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** True while a run of this conversation executes in this worker. */
  isActive(conversationId: string): boolean {
    return this.#active.has(conversationId);
  }

  activeConversations(): string[] {
    return [...this.#active.keys()];
  }

  get keepAliveRunning(): boolean {
    return this.#keepAlive.running;
  }

  /** The live state of an active run, else the persisted one. */
  async getState(conversationId: string): Promise<RunState | undefined> {
    return this.#active.get(conversationId)?.session?.state ?? this.#deps.store.getRun(conversationId);
  }

  /**
   * Appends the user's message and runs until the reply is complete, `max_turns`, an error, an approval pause or a
   * stop. Resolves with the final state; rejects with RunBusyError (a run is active) or ConversationNotFoundError.
   * A previous run left unfinished (error, interrupted, awaiting approval) is settled first: its open function calls
   * get an error output, so no message is lost and the transcript stays valid.
   */
  send(conversationId: string, text: string, opts: { caller?: string; scope?: TaskScope } = {}): Promise<RunState> {
    return this.#begin(conversationId, async (slot) => {
      const { conversation, run: prev, items } = await this.#deps.store.load(conversationId);
      if (!conversation) throw new ConversationNotFoundError(conversationId);
      const session = this.#attach(slot, conversationId, prev ?? this.#freshState(conversationId));
      session.adoptTranscript(items);
      if (prev) await settleRun(session);
      session.state = this.#freshState(conversationId, session.state);
      // #42: what the task may do, from the user's words alone (widened by each new message, never narrowed).
      // A scheduled run (#46) brings the scope agreed when it was scheduled: fixed, never derived again or widened.
      if (opts.scope) session.state.taskScope = opts.scope;
      else {
        const host = siteHost(await this.#runOrigin(conversationId));
        // A bridge session's message is Otto's own words about the client's call, and its "model" is the client: the
        // rules read it (read-only), never a model call.
        const scope = opts.caller
          ? scopeFromWords(text, host)
          : await this.#scopeOf(text, host, slot.controller.signal);
        session.state.taskScope = widenScope(prev?.taskScope, opts.caller ? { ...scope, caller: opts.caller } : scope);
      }
      await session.commit(undefined, [userMessage(text)], text);
      session.emitStatus();
      return this.#drive(session);
    });
  }

  /**
   * The scope one user message asks for (#42): the rules, widened by one model call that sees this message only when
   * `agent.task_scope` is `model`. A failed or late call leaves the rules' scope.
   */
  async #scopeOf(text: string, runHost: string | undefined, signal: AbortSignal): Promise<TaskScope> {
    const rules = scopeFromWords(text, runHost);
    if ((await this.#config()).agent.task_scope !== 'model') return rules;
    const answer = await scopeByModel(
      this.#deps.model,
      [text],
      AbortSignal.any([signal, AbortSignal.timeout(SCOPE_TIMEOUT_MS)]),
    );
    return 'error' in answer ? rules : mergeModelScope(rules, answer);
  }

  /**
   * Stops the conversation's run: aborts the stream and the running tool, gives every function call without output
   * `Error: aborted by the user`, notes the stop in the transcript, and leaves status `idle` with stopReason
   * `aborted`. Also cancels a pending approval or an interrupted/failed run. Resolves when the run has settled.
   */
  async stop(conversationId: string): Promise<RunState | undefined> {
    const slot = this.#active.get(conversationId);
    if (slot) {
      slot.controller.abort();
      return slot.done?.catch(() => this.#deps.store.getRun(conversationId));
    }
    const state = await this.#deps.store.getRun(conversationId);
    if (!state || state.status === 'idle' || state.status === 'completed') return state;
    return this.#begin(conversationId, async (s) => {
      const fresh = await this.#deps.store.getRun(conversationId);
      if (!fresh) throw new NothingToResumeError(conversationId);
      return abortRun(this.#attach(s, conversationId, fresh));
    });
  }

  /**
   * Continues a run purely from what was persisted: an interrupted or failed model turn is requested again (its
   * partial output discarded); function calls without output are executed (except a non-read-only call that was
   * already running when the worker died: the model gets an error saying its effect is unknown). A run awaiting
   * approval re-announces the approval; a finished run is returned as it is.
   */
  resume(conversationId: string): Promise<RunState> {
    return this.#begin(conversationId, async (slot) => {
      const state = await this.#deps.store.getRun(conversationId);
      if (!state) throw new NothingToResumeError(conversationId);
      const session = this.#attach(slot, conversationId, state);
      if (state.status === 'awaiting_approval' && state.approval) {
        session.emit({ type: 'approval.required', approval: state.approval });
        session.emitStatus();
        return state;
      }
      if (state.status === 'idle' || state.status === 'completed') return state;
      // An answer was saved but the run not marked finished (a worker that died in between, before the answer and
      // the end were one write): the run is over — asking the model again would continue past its own answer.
      if (state.phase === 'model' && state.responseStartSeq === undefined && (await endsWithAnswer(session))) {
        return finishRun(session, 'completed', (await this.#config()).agent.max_turns);
      }
      if (state.phase === 'model' && state.responseStartSeq !== undefined) {
        await session.truncate(state.responseStartSeq, 'resume');
      }
      if (state.phase === 'tools') await reconcileCalls(session);
      await session.commit((s) => {
        s.status = 'running';
        s.lastError = undefined;
        s.stopReason = undefined;
      });
      session.emitStatus();
      return this.#drive(session);
    });
  }

  /** Retries a failed (or interrupted) run: the same as `resume`. */
  retry(conversationId: string): Promise<RunState> {
    return this.resume(conversationId);
  }

  /** Approves the pending destructive call (`site`: also every later one on the same origin) and continues. */
  approve(conversationId: string, callId: string, scope: 'once' | 'site' | 'task' = 'once'): Promise<RunState> {
    // A call inside a running program waits for this answer in memory; the program goes on by itself.
    if (this.#deps.inline?.answer(conversationId, callId, { allowed: true, scope }))
      return this.#current(conversationId);
    return this.#begin(conversationId, async (slot) => {
      const state = await this.#pendingApproval(conversationId, callId);
      const session = this.#attach(slot, conversationId, state);
      if (isShareApproval(state.approval)) {
        // Sharing a tab is not approving the call: it goes back to pending and meets its usual checks.
        await this.#deps.tabs?.share(conversationId, state.approval.share.tabId, scope === 'site' ? 'site' : 'once');
        await session.commit((s) => {
          s.status = 'running';
          s.approval = undefined;
          const pc = s.pendingCalls.find((c) => c.callId === callId);
          if (pc) pc.status = 'pending';
        });
        session.emitStatus();
        return this.#drive(session);
      }
      const origin = state.approval?.origin;
      const flow = state.approval?.flow;
      const outOfScope = state.approval?.outOfScope;
      // For a data flow, "always" is for this pair of sites (each source → the destination). A card that asked about
      // the action too (its target's site) grants that site as well: the user answered one question naming both.
      // #42: a card about an action outside the task is never answered "always on this site" (only "for this task").
      const bySite = scope === 'site' && !outOfScope && (flow ? true : !!origin);
      const wider = scope === 'task' && outOfScope ? widenedBy(state.taskScope, outOfScope) : undefined;
      if (bySite && flow) for (const from of flow.from) await this.#deps.sites.allowFlow(from, flow.to);
      if (bySite && origin && (!flow || state.approval?.targetAsks)) await this.#deps.sites.allow(origin);
      await session.commit((s) => {
        s.status = 'running';
        s.approval = undefined;
        if (wider) s.taskScope = wider;
        const pc = s.pendingCalls.find((c) => c.callId === callId);
        if (pc) {
          pc.status = 'approved';
          pc.approvedBy = bySite ? 'site' : 'once';
          // Once: exactly this flow, for this call (a program stopped at a sink runs again with it).
          if (flow && !bySite) pc.flowGrants = [...(pc.flowGrants ?? []), { from: [...flow.from], to: flow.to }];
        }
      });
      session.emitStatus();
      return this.#drive(session);
    });
  }

  /** Denies the pending call: the model gets `Error: the user denied <tool>` and the run continues. */
  deny(conversationId: string, callId: string): Promise<RunState> {
    if (this.#deps.inline?.answer(conversationId, callId, { allowed: false })) return this.#current(conversationId);
    return this.#begin(conversationId, async (slot) => {
      const state = await this.#pendingApproval(conversationId, callId);
      const session = this.#attach(slot, conversationId, state);
      const name = state.approval?.name ?? callId;
      const asked = state.approval?.outOfScope;
      const output = isShareApproval(state.approval)
        ? deniedShareOutput(state.approval.share)
        : asked
          ? deniedScopeOutput(name, asked)
          : deniedFlowOutput(name, state.approval?.flow);
      await session.finishCall(
        callId,
        name,
        { output, status: 'error', outcome: 'denied', reason: 'denied', durationMs: 0 },
        (s) => {
          s.status = 'running';
          s.approval = undefined;
        },
      );
      session.emitStatus();
      return this.#drive(session);
    });
  }

  /**
   * At worker start-up: every run persisted as `running` that is not active here died with a previous worker; mark
   * it `interrupted` (the panel offers resume). Returns the conversation ids. Call before handling messages.
   */
  async recoverInterrupted(): Promise<string[]> {
    const { store, now } = this.#deps;
    const out: string[] = [];
    for (const r of await store.listRuns()) {
      if (r.status !== 'running' || this.#active.has(r.conversationId)) continue;
      const next = await store.markInterrupted(r.conversationId, now());
      if (!next) continue;
      out.push(r.conversationId);
      this.#emit({
        type: 'run.status',
        conversationId: r.conversationId,
        status: next.status,
        turn: next.turn,
        stopReason: 'interrupted',
      });
    }
    return out;
  }

  /** Stops the conversation's run (if any) and deletes the conversation, its transcript and its run state. */
  async deleteConversation(conversationId: string): Promise<boolean> {
    const slot = this.#active.get(conversationId);
    if (slot) {
      slot.controller.abort();
      await slot.done?.catch(() => undefined);
    }
    // #23: the outputs behind its stubs go with it (they would otherwise wait for their expiry).
    const handles = this.#deps.tools.forget
      ? keptHandles(await this.#deps.store.transcript(conversationId).catch(() => []))
      : [];
    const deleted = await this.#deps.store.delete(conversationId);
    if (handles.length) await this.#deps.tools.forget?.(handles).catch(() => undefined);
    return deleted;
  }

  // ---- the loop --------------------------------------------------------------------------------------------------

  async #drive(session: RunSession): Promise<RunState> {
    try {
      const cfg = await this.#config();
      // #23: what this conversation's stubs stand for stays readable while its runs go on (context/kept.ts).
      if (this.#deps.tools.renew) {
        const handles = keptHandles(await session.transcript());
        if (handles.length) await this.#deps.tools.renew(handles).catch(() => undefined);
      }
      // The config's tool timeout (seconds) wins over the constructor's default, so a settings change applies.
      if (cfg.agent.tool_timeout !== undefined) this.#deps.toolTimeoutMs = cfg.agent.tool_timeout * 1000;
      for (;;) {
        session.checkAbort();
        if (session.state.phase === 'tools') {
          if (await runTools(session, cfg)) return session.state; // paused for an approval
          session.checkAbort();
          // Staged: the next write carries it (the next response's first item, or the end of the run). Every call
          // is answered in what is stored, so a resume from the tool phase would move on to the model by itself.
          session.stage((s) => {
            s.phase = 'model';
            s.pendingCalls = [];
          });
        }
        if (session.state.turn >= cfg.agent.max_turns)
          return await finishRun(session, 'max_turns', cfg.agent.max_turns);
        const outcome = await modelTurn(session, cfg);
        if (outcome === 'failed') return session.state;
        if (outcome === 'done') return await finishRun(session, 'completed', cfg.agent.max_turns);
      }
    } catch (err) {
      if (session.signal.aborted) return abortRun(session);
      if (err instanceof ConversationNotFoundError) return session.state; // deleted meanwhile: nothing to keep
      const error: RunError = isQuotaError(err)
        ? { kind: 'storage_full', message: STORAGE_FULL_MESSAGE, retryable: true }
        : {
            kind: 'internal',
            message: `Otto failed: ${errorMessage(err)}`,
            retryable: true,
          };
      try {
        return await failRun(session, error);
      } catch {
        // Recording the failure failed too (the disk is still full): tell the panel anyway. What was saved stays
        // saved; the stored state still says running, so the next start shows the run as interrupted.
        session.state.status = 'error';
        session.state.stopReason = 'error';
        session.state.lastError = error;
        session.emitStatus();
        return session.state;
      }
    }
  }

  // ---- bookkeeping -----------------------------------------------------------------------------------------------

  #begin(conversationId: string, body: (slot: Slot) => Promise<RunState>): Promise<RunState> {
    if (this.#active.has(conversationId)) return Promise.reject(new RunBusyError(conversationId));
    const slot: Slot = { controller: new AbortController() };
    this.#active.set(conversationId, slot);
    this.#keepAlive.update(this.#active.size);
    const done = (async () => {
      try {
        return await body(slot);
      } finally {
        await slot.session?.writes;
        this.#active.delete(conversationId);
        this.#keepAlive.update(this.#active.size);
      }
    })();
    slot.done = done;
    return done;
  }

  #attach(slot: Slot, conversationId: string, state: RunState): RunSession {
    slot.session = new RunSession(this.#deps, conversationId, slot.controller.signal, state);
    return slot.session;
  }

  #freshState(conversationId: string, prev?: RunState): RunState {
    const now = this.#deps.now();
    return {
      conversationId,
      runId: this.#newId(),
      status: 'running',
      phase: 'model',
      turn: 0,
      pendingCalls: [],
      usage: emptyUsage(),
      startedAt: now,
      updatedAt: now,
      heartbeatAt: now,
      ...(prev?.lastResponseId ? { lastResponseId: prev.lastResponseId } : {}),
      ...(prev?.chain ? { chain: prev.chain } : {}),
      // The model's context still holds what earlier runs read: the origin set goes on with the conversation.
      ...(prev?.origins?.length ? { origins: prev.origins } : {}),
    };
  }

  /** The origin of the tab the user started the run on (the scope's own site), if any. */
  async #runOrigin(conversationId: string): Promise<string | undefined> {
    try {
      return (await this.#deps.origin?.(conversationId)) || undefined;
    } catch {
      return undefined;
    }
  }

  /** The run's state as it is now (the live one while it runs). */
  async #current(conversationId: string): Promise<RunState> {
    const live = this.#active.get(conversationId)?.session?.state;
    if (live) return live;
    const stored = await this.#deps.store.getRun(conversationId);
    if (!stored) throw new NothingToResumeError(conversationId);
    return stored;
  }

  async #pendingApproval(conversationId: string, callId: string): Promise<RunState> {
    const state = await this.#deps.store.getRun(conversationId);
    if (!state || state.status !== 'awaiting_approval' || state.approval?.callId !== callId) {
      throw new NoPendingApprovalError(conversationId, callId);
    }
    return state;
  }

  /** Keep-alive tick: refresh the heartbeat of every active run (written in order with its other writes). */
  #heartbeat(): void {
    for (const slot of this.#active.values()) {
      if (slot.session) void slot.session.commit().catch(() => undefined);
    }
  }

  #emit(event: AgentEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure (a closed port) must not break the run.
      }
    }
  }
}

/** True when the transcript's last item sent to the model is the model's own message (its final answer). */
async function endsWithAnswer(session: RunSession): Promise<boolean> {
  const records = await session.transcript();
  const last = [...records].reverse().find((r) => !isLocalItem(r.item as { type: unknown }));
  return !!last && last.item.type === 'message' && last.item.role === 'assistant';
}

export const STORAGE_FULL_MESSAGE =
  "Otto's storage is full, so the rest of this run could not be saved. Everything saved before is kept. Free space " +
  '(delete old conversations or stored results, or free disk space), then Retry.';

/** IndexedDB's quota failure, however the engine wraps it. */
export function isQuotaError(err: unknown): boolean {
  const e = err as { name?: string; message?: string; inner?: unknown } | undefined;
  return (
    !!e && (e.name === 'QuotaExceededError' || /quota/i.test(e.message ?? '') || (!!e.inner && isQuotaError(e.inner)))
  );
}
