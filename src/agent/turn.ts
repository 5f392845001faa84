/**
 * One model turn: build the input from the transcript (the session's copy of it), stream the response, persist each
 * completed item as it completes (before the next stream event is handled, so events reach the panel in order), and
 * on `completed` record the turn (usage, chain, the function calls to run) in one write.
 */
import type { ModelErrorInfo, ModelEvent, ModelRequest, ResponseItem, Usage } from '../models/events.ts';
import type { PendingCall, RunError, RunState } from '../storage/runRecords.ts';
import { isFunctionCall, note, type FunctionCallItem } from './transcript.ts';
import {
  compact,
  learnFromUsage,
  prepareRequest,
  viewOf,
  type PreparedRequest,
  type RequestShape,
} from './context/prepare.ts';
import { isContextLengthError } from './context/contextError.ts';
import { abortable } from './timing.ts';
import { failRun } from './endings.ts';
import { type AgentConfigView, type Inflight, type RunSession } from './session.ts';
import { round2 } from '../shared/round.ts';

export type TurnOutcome = 'failed' | 'done' | 'tools';

type Completed = Extract<ModelEvent, { type: 'completed' }>;
type Streamed = { completed?: Completed; failure?: ModelErrorInfo };

/**
 * One request and its response. The input comes from the turn's one view of the transcript (`prepared.view`, see
 * context/transcriptView.ts): what is measured is what is sent, and the response's first seq follows that view.
 */
export async function modelTurn(session: RunSession, cfg: AgentConfigView, retried = false): Promise<TurnOutcome> {
  const instructions = await fixedInstructions(session, cfg);
  const shape = requestShape(session, instructions);
  // #23: superseded observations leave the request; past the budget, the older part is compacted first.
  const prepared = await prepareRequest(session, cfg, shape);
  const { input, previousResponseId } = prepared;
  const inflight = beginResponse(session, prepared.view.nextSeq);
  const request: ModelRequest = {
    input,
    tools: shape.tools,
    signal: session.signal,
    ...(instructions ? { instructions } : {}),
    ...(previousResponseId ? { previousResponseId } : {}),
  };
  const t0 = session.deps.elapsed();
  const { completed, failure } = await streamResponse(session, inflight, request);
  session.checkAbort(); // a client may report the abort as `failed`
  if (failure && !retried && !previousResponseId && isContextLengthError(failure)) {
    if (await recoverFromContextError(session, cfg, shape, prepared, failure)) return modelTurn(session, cfg, true);
  }
  if (failure || !completed) {
    await failRun(session, failure ? failureInfo(failure) : STREAM_CUT);
    return 'failed';
  }
  const calls = await recordTurn(session, prepared, completed, t0);
  return calls ? 'tools' : 'done';
}

/**
 * The instructions, fixed for the drive (#23): they open every request, so a change (the system block names the
 * tab, which moves on each navigation) would cost the whole prompt cache. Asked again at the next drive and after a
 * compaction.
 */
async function fixedInstructions(session: RunSession, cfg: AgentConfigView): Promise<string | undefined> {
  const { deps } = session;
  if (!session.instructionsFixed) {
    session.instructions = deps.instructions
      ? await deps.instructions(session.conversationId, cfg)
      : cfg.agent.instructions || undefined;
    session.instructionsFixed = true;
  }
  return session.instructions;
}

/** The request's fixed part (tools, instructions) and how items and Otto's text read in the names the model calls. */
function requestShape(session: RunSession, instructions: string | undefined): RequestShape {
  const { tools } = session.deps;
  const forModel = tools.forModel?.bind(tools);
  return {
    tools: tools.definitions(),
    instructions,
    forModel: forModel ? (item) => outputForModel(item, forModel) : (item) => item,
    ...(forModel ? { forText: forModel } : {}),
  };
}

/**
 * The response's bookkeeping, from `startSeq`. Staged, not written: the first write of this response (its first
 * items, or its end) carries it. Until then nothing of the response is stored, so the state written last is as good
 * a place to resume from.
 */
function beginResponse(session: RunSession, startSeq: number): Inflight {
  const inflight: Inflight = {
    startSeq,
    nextSeq: startSeq,
    partialText: new Map(),
    callIdByItem: new Map(),
    announced: new Map(),
    doneCalls: [],
  };
  session.inflight = inflight;
  session.stage((s) => {
    s.phase = 'model';
    s.status = 'running';
    s.responseStartSeq = startSeq;
  });
  return inflight;
}

