/**
 * The persisted state of an agent run, one record per conversation (store `runs`), and the origins where destructive
 * tools are always allowed (store `sitePermissions`). Plain data only: everything here survives structured clone,
 * and together with the transcript it is all a fresh service worker needs to continue a run.
 */
import type { CallTarget } from '../shared/callTarget.ts';
import type { EffectKind, TaskScope } from '../shared/taskScope.ts';
import type { ModelErrorKind } from '../models/events.ts';

export type RunStatus = 'idle' | 'running' | 'awaiting_approval' | 'interrupted' | 'error' | 'completed';

/**
 * Why the last run stopped. `completed`: a response with no function calls; `max_turns`: `agent.max_turns` model
 * responses in one run; `aborted`: the user stopped it; `error`: a model error (see `lastError`); `interrupted`: the
 * worker died while it was running.
 */
export type StopReason = 'completed' | 'max_turns' | 'aborted' | 'error' | 'interrupted';

export interface RunError {
  /**
   * A model error kind, `storage_full` when IndexedDB refused a write (quota), or `internal` for another failure of
   * Otto itself (a tool host bug).
   */
  kind: ModelErrorKind | 'storage_full' | 'internal';
  message: string;
  retryable: boolean;
  status?: number;
  code?: string;
}

/**
 * A function call of the last completed response, in the order the model made them.
 * `status` moves pending → (awaiting_approval → approved) → running → done; `done` means its
 * `function_call_output` is in the transcript (written in the same transaction as this status).
 */
export interface PendingCall {
  callId: string;
  /** The name as the model sent it (API-encoded). */
  name: string;
  /** The resolved qualified name (`dom.click`), when the name is known. */
  qualifiedName?: string;
  /** The raw JSON argument string as the model sent it. */
  arguments: string;
  status: 'pending' | 'awaiting_approval' | 'approved' | 'running' | 'done';
  /** How a destructive call got permission to run. */
  approvedBy?: 'once' | 'site' | 'policy' | 'allowed_origin';
  /** Data flows the user approved once for this call (the data-flow guard lets exactly these through). */
  flowGrants?: { from: string[]; to: string }[];
  /**
   * The questions asked inside this call while it ran (a code-mode program's steps) and the user's answers, each
   * card by its digest (stepAnswers.ts). A program the guard stops runs again from the start after its card's yes:
   * the same card in that run gets the same answer instead of being asked twice.
   */
  stepAnswers?: { card: string; allowed: boolean }[];
  /**
   * The steps this call's program completed, with their results (agent/stepJournal.ts): a program that runs again
   * from the start (after the card on `ot.run`) takes these instead of running them again, so a click or a submit it
   * already made is not made twice. Dropped when the call is done.
   */
  stepJournal?: StepRecord[];
  /**
   * The steps of this call's program that may act, started and not completed, the innermost last (a step that runs a
   * program encloses its steps): written before such a step runs, so a worker that dies during it leaves it named
   * (agent/stepJournal.ts). Dropped when the call is done.
   */
  stepsRunning?: StepPlace[];
  /** Set with `done`. */
  outcome?: 'ok' | 'error' | 'denied' | 'aborted' | 'skipped' | 'interrupted';
  startedAt?: number;
  durationMs?: number;
}

/** A step of a program (code mode) as the model is told about it: its place in the run, its tool, its line. */
export interface StepPlace {
  /** One index per program level, as StepRecord's. */
  path: number[];
  name: string;
  /** The line the call is on, in the program it is a step of. */
  line: number;
}

/** One completed step of a program (code mode), as its call keeps it. */
export interface StepRecord {
  /**
   * The step's place in the run, one index per program level: `[2]` is the outermost program's third call, `[2, 0]`
   * the first call of the program that step ran (an `ot.run` inside the program). Run-state version 1 kept only the
   * outermost level, as a number (`step`).
   */
  path: number[];
  /** SHA-256 (hex) of the tool's name and the arguments the step was called with. */
  key: string;
  /** The tool, for what the model is told. */
  name: string;
  /** The line the call is on, in the program it is a step of. */
  line: number;
  /** The step's value as JSON text (absent: it returned nothing). */
  value?: string;
  /** The data-flow labels of what the step read. */
  labels: string[];
}

