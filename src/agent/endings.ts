/**
 * How runs end, and how an unfinished one is closed so the transcript stays valid for replay (the Responses API
 * refuses a function_call without its output, and a reasoning item without the item that followed it).
 */
import type { ResponseItem } from '../models/events.ts';
import type { RunError, RunState, StopReason } from '../storage/runRecords.ts';
import { ABORTED_OUTPUT, functionCallOutput, note, openCalls, partialAssistantMessage } from './transcript.ts';
import type { CallResult, RunSession } from './session.ts';

export async function finishRun(
  session: RunSession,
  reason: Extract<StopReason, 'completed' | 'max_turns'>,
  maxTurns: number,
): Promise<RunState> {
  const items =
    reason === 'max_turns'
      ? [
          note(
            'max_turns',
            `Stopped after ${session.state.turn} model turns: the limit agent.max_turns (${maxTurns}) was reached. Send a message to continue.`,
          ),
        ]
      : [];
  // The answer's own write usually ended the run already (turn.ts): then there is nothing left to write.
  const s0 = session.state;
  const ended =
    s0.status === 'completed' &&
    s0.stopReason === reason &&
    s0.phase === 'model' &&
    s0.responseStartSeq === undefined &&
    !s0.pendingCalls.length &&
    !s0.approval &&
    !s0.lastError;
  if (items.length || !ended) {
    await session.commit((s) => {
      s.status = 'completed';
      s.stopReason = reason;
      s.phase = 'model';
      s.responseStartSeq = undefined;
      s.pendingCalls = [];
      s.approval = undefined;
      s.lastError = undefined;
    }, items);
  }
  session.emitStatus();
  return session.state;
}

/**
 * A model error (or Otto's own): the partial output of the response that did not complete is discarded (its
 * function calls never ran, so nothing is lost), and the state keeps where that response began, for retry.
 */
export async function failRun(session: RunSession, error: RunError): Promise<RunState> {
  const from =
    session.inflight?.startSeq ?? (session.state.phase === 'model' ? session.state.responseStartSeq : undefined);
  session.inflight = undefined;
  const mutate = (s: RunState) => {
    s.status = 'error';
    s.lastError = error;
    s.stopReason = 'error';
    if (from !== undefined) s.responseStartSeq = from;
  };
  if (from !== undefined) await session.truncate(from, 'failed', mutate);
  else await session.commit(mutate);
  session.emitStatus();
  return session.state;
}

/**
 * The user stopped the run. A response being streamed keeps its completed items (minus trailing reasoning) and
 * what the user saw of an unfinished message; a response that died with an earlier worker is discarded. Every
 * function call without output gets `Error: aborted by the user`, and an `otto.note` records the stop.
 */
export async function abortRun(session: RunSession): Promise<RunState> {
  await session.writes;
  const inflight = session.inflight;
  session.inflight = undefined;
  let records = await session.transcript();
  const items: ResponseItem[] = [];
  if (inflight) {
    let keep = records.length;
    while (keep > 0 && records[keep - 1]!.seq >= inflight.startSeq && records[keep - 1]!.item.type === 'reasoning')
      keep--;
    if (keep < records.length) {
      await session.truncate(records[keep]!.seq, 'aborted');
      records = records.slice(0, keep);
    }
    for (const text of inflight.partialText.values()) if (text.trim()) items.push(partialAssistantMessage(text));
  } else if (session.state.phase === 'model' && session.state.responseStartSeq !== undefined) {
    const from = session.state.responseStartSeq;
    if (records.some((r) => r.seq >= from)) {
      await session.truncate(from, 'aborted');
      records = records.filter((r) => r.seq < from);
    }
  }
  const open = openCalls([
    ...records,
    ...items.map((item, i) => ({ conversationId: session.conversationId, seq: -1 - i, createdAt: 0, item })),
  ]);
  for (const c of open) items.push(functionCallOutput(c.call_id, ABORTED_OUTPUT));
  items.push(note('aborted', 'Stopped by the user.'));
  await session.commit((s) => {
    for (const pc of s.pendingCalls) {
      if (pc.status !== 'done') {
        pc.status = 'done';
        pc.outcome = 'aborted';
      }
    }
    s.status = 'idle';
    s.stopReason = 'aborted';
    s.phase = 'model';
    s.responseStartSeq = undefined;
    s.approval = undefined;
    s.lastError = undefined;
    s.chain = undefined; // the server-side chain no longer matches the transcript: replay in full next time
  }, items);
  const aborted: CallResult = {
    output: ABORTED_OUTPUT,
    status: 'error',
    outcome: 'aborted',
    reason: 'aborted',
    durationMs: 0,
  };
  for (const c of open) session.emitFinished(c.call_id, session.displayName(c.name), aborted);
  session.emitStatus();
  return session.state;
}

/**
 * Before a new message: an unfinished previous run (error, interrupted, awaiting approval) is closed. A response
 * that never completed is discarded; function calls without output get an error output saying why they did not run.
 */
export async function settleRun(session: RunSession): Promise<void> {
  const s = session.state;
  let records = await session.transcript();
  if (s.phase === 'model' && s.responseStartSeq !== undefined && s.status !== 'idle' && s.status !== 'completed') {
    const from = s.responseStartSeq;
    if (records.some((r) => r.seq >= from)) {
      await session.truncate(from, 'settled');
      records = records.filter((r) => r.seq < from);
    }
  }
  const open = openCalls(records);
  if (!open.length) return;
  const byId = new Map(s.pendingCalls.map((c) => [c.callId, c]));
  const results = open.map((c) => {
    const pc = byId.get(c.call_id);
    const name = pc?.qualifiedName ?? session.displayName(c.name);
    let result: CallResult;
    if (s.approval?.callId === c.call_id) {
      result = {
        output: `Error: the user did not approve ${name} (they sent a new message instead)`,
        status: 'error',
        outcome: 'denied',
        reason: 'denied',
        durationMs: 0,
      };
    } else if (pc?.status === 'running') {
      result = {
        output: `Error: ${name} was interrupted while running; whether it took effect is unknown.`,
        status: 'error',
        outcome: 'interrupted',
        reason: 'interrupted',
        durationMs: 0,
      };
    } else {
      result = {
        output: 'Error: not run: the user sent a new message before this call ran',
        status: 'error',
        outcome: 'skipped',
        reason: 'skipped',
        durationMs: 0,
      };
    }
    return { callId: c.call_id, name, result };
  });
  await session.commit(
    (st) => {
      for (const r of results) {
        const pc = st.pendingCalls.find((c) => c.callId === r.callId);
        if (pc) {
          pc.status = 'done';
          pc.outcome = r.result.outcome;
        }
      }
      st.approval = undefined;
    },
    results.map((r) => functionCallOutput(r.callId, r.result.output)),
  );
  for (const r of results) session.emitFinished(r.callId, r.name, r.result);
}
