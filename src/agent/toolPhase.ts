/**
 * Executing the function calls of a completed response, in order:
 *  - unknown names and malformed arguments are answered with an error at once;
 *  - consecutive read-only, non-destructive calls run concurrently, their outputs persisted in call order;
 *  - every other call runs alone; a destructive one first needs approval (policy `auto`, an allowed origin, a site
 *    the user allowed, or an explicit approve), else the run pauses as `awaiting_approval`;
 *  - a non-read-only call found `running` (the worker died during it) is never run again.
 * Each output is written in the same transaction that marks its call done.
 */
import type { PendingApproval, PendingCall, RunState } from '../storage/runRecords.ts';
import type { CallTarget } from '../shared/callTarget.ts';
import { prepareCall, type PreparedCall } from './calls.ts';
import { originAllowed } from './approvals.ts';
import { shareNeeded, type TabShareRequest } from './tabAccess.ts';
import { ABORTED_OUTPUT, errorOutput, isFunctionCallOutput, outputParts, partsText, toOutput } from './transcript.ts';
import { childSignal, raceAbort } from './timing.ts';
import { type AgentConfigView, type CallResult, type RunSession } from './session.ts';
import { round2 } from '../shared/round.ts';
import type { FlowBlock, NestedFlowCheck } from './toolHost.ts';
import { approvedNote, deniedFlowOutput, flowFacts } from './flowFacts.ts';
import { askedSoFar, cardDigest, earlierAnswer, keepAnswer } from './stepAnswers.ts';
import { interruptedOutput, journalNote, stepJournal } from './stepJournal.ts';
import { deniedScopeOutput, scopeQuestion, widenedBy, type OutOfScope } from './scopeGate.ts';
import type { EffectKind } from '../shared/taskScope.ts';
import { deniedPlanOutput, planQuestion, programOf } from './planGate.ts';
import { planFirstOn } from '../shared/planFirst.ts';

/** The one tool a plan-first run calls (code mode's `ot.run`). */
const PLAN_TOOL = 'ot.run';

type Runnable = {
  call: PendingCall;
  prep: Extract<PreparedCall, { ok: true }>;
  approvedBy?: PendingCall['approvedBy'];
};

/**
 * The data-flow guard's verdict before a call runs (src/tools/guard/): the flow it would need the user's approval
 * for, or undefined. A call the user already approved carries its grants and is not asked again. With approvals
 * policy `auto` the user asked never to be asked: the flow runs (and is still labelled).
 */
async function flowBlock(
  session: RunSession,
  call: PendingCall,
  prep: Extract<PreparedCall, { ok: true }>,
  cfg: AgentConfigView,
): Promise<FlowBlock | undefined> {
  const tools = session.deps.tools;
  if (!tools.checkFlow || call.status === 'approved' || cfg.approvals.policy === 'auto') return undefined;
  if (!session.state.origins?.length) return undefined; // nothing read yet: nothing can leave
  try {
    return await tools.checkFlow(prep.qualifiedName, prep.args, {
      conversationId: session.conversationId,
      flow: await flowFacts(session, call),
    });
  } catch {
    // When in doubt, ask.
    return {
      from: session.state.origins,
      to: '*',
      data: call.arguments.slice(0, 300),
      sentence: `Data read from ${session.state.origins.join(', ')} may be sent somewhere Otto cannot tell`,
    };
  }
}

