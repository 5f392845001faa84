import { describe, expect, it } from 'vitest';
import { callSteps, calls, created, messageSteps, reasoningSteps, say } from '../support/scriptedModel.ts';
import { config, expectValidTranscript, outputOf, setup, waitFor } from './helpers.ts';
import { MID_STREAM_ITEMS } from '../support/chatWire.ts';

describe('stop', () => {
  it('aborts mid-stream: the stream gets the abort, what the user saw is kept, the transcript says so', async () => {
    const h = await setup({
      turns: [
        [
          created(),
          ...reasoningSteps('thinking'),
          { type: 'text.delta', itemId: 'msg_p', delta: 'Partial ans' },
          { type: 'hang' },
        ],
      ],
    });
    const run = h.runner.send(h.conversationId, 'tell me');
    await waitFor(() => h.eventsOf('text.delta').length === 1, 'first delta');
    const stopped = await h.runner.stop(h.conversationId);
    const state = await run;

    expect(h.model.requests[0]!.aborted()).toBe(true);
    expect(h.model.open).toBe(0);
    expect(state.status).toBe('idle');
    expect(state.stopReason).toBe('aborted');
    expect(stopped!.stopReason).toBe('aborted');
    expect((await h.state())!.status).toBe('idle');
    const items = await h.items();
    // The trailing reasoning item (refused by the API without its following item) is dropped.
    expect(items).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'tell me' }] },
      { type: 'message', role: 'assistant', content: 'Partial ans' },
      { type: 'otto.note', kind: 'stopped', reason: 'aborted', text: 'Stopped by the user.' },
    ]);
    expect(h.eventsOf('run.status').at(-1)).toMatchObject({ status: 'idle', stopReason: 'aborted' });
    expect(h.runner.isActive(h.conversationId)).toBe(false);

    // The conversation goes on; the note is not replayed.
    h.model.push(say('Sorry, go on?'));
    await h.runner.send(h.conversationId, 'again');
    expect(h.model.requests[1]!.input.map((i) => i.type)).toEqual(['message', 'message', 'message']);
  });

  it.runIf(MID_STREAM_ITEMS)(
    'gives a function call persisted before the abort its "aborted by the user" output, without running it',
    async () => {
      const h = await setup({
        turns: [
          [
            created(),
            ...messageSteps('Clicking.'),
            ...callSteps({ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }),
            { type: 'hang' },
          ],
        ],
        config: config({ approvals: { policy: 'auto' } }),
      });
      const run = h.runner.send(h.conversationId, 'click it');
      await waitFor(async () => (await h.items()).some((i) => i.type === 'function_call'), 'call persisted');
      await h.runner.stop(h.conversationId);
      await run;
      const items = await h.items();
      expect(outputOf(items, 'c1')).toBe('Error: aborted by the user');
      expect(h.host.count('dom.click')).toBe(0);
      expectValidTranscript(items);
      expect(items.at(-1)).toMatchObject({ type: 'otto.note', reason: 'aborted' });
    },
  );

  it('aborts mid-tool: the running tool gets the abort, it and the calls after it are answered "aborted"', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'page__read', callId: 'done_first' },
          { name: 'dom__type', args: { ref: 'e1', text: 'x' }, callId: 'running' },
          { name: 'dom__click', args: { ref: 'e2' }, callId: 'later' },
        ]),
      ],
      config: config({ approvals: { policy: 'auto' } }),
    });
    const gate = h.host.gate('dom.type');
    const run = h.runner.send(h.conversationId, 'go');
    await gate.started;
    await h.runner.stop(h.conversationId);
    const state = await run;

    const typeRun = h.host.runs.find((r) => r.name === 'dom.type')!;
    expect(typeRun.signal.aborted).toBe(true);
    expect(h.host.count('dom.click')).toBe(0);
    const items = await h.items();
    expect(outputOf(items, 'done_first')).toBe('page text');
    expect(outputOf(items, 'running')).toBe('Error: aborted by the user');
    expect(outputOf(items, 'later')).toBe('Error: aborted by the user');
    expectValidTranscript(items);
    expect(state).toMatchObject({ status: 'idle', stopReason: 'aborted' });
    expect(state.pendingCalls.every((c) => c.status === 'done')).toBe(true);
    expect(h.model.requests).toHaveLength(1);
  });

  it('is not held up by a tool that ignores its abort signal', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', callId: 'c1' }])] });
    let started = false;
    h.host.impl('page.read', () => {
      started = true;
      return new Promise(() => undefined); // never settles, ignores the signal
    });
    const run = h.runner.send(h.conversationId, 'go');
    await waitFor(() => started, 'tool started');
    await h.runner.stop(h.conversationId);
    expect((await run).stopReason).toBe('aborted');
    expect(outputOf(await h.items(), 'c1')).toBe('Error: aborted by the user');
  });

  it('cancels a pending approval', async () => {
    const h = await setup({
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
      origin: 'https://a.example',
    });
    expect((await h.runner.send(h.conversationId, 'go')).status).toBe('awaiting_approval');
    const state = await h.runner.stop(h.conversationId);
    expect(state).toMatchObject({ status: 'idle', stopReason: 'aborted' });
    expect(state!.approval).toBeUndefined();
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('Error: aborted by the user');
    expect(h.host.count('dom.click')).toBe(0);
    expectValidTranscript(items);
  });

  it('clears the previous_response_id chain after an abort (the next request replays everything)', async () => {
    const h = await setup({
      config: config({ agent: { previous_response_id: true } }),
      turns: [
        say('one', { responseId: 'r1' }),
        [created('r2'), { type: 'text.delta', itemId: 'm', delta: 'par' }, { type: 'hang' }],
        say('three'),
      ],
    });
    await h.runner.send(h.conversationId, 'a');
    const run = h.runner.send(h.conversationId, 'b');
    await waitFor(() => h.eventsOf('text.delta').some((e) => e.delta === 'par'), 'partial');
    await h.runner.stop(h.conversationId);
    await run;
    expect(h.model.requests[1]!.previousResponseId).toBe('r1');
    await h.runner.send(h.conversationId, 'c');
    expect(h.model.requests[2]!.previousResponseId).toBeUndefined();
    expect(h.model.requests[2]!.input).toHaveLength(5); // a, one, b, partial "par", c
  });

  it('stop on an idle conversation changes nothing', async () => {
    const h = await setup({ turns: [say('hi')] });
    await h.runner.send(h.conversationId, 'x');
    const before = await h.items();
    const state = await h.runner.stop(h.conversationId);
    expect(state!.status).toBe('completed');
    expect(await h.items()).toEqual(before);
  });
});
