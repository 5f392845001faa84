/**
 * The persistence shape of the loop (README "Persistence rules"): the run keeps the transcript in memory, writes each
 * completed item as it completes, stages the state changes that need no write of their own, and goes back to what is
 * stored when a write fails. These tests check that none of it loses or
 * duplicates anything: the copy in memory always equals the store, and a worker killed at any write resumes cleanly.
 */
import { describe, expect, it } from 'vitest';
import { AgentRunner } from '../../src/agent/runner.ts';
import { cloneState } from '../../src/agent/session.ts';
import { contextView } from '../../src/agent/context/contextView.ts';
import { transcriptView } from '../../src/agent/context/transcriptView.ts';
import type { ModelClient, ModelEvent, ModelRequest } from '../../src/models/events.ts';
import { ConversationStore, type AppendOptions } from '../../src/storage/conversations.ts';
import type { ItemRecord } from '../../src/storage/records.ts';
import type { RunState } from '../../src/storage/runRecords.ts';
import {
  ScriptedModel,
  callSteps,
  calls,
  completed,
  created,
  deferred,
  failing,
  messageSteps,
  reasoningSteps,
  say,
  type Step,
  type Turn,
} from '../support/scriptedModel.ts';
import {
  FakeHost,
  config,
  expectValidTranscript,
  outputOf,
  setup,
  userTexts,
  waitFor,
  type Harness,
} from './helpers.ts';
import { MID_STREAM_ITEMS } from '../support/chatWire.ts';

const never = () => new Promise<never>(() => undefined);

/** A model that, before each request, checks the request's input against what IndexedDB holds at that moment. */
class CheckingModel implements ModelClient {
  readonly mismatches: string[] = [];
  constructor(
    private readonly inner: ModelClient,
    private readonly store: ConversationStore,
    private readonly conversationId: () => string,
  ) {}
  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const check = async () => {
      const stored = await this.store.transcript(this.conversationId());
      const expected = contextView(transcriptView(stored), { usePreviousResponseId: false }).input;
      if (JSON.stringify(request.input) !== JSON.stringify(expected)) {
        this.mismatches.push(
          `request #${this.mismatches.length + 1}: ${JSON.stringify(request.input)} ≠ ${JSON.stringify(expected)}`,
        );
      }
    };
    const inner = this.inner;
    return (async function* () {
      await check();
      yield* inner.stream(request);
    })();
  }
}

/** Records every write (append / truncate) the loop makes, with what it wrote. */
type Write = { items: Record<string, unknown>[]; run?: RunState; truncate?: number; touch?: boolean };
function recordWrites(h: Harness): Write[] {
  const writes: Write[] = [];
  const append = h.store.append.bind(h.store);
  const truncate = h.store.truncate.bind(h.store);
  h.store.append = (cid, items, opts = {}) => {
    writes.push({
      items: [...items],
      ...(opts.run ? { run: structuredClone(opts.run) } : {}),
      ...(opts.touch !== undefined ? { touch: opts.touch } : {}),
    });
    return append(cid, items, opts);
  };
  h.store.truncate = (cid, fromSeq, run) => {
    writes.push({ items: [], truncate: fromSeq, ...(run ? { run: structuredClone(run) } : {}) });
    return truncate(cid, fromSeq, run);
  };
  return writes;
}