/** Executes the pending calls in order. Returns true when the run paused for an approval. */
export async function runTools(session: RunSession, cfg: AgentConfigView): Promise<boolean> {
  for (;;) {
    session.checkAbort();
    const calls = session.state.pendingCalls;
    const idx = calls.findIndex((c) => c.status !== 'done');
    if (idx < 0) return false;
    const call = calls[idx]!;
    const prep = prepareCall(session.deps.tools, call.name, call.arguments);
    if (!prep.ok) {
      await session.finishCall(call.callId, prep.qualifiedName ?? call.name, {
        output: prep.output,
        status: 'error',
        outcome: 'error',
        reason: prep.reason,
        durationMs: 0,
      });
      continue;
    }
    if (call.status === 'running' && !prep.readOnly) {
      // It was running when the worker died: it may have acted. Never run an action twice; let the model check. A
      // program's journal says which of its steps completed and which one was running (stepJournal.ts).
      await session.finishCall(call.callId, prep.qualifiedName, {
        output:
          interruptedOutput(prep.qualifiedName, call) ??
          `Error: ${prep.qualifiedName} was interrupted while running (the extension's worker stopped); whether it took effect is unknown. Check before trying again.`,
        status: 'error',
        outcome: 'interrupted',
        reason: 'interrupted',
        durationMs: 0,
      });
      continue;
    }
    // Plan first (#42 part 2): every tool runs inside a program, whose value the model sees only as the planner may.
    if (planFirstOn(cfg.agent) && prep.qualifiedName !== PLAN_TOOL) {
      await session.finishCall(call.callId, prep.qualifiedName, {
        output: `Error: plan first is on: call ${prep.qualifiedName} inside an ot.run program, not on its own.`,
        status: 'error',
        outcome: 'error',
        durationMs: 0,
      });
      continue;
    }
    // A tab outside Otto's group is the user's until they share it: ask before anything else about this call.
    const share = await shareNeeded(session.deps.tabs, session.conversationId, prep.qualifiedName, prep.args);
    if (share) {
      await pause(
        session,
        call,
        prep.qualifiedName,
        { destructive: true, ...(share.origin ? { origin: share.origin } : {}) },
        share,
      );
      return true;
    }
    const batch = await readOnlyBatch(session, idx, cfg);
    if (batch.length) {
      if (await runBatch(session, batch, cfg)) return true;
      continue;
    }
    let approvedBy: PendingCall['approvedBy'] = call.status === 'approved' ? call.approvedBy : undefined;
    if (call.status !== 'approved') {
      const j = await judge(session, prep.qualifiedName, prep.args);
      if (j.invalid !== undefined) {
        await session.finishCall(call.callId, prep.qualifiedName, {
          output: errorOutput(j.invalid),
          status: 'error',
          outcome: 'error',
          reason: 'invalid_arguments',
          durationMs: 0,
        });
        continue;
      }
      // Both judgements apply (issues #13 and #31): the data-flow guard's and the target's. Either one asks; when
      // both do, the user gets one card naming the flow and the action, and one answer covers both.
      const flow = await flowBlock(session, call, prep, cfg);
      // #42: outside the task's scope it asks, and no allowance of a site covers it (only policy auto does).
      const outOfScope = scopeAsks(session, cfg, j);
      let targetAsks = false;
      if (j.destructive) {
        const how = outOfScope ? { allowed: false as const } : await autoApproval(session, cfg, j.origin);
        if (how.allowed) approvedBy = how.by;
        else targetAsks = true;
      }
      if (flow || targetAsks || outOfScope) {
        // A flow card describes the element too (the target rule alone looks it up only when it asks itself).
        const shown = flow && !j.target?.element ? await judge(session, prep.qualifiedName, prep.args, true) : j;
        await pause(session, call, prep.qualifiedName, shown.invalid === undefined ? shown : j, undefined, flow, {
          targetAsks,
          ...(outOfScope ? { outOfScope } : {}),
        });
        return true;
      }
    }
    if (await runBatch(session, [{ call, prep, ...(approvedBy ? { approvedBy } : {}) }], cfg)) return true;
  }
}

/** Consecutive read-only, non-destructive calls the guard lets through, from `idx` on (they may run concurrently). */
async function readOnlyBatch(session: RunSession, idx: number, cfg: AgentConfigView): Promise<Runnable[]> {
  const out: Runnable[] = [];
  const calls = session.state.pendingCalls;
  for (let j = idx; j < calls.length; j++) {
    const call = calls[j]!;
    if (call.status !== 'pending' && call.status !== 'running') break;
    const prep = prepareCall(session.deps.tools, call.name, call.arguments);
    if (!prep.ok || !prep.readOnly) break;
    if (j > idx && (await shareNeeded(session.deps.tabs, session.conversationId, prep.qualifiedName, prep.args))) break;
    const verdict = await judge(session, prep.qualifiedName, prep.args);
    if (verdict.destructive || verdict.invalid !== undefined) break;
    if (await flowBlock(session, call, prep, cfg)) break; // web.fetch to another site: asked on its own
    out.push({ call, prep });
  }
  return out;
}

async function isDestructive(session: RunSession, qualifiedName: string, args: unknown): Promise<boolean> {
  try {
    return !!(await session.deps.tools.isDestructive(qualifiedName, args, { conversationId: session.conversationId }));
  } catch {
    return true; // when in doubt, ask
  }
}

