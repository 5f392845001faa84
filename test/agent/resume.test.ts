/**
 * The worker dies mid-run: simulated by leaving runner A hung forever at a chosen point (its promises never settle,
 * as in a killed worker) and building runner B — new model client, new tool host — on the same database.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedModel, calls, created, messageSteps, say } from '../support/scriptedModel.ts';
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

/** Restart: a new worker with a new model (scripted with `turns`) and a new tool host. */
function restart(h: Harness, turns: Parameters<ScriptedModel['push']>) {
  const model = new ScriptedModel(turns);
  const host = new FakeHost();
  h.model = model;
  h.host = host;
  return { runner: h.newRunner(), model, host };
}

describe('resume after the worker died', () => {
  it('recoverInterrupted marks runs found running as interrupted, and only those', async () => {
    const h = await setup({ turns: [[created(), { type: 'wait', until: never() }]] });
    void h.runner.send(h.conversationId, 'hello');
    await waitFor(async () => (await h.state())?.status === 'running', 'running');
    const done = (await h.store.create()).id;
    await h.store.putRun({ ...(await h.state())!, conversationId: done, status: 'completed' });

    const { runner } = restart(h, []);
    expect(await runner.recoverInterrupted()).toEqual([h.conversationId]);
    expect((await h.state())!).toMatchObject({ status: 'interrupted', stopReason: 'interrupted' });
    expect((await h.state(done))!.status).toBe('completed');
    expect(h.eventsOf('run.status').at(-1)).toMatchObject({ conversationId: h.conversationId, status: 'interrupted' });
    // A runner does not mark its own active runs.
    expect(await h.runner.recoverInterrupted()).toEqual([]);
  });

  it.runIf(MID_STREAM_ITEMS)(
    'crash mid-stream: the partial response is discarded and requested again; nothing duplicated',
    async () => {
      const h = await setup({ turns: [[created(), ...messageSteps('half of it'), { type: 'wait', until: never() }]] });
      void h.runner.send(h.conversationId, 'question');
      await waitFor(async () => (await h.items()).length === 2, 'partial item persisted');

      const { runner, model } = restart(h, [say('the whole answer')]);
      await runner.recoverInterrupted();
      const state = await runner.resume(h.conversationId);
      expect(state.status).toBe('completed');
      expect(model.requests[0]!.input).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'question' }] },
      ]);
      const items = await h.items();
      expect(items).toHaveLength(2);
      expect(items[1]).toMatchObject({ role: 'assistant', content: [{ text: 'the whole answer' }] });
      expect(userTexts(items)).toEqual(['question']);
    },
  );

  it('crash after the function_call was persisted, before the tool ran: resume runs it exactly once', async () => {
    const h = await setup({ turns: [calls([{ name: 'web__echo', args: { text: 'x' }, callId: 'c1' }])] });
    h.host.isDestructiveHook = never; // the worker dies right before the call would start
    void h.runner.send(h.conversationId, 'go');
    await waitFor(() => h.host.destructiveChecks.length === 1, 'about to run the call');
    expect((await h.state())!).toMatchObject({ status: 'running', phase: 'tools' });
    const deadHost = h.host;

    const { runner, host, model } = restart(h, [say('echoed')]);
    await runner.recoverInterrupted();
    const state = await runner.resume(h.conversationId);
    expect(state.status).toBe('completed');
    expect(deadHost.count('web.echo')).toBe(0);
    expect(host.count('web.echo')).toBe(1);
    expect(model.requests).toHaveLength(1); // the completed response is not requested again
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expect(outputOf(items, 'c1')).toBe('{"echo":"x"}');
    expectValidTranscript(items);
  });

  it('crash after a tool output was persisted: that tool is not run again; a read-only call in flight is re-run', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'web__echo', args: { text: 'x' }, callId: 'c1' },
          { name: 'page__read', callId: 'c2' },
        ]),
      ],
    });
    h.host.impl('page.read', never); // dies while page.read runs (web.echo finished and was persisted)
    void h.runner.send(h.conversationId, 'go');
    await waitFor(
      async () => outputOf(await h.items(), 'c1') !== undefined && h.host.count('page.read') === 1,
      'c1 persisted, c2 running',
    );

    const { runner, host } = restart(h, [say('ok')]);
    await runner.recoverInterrupted();
    const state = await runner.resume(h.conversationId);
    expect(state.status).toBe('completed');
    expect(host.count('web.echo')).toBe(0);
    expect(host.count('page.read')).toBe(1);
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('{"echo":"x"}');
    expect(outputOf(items, 'c2')).toBe('page text');
    expectValidTranscript(items);
  });

  it('a non-read-only call that was running when the worker died is not run twice: the model is told its effect is unknown', async () => {
    const h = await setup({
      config: config({ approvals: { policy: 'auto' } }),
      turns: [calls([{ name: 'dom__click', args: { ref: 'buy' }, callId: 'c1' }])],
    });
    h.host.impl('dom.click', never);
    void h.runner.send(h.conversationId, 'buy');
    await waitFor(() => h.host.count('dom.click') === 1, 'click running');

    const { runner, host, model } = restart(h, [say('Let me check the page first.')]);
    await runner.recoverInterrupted();
    const state = await runner.resume(h.conversationId);
    expect(state.status).toBe('completed');
    expect(host.count('dom.click')).toBe(0);
    const out = outputOf(await h.items(), 'c1')!;
    expect(out).toMatch(/^Error: dom\.click was interrupted while running .*whether it took effect is unknown/);
    expect(model.requests[0]!.input.at(-1)).toMatchObject({ type: 'function_call_output', call_id: 'c1' });
  });

  it('an approved call that was running when the worker died is neither re-run nor re-approved', async () => {
    const h = await setup({
      origin: 'https://a.example',
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
    });
    await h.runner.send(h.conversationId, 'go');
    h.host.impl('dom.click', never);
    void h.runner.approve(h.conversationId, 'c1', 'once');
    await waitFor(async () => (await h.state())!.pendingCalls[0]?.status === 'running', 'running');
    // Running a non-read-only call when it died: resumed as "effect unknown", never re-executed, never re-asked.
    const { runner, host } = restart(h, [say('checked')]);
    await runner.recoverInterrupted();
    expect((await runner.resume(h.conversationId)).status).toBe('completed');
    expect(host.count('dom.click')).toBe(0);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
  });

  it('resume of an approved-but-not-started call runs it once', async () => {
    const h = await setup({
      origin: 'https://a.example',
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
    });
    await h.runner.send(h.conversationId, 'go');
    // Approved and persisted, then the worker died before the call started.
    const s = (await h.state())!;
    await h.store.putRun({
      ...s,
      status: 'running',
      approval: undefined,
      pendingCalls: s.pendingCalls.map((c) => ({ ...c, status: 'approved', approvedBy: 'once' })),
    });
    const { runner, host } = restart(h, [say('clicked')]);
    await runner.recoverInterrupted();
    expect((await runner.resume(h.conversationId)).status).toBe('completed');
    expect(host.count('dom.click')).toBe(1);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
  });

  it('a new message instead of resume settles the interrupted run: open calls answered, both user messages kept', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'page__read', callId: 'c1' },
          { name: 'web__echo', args: { text: 'y' }, callId: 'c2' },
        ]),
      ],
    });
    h.host.isDestructiveHook = never;
    void h.runner.send(h.conversationId, 'first');
    await waitFor(() => h.host.destructiveChecks.length === 1, 'about to run');

    const { runner, host, model } = restart(h, [say('on to the second')]);
    await runner.recoverInterrupted();
    const state = await runner.send(h.conversationId, 'second');
    expect(state.status).toBe('completed');
    expect(host.runs).toHaveLength(0);
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('Error: not run: the user sent a new message before this call ran');
    expectValidTranscript(items);
    expect(userTexts(model.requests[0]!.input)).toEqual(['first', 'second']);
  });

  it('resume continues a run that was never marked interrupted (found running)', async () => {
    const h = await setup({ turns: [[created(), { type: 'wait', until: never() }]] });
    void h.runner.send(h.conversationId, 'q');
    // The request start is not written on its own (its first item carries it): streaming = the model was asked.
    await waitFor(async () => h.model.requests.length === 1 && (await h.state())?.status === 'running', 'streaming');
    const { runner } = restart(h, [say('a')]);
    expect((await runner.resume(h.conversationId)).status).toBe('completed');
  });

  it('resume of a finished run does nothing', async () => {
    const h = await setup({ turns: [say('done')] });
    await h.runner.send(h.conversationId, 'q');
    const state = await h.runner.resume(h.conversationId);
    expect(state.status).toBe('completed');
    expect(h.model.requests).toHaveLength(1);
  });

  it('a call whose output is in the transcript is never run again, even if the run state lags behind', async () => {
    const h = await setup();
    const id = h.conversationId;
    // State as an older writer might have left it: the output was written, the call still marked running.
    await h.store.append(id, [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'page__read', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'page text' },
    ]);
    await h.store.putRun({
      conversationId: id,
      runId: 'r',
      status: 'interrupted',
      phase: 'tools',
      turn: 1,
      pendingCalls: [
        { callId: 'c1', name: 'page__read', qualifiedName: 'page.read', arguments: '{}', status: 'running' },
      ],
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, responses: 1 },
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
    });
    const { runner, host } = restart(h, [say('ok')]);
    expect((await runner.resume(id)).status).toBe('completed');
    expect(host.count('page.read')).toBe(0);
    expectValidTranscript(await h.items());
  });

  it('a worker dying between the final answer and the end of the run: resume finishes it, without asking the model again', async () => {
    // Found by the e2e reliability suite: the answer was saved, the run still marked running (as older builds left it).
    const h = await setup();
    const id = h.conversationId;
    await h.store.append(id, [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        content: [{ type: 'output_text', text: 'The answer.' }],
      },
    ]);
    await h.store.putRun({
      conversationId: id,
      runId: 'r',
      status: 'interrupted',
      phase: 'model',
      turn: 1,
      pendingCalls: [],
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, responses: 1 },
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
    });
    const { runner, model } = restart(h, [say('a second answer nobody asked for')]);
    const state = await runner.resume(id);
    expect(state.status).toBe('completed');
    expect(state.stopReason).toBe('completed');
    expect(model.requests).toHaveLength(0);
    expect((await h.items()).map((i) => i.type)).toEqual(['message', 'message']);
  });

  it('the final answer and the end of the run are one write, so there is no window for a crash between them', async () => {
    const h = await setup({ turns: [say('The answer.')] });
    const snapshots: { turn: number; status: string }[] = [];
    const append = h.store.append.bind(h.store);
    h.store.append = (cid, items, opts = {}) => {
      if (opts.run) snapshots.push({ turn: opts.run.turn, status: opts.run.status });
      return append(cid, items, opts);
    };
    await h.runner.send(h.conversationId, 'q');
    // The first state written after the response completed (turn 1) already says the run is over.
    expect(snapshots.find((s) => s.turn === 1)?.status).toBe('completed');
  });
});
