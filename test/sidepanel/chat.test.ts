import { describe, expect, it } from 'vitest';
import {
  chatReducer,
  emptyChat,
  type ChatAction,
  type ChatState,
  type PersistedItem,
} from '../../src/sidepanel/state/chat.ts';
import { buildEntries, runStatusView } from '../../src/sidepanel/state/view.ts';
import type { AgentEvent } from '../../src/agent/agentEvents.ts';
import type { RunState } from '../../src/storage/runRecords.ts';

const C = 'c1';
type Ev = AgentEvent extends infer E
  ? E extends { conversationId: string }
    ? Omit<E, 'conversationId'>
    : never
  : never;

function run(state: ChatState, events: Ev[], at = 1000): ChatState {
  return events.reduce(
    (s, e, i) => chatReducer(s, { type: 'event', event: { ...e, conversationId: C } as AgentEvent, at: at + i }),
    state,
  );
}

const loadedEmpty = () => chatReducer(emptyChat(), { type: 'loaded', conversationId: C, items: [], active: false });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const assistant = (id: string, text: string) => ({
  type: 'message',
  id,
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});
const call = (callId: string, name: string, args = '{}') => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
});
const output = (callId: string, out: string) => ({ type: 'function_call_output', call_id: callId, output: out });

/** A full tool turn then an answer, as the worker emits it. */
function toolRunEvents(): Ev[] {
  return [
    { type: 'item', seq: 0, item: user('tabs?') },
    { type: 'run.status', status: 'running', turn: 0 },
    { type: 'tool.started', callId: 'k1', itemId: 'fc_k1', name: 'tabs.list' },
    { type: 'tool.args.delta', callId: 'k1', delta: '{' },
    { type: 'tool.args.done', callId: 'k1', arguments: '{}' },
    { type: 'item', seq: 1, item: call('k1', 'tabs__list') },
    { type: 'tool.started', callId: 'k2', itemId: 'fc_k2', name: 'nope__x' },
    { type: 'item', seq: 2, item: call('k2', 'nope__x') },
    {
      type: 'turn.completed',
      turn: 1,
      responseId: 'r1',
      model: 'gpt-test',
      latencyMs: 50,
      toolCalls: 2,
      usage: { inputTokens: 10, outputTokens: 2 },
      totals: { inputTokens: 10, outputTokens: 2, reasoningTokens: 0, cachedTokens: 0, responses: 1 },
    },
    { type: 'tool.running', callId: 'k1', name: 'tabs.list', arguments: '{}' },
    { type: 'item', seq: 3, item: output('k1', '{"tabs":[]}') },
    { type: 'tool.finished', callId: 'k1', name: 'tabs.list', status: 'ok', durationMs: 4.2, output: '{"tabs":[]}' },
    { type: 'item', seq: 4, item: output('k2', "Error: unknown tool 'nope__x'") },
    {
      type: 'tool.finished',
      callId: 'k2',
      name: 'nope__x',
      status: 'error',
      reason: 'unknown_tool',
      durationMs: 0,
      output: 'Error: unknown tool',
    },
    { type: 'text.delta', itemId: 'msg_1', delta: 'You have ' },
    { type: 'text.delta', itemId: 'msg_1', delta: 'no tabs.' },
    { type: 'item', seq: 5, item: assistant('msg_1', 'You have no tabs.') },
    {
      type: 'turn.completed',
      turn: 2,
      responseId: 'r2',
      model: 'gpt-test',
      latencyMs: 70,
      toolCalls: 0,
      totals: { inputTokens: 30, outputTokens: 9, reasoningTokens: 0, cachedTokens: 0, responses: 2 },
    },
    { type: 'run.status', status: 'completed', turn: 2, stopReason: 'completed' },
  ];
}

