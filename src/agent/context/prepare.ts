/**
 * Before each request (#23): elide superseded observations (a batch, recorded as one `otto.elision` item), estimate
 * the request against the budget, and compact when it would pass it. Also the recovery path: a server that refused
 * a request as too long gets it compacted and asked once more (turn.ts).
 */
import type { ModelEvent, ResponseItem } from '../../models/events.ts';
import type { ItemRecord } from '../../storage/records.ts';
import type { AgentConfigView, RunSession } from '../session.ts';
import { isFunctionCallOutput, userMessage } from '../transcript.ts';
import { abortable } from '../timing.ts';
import { calibrate, contextBudget, estimateTokens, extraChars, requestSize } from './contextBudget.ts';
import { elisionCandidates, MIN_ELIDE_CHARS, outputText, type ElisionItem } from './elide.ts';
import {
  contextNote,
  handleNote,
  indexText,
  userMessages,
  serverWindow,
  splitPoints,
  SUMMARY_INSTRUCTIONS,
  SUMMARY_REQUEST,
  summaryWindow,
  type CompactionItem,
  type HandleNote,
} from './compaction.ts';
import { contextView } from './contextView.ts';
import { transcriptView, type TranscriptView } from './transcriptView.ts';
import { DIGEST_HEAD, DIGEST_TOKENS, digestibleRun, digestWindow } from './digest.ts';
import { tabOf, urlIn } from './observations.ts';

/** The tail kept verbatim after a compaction: at most this share of the budget. */
export const KEEP_SHARE = 0.35;
/** Each output in the summary request is cut to this many characters (its handle reads the rest). */
export const SUMMARY_OUTPUT_CHARS = 1500;

export interface RequestShape {
  tools: unknown[];
  instructions: string | undefined;
  /** Tool outputs in the names the model calls (turn.ts). */
  forModel: (item: ResponseItem) => ResponseItem;
  /** Otto's own text for the model (the compaction index), in the names the model calls. */
  forText?: (text: string) => string;
}

export interface PreparedRequest {
  input: ResponseItem[];
  previousResponseId?: string;
  size: { chars: number; images: number };
  tokens: number;
  budget: number;
  /** Tokens of the instructions and tool definitions (see `fixedTokens`). */
  fixed?: number;
  /** The transcript the input was read from, as it stands when the request goes. */
  view: TranscriptView;
}

/** The budget in force: the configured or automatic one, lowered for this run once the server refused a request. */
export function budgetOf(session: RunSession, cfg: AgentConfigView): number {
  const budget = contextBudget(cfg.agent.context_budget, cfg.agent.model ?? '');
  return session.budgetCap !== undefined ? Math.min(budget, session.budgetCap) : budget;
}

/** The transcript as it stands now, read once into the view every step below works from. */
export async function viewOf(session: RunSession): Promise<TranscriptView> {
  return transcriptView(await session.transcript());
}

/**
 * The request's input, from one view of the transcript: built after the new elisions are recorded, and built again
 * only when a step writes to the transcript (a digest, a compaction).
 */
export async function prepareRequest(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
): Promise<PreparedRequest> {
  await elideSuperseded(session);
  let view = await viewOf(session);
  // With a server-side chain the server holds the context: only the new items are sent, and nothing is condensed.
  if (!(cfg.agent.previous_response_id && session.state.chain) && (await digestSettled(session, shape, view)))
    view = await viewOf(session);
  const budget = budgetOf(session, cfg);
  // The instructions and tool definitions (~12,000 characters of JSON) are measured once per request, not per use.
  const fixedChars = extraChars([shape.instructions ?? '', shape.tools]);
  let prepared = measure(session, cfg, shape, view, budget, fixedChars);
  if (prepared.tokens > budget && !prepared.previousResponseId) {
    const done = await compact(session, cfg, shape, 'budget', budget, view);
    if (done.outcome === 'compacted')
      prepared = measure(session, cfg, shape, await viewOf(session), budget, fixedChars);
    else if (done.outcome === 'futile') await noteOverBudget(session, prepared, done);
  }
  return { ...prepared, fixed: estimateTokens(requestSize([], fixedChars), session.charsPerToken) };
}

/**
 * Over the budget with nothing worth compacting: the request is sent as it is, and the transcript says so once
 * (until a compaction happens): the budget is not met, and why. A real context error is still recovered (turn.ts).
 */
async function noteOverBudget(
  session: RunSession,
  prepared: PreparedRequest,
  futile: Extract<CompactOutcome, { outcome: 'futile' }>,
): Promise<void> {
  if (session.contextNoted) return;
  session.contextNoted = true;
  await session.commit(undefined, [contextNote(prepared.tokens, prepared.budget, futile.fixed, futile.after)]);
}

