import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, openOttoDB } from '../../src/storage/db.ts';
import { ConversationNotFoundError, ConversationStore, titleFrom } from '../../src/storage/conversations.ts';
import { SitePermissions } from '../../src/storage/sitePermissions.ts';
import { emptyUsage, type RunState } from '../../src/storage/runRecords.ts';

let n = 0;
const dbName = () => `otto-storage-${++n}-${Math.random().toString(36).slice(2)}`;

async function fresh() {
  let t = 1000;
  const clock = { now: () => t, tick: (ms = 1) => (t += ms) };
  const database = await openOttoDB(dbName());
  return { database, clock, store: new ConversationStore(database, { now: clock.now }) };
}

function run(conversationId: string, over: Partial<RunState> = {}): RunState {
  return {
    conversationId,
    runId: 'r',
    status: 'running',
    phase: 'model',
    turn: 0,
    pendingCalls: [],
    usage: emptyUsage(),
    startedAt: 1,
    updatedAt: 1,
    heartbeatAt: 1,
    ...over,
  };
}

const msg = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('conversations', () => {
  it('creates, gets, lists newest first, renames', async () => {
    const { store, clock } = await fresh();
    const a = await store.create({ title: 'A' });
    clock.tick();
    const b = await store.create();
    clock.tick();
    const c = await store.create({ id: 'fixed', title: 'C' });
    expect(c.id).toBe('fixed');
    expect(b.title).toBe('');
    expect((await store.list()).map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(await store.get(a.id)).toEqual(a);

    // Activity moves a conversation to the top.
    clock.tick();
    await store.append(a.id, [msg('hi')]);
    expect((await store.list()).map((x) => x.id)).toEqual([a.id, c.id, b.id]);

    const renamed = await store.rename(b.id, '  Trip planning ');
    expect(renamed.title).toBe('Trip planning');
    expect((await store.get(b.id))!.title).toBe('Trip planning');
    await expect(store.rename('missing', 'x')).rejects.toBeInstanceOf(ConversationNotFoundError);
  });

  it('deletes a conversation with its items and run state, leaving the others', async () => {
    const { store } = await fresh();
    const a = await store.create();
    const b = await store.create();
    await store.append(a.id, [msg('a1'), msg('a2')], { run: run(a.id) });
    await store.append(b.id, [msg('b1')], { run: run(b.id) });
    expect(await store.delete(a.id)).toBe(true);
    expect(await store.get(a.id)).toBeUndefined();
    expect(await store.transcript(a.id)).toEqual([]);
    expect(await store.getRun(a.id)).toBeUndefined();
    expect((await store.transcript(b.id)).map((r) => r.item)).toEqual([msg('b1')]);
    expect(await store.getRun(b.id)).toBeDefined();
    expect((await store.list()).map((x) => x.id)).toEqual([b.id]);
    expect(await store.delete(a.id)).toBe(false);
  });

  it('appends items with contiguous seq and reads them back in order, also for concurrent appends', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    const first = await store.append(id, [msg('0'), msg('1')]);
    expect(first.map((r) => r.seq)).toEqual([0, 1]);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append(id, [msg(`c${i}`)])));
    const all = await store.transcript(id);
    expect(all.map((r) => r.seq)).toEqual(Array.from({ length: 22 }, (_, i) => i));
    expect(
      all
        .slice(2)
        .map((r) => (r.item.content as { text: string }[])[0]!.text)
        .sort(),
    ).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
    expect(await store.length(id)).toBe(22);
    expect((await store.transcript(id, 20)).map((r) => r.seq)).toEqual([20, 21]);
  });

  it('keeps transcripts of different conversations apart (ids that are prefixes of each other too)', async () => {
    const { store } = await fresh();
    await store.create({ id: 'a' });
    await store.create({ id: 'ab' });
    await store.append('a', [msg('in a')]);
    await store.append('ab', [msg('in ab'), msg('more')]);
    expect((await store.transcript('a')).map((r) => r.item)).toEqual([msg('in a')]);
    expect(await store.length('ab')).toBe(2);
  });

  it('writes items and run state in one transaction; nothing is written for a missing conversation', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    const recs = await store.append(id, [msg('x')], { run: run(id, { turn: 3 }) });
    expect(recs).toHaveLength(1);
    expect((await store.getRun(id))!.turn).toBe(3);

    await expect(store.append('ghost', [msg('x')], { run: run('ghost') })).rejects.toBeInstanceOf(
      ConversationNotFoundError,
    );
    expect(await store.getRun('ghost')).toBeUndefined();
    expect(await store.transcript('ghost')).toEqual([]);

    // Only the run state.
    expect(await store.append(id, [], { run: run(id, { turn: 4 }) })).toEqual([]);
    expect((await store.getRun(id))!.turn).toBe(4);
  });

  it('appends at a seq the caller knows (no lookup), and never over an item already there', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    await store.append(id, [msg('0'), msg('1')]);
    const recs = await store.append(id, [msg('2'), msg('3')], { seq: 2, run: run(id, { turn: 7 }) });
    expect(recs.map((r) => r.seq)).toEqual([2, 3]);
    expect((await store.transcript(id)).map((r) => r.item)).toEqual([msg('0'), msg('1'), msg('2'), msg('3')]);
    // A wrong count: the write fails as a whole (nothing of it lands, neither the item nor the run state).
    await expect(store.append(id, [msg('x')], { seq: 1, run: run(id, { turn: 8 }) })).rejects.toMatchObject({
      name: 'ConstraintError',
    });
    expect(await store.length(id)).toBe(4);
    expect((await store.getRun(id))!.turn).toBe(7);
    await expect(store.append('ghost', [msg('x')], { seq: 0 })).rejects.toBeInstanceOf(ConversationNotFoundError);
  });

  it('moves the conversation up the list when items are written, unless told not to (touch: false)', async () => {
    const { store, clock } = await fresh();
    const a = await store.create({ id: 'a' });
    clock.tick(10);
    await store.create({ id: 'b' });
    clock.tick(10);
    await store.append('a', [{ type: 'message', role: 'user', content: 'hi' }], { touch: false, run: run('a') });
    expect((await store.get('a'))!.updatedAt).toBe(a.updatedAt);
    expect((await store.list()).map((c) => c.id)).toEqual(['b', 'a']);
    expect((await store.transcript('a')).length).toBe(1);
    await expect(store.append('nope', [{ type: 'message' }], { touch: false })).rejects.toBeInstanceOf(
      ConversationNotFoundError,
    );
    clock.tick(10);
    await store.append('a', [{ type: 'message', role: 'assistant', content: 'hello' }]);
    expect((await store.get('a'))!.updatedAt).toBe(clock.now());
    expect((await store.list()).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('loads a conversation, its run state and its transcript together', async () => {
    const { store } = await fresh();
    const { id } = await store.create({ title: 'T' });
    expect(await store.load(id)).toEqual({ conversation: expect.objectContaining({ id, title: 'T' }), items: [] });
    await store.append(id, [msg('a')], { run: run(id) });
    const loaded = await store.load(id);
    expect(loaded.run).toEqual(run(id));
    expect(loaded.items.map((r) => [r.seq, r.item])).toEqual([[0, msg('a')]]);
    expect(await store.load('ghost')).toEqual({ items: [] });
  });

  it('truncates the tail (and writes the run state with it)', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    await store.append(id, [msg('0'), msg('1'), msg('2'), msg('3')]);
    expect(await store.truncate(id, 2, run(id, { status: 'error' }))).toBe(2);
    expect((await store.transcript(id)).map((r) => r.seq)).toEqual([0, 1]);
    expect((await store.getRun(id))!.status).toBe('error');
    expect(await store.truncate(id, 5)).toBe(0);
    // Appending goes on from the new end.
    expect((await store.append(id, [msg('new')]))[0]!.seq).toBe(2);
  });

  it('titles a conversation from its first message only', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    await store.append(id, [msg('first')], { titleIfEmpty: 'Plan a trip to Porto\nwith details' });
    await store.append(id, [msg('second')], { titleIfEmpty: 'something else' });
    expect((await store.get(id))!.title).toBe('Plan a trip to Porto');
    expect(titleFrom('x'.repeat(100))).toHaveLength(60);
  });

  it('marks only running runs interrupted', async () => {
    const { store } = await fresh();
    await store.create({ id: 'r' });
    await store.create({ id: 'w' });
    await store.putRun(run('r'));
    await store.putRun(run('w', { status: 'awaiting_approval' }));
    expect(await store.markInterrupted('r', 5)).toMatchObject({
      status: 'interrupted',
      stopReason: 'interrupted',
      updatedAt: 5,
    });
    expect(await store.markInterrupted('w')).toBeUndefined();
    expect(await store.markInterrupted('none')).toBeUndefined();
    expect((await store.listRuns()).map((r) => [r.conversationId, r.status]).sort()).toEqual([
      ['r', 'interrupted'],
      ['w', 'awaiting_approval'],
    ]);
  });

  it('stores items as structured clones (a run state survives a round trip unchanged)', async () => {
    const { store } = await fresh();
    const { id } = await store.create();
    const state = run(id, {
      phase: 'tools',
      pendingCalls: [
        { callId: 'c', name: 'dom__click', qualifiedName: 'dom.click', arguments: '{}', status: 'awaiting_approval' },
      ],
      approval: { callId: 'c', name: 'dom.click', arguments: '{}', origin: 'https://x.example', requestedAt: 9 },
      lastError: { kind: 'rate_limit', message: 'slow down', retryable: true, status: 429 },
      chain: { responseId: 'resp_1', seq: 3 },
    });
    await store.putRun(state);
    expect(await store.getRun(id)).toEqual(state);
  });
});

