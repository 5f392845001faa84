/**
 * The panel's chat state: one conversation, rebuilt from `conversations.get` (items + run state) and kept current by
 * the worker's AgentEvents. Pure: `chatReducer(state, action)` has no side effects and takes time from the action,
 * so it is unit-tested without a browser.
 *
 * Persisted items are the truth; live deltas (text, reasoning, tool arguments) are overlays keyed by item/call id,
 * dropped the moment the persisted item arrives or the response is discarded. That is what makes a reopened
 * conversation render exactly like the live one.
 */
import { outputText } from '../../agent/outputText.ts';
import type { AgentEvent } from '../../agent/agentEvents.ts';
import type { ResponseItem, Usage } from '../../models/events.ts';
import { parseAnswerLinks, type AnswerLink } from '../../shared/answerLink.ts';
import type {
  PendingApproval,
  PendingCall,
  RunError,
  RunState,
  RunStatus,
  StopReason,
  UsageTotals,
} from '../../storage/runRecords.ts';
import type { UnreadableRun } from '../../storage/runStateSchema.ts';
import type { TaskScope } from '../../shared/taskScope.ts';

export interface PersistedItem {
  seq: number;
  item: ResponseItem;
  /** The worker's verdict on each link of an assistant message (shared/answerLink.ts). */
  links?: AnswerLink[];
}

/**
 * A card's `data-status`: running | ok | error (docs/design.md, "Contracts"), plus the states before and around
 * running: pending (arguments streaming, or queued), awaiting (approval), interrupted (the worker died while it ran;
 * resume decides).
 */
export type ToolStatus = 'pending' | 'awaiting' | 'running' | 'ok' | 'error' | 'interrupted';

/** What the live events told us about a call (persisted outputs override it). */
export interface ToolLive {
  callId: string;
  name: string;
  args: string;
  status: ToolStatus;
  startedAt?: number;
  durationMs?: number;
  output?: string;
  reason?: string;
}

export interface TurnInfo {
  turn: number;
  model?: string;
  usage?: Usage;
  latencyMs: number;
  incompleteReason?: string;
}

/** Live overlay order: what streamed, in first-seen order. */
export type LiveRef = { kind: 'text' | 'reasoning' | 'tool'; id: string };

export interface ChatState {
  conversationId?: string;
  loading: boolean;
  items: PersistedItem[];
  liveText: Record<string, string>;
  liveReasoning: Record<string, string>;
  liveOrder: LiveRef[];
  tools: Record<string, ToolLive>;
  /** API tool name → qualified name. */
  names: Record<string, string>;
  status: RunStatus;
  /** A run of this conversation executes in the worker right now. */
  active: boolean;
  stopReason?: StopReason;
  error?: RunError;
  approval?: PendingApproval;
  retrying?: { attempt: number; delayMs: number; reason: string; at: number };
  /** The model client's notice (e.g. "switched to Chat Completions"), until dismissed. */
  info?: string;
  workerError?: string;
  /** The last completed run's calls (statuses for calls without output after a reload). */
  pendingCalls: PendingCall[];
  /** Per-turn usage, keyed by the id of the turn's last assistant item. */
  turns: Record<string, TurnInfo>;
  /** Tool durations by call id. */
  durations: Record<string, number>;
  /** Items from this seq on belong to the response in flight (for attributing turn.completed). */
  turnStartSeq: number;
  totals?: UsageTotals;
  /** #42: what the user's words ask the task to do (the "Task: …" line). */
  taskScope?: TaskScope;
  /** The last request against the context budget (#23), for the context meter. */
  context?: { tokens: number; budget: number; cachedTokens?: number; fixedTokens?: number };
  /** Events that arrived while the conversation was loading; replayed over the loaded state. */
  buffered: { event: AgentEvent; at: number }[];
  /** Its stored run cannot be read (newer or damaged): the transcript is shown to read and export, not to continue. */
  unreadable?: UnreadableRun;
}

export type ChatAction =
  | { type: 'clear' }
  | { type: 'loading'; conversationId: string }
  | {
      type: 'loaded';
      conversationId: string;
      items: PersistedItem[];
      state?: RunState | undefined;
      unreadable?: UnreadableRun | undefined;
      active: boolean;
      names?: Record<string, string>;
      turns?: Record<string, TurnInfo>;
      durations?: Record<string, number>;
    }
  | { type: 'names'; names: Record<string, string> }
  | { type: 'event'; event: AgentEvent; at: number }
  | { type: 'worker.error'; conversationId?: string | undefined; message: string }
  | { type: 'dismiss' }
  | { type: 'dismiss.info' };

export function emptyChat(): ChatState {
  return {
    loading: false,
    items: [],
    liveText: {},
    liveReasoning: {},
    liveOrder: [],
    tools: {},
    names: {},
    status: 'idle',
    active: false,
    pendingCalls: [],
    turns: {},
    durations: {},
    turnStartSeq: 0,
    buffered: [],
  };
}