describe('the transcript kept in memory', () => {
  it('every request is built from exactly what is stored, through tools, retries, failures, stops and approvals', async () => {
    const h = await setup({ config: config({ approvals: { policy: 'ask' } }), origin: 'https://shop.example' });
    const checking = new CheckingModel(h.model, h.store, () => h.conversationId);
    h.runner = h.newRunner({ model: checking });
    const id = h.conversationId;

    // Two tool turns (one with two read-only calls), then an answer.
    h.model.push(
      calls([{ name: 'web__echo', args: { text: 'a' } }, { name: 'page__read' }], { text: 'Looking.' }),
      [created(), ...reasoningSteps('hm'), ...callSteps({ name: 'ot__count', args: { n: 2 } }), completed('r2')],
      say('Done.'),
    );
    expect((await h.runner.send(id, 'one')).status).toBe('completed');

    // The client retries mid-response: what it persisted of the first attempt is removed, in memory too.
    h.model.push([
      created(),
      ...messageSteps('first attempt'),
      ...callSteps({ name: 'page__read' }),
      { type: 'retrying', attempt: 1, delayMs: 1, reason: 'dropped' },
      created(),
      ...callSteps({ name: 'page__read' }),
      completed('r3'),
    ]);
    h.model.push(say('After the retry.'));
    expect((await h.runner.send(id, 'two')).status).toBe('completed');

    // A failed response (its partial output discarded), then retry.
    h.model.push(failing({}, messageSteps('half')), say('Retried.'));
    expect((await h.runner.send(id, 'three')).status).toBe('error');
    expect((await h.runner.retry(id)).status).toBe('completed');

    // Stopped mid-stream, then a new message.
    const gate = deferred();
    h.model.push([
      created(),
      ...messageSteps('kept'),
      { type: 'text.delta', itemId: 'msg_live', delta: 'seen' },
      { type: 'wait', until: gate.promise },
    ]);
    const stopped = h.runner.send(id, 'four');
    await waitFor(() => h.model.requests.length === 7, 'fourth run streaming');
    await waitFor(() => h.eventsOf('text.delta').some((e) => e.delta === 'seen'), 'delta seen');
    await h.runner.stop(id);
    await stopped;
    h.model.push(say('Fresh.'));
    expect((await h.runner.send(id, 'five')).status).toBe('completed');

    // An approval pause, approved in a new runner (so a fresh copy is read from the store).
    h.model.push(calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'click' }]), say('Clicked.'));
    expect((await h.runner.send(id, 'six')).status).toBe('awaiting_approval');
    const second = h.newRunner({ model: checking });
    expect((await second.approve(id, 'click', 'once')).status).toBe('completed');

    expect(checking.mismatches).toEqual([]);
    expect(h.model.requests).toHaveLength(11);
    expectValidTranscript(await h.items());
    // Every `item` event carries what is stored at that seq.
    const stored = await h.store.transcript(id);
    const bySeq = new Map(stored.map((r) => [r.seq, r.item]));
    const discarded = h.eventsOf('items.discarded').map((e) => e.fromSeq);
    for (const e of h.eventsOf('item')) {
      if (bySeq.has(e.seq) && !discarded.some((from) => e.seq >= from)) expect(bySeq.get(e.seq)).toEqual(e.item);
    }
  });

  it('a state copy shares nothing with its original (snapshots waiting to be written stay as they were)', () => {
    const s: RunState = {
      conversationId: 'c',
      runId: 'r',
      status: 'running',
      phase: 'tools',
      turn: 1,
      pendingCalls: [{ callId: 'c1', name: 'x', arguments: '{}', status: 'pending' }],
      approval: { callId: 'c1', name: 'x', arguments: '{}', requestedAt: 1 },
      lastError: { kind: 'server', message: 'm', retryable: true },
      chain: { responseId: 'r1', seq: 2 },
      usage: { inputTokens: 1, outputTokens: 2, reasoningTokens: 0, cachedTokens: 0, responses: 1 },
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
    };
    const before = structuredClone(s);
    const c = cloneState(s);
    expect(c).toEqual(s);
    c.pendingCalls[0]!.status = 'done';
    c.pendingCalls.push({ callId: 'c2', name: 'y', arguments: '{}', status: 'pending' });
    c.usage.inputTokens = 99;
    c.approval!.name = 'changed';
    c.lastError!.message = 'changed';
    c.chain!.seq = 99;
    expect(s).toEqual(before);
  });
});

/** Long enough for anything a dead worker had scheduled to try (and hang). */
const SETTLE_MS = 50;