function measure(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
  view: TranscriptView,
  budget: number,
  fixedChars: number,
): PreparedRequest {
  const context = contextView(view, {
    usePreviousResponseId: cfg.agent.previous_response_id,
    ...(session.state.chain ? { chain: session.state.chain } : {}),
  });
  const input = context.input.map(shape.forModel);
  const size = requestSize(input, fixedChars);
  return {
    input,
    ...(context.previousResponseId ? { previousResponseId: context.previousResponseId } : {}),
    size,
    tokens: estimateTokens(size, session.charsPerToken),
    budget,
    view,
  };
}

/** After a completed request: the server's count corrects the characters-per-token ratio. */
export function learnFromUsage(
  session: RunSession,
  size: { chars: number; images: number },
  inputTokens: number | undefined,
): void {
  if (inputTokens === undefined) return;
  const ratio = calibrate(size, inputTokens);
  if (ratio !== undefined) session.charsPerToken = ratio;
}

/**
 * Condenses the settled steps into a digest (digest.ts) once they weigh DIGEST_TOKENS, recorded as a compaction
 * (`method: 'digest'`) with the handles and origin labels of what it stands for, like any other.
 */
export async function digestSettled(session: RunSession, shape: RequestShape, view: TranscriptView): Promise<boolean> {
  const { compaction: prev, sent, elided } = view;
  const items = view.items.map(shape.forModel);
  const run = digestibleRun(items, elided);
  // The last split point inside the run: calls stay with their outputs, and the latest item is never digested.
  const split = splitPoints(items)
    .filter((p) => p <= run)
    .at(-1);
  if (split === undefined) return false;
  const part = items.slice(0, split);
  if (estimateTokens(requestSize(part), session.charsPerToken) < DIGEST_TOKENS) return false;
  const covered = sent.slice(0, split);
  const handles: HandleNote[] = [...(prev?.handles ?? [])];
  const labels = new Set<string>([...(prev?.labels ?? [])]);
  for (const r of covered) {
    for (const l of r.labels ?? []) labels.add(l);
    const e = isFunctionCallOutput(r.item) ? elided.get(r.item.call_id) : undefined;
    for (const l of e?.labels ?? []) labels.add(l);
    if (e?.handle) handles.push(handleNote(e.handle, e));
  }
  const extra = [shape.instructions ?? '', shape.tools];
  const head = shape.forText ? shape.forText(DIGEST_HEAD) : DIGEST_HEAD;
  const window = [...(prev?.items ?? []), ...digestWindow(part, elided, head)];
  const rest = items.slice(split);
  const before = estimateTokens(requestSize([...(prev?.items ?? []), ...items], extra), session.charsPerToken);
  const after = estimateTokens(requestSize([...window, ...rest], extra), session.charsPerToken);
  if (after >= before) return false; // lines longer than what they stand for (never with stubs): leave it
  const item: CompactionItem = {
    type: 'otto.compaction',
    throughSeq: covered[covered.length - 1]!.seq,
    method: 'digest',
    reason: 'history',
    items: window,
    labels: [...labels].sort(),
    handles,
    tokensBefore: before,
    tokensAfter: after,
    fixedTokens: fixedTokens(shape, session.charsPerToken),
  };
  await session.commit(
    (s) => {
      s.chain = undefined;
      if (labels.size) s.origins = [...new Set([...(s.origins ?? []), ...labels])].sort();
    },
    [item],
  );
  return true;
}

/** Records the superseded observations not elided yet, as one batch, with a handle for each. */
export async function elideSuperseded(session: RunSession): Promise<void> {
  const records = await session.transcript();
  const candidates = elisionCandidates(records, (name) => session.displayName(name));
  if (!candidates.length) return;
  const entries = [];
  for (const c of candidates) {
    const handle = await keep(session, c.text, c.entry.tool);
    entries.push({ ...c.entry, ...(handle ? { handle } : {}) });
  }
  const item: ElisionItem = { type: 'otto.elision', entries };
  await session.commit(undefined, [item]);
}

async function keep(session: RunSession, text: string, tool: string): Promise<string | undefined> {
  try {
    return (await session.deps.tools.keep?.(text, tool)) ?? undefined;
  } catch {
    return undefined; // the stub says it could not be kept
  }
}

/** A compaction that makes the request smaller by less than this (share of the budget) is not worth its request. */
export const MIN_GAIN_SHARE = 0.1;
export const MIN_GAIN_TOKENS = 256;
/** What a window's notes are expected to take (SUMMARY_INSTRUCTIONS asks for about 300 words). */
export const NOTES_TOKENS = 500;

/**
 * The least a compaction must save to be made: a tenth of the budget under the budget (anything less would be
 * repeated every turn, each time with its own request, while the request stays as large — the "thrash" of #23), and
 * anything at all after a context error (the server refused the request: any room helps, and failing is honest).
 */