describe('chatReducer + buildEntries', () => {
  it('streams text into a live bubble, then the persisted item replaces it', () => {
    let s = run(loadedEmpty(), [
      { type: 'item', seq: 0, item: user('hi') },
      { type: 'run.status', status: 'running', turn: 0 },
      { type: 'text.delta', itemId: 'msg_a', delta: 'Hel' },
      { type: 'text.delta', itemId: 'msg_a', delta: 'lo' },
    ]);
    expect(
      buildEntries(s).map((e) => [e.kind, 'text' in e ? e.text : '', 'streaming' in e ? e.streaming : '']),
    ).toEqual([
      ['user', 'hi', ''],
      ['assistant', 'Hello', true],
    ]);
    expect(runStatusView(s)).toBe('running');
    s = run(s, [{ type: 'item', seq: 1, item: assistant('msg_a', 'Hello!') }]);
    const entries = buildEntries(s);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ kind: 'assistant', text: 'Hello!', streaming: false });
  });

  it('builds one tool group whose cards pair calls with outputs, and attributes usage per turn', () => {
    const s = run(loadedEmpty(), toolRunEvents());
    const entries = buildEntries(s);
    expect(entries.map((e) => e.kind)).toEqual(['user', 'tools', 'assistant']);
    const group = entries[1]!;
    if (group.kind !== 'tools') throw new Error('expected tools');
    expect(group.cards.map((c) => [c.name, c.status, c.durationMs])).toEqual([
      ['tabs.list', 'ok', 4.2],
      ['nope__x', 'error', 0],
    ]);
    expect(group.turn?.turn).toBe(1);
    expect(entries[2]).toMatchObject({ kind: 'assistant', turn: { turn: 2, model: 'gpt-test' } });
    expect(runStatusView(s)).toBe('idle');
    expect(s.names).toEqual({ tabs__list: 'tabs.list' });
  });

  it('rebuilds the same entries from the transcript, the run state and the cached per-turn data', () => {
    const live = run(loadedEmpty(), toolRunEvents());
    const state = {
      status: 'completed',
      stopReason: 'completed',
      pendingCalls: [],
      usage: live.totals,
    } as unknown as RunState;
    const reloaded = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: C,
      items: live.items,
      state,
      active: false,
      names: { tabs__list: 'tabs.list' },
      turns: live.turns,
      durations: live.durations,
    });
    expect(buildEntries(reloaded)).toEqual(buildEntries(live));
    expect(runStatusView(reloaded)).toBe(runStatusView(live));
  });

  it('shows a running card with its start time, and awaiting approval', () => {
    let s = run(loadedEmpty(), [
      { type: 'item', seq: 0, item: user('close') },
      { type: 'run.status', status: 'running', turn: 0 },
      { type: 'tool.started', callId: 'k', itemId: 'fc_k', name: 'tabs.close' },
      { type: 'item', seq: 1, item: call('k', 'tabs__close', '{"tab_id":3}') },
      {
        type: 'approval.required',
        approval: { callId: 'k', name: 'tabs.close', arguments: '{"tab_id":3}', requestedAt: 1 },
      },
      { type: 'run.status', status: 'awaiting_approval', turn: 1 },
    ]);
    expect(s.approval?.callId).toBe('k');
    expect(runStatusView(s)).toBe('running');
    const card = () => {
      const g = buildEntries(s)[1]!;
      if (g.kind !== 'tools') throw new Error('expected tools');
      return g.cards[0]!;
    };
    expect(card().status).toBe('awaiting');
    s = run(
      s,
      [
        { type: 'run.status', status: 'running', turn: 1 },
        { type: 'tool.running', callId: 'k', name: 'tabs.close', arguments: '{"tab_id":3}' },
      ],
      5000,
    );
    expect(s.approval).toBeUndefined();
    expect(card()).toMatchObject({ status: 'running', startedAt: 5001 });
  });

  it('drops a discarded response (retry) including its live overlays', () => {
    const s = run(loadedEmpty(), [
      { type: 'item', seq: 0, item: user('x') },
      { type: 'run.status', status: 'running', turn: 0 },
      { type: 'text.delta', itemId: 'msg_z', delta: 'partial' },
      { type: 'item', seq: 1, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
      { type: 'items.discarded', fromSeq: 1, reason: 'retrying' },
      { type: 'retrying', attempt: 1, delayMs: 2000, reason: 'rate limited (429)' },
    ]);
    expect(s.items).toHaveLength(1);
    expect(buildEntries(s).map((e) => e.kind)).toEqual(['user']);
    expect(s.retrying).toMatchObject({ attempt: 1, delayMs: 2000 });
  });

  it('replaces the live bubble with the partial message kept on Stop', () => {
    const s = run(loadedEmpty(), [
      { type: 'item', seq: 0, item: user('story') },
      { type: 'run.status', status: 'running', turn: 0 },
      { type: 'text.delta', itemId: 'msg_s', delta: 'Once upon' },
      { type: 'item', seq: 1, item: { type: 'message', role: 'assistant', content: 'Once upon' } },
      {
        type: 'item',
        seq: 2,
        item: { type: 'otto.note', kind: 'stopped', reason: 'aborted', text: 'Stopped by the user.' },
      },
      { type: 'run.status', status: 'idle', turn: 0, stopReason: 'aborted' },
    ]);
    expect(buildEntries(s).map((e) => [e.kind, 'text' in e ? e.text : ''])).toEqual([
      ['user', 'story'],
      ['assistant', 'Once upon'],
      ['note', 'Stopped by the user.'],
    ]);
  });

  it('shows errors, interrupted runs and ignores other conversations', () => {
    let s = run(loadedEmpty(), [
      {
        type: 'run.status',
        status: 'error',
        turn: 0,
        stopReason: 'error',
        error: { kind: 'auth', message: 'The API key was rejected (401).', retryable: false },
      },
    ]);
    expect(runStatusView(s)).toBe('error');
    expect(s.error?.kind).toBe('auth');
    s = chatReducer(s, { type: 'dismiss' });
    expect(s.error).toBeUndefined();
    const other: ChatAction = {
      type: 'event',
      event: { type: 'text.delta', conversationId: 'other', itemId: 'm', delta: 'x' },
      at: 1,
    };
    expect(chatReducer(s, other)).toBe(s);
    const stale = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: C,
      items: [],
      state: { status: 'running', pendingCalls: [], usage: { responses: 0 } } as unknown as RunState,
      active: false,
    });
    expect(runStatusView(stale)).toBe('interrupted');
  });

  it('shows the transcript of a conversation whose run state cannot be read, idle, with why', () => {
    const unreadable = { reason: 'invalid' as const, message: 'The saved run of this conversation is damaged.' };
    let s = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: C,
      items: [
        { seq: 0, item: user('What is on the shelf?') },
        { seq: 1, item: assistant('m1', 'Three red books.') },
      ] as PersistedItem[],
      unreadable,
      active: false,
    });
    expect(s.unreadable).toEqual(unreadable);
    expect(runStatusView(s)).toBe('idle');
    expect(buildEntries(s, []).map((e) => [e.kind, 'text' in e ? e.text : ''])).toEqual([
      ['user', 'What is on the shelf?'],
      ['assistant', 'Three red books.'],
    ]);
    // A refused send or a dismissed error does not hide why; opening another conversation does.
    s = chatReducer(s, { type: 'worker.error', conversationId: C, message: 'refused' });
    s = chatReducer(s, { type: 'dismiss' });
    expect(s.unreadable).toEqual(unreadable);
    expect(chatReducer(s, { type: 'loading', conversationId: 'c2' }).unreadable).toBeUndefined();
    expect(loadedEmpty().unreadable).toBeUndefined();
  });

  it('buffers events that arrive while the conversation loads and replays them', () => {
    let s = chatReducer(emptyChat(), { type: 'loading', conversationId: C });
    s = chatReducer(s, {
      type: 'event',
      event: { type: 'item', conversationId: C, seq: 1, item: assistant('msg_b', 'late') },
      at: 1,
    });
    s = chatReducer(s, {
      type: 'event',
      event: { type: 'text.delta', conversationId: C, itemId: 'msg_c', delta: 'more' },
      at: 2,
    });
    const items: PersistedItem[] = [{ seq: 0, item: user('q') as PersistedItem['item'] }];
    s = chatReducer(s, {
      type: 'loaded',
      conversationId: C,
      items,
      active: true,
      state: { status: 'running', pendingCalls: [], usage: { responses: 0 } } as unknown as RunState,
    });
    expect(buildEntries(s).map((e) => ('text' in e ? e.text : e.kind))).toEqual(['q', 'late', 'more']);
    expect(s.buffered).toEqual([]);
  });

  it('marks a call found running after a reload as interrupted, and pending calls as pending', () => {
    const items: PersistedItem[] = [
      { seq: 0, item: user('go') as PersistedItem['item'] },
      { seq: 1, item: call('a', 'tabs__close') as PersistedItem['item'] },
      { seq: 2, item: call('b', 'tabs__list') as PersistedItem['item'] },
    ];
    const state = {
      status: 'interrupted',
      pendingCalls: [
        { callId: 'a', name: 'tabs__close', arguments: '{}', status: 'running' },
        { callId: 'b', name: 'tabs__list', arguments: '{}', status: 'pending' },
      ],
      usage: { responses: 1 },
    } as unknown as RunState;
    const s = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: C,
      items,
      state,
      active: false,
      names: { tabs__close: 'tabs.close' },
    });
    const g = buildEntries(s)[1]!;
    if (g.kind !== 'tools') throw new Error('expected tools');
    expect(g.cards.map((c) => [c.name, c.status])).toEqual([
      ['tabs.close', 'interrupted'],
      ['tabs__list', 'pending'],
    ]);
  });

  it('groups the calls of one response, and starts a new group for the next response', () => {
    const s = run(loadedEmpty(), [
      { type: 'item', seq: 0, item: user('go') },
      { type: 'item', seq: 1, item: call('a', 'tabs__list') },
      { type: 'item', seq: 2, item: call('b', 'tabs__list') },
      { type: 'item', seq: 3, item: output('a', '{}') },
      { type: 'item', seq: 4, item: output('b', '{}') },
      { type: 'item', seq: 5, item: call('c', 'tabs__open') },
      { type: 'item', seq: 6, item: output('c', '{}') },
    ]);
    const groups = buildEntries(s).filter((e) => e.kind === 'tools');
    expect(groups.map((g) => (g.kind === 'tools' ? g.cards.map((c) => c.callId) : []))).toEqual([['a', 'b'], ['c']]);
  });
});
