/**
 * The stored RunState is versioned and validated when read (storage/runStateSchema.ts): a state from a newer Otto or
 * a damaged one gives the user a clear error and is never used or overwritten; a current one resumes as before.
 */
import { describe, expect, it } from 'vitest';
import { agentHandlers } from '../../src/background/agentHandlers.ts';
import { exportHandlers } from '../../src/background/exportHandlers.ts';
import { ConversationStore } from '../../src/storage/conversations.ts';
import { emptyUsage, type RunState } from '../../src/storage/runRecords.ts';
import { RUN_STATE_VERSION, StoredRunStateError } from '../../src/storage/runStateSchema.ts';
import { calls, say } from '../support/scriptedModel.ts';
import { setup, type Harness } from '../agent/helpers.ts';

const NEWER =
  'The saved run of this conversation was written by a newer version of Otto (run format 4; this version reads up ' +
  'to 3). Update Otto to continue it. Nothing was changed: the conversation and its saved run are kept as they are. ' +
  'Start a new conversation to go on.';

function state(conversationId: string, over: Partial<RunState> = {}): RunState {
  return {
    conversationId,
    runId: 'r1',
    status: 'interrupted',
    stopReason: 'interrupted',
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

/** Writes a record into the `runs` store as it is, past the store's own stamping: what another version left. */
async function putRaw(h: Harness, record: Record<string, unknown>): Promise<void> {
  await h.database.put('runs', record as never);
}

const raw = (h: Harness, id = h.conversationId) =>
  h.database.get('runs', id) as Promise<unknown> as Promise<Record<string, unknown>>;

describe('the stored run state', () => {
  it('is written with its format version and read back without it, unchanged', async () => {
    const h = await setup();
    const s = state(h.conversationId, { origins: ['https://shop.example'], chain: { responseId: 'resp_1', seq: 2 } });
    await h.store.putRun(s);
    expect(RUN_STATE_VERSION).toBe(3);
    expect((await raw(h)).schemaVersion).toBe(3);
    expect(await h.store.getRun(h.conversationId)).toEqual(s);
    await h.store.append(h.conversationId, [{ type: 'message', role: 'user', content: 'hi' }], {
      run: { ...s, turn: 3 },
    });
    expect(await raw(h)).toMatchObject({ schemaVersion: 3, turn: 3 });
  });

  it('written before versioning (no number) is read as version 1', async () => {
    const h = await setup();
    const s = state(h.conversationId);
    await putRaw(h, { ...s });
    expect(await h.store.getRun(h.conversationId)).toEqual(s);
  });

  it('from a newer Otto is refused with a clear error, and the record stays as it was', async () => {
    const h = await setup();
    const record = { ...state(h.conversationId), schemaVersion: 4, somethingNew: { a: 1 } };
    await putRaw(h, record);
    const err = await h.store.getRun(h.conversationId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoredRunStateError);
    expect((err as StoredRunStateError).reason).toBe('newer');
    expect((err as Error).message).toBe(NEWER);
    await expect(h.store.load(h.conversationId)).rejects.toThrow(NEWER);
    // Start-up recovery passes it by; marking it interrupted would rewrite it.
    expect(await h.store.listRuns()).toEqual([]);
    expect(await h.store.markInterrupted(h.conversationId)).toBeUndefined();
    expect(await raw(h)).toEqual(record);
  });

  it('that does not match its schema is refused, naming what is wrong', async () => {
    const h = await setup();
    await putRaw(h, { ...state(h.conversationId), status: 'flying', schemaVersion: 1 });
    await expect(h.store.getRun(h.conversationId)).rejects.toThrow(
      /^The saved run of this conversation is damaged \(status: Invalid option: expected one of "idle"\|"running"\|"awaiting_approval"\|"interrupted"\|"error"\|"completed"\), so Otto cannot continue it\. Nothing was changed/,
    );
    await putRaw(h, { ...state(h.conversationId), schemaVersion: 'two' });
    await expect(h.store.getRun(h.conversationId)).rejects.toThrow(
      'The saved run of this conversation has an unreadable format version ("two").',
    );
  });
});

/**
 * A run paused for the card on a code-mode program, as the last Otto that wrote version 1 stored it: the call keeps
 * its inline answers and its program's journal, whose steps are known by the outermost program's index.
 */
const V1_PAUSED = {
  schemaVersion: 1,
  conversationId: 'c-v1',
  runId: 'r-v1',
  status: 'awaiting_approval',
  phase: 'tools',
  turn: 1,
  pendingCalls: [
    {
      callId: 'prog',
      name: 'ot__run',
      qualifiedName: 'ot.run',
      arguments: '{"code":"page.click(ref=\\"inc\\")\\nt = page.read()\\nweb.send(text=t)"}',
      status: 'awaiting_approval',
      stepAnswers: [{ card: 'e3'.repeat(32), allowed: true }],
      stepJournal: [
        { step: 0, key: 'ab'.repeat(32), name: 'page.click', line: 1, value: '{"clicked":"inc"}', labels: [] },
        {
          step: 1,
          key: 'cd'.repeat(32),
          name: 'page.read',
          line: 2,
          value: '"read 1"',
          labels: ['https://bank.example'],
        },
      ],
    },
  ],
  approval: { callId: 'prog', name: 'ot.run', arguments: '{}', parentCallId: 'prog', requestedAt: 5 },
  usage: { inputTokens: 10, outputTokens: 2, reasoningTokens: 0, cachedTokens: 0, responses: 1 },
  origins: ['https://bank.example'],
  startedAt: 1,
  updatedAt: 5,
  heartbeatAt: 5,
};

describe('a stored run state of an earlier version', () => {
  it('version 1 is read in the current shape: each journal step’s index becomes a path of one; the record is left as it was until the run’s next write', async () => {
    const h = await setup();
    const record = { ...V1_PAUSED, conversationId: h.conversationId };
    await putRaw(h, record);
    const read = await h.store.getRun(h.conversationId);
    const { schemaVersion: _v, ...v1 } = record;
    expect(read).toEqual({
      ...v1,
      pendingCalls: [
        {
          ...v1.pendingCalls[0],
          stepJournal: [
            { path: [0], key: 'ab'.repeat(32), name: 'page.click', line: 1, value: '{"clicked":"inc"}', labels: [] },
            {
              path: [1],
              key: 'cd'.repeat(32),
              name: 'page.read',
              line: 2,
              value: '"read 1"',
              labels: ['https://bank.example'],
            },
          ],
        },
      ],
    });
    expect(await raw(h)).toEqual(record);
    // The next write stores it in the current version, which reads back the same.
    await h.store.putRun(read!);
    expect(await raw(h)).toMatchObject({
      schemaVersion: 3,
      pendingCalls: [{ stepJournal: [{ path: [0] }, { path: [1] }] }],
    });
    expect(await h.store.getRun(h.conversationId)).toEqual(read);
  });

  it('version 2 (before #42) is read as it was, with no task scope; version 3 keeps the scope and an out-of-scope card', async () => {
    const h = await setup();
    const v2 = { ...state(h.conversationId, { origins: ['https://mail.test'] }), schemaVersion: 2 };
    await putRaw(h, v2);
    const read = await h.store.getRun(h.conversationId);
    expect(read!.taskScope).toBeUndefined();
    expect(read!.origins).toEqual(['https://mail.test']);
    // A scope is not a version 2 field: a version 2 record carrying one is damaged.
    await putRaw(h, { ...v2, taskScope: { effects: ['read'], sites: [], asked: 'x' } });
    await expect(h.store.getRun(h.conversationId)).rejects.toThrow('damaged (Unrecognized key: "taskScope")');
    const scoped = state(h.conversationId, {
      status: 'awaiting_approval',
      taskScope: { effects: ['read', 'fill'], sites: ['mail.test'], asked: 'summarise my inbox' },
      approval: {
        callId: 'c1',
        name: 'dom.click',
        arguments: '{"ref":"e3"}',
        outOfScope: { effects: ['send'], site: 'mail.test', sentence: 'You asked to summarise your inbox. …' },
        target: { element: { role: 'button', name: 'Send', text: 'Send', context: ['To: x@evil.test'] } },
        requestedAt: 1,
      },
    });
    await h.store.putRun(scoped);
    expect(await raw(h)).toMatchObject({ schemaVersion: 3, taskScope: { sites: ['mail.test'] } });
    expect(await h.store.getRun(h.conversationId)).toEqual(scoped);
  });

  it('version 1 written before versioning (no number) is migrated the same way', async () => {
    const h = await setup();
    const { schemaVersion: _v, ...unnumbered } = { ...V1_PAUSED, conversationId: h.conversationId };
    await putRaw(h, unnumbered);
    const read = await h.store.getRun(h.conversationId);
    expect(read!.pendingCalls[0]!.stepJournal!.map((r) => r.path)).toEqual([[0], [1]]);
    expect(read!.pendingCalls[0]!.stepAnswers).toEqual([{ card: 'e3'.repeat(32), allowed: true }]);
  });

  it('each version is checked against its own schema: a path in version 1, or an index in version 2, is damage', async () => {
    const h = await setup();
    const [call] = V1_PAUSED.pendingCalls;
    const withPath = { ...call, stepJournal: [{ ...call!.stepJournal[0]!, step: undefined, path: [0] }] };
    await putRaw(h, { ...V1_PAUSED, conversationId: h.conversationId, pendingCalls: [withPath] });
    await expect(h.store.getRun(h.conversationId)).rejects.toThrow(
      'The saved run of this conversation is damaged (pendingCalls.0.stepJournal.0.step: Invalid input: expected number, received undefined (and 1 more)), so Otto cannot continue it.',
    );
    await putRaw(h, { ...V1_PAUSED, conversationId: h.conversationId, schemaVersion: 2 });
    await expect(h.store.getRun(h.conversationId)).rejects.toThrow(
      'The saved run of this conversation is damaged (pendingCalls.0.stepJournal.0.path: Invalid input: expected array, received undefined (and 3 more)), so Otto cannot continue it.',
    );
  });
});

describe('a run over a state it cannot read', () => {
  it('is refused by send, resume and stop, and nothing is written: not the message, not the state', async () => {
    const h = await setup({ turns: [say('never')] });
    const id = h.conversationId;
    await h.store.append(id, [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'earlier' }] }]);
    const record = { ...state(id, { status: 'running' }), schemaVersion: 4 };
    await putRaw(h, record);
    await expect(h.runner.send(id, 'go on')).rejects.toThrow(NEWER);
    await expect(h.runner.resume(id)).rejects.toThrow(NEWER);
    await expect(h.runner.stop(id)).rejects.toThrow(NEWER);
    expect(h.model.requests).toHaveLength(0);
    expect((await h.items()).length).toBe(1);
    expect(await raw(h)).toEqual(record);
  });

  it('does not stop a restarted worker from recovering and resuming the other conversations', async () => {
    const h = await setup({
      turns: [calls([{ name: 'web__echo', args: { text: 'x' }, callId: 'c1' }]), say('Echoed.')],
    });
    const other = (await h.store.create()).id;
    const record = { ...state(other, { status: 'running' }), schemaVersion: 4 };
    await putRaw(h, record);
    // A run of this version, left `running` by a worker that died.
    const id = h.conversationId;
    await h.store.append(id, [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'echo' }] }], {
      run: state(id, { status: 'running', stopReason: undefined }),
    });
    const restarted = h.newRunner();
    expect(await restarted.recoverInterrupted()).toEqual([id]);
    expect((await h.store.getRun(id))!.status).toBe('interrupted');
    expect((await restarted.resume(id)).status).toBe('completed');
    expect(await raw(h, other)).toEqual(record);
  });
});