export function minGain(budget: number, reason: CompactionItem['reason']): number {
  return reason === 'context_error' ? 1 : Math.max(MIN_GAIN_TOKENS, Math.ceil(budget * MIN_GAIN_SHARE));
}

/** What a compaction did: made one, found nothing to compact, or found it would not save `minGain`. */
export type CompactOutcome =
  | { outcome: 'compacted'; before: number; after: number }
  | { outcome: 'nothing' }
  | { outcome: 'futile'; before: number; after: number; fixed: number };

/** The tokens of the instructions and tool definitions: the part of every request no compaction can shrink. */
export function fixedTokens(shape: Pick<RequestShape, 'instructions' | 'tools'>, charsPerToken?: number): number {
  return estimateTokens(requestSize([], [shape.instructions ?? '', shape.tools]), charsPerToken);
}

const PLACEHOLDER_HANDLE = '0'.repeat(12);

/**
 * Replaces the older part of the context by a compact window (the server's, or a summary by the model) and records
 * it — unless there is nothing to compact (the whole context is the latest turn) or the window would not make the
 * request `minGain` smaller (then nothing is asked and nothing recorded: see `futile`).
 */
export async function compact(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
  reason: CompactionItem['reason'],
  budget: number,
  view: TranscriptView,
): Promise<CompactOutcome> {
  const { compaction: prev, sent, elided, records } = view;
  const items = view.items.map(shape.forModel);
  const points = splitPoints(items);
  if (!points.length) return { outcome: 'nothing' };
  const charsPerToken = session.charsPerToken;
  const extra = [shape.instructions ?? '', shape.tools];
  const fixed = fixedTokens(shape, charsPerToken);
  // The tail kept verbatim: at most KEEP_SHARE of the budget, and no more than leaves room for the fixed prefix and
  // the window's notes (with a prefix near the budget, a tail of KEEP_SHARE would leave the request over it).
  const keepTokens = Math.max(0, Math.min(budget * KEEP_SHARE, budget - fixed - NOTES_TOKENS));
  let split = points[points.length - 1]!;
  for (const p of points) {
    if (estimateTokens(requestSize(items.slice(p)), charsPerToken) <= keepTokens) {
      split = p;
      break;
    }
  }
  const covered = sent.slice(0, split);
  const throughSeq = covered[covered.length - 1]!.seq;
  const before = estimateTokens(requestSize([...(prev?.items ?? []), ...items], extra), charsPerToken);
  const compacted = [...(prev?.items ?? []), ...items.slice(0, split)];

  // What the window stands for: handles (to read each output back) and origin labels. Outputs without a handle yet
  // are kept only once the compaction is known to be worth it.
  const handles: HandleNote[] = [...(prev?.handles ?? [])];
  const toKeep: { at: number; text: string; tool: string; tab: string; createdAt: number; url?: string }[] = [];
  const labels = new Set<string>([...(prev?.labels ?? [])]);
  const calls = callsById(records);
  for (const r of covered) {
    for (const l of r.labels ?? []) labels.add(l);
    if (!isFunctionCallOutput(r.item)) continue;
    const e = elided.get(r.item.call_id);
    for (const l of e?.labels ?? []) labels.add(l);
    if (e?.handle) {
      handles.push(handleNote(e.handle, e));
      continue;
    }
    const text = outputText(r.item.output);
    if (text.length < MIN_ELIDE_CHARS) continue;
    const call = calls.get(r.item.call_id);
    const url = urlIn(text);
    const tool = call ? session.displayName(call.name) : 'tool';
    const tab = tabOf(call?.arguments);
    toKeep.push({ at: handles.length, text, tool, tab, createdAt: r.createdAt, ...(url ? { url } : {}) });
    handles.push(handleNote(PLACEHOLDER_HANDLE, { tool, tab, at: r.createdAt, ...(url ? { url } : {}) }));
  }

  // Worth it? The window holds the user's messages, the notes and the index; the tail goes on as it is.
  const expected =
    estimateTokens(requestSize([...userMessages(compacted), ...items.slice(split)], extra), charsPerToken) +
    NOTES_TOKENS +
    estimateTokens(requestSize([], [indexText(handles)]), charsPerToken);
  if (before - expected < minGain(budget, reason)) return { outcome: 'futile', before, after: expected, fixed };

  for (const k of toKeep) {
    const handle = await keep(session, k.text, k.tool);
    if (handle) handles[k.at] = { ...handles[k.at]!, handle };
  }
  const kept = handles.filter((h) => h.handle !== PLACEHOLDER_HANDLE);

  let window: ResponseItem[] | undefined;
  let method: CompactionItem['method'] = 'summary';
  const model = session.deps.model;
  if (model.compact) {
    const res = await model.compact({
      input: compacted,
      ...(shape.instructions ? { instructions: shape.instructions } : {}),
      signal: session.signal,
    });
    session.checkAbort();
    if (res.ok) {
      window = serverWindow(
        res.output.filter((i) => !isOttoMessage(i)),
        kept,
      );
      method = 'server';
      if (res.usage) session.stage((s) => addUsage(s.usage, res.usage!));
    }
  }
  if (!window) {
    const notes = await summarise(session, shape, compacted, budget);
    window = summaryWindow(compacted, notes, kept);
  }
  const forText = shape.forText;
  if (forText) window = window.map((w) => (isOttoMessage(w) ? userMessage(forText(ottoText(w))) : w));
  const after = estimateTokens(requestSize([...window, ...items.slice(split)], extra), charsPerToken);
  const item: CompactionItem = {
    type: 'otto.compaction',
    throughSeq,
    method,
    reason,
    items: window,
    labels: [...labels].sort(),
    handles: kept,
    tokensBefore: before,
    tokensAfter: after,
    fixedTokens: fixed,
  };
  await session.commit(
    (s) => {
      // The server's chained copy holds what was just replaced: the next request sends the window in full.
      s.chain = undefined;
      if (labels.size) s.origins = [...new Set([...(s.origins ?? []), ...labels])].sort();
    },
    [item],
  );
  // The prefix changes here anyway: the next request may bring the instructions up to date.
  session.instructionsFixed = false;
  session.contextNoted = false;
  return { outcome: 'compacted', before, after };
}