async function originOfRun(session: RunSession): Promise<string | undefined> {
  try {
    return (await session.deps.origin?.(session.conversationId)) || undefined;
  } catch {
    return undefined;
  }
}

interface Judgement {
  invalid?: string;
  destructive: boolean;
  /** The site the call acts on (its target's), for allowances and "Always on this site". */
  origin?: string;
  target?: CallTarget;
  /** The validated arguments, as JSON, for the card. */
  argsText?: string;
  /** #42: the kinds of effect judged from the target (the scope gate compares them with the task's scope). */
  effects?: EffectKind[];
}

/**
 * Validates and judges a call on what it really touches (the host's `assess`: its target tab, element or URL).
 * A host without `assess` (tests' stand-ins) is judged by `isDestructive` and the run's tab, as before.
 */
async function judge(session: RunSession, qualifiedName: string, args: unknown, describe = false): Promise<Judgement> {
  const host = session.deps.tools;
  if (host.assess) {
    try {
      const a = await host.assess(qualifiedName, args, {
        conversationId: session.conversationId,
        ...(describe ? { describe } : {}),
      });
      return {
        ...(a.invalid !== undefined ? { invalid: a.invalid } : {}),
        destructive: a.destructive,
        ...(a.target ? { target: a.target } : {}),
        ...(a.target?.origin ? { origin: a.target.origin } : {}),
        ...(a.args ? { argsText: jsonText(a.args) } : {}),
        ...(a.effects?.length ? { effects: a.effects } : {}),
      };
    } catch {
      return { destructive: true }; // when in doubt, ask
    }
  }
  if (!(await isDestructive(session, qualifiedName, args))) return { destructive: false };
  const origin = await originOfRun(session);
  return { destructive: true, ...(origin ? { origin } : {}) };
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '{}';
  } catch {
    return '{}';
  }
}

/**
 * Plan first (#42 part 2): the card's question about a program's state-changing step that its text did not write,
 * or undefined (planned, plan first off, policy auto, or a parent call that is not a program).
 */
function planAsks(
  session: RunSession,
  cfg: AgentConfigView,
  parent: PendingCall,
  qualifiedName: string,
  args: Record<string, unknown>,
  j: Judgement,
): OutOfScope | undefined {
  const check = session.deps.tools.inPlan?.bind(session.deps.tools);
  if (!check || !planFirstOn(cfg.agent) || cfg.approvals.policy === 'auto') return undefined;
  const program = programOf(parent.arguments);
  if (program === undefined || check(program, qualifiedName, args)) return undefined;
  return planQuestion(session.state.taskScope, qualifiedName, j.effects, j.target);
}

/** The scope gate's question about a judged call (#42), unless the user chose never to be asked (policy auto). */
function scopeAsks(session: RunSession, cfg: AgentConfigView, j: Judgement): OutOfScope | undefined {
  if (cfg.approvals.policy === 'auto') return undefined;
  return scopeQuestion(session.state.taskScope, j.effects, j.target);
}

async function autoApproval(
  session: RunSession,
  cfg: AgentConfigView,
  origin: string | undefined,
): Promise<{ allowed: true; by: 'policy' | 'allowed_origin' | 'site' } | { allowed: false }> {
  if (cfg.approvals.policy === 'auto') return { allowed: true, by: 'policy' };
  if (originAllowed(origin, cfg.approvals.allowed_origins)) return { allowed: true, by: 'allowed_origin' };
  if (await session.deps.sites.isAllowed(origin)) return { allowed: true, by: 'site' };
  return { allowed: false };
}

function approvalFor(
  callId: string,
  qualifiedName: string,
  args: string,
  j: Judgement,
  now: number,
  parentCallId?: string,
  share?: TabShareRequest,
): PendingApproval {
  return {
    callId,
    name: qualifiedName,
    arguments: args,
    ...(j.origin ? { origin: j.origin } : {}),
    ...(j.target ? { target: j.target } : {}),
    ...(parentCallId ? { parentCallId } : {}),
    ...(share ? { share } : {}),
    requestedAt: now,
  };
}