describe.runIf(MID_STREAM_ITEMS)('the writes of a run', () => {
  it('each completed item is written as it completes, and the end of its response in a write of its own', async () => {
    const h = await setup({ turns: [calls([{ name: 'web__echo', args: { text: 'x' }, callId: 'c1' }]), say('ok')] });
    const writes = recordWrites(h);
    expect((await h.runner.send(h.conversationId, 'go')).status).toBe('completed');
    // The call is stored as the item completes, in the response's first write (which carries where it began).
    const withCall = writes.find((w) => w.items.some((i) => i.type === 'function_call'))!;
    expect(withCall.run).toMatchObject({ status: 'running', phase: 'model', responseStartSeq: 1, pendingCalls: [] });
    const end = writes[writes.indexOf(withCall) + 1]!;
    expect(end.items).toEqual([]);
    expect(end.run).toMatchObject({ phase: 'tools', turn: 1, pendingCalls: [{ callId: 'c1', status: 'pending' }] });
    expect(end.run?.responseStartSeq).toBeUndefined();
    const withAnswer = writes.find((w) => w.items.some((i) => i.role === 'assistant'))!;
    expect(withAnswer.run).toMatchObject({ status: 'running', phase: 'model', turn: 1 });
    expect(writes.at(-1)).toMatchObject({ items: [], run: { status: 'completed', stopReason: 'completed', turn: 2 } });
    // user message; call; end of response 1; output (the read-only call's running mark rides on it); answer; end.
    expect(writes).toHaveLength(6);
    expect(writes.some((w) => !w.items.length && w.run?.pendingCalls.some((c) => c.status === 'running'))).toBe(false);
    // Only the user's message and the run's end move the conversation up the list.
    expect(writes.map((w) => w.touch)).toEqual([true, false, false, false, false, true]);
  });

  it('an action is stored as running before it runs, in a write of its own', async () => {
    const h = await setup({
      turns: [calls([{ name: 'dom__type', args: { ref: 'e1', text: 'hi' }, callId: 'c1' }]), say('ok')],
    });
    const writes = recordWrites(h);
    let storedWhenRan: string | undefined;
    const run = h.host.run.bind(h.host);
    h.host.run = async (name, args, ctx) => {
      storedWhenRan = (await h.state())?.pendingCalls[0]?.status;
      return run(name, args, ctx);
    };
    expect((await h.runner.send(h.conversationId, 'type')).status).toBe('completed');
    expect(storedWhenRan).toBe('running');
    expect(writes).toHaveLength(7);
  });

  it('an item is written before the next stream event is handled, so events keep their order', async () => {
    const h = await setup({
      turns: [[created(), ...reasoningSteps('think'), ...messageSteps('answer'), completed('r')]],
    });
    await h.runner.send(h.conversationId, 'q');
    const order = h.events
      .filter((e) => e.type === 'item' || e.type === 'text.delta')
      .map((e) => (e.type === 'item' ? `item:${String(e.item.type)}` : 'delta'));
    expect(order).toEqual(['item:message', 'item:reasoning', 'delta', 'delta', 'item:message']);
  });

  it('a completed item is stored while the stream pauses, before anything follows it', async () => {
    const h = await setup({ turns: [[created(), ...messageSteps('early'), { type: 'wait', until: never() }]] });
    void h.runner.send(h.conversationId, 'q');
    await waitFor(() => h.eventsOf('item').length === 2 && h.eventsOf('text.delta').length === 2, 'streamed');
    expect((await h.items()).map((i) => i.type)).toEqual(['message', 'message']);
    const state = (await h.state())!;
    expect(state).toMatchObject({ status: 'running', phase: 'model', responseStartSeq: 1 });
  });

  it('a stop right after a call completed keeps that call (answered as aborted)', async () => {
    const h = await setup();
    h.model.push([
      created(),
      ...callSteps({ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }),
      { type: 'call', fn: () => void h.runner.stop(h.conversationId) },
      { type: 'hang' },
    ]);
    const state = await h.runner.send(h.conversationId, 'click');
    expect(state.stopReason).toBe('aborted');
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'otto.note']);
    expect(outputOf(items, 'c1')).toBe('Error: aborted by the user');
    expect(h.host.count('dom.click')).toBe(0);
  });
});

describe('a write that fails', () => {
  it('leaves the live state as stored: a tool output that was not saved is not counted as done', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', callId: 'c1' }]), say('never')] });
    const append = h.store.append.bind(h.store);
    let failed = false;
    h.store.append = (cid, items, opts: AppendOptions = {}) => {
      if (!failed && items.some((i) => i.type === 'function_call_output')) {
        failed = true;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return append(cid, items, opts);
    };
    const state = await h.runner.send(h.conversationId, 'read');
    expect(state).toMatchObject({ status: 'error', lastError: { kind: 'storage_full' } });
    // What is stored says the call is not done: its output was never saved.
    expect((await h.state())!.pendingCalls).toMatchObject([{ callId: 'c1', status: 'pending' }]);

    h.model.push(say('Read it.'));
    expect((await h.runner.resume(h.conversationId)).status).toBe('completed');
    const items = await h.items();
    expectValidTranscript(items);
    expect(outputOf(items, 'c1')).toBe('page text');
    expect(h.host.count('page.read')).toBe(2); // read-only: run again
  });
});

