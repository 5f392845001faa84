/**
 * ChatState → what the message list renders, in order. Pure. Persisted items first (in seq order), then what is
 * still streaming. A function_call and its function_call_output (paired by call_id) make one tool card; the cards
 * of consecutive calls make one group. Command cards (panel-only, see commands.ts) go after the item that was last
 * when they ran.
 */
import { outputText } from '../../agent/outputText.ts';
import type { ResponseItem } from '../../models/events.ts';
import type { AnswerLink } from '../../shared/answerLink.ts';
import type { ChatState, ToolStatus, TurnInfo } from './chat.ts';
import { metadataDuration, resultHandle } from '../lib/displayFormat.ts';
import type { CommandCard } from './commands.ts';

export interface ToolCardModel {
  callId: string;
  /** Qualified name (the API name only when the registry does not know it). */
  name: string;
  args: string;
  status: ToolStatus;
  startedAt?: number;
  durationMs?: number;
  output?: string;
  handle?: string;
}

export type Entry =
  | { kind: 'user'; key: string; text: string }
  | {
      kind: 'assistant';
      key: string;
      text: string;
      streaming: boolean;
      turn?: TurnInfo;
      /** The worker's verdict on its links; a link without one asks before it opens. */
      links?: AnswerLink[];
    }
  | { kind: 'reasoning'; key: string; text: string; streaming: boolean }
  | { kind: 'tools'; key: string; cards: ToolCardModel[]; turn?: TurnInfo }
  | { kind: 'note'; key: string; text: string }
  /** Where the context was compacted (#23): what the model sees from here on stands in for what is above. */
  | { kind: 'compaction'; key: string; text: string; detail: string }
  | { kind: 'command'; key: string; card: CommandCard };

/** The four states of the `run-status` contract, plus the raw status. */
export type RunStatusView = 'idle' | 'running' | 'error' | 'interrupted';

export function runStatusView(s: Pick<ChatState, 'status' | 'active'>): RunStatusView {
  switch (s.status) {
    case 'running':
      return s.active ? 'running' : 'interrupted';
    case 'awaiting_approval':
      return 'running';
    case 'interrupted':
      return 'interrupted';
    case 'error':
      return 'error';
    default:
      return 'idle';
  }
}

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: Record<string, unknown>) =>
      typeof c?.text === 'string' ? c.text : typeof c?.refusal === 'string' ? c.refusal : '',
    )
    .join('');
}

export function reasoningText(item: ResponseItem): string {
  const summary = Array.isArray(item.summary) ? (item.summary as Record<string, unknown>[]) : [];
  return summary
    .map((s) => (typeof s.text === 'string' ? s.text : ''))
    .filter(Boolean)
    .join('\n\n');
}

/** A qualified name for an API name: what the registry said, else the name as sent. */
export function displayName(names: Record<string, string>, apiName: string): string {
  return names[apiName] ?? apiName;
}

function statusFromOutput(output: string): ToolStatus {
  return output.startsWith('Error:') ? 'error' : 'ok';
}