async function pause(
  session: RunSession,
  call: PendingCall,
  qualifiedName: string,
  j: Judgement,
  share?: TabShareRequest,
  flow?: FlowBlock,
  opts: { targetAsks?: boolean; outOfScope?: OutOfScope } = {},
): Promise<void> {
  const approval: PendingApproval = {
    ...approvalFor(call.callId, qualifiedName, j.argsText ?? call.arguments, j, session.deps.now(), undefined, share),
    ...(flow ? { flow: { from: [...flow.from], to: flow.to, data: flow.data, sentence: flow.sentence } } : {}),
    ...((flow || opts.outOfScope) && opts.targetAsks ? { targetAsks: true } : {}),
    ...(opts.outOfScope ? { outOfScope: opts.outOfScope } : {}),
  };
  await session.commit((s) => {
    s.status = 'awaiting_approval';
    s.approval = approval;
    const pc = s.pendingCalls.find((c) => c.callId === call.callId);
    if (pc) pc.status = 'awaiting_approval';
  });
  session.emit({ type: 'approval.required', approval });
  session.emitStatus();
}

/**
 * Runs calls concurrently (one call: alone) and persists their outputs in call order as soon as every earlier one
 * is persisted, so the transcript's order never depends on timing. Returns true when a call run alone was stopped
 * by the data-flow guard while running (code mode) and the run paused to ask the user.
 */
async function runBatch(session: RunSession, batch: Runnable[], cfg: AgentConfigView): Promise<boolean> {
  const startedAt = session.deps.now();
  const markRunning = (s: RunState) => {
    for (const b of batch) {
      const pc = s.pendingCalls.find((c) => c.callId === b.call.callId);
      if (!pc) continue;
      pc.status = 'running';
      pc.startedAt = startedAt;
      pc.qualifiedName = b.prep.qualifiedName;
      if (b.approvedBy) pc.approvedBy = b.approvedBy;
    }
  };
  // An action must be known to have started before it runs: a worker that dies during it must never run it again.
  // A read-only call is simply run again, so whether it was stored as started changes nothing: the mark rides on
  // the write of its output instead of costing a write of its own.
  if (batch.every((b) => b.prep.readOnly && !b.approvedBy)) session.stage(markRunning);
  else await session.commit(markRunning);
  const results: (CallResult | undefined)[] = new Array<CallResult | undefined>(batch.length);
  let flushed = 0;
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    flushing = flushing.then(async () => {
      while (flushed < batch.length && results[flushed]) {
        const k = flushed++;
        await session.finishCall(batch[k]!.call.callId, batch[k]!.prep.qualifiedName, results[k]!);
      }
    });
    return flushing;
  };
  if (batch.length === 1) {
    const only = batch[0]!;
    const result = await invoke(session, only, cfg);
    if (result.blocked && cfg.approvals.policy !== 'auto') {
      // Stopped by the guard inside the call (a program's sink): ask about that flow, then run it again if allowed.
      // What it read on the way is in the run's set now, since the model sees the flow named on the card.
      if (result.labels?.length) session.stage((s) => (s.origins = mergeLabels(s.origins, result.labels!)));
      const j = await judge(session, only.prep.qualifiedName, only.prep.args);
      await pause(session, only.call, only.prep.qualifiedName, { ...j, destructive: true }, undefined, result.blocked);
      return true;
    }
    await session.finishCall(only.call.callId, only.prep.qualifiedName, result);
    return false;
  }
  await Promise.all(
    batch.map(async (b, k) => {
      results[k] = await invoke(session, b, cfg);
      await flush();
    }),
  );
  await flushing;
  return false;
}

/** The union of two label sets, sorted (the run's origin set). */
export function mergeLabels(a: readonly string[] | undefined, b: readonly string[]): string[] {
  const set = new Set([...(a ?? []), ...b]);
  return [...set].sort();
}

/**
 * Executes one call; never throws (errors, timeouts and aborts become the output the model gets). Under the
 * data-flow guard the result carries the labels of what the call read, and an output of a call the user approved
 * says so on its first line.
 */