describe.runIf(MID_STREAM_ITEMS)('an item whose write fails', () => {
  it('stops the turn: the response is not recorded without it', async () => {
    const h = await setup();
    h.model.push([
      created(),
      ...messageSteps('Let me look.', 'msg_look'),
      ...callSteps({ name: 'page__read', callId: 'c1' }),
      completed('r1'),
    ]);
    const append = h.store.append.bind(h.store);
    let failed = false;
    h.store.append = (cid, items, opts: AppendOptions = {}) => {
      if (!failed && items.some((i) => i.id === 'msg_look')) {
        failed = true;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return append(cid, items, opts);
    };
    const state = await h.runner.send(h.conversationId, 'read');
    expect(state).toMatchObject({ status: 'error', lastError: { kind: 'storage_full' } });
    expect(h.host.count('page.read')).toBe(0);
    expect((await h.items()).map((i) => i.type)).toEqual(['message']);

    h.model.push(calls([{ name: 'page__read', callId: 'c2' }], { text: 'Let me look.' }), say('Read.'));
    expect((await h.runner.retry(h.conversationId)).status).toBe('completed');
    const items = await h.items();
    expectValidTranscript(items);
    expect(items.filter((i) => i.role === 'assistant').length).toBe(2);
  });

  it('a failed write of the answer is not followed by the end of the run', async () => {
    const h = await setup();
    h.model.push([created(), ...messageSteps('The answer.', 'msg_answer'), completed('r1')]);
    const append = h.store.append.bind(h.store);
    let failed = false;
    h.store.append = (cid, items, opts: AppendOptions = {}) => {
      if (!failed && items.some((i) => i.id === 'msg_answer')) {
        failed = true;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return append(cid, items, opts);
    };
    const state = await h.runner.send(h.conversationId, 'q');
    expect(state).toMatchObject({ status: 'error', lastError: { kind: 'storage_full' } });
    expect((await h.state())!.status).toBe('error');
    h.model.push(say('The answer.'));
    expect((await h.runner.retry(h.conversationId)).status).toBe('completed');
    expect((await h.items()).map((i) => i.role)).toEqual(['user', 'assistant']);
  });

  it('snapshots queued behind a failed write are not written (they were taken from a state that did not happen)', async () => {
    const h = await setup();
    const id = h.conversationId;
    await h.store.append(id, [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] }]);
    const gate = deferred();
    const append = h.store.append.bind(h.store);
    let calls = 0;
    h.store.append = async (cid, items, opts: AppendOptions = {}) => {
      if (++calls === 1) {
        await gate.promise;
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return append(cid, items, opts);
    };
    const initial: RunState = {
      conversationId: id,
      runId: 'r',
      status: 'running',
      phase: 'model',
      turn: 0,
      pendingCalls: [],
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, responses: 0 },
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
    };
    await h.store.putRun(initial);
    const { RunSession } = await import('../../src/agent/session.ts');
    const session = new RunSession(
      { store: h.store, now: () => 5, emit: () => undefined } as unknown as ConstructorParameters<typeof RunSession>[0],
      id,
      new AbortController().signal,
      initial,
    );
    const first = session.commit(
      (s) => {
        s.phase = 'tools';
        s.pendingCalls = [{ callId: 'c1', name: 'x', arguments: '{}', status: 'pending' }];
      },
      [{ type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'x', arguments: '{}' }],
    );
    const second = session.commit(); // a heartbeat, say: its snapshot says phase tools
    gate.resolve();
    await expect(first).rejects.toThrow(/quota/);
    await expect(second).rejects.toThrow(/quota/);
    expect(session.state).toMatchObject({ phase: 'model', pendingCalls: [] });
    expect((await h.state())!).toMatchObject({ phase: 'model', pendingCalls: [] });
    // A write asked for after the failure goes ahead.
    await session.commit((s) => {
      s.status = 'error';
    });
    expect((await h.state())!).toMatchObject({ status: 'error', phase: 'model' });
  });
});

// ---- kill the worker at every write ---------------------------------------------------------------------------

/**
 * The model of both workers: a pure function of the input, so a resumed run gets the same answers. No call yet →
 * reasoning, a read-only call and a destructive one; otherwise the answer.
 */
function answering(): Turn {
  return (request: ModelRequest): Step[] => {
    const hasCalls = request.input.some((i) => i.type === 'function_call');
    if (!hasCalls) {
      return [
        created(),
        ...reasoningSteps('plan', 'rs_plan'),
        ...messageSteps('Working on it.', 'msg_work'),
        ...callSteps({ name: 'web__echo', args: { text: 'x' }, callId: 'c_echo' }),
        ...callSteps({ name: 'dom__click', args: { ref: 'buy' }, callId: 'c_click' }),
        completed('resp_1'),
      ];
    }
    return [created(), ...messageSteps('All done.', 'msg_done'), completed('resp_2')];
  };
}

