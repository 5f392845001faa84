/**
 * The stored form of a RunState, versioned and checked when read (as openai-agents-js does with its serialized run
 * state): the store stamps `schemaVersion` on every write, and a state read back is validated against the schema of
 * that version before the loop trusts it. A state from a newer Otto, or one that does not match, is never used and
 * never overwritten: the reader gets a StoredRunStateError that says what to do, and the record stays as it was.
 *
 * A change to RunState's shape (a new field, a new status) bumps RUN_STATE_VERSION, so an older Otto refuses the new
 * state as "written by a newer version" instead of calling it damaged (its schemas are strict) or dropping what it
 * does not know; states written before versioning carry no number and are version 1. Every earlier version stays
 * readable: its schema is kept as it was, and a migration brings what it parsed to the current shape (when read;
 * the record is rewritten, in the current version, at the run's next write). The type checks at the end of this file
 * fail to compile when RunState and the current schema part.
 *
 * Versions: 1, the first (it also took a pending call's optional `stepAnswers` and `stepJournal` without a bump, so
 * an Otto older than either calls a paused code-mode run that has them damaged); 2, a journal step's place is a path
 * of step indexes (`path`, nested programs included) instead of the outermost program's index (`step`). Version 2
 * also took a pending call's optional `stepsRunning` without a bump: it is stored only while a program's action runs,
 * so only an Otto downgraded during one would meet it (and call the state damaged); 3 (#42), the task's scope
 * (`taskScope`), a pending approval's `outOfScope`, and the facts a target's element carries for the card (`text`,
 * `hints`, `field`, `checked`, `context`). A version 2 state reads as it was: it has no scope (a run started before
 * #42 asks as it did then) until the user writes again.
 */
import { z } from '../shared/zod.ts';
import type { RunState } from './runRecords.ts';
import { EFFECT_KINDS } from '../shared/taskScope.ts';

export const RUN_STATE_VERSION = 3;

/** What the `runs` store holds: the state and the version of its shape. */
export type StoredRunState = RunState & { schemaVersion: number };

export class StoredRunStateError extends Error {
  constructor(
    readonly conversationId: string,
    readonly reason: 'newer' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'StoredRunStateError';
  }
}

const errorKind = z.enum([
  'auth',
  'model_not_found',
  'not_found',
  'config',
  'rate_limit',
  'server',
  'network',
  'timeout',
  'stream_cut',
  'not_a_stream',
  'bad_request',
  'failed',
  'aborted',
  'storage_full',
  'internal',
]);

/** A completed step of a code-mode program (agent/stepJournal.ts): its place in the run, one index per program level. */
const stepRecord = z.strictObject({
  path: z.array(z.number().int().nonnegative()).min(1),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string(),
  line: z.number().int().positive(),
  value: z.string().optional(),
  labels: z.array(z.string()),
});

/** A step of a program that may act, started and not completed (agent/stepJournal.ts). */
const stepPlace = z.strictObject({
  path: z.array(z.number().int().nonnegative()).min(1),
  name: z.string(),
  line: z.number().int().positive(),
});

const pendingCall = z.strictObject({
  callId: z.string(),
  name: z.string(),
  qualifiedName: z.string().optional(),
  arguments: z.string(),
  status: z.enum(['pending', 'awaiting_approval', 'approved', 'running', 'done']),
  approvedBy: z.enum(['once', 'site', 'policy', 'allowed_origin']).optional(),
  flowGrants: z.array(z.strictObject({ from: z.array(z.string()), to: z.string() })).optional(),
  stepAnswers: z.array(z.strictObject({ card: z.string(), allowed: z.boolean() })).optional(),
  stepJournal: z.array(stepRecord).optional(),
  stepsRunning: z.array(stepPlace).optional(),
  outcome: z.enum(['ok', 'error', 'denied', 'aborted', 'skipped', 'interrupted']).optional(),
  startedAt: z.number().optional(),
  durationMs: z.number().optional(),
});

const elementV2 = z.strictObject({
  ref: z.string().optional(),
  role: z.string(),
  name: z.string(),
  href: z.string().optional(),
  formAction: z.string().optional(),
  formMethod: z.string().optional(),
  submits: z.boolean().optional(),
});