function upsertItem(items: PersistedItem[], next: PersistedItem): PersistedItem[] {
  const i = items.findIndex((x) => x.seq === next.seq);
  if (i >= 0) return items.map((x, j) => (j === i ? next : x));
  const out = [...items, next];
  if (items.length && items[items.length - 1]!.seq > next.seq) out.sort((a, b) => a.seq - b.seq);
  return out;
}

function withoutKey<T>(rec: Record<string, T>, key: string | undefined): Record<string, T> {
  if (key === undefined || !(key in rec)) return rec;
  const { [key]: _drop, ...rest } = rec;
  return rest;
}

function pushLive(order: LiveRef[], ref: LiveRef): LiveRef[] {
  return order.some((r) => r.kind === ref.kind && r.id === ref.id) ? order : [...order, ref];
}

/** The id of the item a turn's usage is shown under: its last assistant message, else its last function call. */
function turnAnchor(items: PersistedItem[], fromSeq: number): string | undefined {
  const mine = items.filter((x) => x.seq >= fromSeq);
  const pick = (pred: (i: ResponseItem) => boolean) => [...mine].reverse().find((x) => pred(x.item))?.item.id;
  const id = pick((i) => i.type === 'message' && i.role === 'assistant') ?? pick((i) => i.type === 'function_call');
  return typeof id === 'string' ? id : undefined;
}

function isPersisted(s: ChatState, itemId: string): boolean {
  return s.items.some((x) => x.item.id === itemId);
}

function nextSeq(items: PersistedItem[]): number {
  return items.length ? items[items.length - 1]!.seq + 1 : 0;
}

function onItem(s: ChatState, seq: number, item: ResponseItem, links: unknown): ChatState {
  const items = upsertItem(s.items, { seq, item, ...(links !== undefined ? { links: parseAnswerLinks(links) } : {}) });
  const id = typeof item.id === 'string' ? item.id : undefined;
  let { names, tools } = s;
  if (item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string') {
    const live = tools[item.call_id];
    if (live && live.name !== item.name && !names[item.name]) names = { ...names, [item.name]: live.name };
  }
  const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
  // A message without an id is what the user saw of an unfinished reply (kept on Stop): it replaces the live text.
  const partial = item.type === 'message' && item.role === 'assistant' && id === undefined;
  const liveOrder = s.liveOrder.filter(
    (r) =>
      !(partial && r.kind === 'text') &&
      !(r.id === id && r.kind !== 'tool') &&
      !(r.kind === 'tool' && r.id === callId && item.type === 'function_call'),
  );
  const call = callId ? tools[callId] : undefined;
  if (item.type === 'function_call_output' && call && call.status !== 'ok' && call.status !== 'error') {
    // The output is the fact; tool.finished (duration) follows it.
    tools = {
      ...tools,
      [call.callId]: { ...call, status: outputText(item.output).startsWith('Error:') ? 'error' : 'ok' },
    };
  }
  return {
    ...s,
    items,
    names,
    tools,
    liveText: partial ? {} : withoutKey(s.liveText, id),
    liveReasoning: withoutKey(s.liveReasoning, id),
    liveOrder,
  };
}