describe('ConversationStore over a state it cannot read', () => {
  it('still lists, loads the transcript of, and deletes the conversation', async () => {
    const h = await setup();
    const store = new ConversationStore(h.database);
    await store.append(h.conversationId, [{ type: 'message', role: 'user', content: 'kept' }]);
    await putRaw(h, { ...state(h.conversationId), schemaVersion: 9 });
    expect((await store.list()).map((c) => c.id)).toEqual([h.conversationId]);
    expect((await store.transcript(h.conversationId)).map((r) => r.item.content)).toEqual(['kept']);
    expect(await store.delete(h.conversationId)).toBe(true);
    expect(await raw(h)).toBeUndefined();
  });
});

describe('a conversation whose run state cannot be read, opened in the panel', () => {
  const DAMAGED =
    'The saved run of this conversation is damaged (turn: Invalid input: expected number, received string), so Otto ' +
    'cannot continue it. Nothing was changed: the conversation and its saved run are kept as they are. Start a new ' +
    'conversation to go on.';

  async function withTranscript(h: Harness): Promise<void> {
    await h.store.append(h.conversationId, [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is on the shelf?' }] },
      { type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'output_text', text: 'Three red books.' }] },
    ]);
  }
  const get = (h: Harness) =>
    agentHandlers(h.runner, h.store)['conversations.get'](
      { type: 'conversations.get', id: '1', conversationId: h.conversationId },
      {} as never,
    );

  it('gives the transcript, no state, and why it cannot go on; the record is not rewritten', async () => {
    const h = await setup();
    await withTranscript(h);
    const record = { ...state(h.conversationId), turn: 'three', schemaVersion: 1 };
    await putRaw(h, record);
    const view = await get(h);
    expect(view.items.map((r) => r.item.content)).toEqual([
      [{ type: 'input_text', text: 'What is on the shelf?' }],
      [{ type: 'output_text', text: 'Three red books.' }],
    ]);
    expect(view.state).toBeUndefined();
    expect(view.unreadable).toEqual({ reason: 'invalid', message: DAMAGED });
    expect(view.active).toBe(false);
    expect(await raw(h)).toEqual(record);
  });

  it('from a newer Otto says so (update to continue)', async () => {
    const h = await setup();
    await withTranscript(h);
    const record = { ...state(h.conversationId), schemaVersion: 4, somethingNew: true };
    await putRaw(h, record);
    const view = await get(h);
    expect(view.items).toHaveLength(2);
    expect(view.unreadable).toEqual({ reason: 'newer', message: NEWER });
    expect(await raw(h)).toEqual(record);
  });

  it('a readable state comes back as before, with nothing marked unreadable', async () => {
    const h = await setup();
    await withTranscript(h);
    await h.store.putRun(state(h.conversationId));
    const view = await get(h);
    expect(view.state?.status).toBe('interrupted');
    expect('unreadable' in view).toBe(false);
  });

  it('refuses a message sent in it as the answer to chat.send, before any run or write', async () => {
    const h = await setup({ turns: [say('never')] });
    await withTranscript(h);
    const record = { ...state(h.conversationId), schemaVersion: 4 };
    await putRaw(h, record);
    const send = agentHandlers(h.runner, h.store)['chat.send'](
      { type: 'chat.send', id: '3', conversationId: h.conversationId, text: 'go on' },
      {} as never,
    );
    await expect(send).rejects.toThrow(NEWER);
    expect(h.model.requests).toHaveLength(0);
    expect(await h.items()).toHaveLength(2);
    expect(await raw(h)).toEqual(record);
  });

  it('still exports its transcript', async () => {
    const h = await setup();
    await withTranscript(h);
    const record = { ...state(h.conversationId), schemaVersion: 4 };
    await putRaw(h, record);
    const exported = await exportHandlers({
      store: h.store,
      settings: async () => ({ config: {} as never, secrets: {} }),
      registry: () => ({ resolve: () => undefined }) as never,
    })['conversations.export'](
      { type: 'conversations.export', id: '2', conversationId: h.conversationId, format: 'markdown' },
      {} as never,
    );
    expect(exported.text).toContain('What is on the shelf?');
    expect(exported.text).toContain('Three red books.');
    expect(await raw(h)).toEqual(record);
  });
});