/** A store whose worker dies at write number `at`: before it lands, or just after. Then nothing more happens. */
class DyingStore extends ConversationStore {
  writes = 0;
  dead = false;
  constructor(
    database: ConstructorParameters<typeof ConversationStore>[0],
    private readonly at: number,
    private readonly when: 'before' | 'after',
  ) {
    super(database);
  }
  async #die<T>(write: () => Promise<T>): Promise<T> {
    if (this.dead) return never();
    this.writes++;
    if (this.writes < this.at) return write();
    this.dead = true;
    if (this.when === 'after') await write();
    return never();
  }
  override append(cid: string, items: readonly Record<string, unknown>[], opts?: AppendOptions): Promise<ItemRecord[]> {
    return this.#die(() => super.append(cid, items, opts));
  }
  override truncate(cid: string, fromSeq: number, run?: RunState): Promise<number> {
    return this.#die(() => super.truncate(cid, fromSeq, run));
  }
  override transcript(cid: string, fromSeq?: number): Promise<ItemRecord[]> {
    return this.dead ? never() : super.transcript(cid, fromSeq);
  }
}

async function killAt(at: number, when: 'before' | 'after'): Promise<{ total: number }> {
  const h = await setup({ config: config({ approvals: { policy: 'auto' } }) });
  const id = h.conversationId;
  const dying = new DyingStore(h.database, at, when);
  const modelA = new ScriptedModel([answering(), answering(), answering()]);
  const hostA = new FakeHost();
  const a = h.newRunner({ store: dying, model: modelA, tools: hostA });
  const runA = a.send(id, 'buy it');
  const finished = await Promise.race([
    runA.then(() => true),
    waitFor(() => dying.dead, 'the worker dies', 3000).then(() => false),
  ]);
  if (finished) return { total: dying.writes }; // fewer writes than `at`: nothing to kill
  await new Promise((r) => setTimeout(r, SETTLE_MS));

  // What is stored must be a state a new worker can continue from.
  const store = new ConversationStore(h.database);
  const stored = await store.transcript(id);
  const state = await store.getRun(id);
  if (state?.phase === 'tools') {
    for (const pc of state.pendingCalls) {
      expect(
        stored.some((r) => r.item.type === 'function_call' && r.item.call_id === pc.callId),
        `call ${pc.callId} is stored`,
      ).toBe(true);
    }
  }

  const modelB = new ScriptedModel([answering(), answering(), answering()]);
  const hostB = new FakeHost();
  const b = new AgentRunner({
    model: modelB,
    tools: hostB,
    store,
    sites: h.sites,
    config: () => h.cfg,
    timers: h.timers,
    now: () => h.timers.now,
    keepAlive: () => undefined,
  });
  await b.recoverInterrupted();
  if (!userTexts(stored.map((r) => r.item)).length) {
    // The user's message itself was never saved: the panel never showed it as sent; the user sends it again.
    expect((await b.send(id, 'buy it')).status).toBe('completed');
  } else if (state && state.status !== 'completed') {
    expect((await b.resume(id)).status).toBe('completed');
  }

  const items = (await store.transcript(id)).map((r) => r.item);
  expectValidTranscript(items);
  expect(userTexts(items)).toEqual(['buy it']);
  // The final answer exactly once (by its text: over Chat Completions the item id is the client's own).
  const answers = items.filter((i) => i.type === 'message' && i.role === 'assistant');
  expect(answers.filter((i) => JSON.stringify(i.content).includes('All done.'))).toHaveLength(1);
  expect(items.filter((i) => i.type === 'function_call')).toHaveLength(2);
  // The destructive call never runs twice; a read-only one may run again.
  expect(hostA.count('dom.click') + hostB.count('dom.click')).toBeLessThanOrEqual(1);
  if (
    hostA.count('dom.click') === 1 &&
    hostB.count('dom.click') === 0 &&
    outputOf(items, 'c_click') !== 'clicked buy'
  ) {
    expect(outputOf(items, 'c_click')).toMatch(/interrupted while running/);
  }
  expect(outputOf(items, 'c_echo')).toBe('{"echo":"x"}');
  expect((await store.getRun(id))!.status).toBe('completed');
  return { total: Infinity };
}

describe('a worker killed at any write', () => {
  for (const when of ['before', 'after'] as const) {
    it(`resumes with nothing lost or duplicated (killed ${when} each write)`, async () => {
      let at = 1;
      for (; at < 30; at++) {
        const { total } = await killAt(at, when);
        if (total !== Infinity) break;
      }
      // The scenario has several writes; every one of them was a kill point.
      expect(at).toBeGreaterThan(6);
    });
  }
});