export function buildEntries(s: ChatState, commands: readonly CommandCard[] = []): Entry[] {
  const outputs = new Map<string, string>();
  for (const { item } of s.items) {
    if (item.type === 'function_call_output' && typeof item.call_id === 'string')
      outputs.set(item.call_id, outputText(item.output));
  }
  const pending = new Map(s.pendingCalls.map((c) => [c.callId, c]));
  const entries: Entry[] = [];
  const persistedIds = new Set<string>();
  const persistedCalls = new Set<string>();

  // A response's calls are contiguous and its outputs follow them, so a call after an output starts a new turn.
  let afterOutput = false;
  const pushCard = (card: ToolCardModel, key: string, turn?: TurnInfo) => {
    const last = entries[entries.length - 1];
    const sameTurn = !afterOutput;
    afterOutput = false;
    if (last?.kind === 'tools' && sameTurn) {
      last.cards.push(card);
      if (turn) last.turn = turn;
    } else entries.push({ kind: 'tools', key, cards: [card], ...(turn ? { turn } : {}) });
  };

  // Command cards in the order they ran, each flushed before the first item newer than its afterSeq.
  let nextCommand = 0;
  const flushCommands = (beforeSeq: number) => {
    while (nextCommand < commands.length && commands[nextCommand]!.afterSeq < beforeSeq) {
      const card = commands[nextCommand++]!;
      entries.push({ kind: 'command', key: `c${card.id}`, card });
    }
  };

  for (const { seq, item, links } of s.items) {
    flushCommands(seq);
    const id = typeof item.id === 'string' ? item.id : undefined;
    if (id) persistedIds.add(id);
    const turn = id ? s.turns[id] : undefined;
    if (item.type === 'message') {
      const text = messageText(item.content);
      if (item.role === 'user') entries.push({ kind: 'user', key: `u${seq}`, text });
      else
        entries.push({
          kind: 'assistant',
          key: `m${id ?? seq}`,
          text,
          streaming: false,
          ...(turn ? { turn } : {}),
          ...(links ? { links } : {}),
        });
    } else if (item.type === 'reasoning') {
      const text = reasoningText(item);
      if (text) entries.push({ kind: 'reasoning', key: `r${id ?? seq}`, text, streaming: false });
    } else if (item.type === 'function_call' && typeof item.call_id === 'string') {
      const callId = item.call_id;
      persistedCalls.add(callId);
      const live = s.tools[callId];
      const output = outputs.get(callId);
      const pc = pending.get(callId);
      let status: ToolStatus;
      if (output !== undefined) status = statusFromOutput(output);
      else if (live) status = live.status;
      else if (pc?.status === 'running') status = s.active ? 'running' : 'interrupted';
      else if (pc?.status === 'awaiting_approval') status = 'awaiting';
      else status = 'pending';
      const durationMs =
        s.durations[callId] ?? live?.durationMs ?? pc?.durationMs ?? (output ? metadataDuration(output) : undefined);
      const handle = output ? resultHandle(output) : undefined;
      pushCard(
        {
          callId,
          name: displayName(s.names, String(item.name ?? '')),
          args: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
          status,
          ...(status === 'running' && live?.startedAt ? { startedAt: live.startedAt } : {}),
          ...(durationMs !== undefined && output !== undefined ? { durationMs } : {}),
          ...(output !== undefined ? { output } : {}),
          ...(handle ? { handle } : {}),
        },
        `g${callId}`,
        turn,
      );
    } else if (item.type === 'function_call_output') {
      // Shown on its call's card.
      afterOutput = true;
    } else if (item.type === 'otto.elision') {
      // Which outputs left the request: the panel keeps showing them in full.
    } else if (item.type === 'otto.compaction') {
      entries.push({ kind: 'compaction', key: `c${seq}`, ...compactionText(item) });
    } else if (item.type.startsWith('otto.')) {
      entries.push({ kind: 'note', key: `n${seq}`, text: typeof item.text === 'string' ? item.text : item.type });
    }
  }

  flushCommands(Infinity);

  for (const ref of s.liveOrder) {
    if (ref.kind === 'text' && !persistedIds.has(ref.id)) {
      entries.push({ kind: 'assistant', key: `m${ref.id}`, text: s.liveText[ref.id] ?? '', streaming: true });
    } else if (ref.kind === 'reasoning' && !persistedIds.has(ref.id)) {
      const text = s.liveReasoning[ref.id] ?? '';
      if (text) entries.push({ kind: 'reasoning', key: `r${ref.id}`, text, streaming: true });
    } else if (ref.kind === 'tool' && !persistedCalls.has(ref.id)) {
      const t = s.tools[ref.id];
      if (!t) continue;
      pushCard(
        {
          callId: t.callId,
          name: t.name,
          args: t.args,
          status: t.status,
          ...(t.startedAt ? { startedAt: t.startedAt } : {}),
        },
        `g${t.callId}`,
      );
    }
  }
  return entries;
}

/** The compaction marker's line and its detail (hover). */
export function compactionText(item: Record<string, unknown>): { text: string; detail: string } {
  const before = Number(item.tokensBefore) || 0;
  const after = Number(item.tokensAfter) || 0;
  const how =
    item.method === 'server'
      ? "by the server's compaction"
      : item.method === 'digest'
        ? 'into a digest of the earlier steps (one line per call, no model request)'
        : 'into notes written by the model';
  const why = item.reason === 'context_error' ? 'The model refused the request as too long: ' : '';
  const k = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
  const labels = Array.isArray(item.labels) ? (item.labels as string[]) : [];
  const handles = Array.isArray(item.handles) ? item.handles.length : 0;
  return {
    text: `${why}Context compacted ${how}: about ${k(before)} → ${k(after)} tokens${after >= before ? ' (it saved nothing: the notes took as much as what they replaced)' : ''}. Everything above stays here; the model reads it back by handle.`,
    detail: [
      `${handles} earlier output${handles === 1 ? '' : 's'} readable with ot.result`,
      labels.length ? `carries data from ${labels.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  };
}
