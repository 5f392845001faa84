import { describe, expect, it } from 'vitest';
import { setup, waitFor, userTexts } from '../agent/helpers.ts';
import { BridgeSessions, disconnectedMessage } from '../../src/bridge/sessions.ts';
import type { BridgeTurns } from '../../src/bridge/turns.ts';
import { memoryStorage } from '../support/memoryStorage.ts';

/** A stand-in for the worker's WebSocket: the test plays the relay. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readonly OPEN = 1;
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
    queueMicrotask(() => (this.readyState = 1));
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  /** The relay says something. */
  relay(msg: object): void {
    this.readyState = 1;
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

const TOKEN = 'T'.repeat(32);

/** The call's run is paused for approval (the user sees the card) and has finished writing. */
async function paused(sessions: BridgeSessions, conversationId: string): Promise<void> {
  const runner = sessions.runnerFor(conversationId)!;
  await waitFor(
    async () =>
      !runner.isActive(conversationId) && (await runner.getState(conversationId))?.status === 'awaiting_approval',
    'approval',
  );
}

async function harness(storage = memoryStorage()) {
  const h = await setup();
  const shared: [string, number][] = [];
  const runTabs: [string, number | undefined][] = [];
  let changes = 0;
  const make = () =>
    new BridgeSessions({
      runner: (model: BridgeTurns) => h.newRunner({ model }),
      createConversation: (title) => h.store.create({ title }),
      shareTab: async (c, t) => void shared.push([c, t]),
      setRunTab: (c, t) => void runTabs.push([c, t]),
      qualify: (n) => n.replace('__', '.'),
      changed: () => void changes++,
      storage,
      WebSocket: FakeSocket as unknown as typeof WebSocket,
    });
  return { h, make, shared, runTabs, changes: () => changes, storage };
}

/** Opens a session the way the connect page does, and allows it with tab 7. */
async function connected(sessions: BridgeSessions, name = 'Claude Code') {
  FakeSocket.all = [];
  const opening = sessions.open(4000, TOKEN);
  await waitFor(() => FakeSocket.all.length === 1, 'socket');
  const ws = FakeSocket.all[0]!;
  expect(ws.url).toBe(`ws://127.0.0.1:4000/${TOKEN}`);
  ws.relay({ type: 'hello', client: { name }, allowed: false, session: 's1' });
  expect(await opening).toEqual({ client: { name }, allowed: false, others: [] });
  const { conversationId } = await sessions.answer(TOKEN, true, [7]);
  return { ws, conversationId: conversationId! };
}

describe('BridgeSessions', () => {
  it('Allow starts a conversation titled with the client, shares the chosen tabs, and tells the relay', async () => {
    const { h, make, shared, runTabs } = await harness();
    const sessions = make();
    const { ws, conversationId } = await connected(sessions);
    expect((await h.store.get(conversationId))?.title).toBe('Claude Code');
    expect(shared).toEqual([[conversationId, 7]]);
    expect(runTabs).toEqual([[conversationId, 7]]);
    expect(ws.sent).toEqual([{ type: 'answer', allowed: true }]);
    expect(sessions.list()).toEqual([{ conversationId, client: { name: 'Claude Code' }, connected: true, calls: 0 }]);
  });

  it('a call runs as a run of the conversation and its result goes back to the relay; pings are answered', async () => {
    const { h, make } = await harness();
    const sessions = make();
    const { ws, conversationId } = await connected(sessions);
    ws.relay({ type: 'ping', at: 5 });
    ws.relay({ type: 'call', id: 'c1', name: 'web__echo', arguments: { text: 'hi' } });
    await waitFor(() => ws.sent.some((m) => m.type === 'result'), 'result');
    const result = ws.sent.find((m) => m.type === 'result') as { content: { text: string }[]; isError: boolean };
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ echo: 'hi' });
    expect(ws.sent).toContainEqual({ type: 'pong', at: 5 });
    expect(userTexts(await h.items(conversationId))).toEqual(['Claude Code called web.echo']);
    expect(sessions.list()[0]!.calls).toBe(1);
    // #42: the run's "request" is the client's call: the scope names the client, so a card speaks of it.
    expect((await h.state(conversationId))?.taskScope?.caller).toBe('Claude Code');
  });

  it('Stop in the panel while the call waits for approval answers the client that the user stopped it', async () => {
    const { make } = await harness();
    const sessions = make();
    const { ws, conversationId } = await connected(sessions);
    ws.relay({ type: 'call', id: 'c2', name: 'dom__click', arguments: { ref: 'e1' } });
    await paused(sessions, conversationId);
    await sessions.runnerFor(conversationId)!.stop(conversationId);
    await waitFor(() => ws.sent.some((m) => m.type === 'result'), 'result');
    expect(ws.sent.find((m) => m.type === 'result')).toEqual({
      type: 'result',
      id: 'c2',
      content: [{ type: 'text', text: "Error: the user stopped this call in Otto's side panel." }],
      isError: true,
    });
  });

  it('Disconnect tells the relay and fails the waiting call; the session is gone', async () => {
    const { make, changes } = await harness();
    const sessions = make();
    const { ws, conversationId } = await connected(sessions);
    ws.relay({ type: 'call', id: 'c3', name: 'dom__click', arguments: { ref: 'e1' } });
    await paused(sessions, conversationId);
    const before = changes();
    expect(await sessions.disconnect(conversationId)).toBe(true);
    expect(ws.sent).toContainEqual({ type: 'disconnect', message: disconnectedMessage('Claude Code') });
    await waitFor(() => ws.sent.some((m) => m.type === 'result'), 'result');
    expect(ws.sent.find((m) => m.type === 'result')).toMatchObject({
      id: 'c3',
      isError: true,
      content: [{ type: 'text', text: `Error: ${disconnectedMessage('Claude Code')}` }],
    });
    expect(sessions.list()).toEqual([]);
    expect(sessions.runnerFor(conversationId)).toBeUndefined();
    expect(changes()).toBeGreaterThan(before);
  });

  it('a new worker reconnects the allowed session from storage, without asking', async () => {
    const { make, runTabs } = await harness();
    const { conversationId } = await connected(make());
    FakeSocket.all = [];
    const fresh = make(); // what the restarted worker builds, over the same chrome.storage.session
    await fresh.restore();
    expect(FakeSocket.all.map((s) => s.url)).toEqual([`ws://127.0.0.1:4000/${TOKEN}`]);
    expect(fresh.runnerFor(conversationId)).toBeDefined();
    expect(runTabs.at(-1)).toEqual([conversationId, 7]);
    const ws = FakeSocket.all[0]!;
    ws.relay({ type: 'hello', client: { name: 'Claude Code' }, allowed: true, session: 's1' });
    expect(ws.sent).toEqual([]); // nothing to ask: the relay knows the session was allowed
  });

  it('a second client sees the connected one named, and Deny tells it so', async () => {
    const { make } = await harness();
    const sessions = make();
    await connected(sessions, 'Cursor');
    FakeSocket.all = [];
    const other = 'U'.repeat(32);
    const opening = sessions.open(4001, other);
    await waitFor(() => FakeSocket.all.length === 1, 'socket');
    const ws = FakeSocket.all[0]!;
    ws.relay({ type: 'hello', client: { name: 'Claude Code' }, allowed: false, session: 's2' });
    expect(await opening).toEqual({ client: { name: 'Claude Code' }, allowed: false, others: ['Cursor'] });
    await sessions.answer(other, false, []);
    expect(ws.sent).toEqual([
      {
        type: 'answer',
        allowed: false,
        message:
          "Otto is already connected to Cursor, and the user did not allow a second session. Disconnect it in Otto's side panel first, then call again after restarting this MCP server.",
      },
    ]);
  });

  it('a second client the user allows gets its own conversation; each call goes to its own session', async () => {
    const { h, make } = await harness();
    const sessions = make();
    const first = await connected(sessions, 'Cursor');
    FakeSocket.all = [];
    const other = 'V'.repeat(32);
    const opening = sessions.open(4002, other);
    await waitFor(() => FakeSocket.all.length === 1, 'socket');
    const ws2 = FakeSocket.all[0]!;
    ws2.relay({ type: 'hello', client: { name: 'Claude Code' }, allowed: false, session: 's3' });
    expect((await opening).others).toEqual(['Cursor']);
    const { conversationId: second } = await sessions.answer(other, true, [8]);
    expect(second).toBeDefined();
    expect(second).not.toBe(first.conversationId);
    expect(ws2.sent).toEqual([{ type: 'answer', allowed: true }]);
    expect(sessions.list().map((s) => [s.client.name, s.connected])).toEqual([
      ['Cursor', true],
      ['Claude Code', true],
    ]);
    ws2.relay({ type: 'call', id: 'c2', name: 'web__echo', arguments: { text: 'two' } });
    await waitFor(() => ws2.sent.some((m) => m.type === 'result'), 'result');
    expect(userTexts(await h.items(second!))).toEqual(['Claude Code called web.echo']);
    expect(userTexts(await h.items(first.conversationId))).toEqual([]);
    expect(first.ws.sent.filter((m) => m.type === 'result')).toEqual([]);
  });
});