async function invoke(
  session: RunSession,
  { call, prep, approvedBy }: Runnable,
  cfg: AgentConfigView,
): Promise<CallResult> {
  const { deps } = session;
  const name = prep.qualifiedName;
  session.emit({ type: 'tool.running', callId: call.callId, name, arguments: call.arguments });
  const child = childSignal(session.signal, deps.toolTimeoutMs, deps.timers);
  const t0 = deps.elapsed();
  const took = () => round2(deps.elapsed() - t0);
  let labels: string[] | undefined;
  const flow = deps.tools.checkFlow
    ? await flowFacts(session, call, (l) => (labels = mergeLabels(labels, l)), cfg.approvals.policy === 'auto')
    : undefined;
  // A program that ran before (stopped for a card on this call) takes its completed steps from here (stepJournal.ts).
  const journal = stepJournal(session, call.callId);
  const withLabels = (r: CallResult): CallResult => (labels?.length ? { ...r, labels } : r);
  try {
    const result = await raceAbort(
      Promise.resolve().then(() =>
        deps.tools.run(name, prep.args, {
          signal: child.signal,
          conversationId: session.conversationId,
          callId: call.callId,
          ...(flow ? { flow } : {}),
          approve: nestedGate(session, cfg, call, child),
          journal,
        }),
      ),
      child.signal,
    );
    // The model is told which of its steps were not run again (they had acted before the approval).
    const note = [approvedNote(approvedBy ?? call.approvedBy), journalNote(journal.use)].filter(Boolean).join('\n');
    const parts = outputParts(result);
    if (parts) {
      const all = note ? [{ type: 'input_text' as const, text: note }, ...parts] : parts;
      return withLabels({ output: partsText(all), parts: all, status: 'ok', outcome: 'ok', durationMs: took() });
    }
    const text = toOutput(result);
    return withLabels({ output: note ? `${note}\n${text}` : text, status: 'ok', outcome: 'ok', durationMs: took() });
  } catch (err) {
    const durationMs = took();
    const blocked = deps.tools.blockedFlow?.(err);
    if (blocked && !session.signal.aborted)
      return withLabels({ output: errorOutput(err), status: 'error', outcome: 'error', durationMs, blocked });
    if (session.signal.aborted)
      return { output: ABORTED_OUTPUT, status: 'error', outcome: 'aborted', reason: 'aborted', durationMs };
    if (child.timedOut) {
      return {
        output: `Error: ${name} timed out after ${round2(deps.toolTimeoutMs / 1000)} s`,
        status: 'error',
        outcome: 'error',
        reason: 'timeout',
        durationMs,
      };
    }
    // An error stays the output's first line; what was not run again follows it.
    const said = journalNote(journal.use);
    const output = said ? `${errorOutput(err)}\n${said}` : errorOutput(err);
    return withLabels({ output, status: 'error', outcome: 'error', durationMs });
  } finally {
    child.dispose();
  }
}

/**
 * The decision for calls made inside a running call (issue #31, code mode): each one is judged when it runs, on the
 * page as it is then, with the same rules as a top-level call — the target rule and the step's own data-flow guard
 * (#13) — and one that needs the user pauses the program (and its timeout) until the user answers, on one inline
 * card whichever rule asks. A yes lets exactly that step through; a denial throws, so the program stops with
 * "the user denied <tool>" (and the flow it was refused, when the guard asked).
 */