function onEvent(s: ChatState, e: AgentEvent, at: number): ChatState {
  switch (e.type) {
    case 'run.status': {
      const running = e.status === 'running';
      const next: ChatState = {
        ...s,
        status: e.status,
        active: running,
        workerError: running ? undefined : s.workerError,
      };
      next.stopReason = e.stopReason;
      if (e.taskScope) next.taskScope = e.taskScope;
      next.error = e.status === 'error' ? e.error : undefined;
      if (!running) next.retrying = undefined;
      if (!running && e.status !== 'awaiting_approval') {
        // The run settled: what it kept is persisted; anything still live was dropped or replaced by an item.
        next.liveText = {};
        next.liveReasoning = {};
        next.liveOrder = [];
      }
      if (e.status !== 'awaiting_approval') next.approval = undefined;
      if (running && s.status !== 'running') next.turnStartSeq = Math.max(s.turnStartSeq, nextSeq(s.items));
      return next;
    }
    case 'item':
      return onItem({ ...s, retrying: undefined }, e.seq, e.item, e.links);
    case 'items.discarded': {
      const items = s.items.filter((x) => x.seq < e.fromSeq);
      const calls = new Set(items.map((x) => x.item.call_id).filter((c): c is string => typeof c === 'string'));
      const tools = Object.fromEntries(Object.entries(s.tools).filter(([id]) => calls.has(id)));
      return {
        ...s,
        items,
        tools,
        liveText: {},
        liveReasoning: {},
        liveOrder: [],
        turnStartSeq: Math.min(s.turnStartSeq, e.fromSeq),
      };
    }
    case 'text.delta':
      if (isPersisted(s, e.itemId)) return s;
      return {
        ...s,
        retrying: undefined,
        liveText: { ...s.liveText, [e.itemId]: (s.liveText[e.itemId] ?? '') + e.delta },
        liveOrder: pushLive(s.liveOrder, { kind: 'text', id: e.itemId }),
      };
    case 'reasoning.delta':
      if (isPersisted(s, e.itemId)) return s;
      return {
        ...s,
        retrying: undefined,
        liveReasoning: { ...s.liveReasoning, [e.itemId]: (s.liveReasoning[e.itemId] ?? '') + e.delta },
        liveOrder: pushLive(s.liveOrder, { kind: 'reasoning', id: e.itemId }),
      };
    case 'tool.started':
      return {
        ...s,
        retrying: undefined,
        tools: { ...s.tools, [e.callId]: { callId: e.callId, name: e.name, args: '', status: 'pending' } },
        liveOrder: pushLive(s.liveOrder, { kind: 'tool', id: e.callId }),
      };
    case 'tool.args.delta':
    case 'tool.args.done': {
      const t = s.tools[e.callId];
      if (!t) return s;
      const args = e.type === 'tool.args.done' ? e.arguments : t.args + e.delta;
      return { ...s, tools: { ...s.tools, [e.callId]: { ...t, args } } };
    }
    case 'tool.running': {
      const t = s.tools[e.callId] ?? { callId: e.callId, name: e.name, args: e.arguments, status: 'pending' };
      return {
        ...s,
        tools: { ...s.tools, [e.callId]: { ...t, name: e.name, args: e.arguments, status: 'running', startedAt: at } },
      };
    }
    case 'tool.finished': {
      const t = s.tools[e.callId] ?? { callId: e.callId, name: e.name, args: '', status: 'pending' };
      return {
        ...s,
        tools: {
          ...s.tools,
          [e.callId]: {
            ...t,
            name: e.name,
            status: e.status,
            durationMs: e.durationMs,
            output: e.output,
            ...(e.reason ? { reason: e.reason } : {}),
          },
        },
        durations: { ...s.durations, [e.callId]: e.durationMs },
      };
    }
    case 'approval.required': {
      const t = s.tools[e.approval.callId];
      return {
        ...s,
        approval: e.approval,
        tools: t ? { ...s.tools, [t.callId]: { ...t, status: 'awaiting' } } : s.tools,
      };
    }
    case 'retrying':
      return { ...s, retrying: { attempt: e.attempt, delayMs: e.delayMs, reason: e.reason, at } };
    case 'notice':
      return { ...s, info: e.message };
    case 'turn.completed': {
      const anchor = turnAnchor(s.items, s.turnStartSeq);
      const info: TurnInfo = {
        turn: e.turn,
        latencyMs: e.latencyMs,
        ...(e.model ? { model: e.model } : {}),
        ...(e.usage ? { usage: e.usage } : {}),
        ...(e.incompleteReason ? { incompleteReason: e.incompleteReason } : {}),
      };
      return {
        ...s,
        turns: anchor ? { ...s.turns, [anchor]: info } : s.turns,
        turnStartSeq: nextSeq(s.items),
        totals: e.totals,
        ...(e.context ? { context: e.context } : {}),
      };
    }
    default:
      return s;
  }
}

export function chatReducer(s: ChatState, a: ChatAction): ChatState {
  switch (a.type) {
    case 'clear':
      return emptyChat();
    case 'loading':
      return { ...emptyChat(), conversationId: a.conversationId, loading: true };
    case 'loaded': {
      const st = a.state;
      const items = [...a.items].sort((x, y) => x.seq - y.seq);
      const replay = s.conversationId === a.conversationId ? s.buffered : [];
      const loaded: ChatState = {
        ...emptyChat(),
        conversationId: a.conversationId,
        items,
        names: a.names ?? {},
        turns: a.turns ?? {},
        durations: a.durations ?? {},
        status: st?.status ?? 'idle',
        active: a.active,
        ...(st?.stopReason ? { stopReason: st.stopReason } : {}),
        ...(st?.status === 'error' && st.lastError ? { error: st.lastError } : {}),
        ...(st?.status === 'awaiting_approval' && st.approval ? { approval: st.approval } : {}),
        pendingCalls: st?.pendingCalls ?? [],
        turnStartSeq: st?.responseStartSeq ?? nextSeq(items),
        ...(st && st.usage.responses ? { totals: st.usage } : {}),
        ...(st?.context ? { context: st.context } : {}),
        ...(st?.taskScope ? { taskScope: st.taskScope } : {}),
        ...(a.unreadable ? { unreadable: a.unreadable } : {}),
      };
      return replay.reduce((acc, b) => onEvent(acc, b.event, b.at), loaded);
    }
    case 'names':
      return { ...s, names: { ...s.names, ...a.names } };
    case 'event':
      if (!s.conversationId || a.event.conversationId !== s.conversationId) return s;
      if (s.loading) return { ...s, buffered: [...s.buffered, { event: a.event, at: a.at }] };
      return onEvent(s, a.event, a.at);
    case 'worker.error':
      if (a.conversationId && a.conversationId !== s.conversationId) return s;
      return { ...s, workerError: a.message };
    case 'dismiss':
      return { ...s, workerError: undefined, error: undefined, status: s.status === 'error' ? 'idle' : s.status };
    case 'dismiss.info':
      return { ...s, info: undefined };
  }
}