describe('schema migrations', () => {
  it('upgrades a version-1 database to the current version, keeping its data', async () => {
    const name = dbName();
    // A profile written by the first release: only step 0's stores.
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('meta', { keyPath: 'key' });
        db.createObjectStore('conversations', { keyPath: 'id' }).createIndex('byUpdated', 'updatedAt');
        db.createObjectStore('items', { keyPath: ['conversationId', 'seq'] }).createIndex(
          'byConversation',
          'conversationId',
        );
      },
    });
    await v1.put('conversations', { id: 'old', title: 'Old chat', createdAt: 1, updatedAt: 1 });
    await v1.put('items', { conversationId: 'old', seq: 0, createdAt: 1, item: msg('kept') });
    v1.close();

    const upgraded = await openOttoDB(name);
    expect(upgraded.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBeGreaterThanOrEqual(2);
    expect([...upgraded.objectStoreNames]).toEqual(
      expect.arrayContaining(['meta', 'conversations', 'items', 'runs', 'sitePermissions']),
    );
    const store = new ConversationStore(upgraded);
    expect((await store.transcript('old')).map((r) => r.item)).toEqual([msg('kept')]);
    await store.putRun(run('old'));
    expect((await store.getRun('old'))!.status).toBe('running');
  });
});

describe('site permissions', () => {
  it('remembers, lists and revokes origins', async () => {
    const database = await openOttoDB(dbName());
    const sites = new SitePermissions(database, { now: () => 42 });
    expect(await sites.isAllowed('https://a.example')).toBe(false);
    expect(await sites.isAllowed(undefined)).toBe(false);
    await sites.allow('https://a.example');
    expect(await sites.isAllowed('https://a.example')).toBe(true);
    expect(await sites.isAllowed('https://b.example')).toBe(false);
    expect(await sites.list()).toEqual([{ origin: 'https://a.example', grantedAt: 42 }]);
    await sites.revoke('https://a.example');
    expect(await sites.isAllowed('https://a.example')).toBe(false);
    // Remembered across instances (storage, not memory).
    await sites.allow('https://c.example');
    expect(await new SitePermissions(database).isAllowed('https://c.example')).toBe(true);
  });
});