function nestedGate(
  session: RunSession,
  cfg: AgentConfigView,
  parent: PendingCall,
  clock: { pause(): void; resume(): void },
): (qualifiedName: string, args: Record<string, unknown>, flow?: NestedFlowCheck) => Promise<void> {
  // Card ids go on from an earlier run of the same call (a program the guard stopped runs again after a yes).
  let asked = askedSoFar(session, parent.callId);
  // Calls inside one program may run concurrently (web.fetch_many's workers): the user is asked one at a time, and
  // each waiting call is judged again when its turn comes (an answer "always on this site" may already cover it).
  let turn: Promise<unknown> = Promise.resolve();
  const decide = async (qualifiedName: string, args: Record<string, unknown>, flow?: NestedFlowCheck) => {
    const j = await judge(session, qualifiedName, args);
    if (j.invalid !== undefined) return; // the interceptor reports it
    const scoped = scopeAsks(session, cfg, j);
    const offPlan = scoped ? undefined : planAsks(session, cfg, parent, qualifiedName, args, j);
    const outOfScope = scoped ?? offPlan;
    const targetAsks = j.destructive && (!!outOfScope || !(await autoApproval(session, cfg, j.origin)).allowed);
    // The guard's question is asked here too, on the same card (#31 after #13): a step only the guard asks about
    // would otherwise stop the program for a card on ot.run and, after a yes, run it again from the start.
    const flowAsks = flow && cfg.approvals.policy !== 'auto' ? await flow.blocked().catch(() => undefined) : undefined;
    if (!targetAsks && !flowAsks && !outOfScope) return;
    const inline = session.deps.inline;
    if (!inline) {
      // Nobody to ask inline: the guard stops a flow-only step, and the enclosing call asks about it.
      if (!targetAsks && !outOfScope) return;
      throw new Error(`${qualifiedName} needs the user's approval, which cannot be asked here`);
    }
    // A flow card describes the element too (the target rule alone looks it up only when it asks itself).
    const described = flowAsks && !j.target?.element ? await judge(session, qualifiedName, args, true) : j;
    const shown = described.invalid === undefined ? described : j;
    const callId = `${parent.callId}~${asked + 1}`;
    const approval: PendingApproval = {
      ...approvalFor(callId, qualifiedName, shown.argsText ?? jsonText(args), shown, session.deps.now(), parent.callId),
      ...(flowAsks ? { flow: plainFlow(flowAsks.block) } : {}),
      ...((flowAsks || outOfScope) && targetAsks ? { targetAsks: true } : {}),
      ...(outOfScope ? { outOfScope } : {}),
    };
    const refused = () =>
      new Error(
        (offPlan
          ? deniedPlanOutput(qualifiedName, offPlan)
          : outOfScope
            ? deniedScopeOutput(qualifiedName, outOfScope)
            : flowAsks
              ? deniedFlowOutput(qualifiedName, flowAsks.block)
              : `Error: the user denied ${qualifiedName}`
        ).replace(/^Error: /, ''),
      );
    // The same card in an earlier run of this call: its answer stands (no question is asked twice).
    const card = await cardDigest(approval);
    const before = earlierAnswer(session, parent.callId, card);
    if (before !== undefined) {
      if (!before) throw refused();
      if (flowAsks) flow!.allow(flowAsks.pairs);
      return;
    }
    asked++;
    clock.pause();
    try {
      const answer = inline.wait(session.conversationId, callId, session.signal);
      await session.commit((s) => {
        s.status = 'awaiting_approval';
        s.approval = approval;
      });
      session.emit({ type: 'approval.required', approval });
      session.emitStatus();
      const got = await answer;
      if (got.allowed && got.scope === 'task' && outOfScope) {
        const wider = widenedBy(session.state.taskScope, outOfScope);
        if (wider) session.stage((s) => (s.taskScope = wider));
      }
      if (got.allowed && got.scope === 'site' && !outOfScope) {
        // "Always": the pairs the card named, and the target's site when the action was asked about too.
        if (targetAsks && j.origin) await session.deps.sites.allow(j.origin);
        for (const pair of flowAsks?.pairs ?? [])
          for (const from of pair.from) await session.deps.sites.allowFlow(from, pair.to);
      }
      if (got.allowed && flowAsks) flow!.allow(flowAsks.pairs);
      await session.commit((s) => {
        s.status = 'running';
        s.approval = undefined;
        keepAnswer(s, parent.callId, card, got.allowed);
      });
      session.emitStatus();
      if (!got.allowed) throw refused();
    } finally {
      clock.resume();
    }
  };
  return (qualifiedName, args, flow) => {
    const mine = turn.then(() => decide(qualifiedName, args, flow));
    turn = mine.catch(() => undefined);
    return mine;
  };
}

/** A flow as the persisted approval keeps it (plain copies). */
function plainFlow(flow: FlowBlock): NonNullable<PendingApproval['flow']> {
  return { from: [...flow.from], to: flow.to, data: flow.data, sentence: flow.sentence };
}

/** Marks calls whose output is already in the transcript as done (defensive: both are written together). */
export async function reconcileCalls(session: RunSession): Promise<void> {
  const answered = new Set<string>();
  for (const r of await session.transcript()) {
    if (isFunctionCallOutput(r.item)) answered.add(r.item.call_id);
  }
  const isStale = (c: PendingCall) => c.status !== 'done' && answered.has(c.callId);
  if (!session.state.pendingCalls.some(isStale)) return;
  await session.commit((s: RunState) => {
    for (const pc of s.pendingCalls) if (isStale(pc)) pc.status = 'done';
  });
}
