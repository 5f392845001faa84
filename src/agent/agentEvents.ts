/**
 * What the runner tells the UI (the worker forwards these to the panel). Live deltas are for display only; the
 * `item` events carry what was persisted, so a panel that missed deltas (or reopened the conversation) can rebuild
 * everything from items plus `run.status`.
 */
import type { ResponseItem, Usage } from '../models/events.ts';
import type { AnswerLink } from '../shared/answerLink.ts';
import type { PendingApproval, RunError, RunStatus, StopReason, UsageTotals } from '../storage/runRecords.ts';
import type { TaskScope } from '../shared/taskScope.ts';

type Ev<T extends string, P> = { type: T; conversationId: string } & P;

export type AgentEvent =
  /** The run's status changed; `turn` = model responses completed in this run. */
  | Ev<
      'run.status',
      /** `taskScope` (#42): what the user's words ask the task to do, for the panel's "Task: …" line. */
      { status: RunStatus; turn: number; stopReason?: StopReason; error?: RunError; taskScope?: TaskScope }
    >
  /**
   * An item was persisted at `seq` (user message, completed output item, function_call_output, `otto.note`); an
   * assistant message with links carries the verdict on each (answerLinkCheck.ts).
   */
  | Ev<'item', { seq: number; item: ResponseItem; links?: AnswerLink[] }>
  /**
   * Persisted items from `fromSeq` on were removed: the partial output of a response that did not complete (it is
   * requested again). The panel drops them and any live bubbles of that response.
   */
  | Ev<'items.discarded', { fromSeq: number; reason: 'retrying' | 'failed' | 'resume' | 'settled' | 'aborted' }>
  | Ev<'text.delta', { itemId: string; delta: string }>
  | Ev<'reasoning.delta', { itemId: string; delta: string }>
  /** The model started a function call (its arguments stream next). `name` is the qualified name. */
  | Ev<'tool.started', { callId: string; itemId: string; name: string }>
  | Ev<'tool.args.delta', { callId: string; delta: string }>
  | Ev<'tool.args.done', { callId: string; arguments: string }>
  /** The call is being executed. */
  | Ev<'tool.running', { callId: string; name: string; arguments: string }>
  /** The call has its output (persisted). `output` is a preview (at most 2000 characters). */
  | Ev<
      'tool.finished',
      {
        callId: string;
        name: string;
        status: 'ok' | 'error';
        reason?: 'invalid_arguments' | 'unknown_tool' | 'timeout' | 'denied' | 'aborted' | 'interrupted' | 'skipped';
        durationMs: number;
        output: string;
      }
    >
  /** A destructive call waits for approve/deny; the run has paused (status `awaiting_approval`). */
  | Ev<'approval.required', { approval: PendingApproval }>
  /** The model client has something to tell the user about the connection (shown once, as an info banner). */
  | Ev<'notice', { message: string }>
  /** The model client retries a request (429, 5xx...). */
  | Ev<'retrying', { attempt: number; delayMs: number; reason: string }>
  /** A model response completed: per-turn usage and latency (for stats). */
  | Ev<
      'turn.completed',
      {
        turn: number;
        responseId: string;
        model?: string;
        usage?: Usage;
        /** Set when the API ended the response early (max_output_tokens, content_filter). */
        incompleteReason?: string;
        latencyMs: number;
        toolCalls: number;
        totals: UsageTotals;
        /** The request's size against the context budget (#23): the panel's context meter. */
        context?: { tokens: number; budget: number; cachedTokens?: number; fixedTokens?: number };
      }
    >;

export type AgentEventListener = (event: AgentEvent) => void;