/** #42: what the effect classifier read and what the card shows of what the action would send or change. */
const element = elementV2.extend({
  text: z.string().optional(),
  hints: z.string().optional(),
  field: z.string().optional(),
  checked: z.boolean().optional(),
  context: z.array(z.string()).optional(),
  heading: z.string().optional(),
  dropOnto: z
    .strictObject({ role: z.string(), name: z.string(), text: z.string().optional(), hints: z.string().optional() })
    .optional(),
});

const callTargetV2 = z.strictObject({
  tab: z
    .strictObject({
      id: z.number(),
      url: z.string().optional(),
      origin: z.string().optional(),
      title: z.string().optional(),
      isRunTab: z.boolean(),
    })
    .optional(),
  element: elementV2.optional(),
  url: z.string().optional(),
  localNetwork: z.strictObject({ origin: z.string(), reason: z.string() }).optional(),
  origin: z.string().optional(),
});

const callTarget = callTargetV2.extend({ element: element.optional() });

const effectKind = z.enum(EFFECT_KINDS);

/** The task's scope (#42): kinds of effect and sites from the user's words. */
const taskScope = z.strictObject({
  effects: z.array(effectKind),
  sites: z.array(z.string()),
  asked: z.string(),
  caller: z.string().max(200).optional(),
});

const approvalV2 = z.strictObject({
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  origin: z.string().optional(),
  share: z
    .strictObject({ tabId: z.number(), title: z.string(), host: z.string(), origin: z.string().optional() })
    .optional(),
  flow: z
    .strictObject({ from: z.array(z.string()), to: z.string(), data: z.string(), sentence: z.string() })
    .optional(),
  targetAsks: z.boolean().optional(),
  target: callTargetV2.optional(),
  parentCallId: z.string().optional(),
  requestedAt: z.number(),
});

const approval = approvalV2.extend({
  target: callTarget.optional(),
  outOfScope: z
    .strictObject({ effects: z.array(effectKind), site: z.string().optional(), sentence: z.string() })
    .optional(),
});

const runStateV2 = z.strictObject({
  schemaVersion: z.literal(2),
  conversationId: z.string(),
  runId: z.string(),
  status: z.enum(['idle', 'running', 'awaiting_approval', 'interrupted', 'error', 'completed']),
  phase: z.enum(['model', 'tools']),
  turn: z.number().int().nonnegative(),
  responseStartSeq: z.number().int().nonnegative().optional(),
  pendingCalls: z.array(pendingCall),
  approval: approvalV2.optional(),
  lastError: z
    .strictObject({
      kind: errorKind,
      message: z.string(),
      retryable: z.boolean(),
      status: z.number().optional(),
      code: z.string().optional(),
    })
    .optional(),
  stopReason: z.enum(['completed', 'max_turns', 'aborted', 'error', 'interrupted']).optional(),
  lastResponseId: z.string().optional(),
  chain: z.strictObject({ responseId: z.string(), seq: z.number().int().nonnegative() }).optional(),
  usage: z.strictObject({
    inputTokens: z.number(),
    outputTokens: z.number(),
    reasoningTokens: z.number(),
    cachedTokens: z.number(),
    responses: z.number(),
  }),
  origins: z.array(z.string()).optional(),
  context: z
    .strictObject({
      tokens: z.number(),
      budget: z.number(),
      cachedTokens: z.number().optional(),
      fixedTokens: z.number().optional(),
    })
    .optional(),
  startedAt: z.number(),
  updatedAt: z.number(),
  heartbeatAt: z.number(),
});

/** Version 3 (#42): the task's scope, and an approval that names it. */
const runStateV3 = runStateV2.extend({
  schemaVersion: z.literal(3),
  approval: approval.optional(),
  taskScope: taskScope.optional(),
});

/**
 * Version 1, as the last Otto that wrote it read it: the same shape but for a journal step, whose place was the
 * outermost program's step index (nested programs were one step). A new version copies the current schema as its own
 * and leaves this one as it is.
 */
const stepRecordV1 = stepRecord.omit({ path: true }).extend({ step: z.number().int().nonnegative() });
const runStateV1 = runStateV2.extend({
  schemaVersion: z.literal(1).optional(),
  pendingCalls: z.array(pendingCall.extend({ stepJournal: z.array(stepRecordV1).optional() })),
});