/** Streams the response, persisting and announcing as it goes, until it completes or fails. */
async function streamResponse(session: RunSession, inflight: Inflight, request: ModelRequest): Promise<Streamed> {
  for await (const ev of abortable(session.deps.model.stream(request), session.signal)) {
    if (ev.type === 'completed') return { completed: ev };
    if (ev.type === 'failed') return { failure: ev.error };
    await onStreamEvent(session, inflight, ev);
  }
  return {};
}

/**
 * Recover, never die: compact what the server found too long and ask once more (#23). True when a compaction was
 * made (the caller asks again); what the server refused is past its window, so from now on this run stays under it.
 */
async function recoverFromContextError(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
  prepared: PreparedRequest,
  failure: ModelErrorInfo,
): Promise<boolean> {
  const inflight = session.inflight;
  if (inflight && inflight.nextSeq > inflight.startSeq) await session.truncate(inflight.startSeq, 'retrying');
  session.inflight = undefined;
  session.budgetCap = Math.max(2000, Math.floor(Math.min(prepared.budget, prepared.tokens) * 0.9));
  session.emit({
    type: 'notice',
    message: `The model refused the request as too long for its context (${failure.code ?? 'context length exceeded'}). Otto compacted the earlier turns and asked again.`,
  });
  const done = await compact(session, cfg, shape, 'context_error', session.budgetCap, await viewOf(session));
  return done.outcome === 'compacted';
}

const STREAM_CUT: RunError = {
  kind: 'stream_cut',
  message: 'The response stream ended before the response was complete. Retry to continue.',
  retryable: true,
};

function failureInfo(failure: ModelErrorInfo): RunError {
  return {
    kind: failure.kind,
    message: failure.message,
    retryable: failure.retryable,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.code !== undefined ? { code: failure.code } : {}),
  };
}

/**
 * Calls announced by function_call.done but never delivered as item.done: persisted from what was announced, with
 * the response's end (and counted among the response's calls).
 */
function announcedOnly(inflight: Inflight): FunctionCallItem[] {
  const missing: FunctionCallItem[] = [];
  for (const [callId, a] of inflight.announced) {
    if (!inflight.doneCalls.some((c) => c.call_id === callId)) {
      const call: FunctionCallItem = {
        type: 'function_call',
        id: a.itemId,
        call_id: callId,
        name: a.name,
        arguments: a.arguments,
        status: 'completed',
      };
      missing.push(call);
      inflight.doneCalls.push(call);
    }
  }
  return missing;
}

/**
 * The completed response in one write: usage, the chain, the context figures, the calls to run (or the run's end
 * when there are none), then `turn.completed`. Returns how many calls the model made.
 */
async function recordTurn(
  session: RunSession,
  prepared: PreparedRequest,
  done: Completed,
  t0: number,
): Promise<number> {
  const inflight = session.inflight!;
  const missing = announcedOnly(inflight);
  const calls = inflight.doneCalls;
  const notes = done.incompleteReason
    ? [note('incomplete', `The API ended this response early (${done.incompleteReason}); the answer may be cut short.`)]
    : [];
  const latencyMs = round2(Number.isFinite(done.latencyMs) ? done.latencyMs : session.deps.elapsed() - t0);
  learnFromUsage(session, prepared.size, done.usage?.inputTokens);
  await session.commit(
    (s) => {
      s.turn += 1;
      s.lastResponseId = done.responseId;
      s.chain = { responseId: done.responseId, seq: inflight.nextSeq + missing.length };
      s.responseStartSeq = undefined;
      addUsage(s, done.usage);
      s.context = {
        tokens: done.usage?.inputTokens ?? prepared.tokens,
        budget: prepared.budget,
        ...(prepared.fixed !== undefined ? { fixedTokens: prepared.fixed } : {}),
        ...(done.usage?.cachedTokens !== undefined ? { cachedTokens: done.usage.cachedTokens } : {}),
      };
      s.phase = calls.length ? 'tools' : 'model';
      // A reply with no calls is the answer: the run ends in this same write, so a worker dying right after it cannot
      // leave a finished run looking like one about to ask the model again.
      if (!calls.length) {
        s.status = 'completed';
        s.stopReason = 'completed';
      }
      s.pendingCalls = calls.map((c) => pendingCall(session, c));
    },
    [...missing, ...notes],
  );
  session.inflight = undefined;
  session.emit({
    type: 'turn.completed',
    turn: session.state.turn,
    responseId: done.responseId,
    ...(done.model ? { model: done.model } : {}),
    ...(done.usage ? { usage: done.usage } : {}),
    ...(done.incompleteReason ? { incompleteReason: done.incompleteReason } : {}),
    latencyMs,
    toolCalls: calls.length,
    totals: { ...session.state.usage },
    ...(session.state.context ? { context: { ...session.state.context } } : {}),
  });
  return calls.length;
}