export interface PendingApproval {
  callId: string;
  /** Qualified tool name, for display (never the encoded one). */
  name: string;
  arguments: string;
  /** The origin of the page (or destination) the call would act on, when known: "Always on this site" grants it. */
  origin?: string;
  /** Set when the question is whether to share a tab outside Otto's group (#27), not whether to run an action. */
  share?: TabShareRequest;
  /**
   * Set when the data-flow guard asks: data read from `from` may be sent to `to`; `data` is the URL or text about to
   * leave; `sentence` says it in plain words ("Data read from bank.example may be sent to evil.example").
   */
  flow?: { from: string[]; to: string; data: string; sentence: string };
  /**
   * With `flow` or `outOfScope` (#42): the target rule asks too (an action that can change things, another tab, the user's own network).
   * Both are named on one card and one answer covers both — approving the flow never skips the action's question.
   */
  targetAsks?: boolean;
  /** What the call touches, resolved before asking: the card shows it (issue #31). */
  target?: CallTarget;
  /**
   * #42: the call's effects are outside the task's scope (what the user's words asked for): the kinds, the site, and
   * the card's sentence ("You asked to summarise your inbox. Otto wants to send or post on mail.test …").
   */
  outOfScope?: { effects: EffectKind[]; site?: string; sentence: string };
  /** Set for a call inside a running program (`ot.run`): the id of the enclosing call that waits for the answer. */
  parentCallId?: string;
  requestedAt: number;
}

/** A tab outside the run's reach that a call wants: what the share approval names. */
export interface TabShareRequest {
  tabId: number;
  /** The tab's title as the browser shows it (shown to the user only, never sent to the model). */
  title: string;
  /** `bank.example`; empty for pages without a host. */
  host: string;
  /** `https://bank.example`, the key of an "always for this site" answer; absent for pages without an origin. */
  origin?: string;
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedTokens: number;
  /** Completed model responses counted. */
  responses: number;
}

export interface RunState {
  conversationId: string;
  /** A new id per `send`. */
  runId: string;
  status: RunStatus;
  /** What the run does next: request a model response, or execute `pendingCalls`. */
  phase: 'model' | 'tools';
  /** Completed model responses in this run (compared with `agent.max_turns`). */
  turn: number;
  /** Transcript position where the response in flight (or the one that failed) began; its items start here. */
  responseStartSeq?: number;
  /** The function calls of the last completed response (empty when phase is `model`). */
  pendingCalls: PendingCall[];
  /** Set while status is `awaiting_approval`. */
  approval?: PendingApproval;
  lastError?: RunError;
  stopReason?: StopReason;
  /** Id of the last completed response (information; replay uses `chain`). */
  lastResponseId?: string;
  /**
   * For `previous_response_id` mode: the last completed response and the transcript length right after its items.
   * Items from `seq` on are the new input. Cleared when the chain is broken (abort), which makes the next request
   * replay the full transcript.
   */
  chain?: { responseId: string; seq: number };
  /** Usage of this run. */
  usage: UsageTotals;
  /**
   * The run's origin set (data-flow guard): the labels (origins, `mcp:<server>`) of everything that entered the
   * model's context in this conversation. Grows with each output, in the same write; carried into the next run.
   */
  origins?: string[];
  /** #42: what the user's words ask the task to do (agent/scopeRules.ts); widened when the user writes again. */
  taskScope?: TaskScope;
  /** The last request against the context budget (#23): what the panel's context meter shows. */
  context?: { tokens: number; budget: number; cachedTokens?: number; fixedTokens?: number };
  startedAt: number;
  updatedAt: number;
  /** Refreshed at every write and every keep-alive tick while the run is active. */
  heartbeatAt: number;
}

export interface SitePermissionRecord {
  /** An origin, or for a data flow allowed for good `flow <from> -> <to>` (see sitePermissions.ts). */
  origin: string;
  grantedAt: number;
}

export function emptyUsage(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, responses: 0 };
}