/** A version 1 state in version 2's shape: each journal step's index becomes a path of one index. */
function fromV1(state: z.infer<typeof runStateV1>): z.infer<typeof runStateV2> {
  return {
    ...state,
    schemaVersion: 2,
    pendingCalls: state.pendingCalls.map(({ stepJournal, ...call }) =>
      stepJournal ? { ...call, stepJournal: stepJournal.map(({ step, ...r }) => ({ ...r, path: [step] })) } : call,
    ),
  };
}

/** A version 2 state in version 3's shape: no scope (it was started before #42), every other field as it was. */
function fromV2(state: z.infer<typeof runStateV2>): z.infer<typeof runStateV3> {
  return { ...state, schemaVersion: 3 };
}

/** A stored state of `version` (at most the current one), checked against that version's schema and migrated. */
function parseVersion(
  version: number,
  raw: unknown,
): { success: true; data: z.infer<typeof runStateV3> } | { success: false; error: z.ZodError } {
  if (version === 1) {
    const v1 = runStateV1.safeParse(raw);
    return v1.success ? { success: true, data: fromV2(fromV1(v1.data)) } : v1;
  }
  if (version === 2) {
    const v2 = runStateV2.safeParse(raw);
    return v2.success ? { success: true, data: fromV2(v2.data) } : v2;
  }
  return runStateV3.safeParse(raw);
}

/** The state as the `runs` store keeps it: stamped with the version of its shape. */
export function toStored(run: RunState): StoredRunState {
  return { ...run, schemaVersion: RUN_STATE_VERSION };
}

/**
 * The state of a stored record, checked. Throws StoredRunStateError for a state from a newer Otto or one that does
 * not match its version's schema. `raw` is left as it is (the record is not rewritten).
 */
export function fromStored(raw: unknown): RunState {
  const conversationId = conversationIdOf(raw);
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new StoredRunStateError(
      conversationId,
      'invalid',
      `The saved run of this conversation has an unreadable format version (${JSON.stringify(version)}). ${KEPT}`,
    );
  }
  if (version > RUN_STATE_VERSION) {
    throw new StoredRunStateError(
      conversationId,
      'newer',
      `The saved run of this conversation was written by a newer version of Otto (run format ${version}; this ` +
        `version reads up to ${RUN_STATE_VERSION}). Update Otto to continue it. ${KEPT}`,
    );
  }
  const parsed = parseVersion(version, raw);
  if (!parsed.success) {
    throw new StoredRunStateError(
      conversationId,
      'invalid',
      `The saved run of this conversation is damaged (${describe(parsed.error)}), so Otto cannot continue it. ${KEPT}`,
    );
  }
  const { schemaVersion: _version, ...run } = parsed.data;
  return run;
}

/** Why a conversation's stored run cannot be used: shown beside its transcript, which is stored apart and still reads. */
export interface UnreadableRun {
  reason: StoredRunStateError['reason'];
  message: string;
}

/**
 * A run read for showing or exporting its conversation, not for continuing it: a state that cannot be read comes
 * back as `unreadable` instead of thrown, so the transcript is still shown. Nothing is written either way.
 */
export async function runForDisplay(
  read: Promise<RunState | undefined>,
): Promise<{ state: RunState | undefined; unreadable?: UnreadableRun }> {
  try {
    return { state: await read };
  } catch (e) {
    if (!(e instanceof StoredRunStateError)) throw e;
    return { state: undefined, unreadable: { reason: e.reason, message: e.message } };
  }
}

const KEPT =
  'Nothing was changed: the conversation and its saved run are kept as they are. Start a new conversation to go on.';

function conversationIdOf(raw: unknown): string {
  const id = (raw as { conversationId?: unknown } | null)?.conversationId;
  return typeof id === 'string' ? id : '';
}

/** The first problem, by path: `pendingCalls.0.status: Invalid option…`. */
function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'no details';
  const path = issue.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path ? `${path}: ` : ''}${issue.message}${more}`;
}

// RunState and the schema describe the same shape: each is assignable to the other, or this does not compile.
type Parsed = Omit<z.infer<typeof runStateV3>, 'schemaVersion'>;
const _schemaCoversState = (s: RunState): Parsed => s;
const _stateCoversSchema = (s: Parsed): RunState => s;
void _schemaCoversState;
void _stateCoversSchema;

// Assignability misses an optional key one side lacks (a `fixedTokens` added to the state's type and not here made
// every stored run unreadable), so the two are also compared for identity, nested keys included.
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const _identical: Same<Parsed, RunState> = true;
void _identical;