function pendingCall(session: RunSession, c: FunctionCallItem): PendingCall {
  const info = session.lookup(c.name);
  return {
    callId: c.call_id,
    name: c.name,
    ...(info ? { qualifiedName: info.qualifiedName } : {}),
    arguments: typeof c.arguments === 'string' ? c.arguments : '',
    status: 'pending',
  };
}

async function onStreamEvent(session: RunSession, inflight: Inflight, ev: ModelEvent): Promise<void> {
  switch (ev.type) {
    case 'retrying':
      // The client starts the request over: whatever this response persisted so far would come again.
      if (inflight.nextSeq > inflight.startSeq) await session.truncate(inflight.startSeq, 'retrying');
      inflight.nextSeq = inflight.startSeq;
      inflight.partialText.clear();
      inflight.callIdByItem.clear();
      inflight.announced.clear();
      inflight.doneCalls = [];
      session.emit({ type: 'retrying', attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
      return;
    case 'notice':
      session.emit({ type: 'notice', message: ev.message });
      return;
    case 'text.delta':
      inflight.partialText.set(ev.itemId, (inflight.partialText.get(ev.itemId) ?? '') + ev.delta);
      session.emit({ type: 'text.delta', itemId: ev.itemId, delta: ev.delta });
      return;
    case 'reasoning.delta':
      session.emit({ type: 'reasoning.delta', itemId: ev.itemId, delta: ev.delta });
      return;
    case 'function_call.added':
      inflight.callIdByItem.set(ev.itemId, ev.callId);
      session.emit({ type: 'tool.started', callId: ev.callId, itemId: ev.itemId, name: session.displayName(ev.name) });
      return;
    case 'function_call.arguments.delta':
      session.emit({
        type: 'tool.args.delta',
        callId: inflight.callIdByItem.get(ev.itemId) ?? ev.itemId,
        delta: ev.delta,
      });
      return;
    case 'function_call.done':
      inflight.announced.set(ev.callId, { name: ev.name, arguments: ev.arguments, itemId: ev.itemId });
      session.emit({ type: 'tool.args.done', callId: ev.callId, arguments: ev.arguments });
      return;
    case 'item.done': {
      const item = ev.item;
      if (isFunctionCall(item) && inflight.doneCalls.some((c) => c.call_id === item.call_id)) return; // delivered twice
      const recs = await session.commit(undefined, [item]);
      inflight.nextSeq = recs[0]!.seq + 1;
      if (typeof item.id === 'string') inflight.partialText.delete(item.id);
      if (isFunctionCall(item)) inflight.doneCalls.push(item);
      return;
    }
    default:
      return; // created, and anything newer
  }
}

function addUsage(s: RunState, usage: Usage | undefined): void {
  s.usage.responses += 1;
  if (!usage) return;
  s.usage.inputTokens += usage.inputTokens;
  s.usage.outputTokens += usage.outputTokens;
  s.usage.reasoningTokens += usage.reasoningTokens ?? 0;
  s.usage.cachedTokens += usage.cachedTokens ?? 0;
}

/** A function_call_output with its text in the names the model calls (other items unchanged, never mutated). */
function outputForModel(item: ResponseItem, forModel: (text: string) => string): ResponseItem {
  if (item.type !== 'function_call_output') return item;
  const output = (item as { output?: unknown }).output;
  if (typeof output === 'string') return { ...item, output: forModel(output) };
  if (Array.isArray(output))
    return {
      ...item,
      output: output.map((p: { type?: string; text?: string }) =>
        p && p.type === 'input_text' && typeof p.text === 'string' ? { ...p, text: forModel(p.text) } : p,
      ),
    };
  return item;
}