function addUsage(
  total: { inputTokens: number; outputTokens: number; cachedTokens: number },
  u: { inputTokens: number; outputTokens: number; cachedTokens?: number },
): void {
  total.inputTokens += u.inputTokens;
  total.outputTokens += u.outputTokens;
  total.cachedTokens += u.cachedTokens ?? 0;
}

const ottoText = (item: ResponseItem): string => (item.content as { text?: string }[] | undefined)?.[0]?.text ?? '';

/** A message Otto wrote into a compaction window (the notes, the index). */
function isOttoMessage(item: ResponseItem): boolean {
  return item.type === 'message' && item.role === 'user' && ottoText(item).startsWith('[Otto:');
}

function callsById(records: readonly ItemRecord[]): Map<string, { name: string; arguments: unknown }> {
  const out = new Map<string, { name: string; arguments: unknown }>();
  for (const r of records)
    if (r.item.type === 'function_call' && typeof r.item.call_id === 'string')
      out.set(r.item.call_id, { name: String(r.item.name), arguments: r.item.arguments });
  return out;
}

/** Long outputs cut for the summary request (each names its handle in the index that follows the notes). */
function forSummary(items: readonly ResponseItem[]): ResponseItem[] {
  return items.map((item) => {
    if (!isFunctionCallOutput(item)) return item;
    const text = outputText((item as { output?: unknown }).output);
    return text.length > SUMMARY_OUTPUT_CHARS || typeof (item as { output?: unknown }).output !== 'string'
      ? {
          ...item,
          output:
            text.length > SUMMARY_OUTPUT_CHARS ? `${text.slice(0, SUMMARY_OUTPUT_CHARS)}… [cut for the notes]` : text,
        }
      : item;
  });
}

/**
 * One extra request: the model writes the notes. Its tools are offered as usual (the request's prefix is the one the
 * server has cached) but any call it makes is ignored. Without usable text, Otto's own notes stand in.
 */
async function summarise(
  session: RunSession,
  shape: RequestShape,
  compacted: readonly ResponseItem[],
  budget: number,
): Promise<string> {
  // Same instructions and tools as the turns before, so the server's prompt cache serves the prefix; outputs are cut
  // only when the part to summarise is itself too large to send.
  const big = estimateTokens(requestSize(compacted), session.charsPerToken) > budget * 0.6;
  const input = [
    ...(big ? forSummary(compacted) : compacted),
    userMessage(`${SUMMARY_INSTRUCTIONS}\n\n${SUMMARY_REQUEST}`),
  ];
  let text = '';
  let usage: { inputTokens: number; outputTokens: number; cachedTokens?: number } | undefined;
  const stream = session.deps.model.stream({
    input,
    tools: shape.tools,
    ...(shape.instructions ? { instructions: shape.instructions } : {}),
    signal: session.signal,
  });
  for await (const ev of abortable(stream, session.signal) as AsyncIterable<ModelEvent>) {
    if (ev.type === 'text.delta') text += ev.delta;
    else if (ev.type === 'completed') {
      usage = ev.usage;
      break;
    } else if (ev.type === 'failed') {
      text = '';
      break;
    }
  }
  session.checkAbort();
  if (usage) {
    const u = usage;
    session.stage((s) => {
      s.usage.responses += 1;
      addUsage(s.usage, u);
    });
  }
  return (
    text.trim() ||
    'The model wrote no notes; the user messages above and the outputs listed below are what was done so far.'
  );
}
