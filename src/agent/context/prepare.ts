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
import { calibrate, contextBudget, estimateTokens, requestSize } from './budget.ts';
import {
  applyElisions,
  elisionCandidates,
  MIN_ELIDE_CHARS,
  outputText,
  recordedElisions,
  type ElisionItem,
} from './elide.ts';
import {
  handleNote,
  latestCompaction,
  sentItems,
  serverWindow,
  splitPoints,
  SUMMARY_INSTRUCTIONS,
  SUMMARY_REQUEST,
  summaryWindow,
  type CompactionItem,
  type HandleNote,
} from './compaction.ts';
import { contextView } from './view.ts';
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
}

/** The budget in force: the configured or automatic one, lowered for this run once the server refused a request. */
export function budgetOf(session: RunSession, cfg: AgentConfigView): number {
  const budget = contextBudget(cfg.agent.context_budget, cfg.agent.model ?? '');
  return session.budgetCap !== undefined ? Math.min(budget, session.budgetCap) : budget;
}

export async function prepareRequest(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
): Promise<PreparedRequest> {
  await elideSuperseded(session);
  const budget = budgetOf(session, cfg);
  let prepared = await measure(session, cfg, shape, budget);
  if (prepared.tokens > budget && !prepared.previousResponseId) {
    if (await compact(session, cfg, shape, 'budget', budget)) prepared = await measure(session, cfg, shape, budget);
  }
  return prepared;
}

async function measure(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
  budget: number,
): Promise<PreparedRequest> {
  const records = await session.transcript();
  const view = contextView(records, {
    usePreviousResponseId: cfg.agent.previous_response_id,
    ...(session.state.chain ? { chain: session.state.chain } : {}),
  });
  const input = view.input.map(shape.forModel);
  const size = requestSize(input, [shape.instructions ?? '', shape.tools]);
  return {
    input,
    ...(view.previousResponseId ? { previousResponseId: view.previousResponseId } : {}),
    size,
    tokens: estimateTokens(size, session.charsPerToken),
    budget,
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

/**
 * Replaces the older part of the context by a compact window (the server's, or a summary by the model) and records
 * it. False when there was nothing to compact (the whole context is the latest turn).
 */
export async function compact(
  session: RunSession,
  cfg: AgentConfigView,
  shape: RequestShape,
  reason: CompactionItem['reason'],
  budget: number,
): Promise<boolean> {
  const records = await session.transcript();
  const prev = latestCompaction(records);
  const sent = sentItems(records, prev?.throughSeq ?? -1);
  const elided = recordedElisions(records);
  const items = applyElisions(
    sent.map((r) => r.item as ResponseItem),
    elided,
  ).map(shape.forModel);
  const points = splitPoints(items);
  if (!points.length) return false;
  const charsPerToken = session.charsPerToken;
  const keepTokens = budget * KEEP_SHARE;
  let split = points[points.length - 1]!;
  for (const p of points) {
    if (estimateTokens(requestSize(items.slice(p)), charsPerToken) <= keepTokens) {
      split = p;
      break;
    }
  }
  const covered = sent.slice(0, split);
  const throughSeq = covered[covered.length - 1]!.seq;
  const before = estimateTokens(
    requestSize([...(prev?.items ?? []), ...items], [shape.instructions ?? '', shape.tools]),
    charsPerToken,
  );

  // What the window stands for: handles (to read each output back) and origin labels.
  const handles: HandleNote[] = [...(prev?.handles ?? [])];
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
    const tool = call ? session.displayName(call.name) : 'tool';
    const handle = await keep(session, text, tool);
    const url = urlIn(text);
    if (handle)
      handles.push(handleNote(handle, { tool, tab: tabOf(call?.arguments), at: r.createdAt, ...(url ? { url } : {}) }));
  }
  const compacted = [...(prev?.items ?? []), ...items.slice(0, split)];

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
        handles,
      );
      method = 'server';
      if (res.usage) session.stage((s) => addUsage(s.usage, res.usage!));
    }
  }
  if (!window) {
    const notes = await summarise(session, shape, compacted, budget);
    window = summaryWindow(compacted, notes, handles);
  }
  const forText = shape.forText;
  if (forText) window = window.map((w) => (isOttoMessage(w) ? userMessage(forText(ottoText(w))) : w));
  const after = estimateTokens(
    requestSize([...window, ...items.slice(split)], [shape.instructions ?? '', shape.tools]),
    charsPerToken,
  );
  const item: CompactionItem = {
    type: 'otto.compaction',
    throughSeq,
    method,
    reason,
    items: window,
    labels: [...labels].sort(),
    handles,
    tokensBefore: before,
    tokensAfter: after,
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
  return true;
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
