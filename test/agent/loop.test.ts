import { describe, expect, it } from 'vitest';
import { calls, say, deferred } from '../support/scriptedModel.ts';
import { config, expectValidTranscript, outputOf, setup, waitFor } from './helpers.ts';

describe('agent loop', () => {
  it('runs a three-turn tool loop, replaying the full transcript each turn (store: false)', async () => {
    const h = await setup({
      turns: [
        calls([{ name: 'web__echo', args: { text: 'hi' }, callId: 'c1' }]),
        calls([{ name: 'page__read', callId: 'c2' }]),
        say('All done.'),
      ],
    });
    const state = await h.runner.send(h.conversationId, 'go');

    expect(state.status).toBe('completed');
    expect(state.stopReason).toBe('completed');
    expect(state.turn).toBe(3);
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(outputOf(items, 'c1')).toBe('{"echo":"hi"}');
    expect(outputOf(items, 'c2')).toBe('page text');
    expectValidTranscript(items);

    // Each request replays everything persisted before it, and carries the tool definitions.
    expect(h.model.requests).toHaveLength(3);
    expect(h.model.requests[0]!.input).toEqual(items.slice(0, 1));
    expect(h.model.requests[1]!.input).toEqual(items.slice(0, 3));
    expect(h.model.requests[2]!.input).toEqual(items.slice(0, 5));
    expect(h.model.requests[2]!.previousResponseId).toBeUndefined();
    expect(h.model.requests[0]!.tools).toEqual(h.host.definitions());

    // Persisted with contiguous seq; the store read agrees with the item events.
    const itemEvents = h.eventsOf('item');
    expect(itemEvents.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('sends only new items plus previous_response_id when configured', async () => {
    const h = await setup({
      config: config({ agent: { previous_response_id: true } }),
      turns: [
        calls([{ name: 'web__echo', args: { text: 'x' }, callId: 'c1' }], { responseId: 'resp_A' }),
        say('ok', { responseId: 'resp_B' }),
      ],
    });
    await h.runner.send(h.conversationId, 'first');
    expect(h.model.requests[0]!.previousResponseId).toBeUndefined();
    expect(h.model.requests[1]!.previousResponseId).toBe('resp_A');
    expect(h.model.requests[1]!.input).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: '{"echo":"x"}' },
    ]);

    h.model.push(say('second reply'));
    await h.runner.send(h.conversationId, 'second');
    expect(h.model.requests[2]!.previousResponseId).toBe('resp_B');
    expect(h.model.requests[2]!.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'second' }] },
    ]);
  });

  it('passes instructions from config', async () => {
    const h = await setup({ config: config({ agent: { instructions: 'Be brief.' } }), turns: [say('ok')] });
    await h.runner.send(h.conversationId, 'hi');
    expect(h.model.requests[0]!.instructions).toBe('Be brief.');
  });

  it('emits UI events: deltas, tool started/args/running/finished with duration and status, usage per turn', async () => {
    const h = await setup({
      turns: [
        calls(
          [
            { name: 'web__echo', args: { text: 'a' }, callId: 'c1' },
            { name: 'ot__fail', callId: 'c2' },
          ],
          { text: 'Let me look.' },
        ),
        say('Bye now'),
      ],
    });
    await h.runner.send(h.conversationId, 'go');

    expect(
      h
        .eventsOf('text.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Let me look.Bye now');
    const started = h.eventsOf('tool.started');
    expect(started.map((e) => [e.callId, e.name])).toEqual([
      ['c1', 'web.echo'],
      ['c2', 'ot.fail'],
    ]);
    expect(
      h
        .eventsOf('tool.args.delta')
        .filter((e) => e.callId === 'c1')
        .map((e) => e.delta)
        .join(''),
    ).toBe('{"text":"a"}');
    expect(h.eventsOf('tool.args.done').map((e) => e.arguments)).toEqual(['{"text":"a"}', '{}']);
    expect(h.eventsOf('tool.running').map((e) => e.name)).toEqual(['web.echo', 'ot.fail']);
    const finished = h.eventsOf('tool.finished');
    expect(finished.map((e) => [e.callId, e.name, e.status, e.output])).toEqual([
      ['c1', 'web.echo', 'ok', '{"echo":"a"}'],
      ['c2', 'ot.fail', 'error', 'Error: boom'],
    ]);
    for (const f of finished) expect(f.durationMs).toBeGreaterThanOrEqual(0);

    const turns = h.eventsOf('turn.completed');
    expect(turns.map((t) => [t.turn, t.toolCalls, t.latencyMs, t.usage])).toEqual([
      [1, 2, 12.5, { inputTokens: 10, outputTokens: 5 }],
      [2, 0, 12.5, { inputTokens: 10, outputTokens: 5 }],
    ]);
    expect(turns[1]!.totals).toMatchObject({ inputTokens: 20, outputTokens: 10, responses: 2 });
    expect((await h.state())!.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, responses: 2 });

    const statuses = h.eventsOf('run.status').map((e) => e.status);
    expect(statuses[0]).toBe('running');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('turns tool failures and thrown non-errors into "Error: <message>" outputs and goes on', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'ot__fail', callId: 'c1' },
          { name: 'page__read', callId: 'c2' },
        ]),
        say('recovered'),
      ],
    });
    h.host.impl('page.read', () => {
      throw 'plain string failure';
    });
    const state = await h.runner.send(h.conversationId, 'go');
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('Error: boom');
    expect(outputOf(items, 'c2')).toBe('Error: plain string failure');
    expect(state.status).toBe('completed');
    expect(h.model.requests[1]!.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'c2',
      output: 'Error: plain string failure',
    });
  });

  it('sends malformed JSON, wrong types and unknown tool names back as errors and continues', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'web__echo', args: '{"text": ', callId: 'bad_json' },
          { name: 'web__echo', args: '[1,2]', callId: 'not_object' },
          { name: 'ot__count', args: { n: 'three' }, callId: 'wrong_type' },
          { name: 'dom__clik', args: { ref: 'e1' }, callId: 'unknown' },
          { name: 'zzzzzzzzzzzzzzzzzzzzzz', callId: 'far' },
        ]),
        say('I will fix that.'),
      ],
    });
    const state = await h.runner.send(h.conversationId, 'go');
    const items = await h.items();
    expect(outputOf(items, 'bad_json')).toMatch(/^Error: invalid arguments for web\.echo: not valid JSON \(/);
    expect(outputOf(items, 'not_object')).toBe('Error: invalid arguments for web.echo: expected a JSON object');
    expect(outputOf(items, 'wrong_type')).toMatch(/^Error: Invalid arguments for ot\.count: n: /);
    expect(outputOf(items, 'unknown')).toBe(
      "Error: unknown tool 'dom__clik'. Did you mean: dom.click, dom.hang, dom.type?",
    );
    expect(outputOf(items, 'far')).toBe("Error: unknown tool 'zzzzzzzzzzzzzzzzzzzzzz'.");
    expect(h.host.count('web.echo')).toBe(0);
    expect(h.host.count('dom.click')).toBe(0);
    expect(state.status).toBe('completed');
    expect(h.model.requests).toHaveLength(2);
    expectValidTranscript(items);
    const reasons = Object.fromEntries(h.eventsOf('tool.finished').map((e) => [e.callId, e.reason]));
    expect(reasons).toMatchObject({ bad_json: 'invalid_arguments', unknown: 'unknown_tool' });
  });

  it('treats empty arguments as an empty object', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', args: '', callId: 'c1' }]), say('ok')] });
    await h.runner.send(h.conversationId, 'go');
    expect(outputOf(await h.items(), 'c1')).toBe('page text');
  });

  it('runs consecutive read-only calls concurrently and non-read-only calls one at a time, outputs in call order', async () => {
    const h = await setup({
      turns: [
        calls([
          { name: 'web__echo', args: { text: '1' }, callId: 'r1' },
          { name: 'page__read', callId: 'r2' },
          { name: 'dom__type', args: { ref: 'e1', text: 'a' }, callId: 'w1' },
          { name: 'dom__type', args: { ref: 'e2', text: 'b' }, callId: 'w2' },
        ]),
        say('done'),
      ],
    });
    const g1 = h.host.gate('web.echo');
    const g2 = h.host.gate('page.read');
    const run = h.runner.send(h.conversationId, 'go');
    // Both read-only calls are in flight at once (a sequential loop would wait for the first gate forever).
    await waitFor(() => h.host.inFlight === 2, 'two concurrent read-only calls');
    g2.open(); // the second finishes first ...
    await waitFor(() => h.host.log.includes('end page.read'), 'page.read finished');
    g1.open();
    const state = await run;
    expect(state.status).toBe('completed');
    expect(h.host.maxInFlight).toBe(2);
    expect(h.host.overlapWithWriter).toBe(false);
    expect(h.host.log.slice(-4)).toEqual(['start dom.type', 'end dom.type', 'start dom.type', 'end dom.type']);
    // ... but outputs are persisted in call order.
    const outputs = (await h.items()).filter((i) => i.type === 'function_call_output').map((i) => i.call_id);
    expect(outputs).toEqual(['r1', 'r2', 'w1', 'w2']);
  });

  it('times out a tool that hangs, aborting its signal, and continues', async () => {
    const h = await setup({
      turns: [calls([{ name: 'dom__hang', callId: 'c1' }]), say('moving on')],
      runner: { toolTimeoutMs: 1500 },
    });
    const run = h.runner.send(h.conversationId, 'go');
    await waitFor(() => h.host.count('dom.hang') === 1, 'tool started');
    h.timers.advance(1500);
    const state = await run;
    expect(outputOf(await h.items(), 'c1')).toBe('Error: dom.hang timed out after 1.5 s');
    expect(h.host.runs[0]!.signal.aborted).toBe(true);
    expect(state.status).toBe('completed');
    expect(h.eventsOf('tool.finished')[0]!.reason).toBe('timeout');
  });

  it('agent.tool_timeout from config (seconds) sets the tool timeout for the next run', async () => {
    const h = await setup({
      config: config({ agent: { tool_timeout: 0.5 } }),
      turns: [calls([{ name: 'dom__hang', callId: 'c1' }]), say('moving on')],
      runner: { toolTimeoutMs: 60_000 },
    });
    const run = h.runner.send(h.conversationId, 'go');
    await waitFor(() => h.host.count('dom.hang') === 1, 'tool started');
    h.timers.advance(500);
    await run;
    expect(outputOf(await h.items(), 'c1')).toBe('Error: dom.hang timed out after 0.5 s');
  });

  it('stops at max_turns with the reason stated in the state and the transcript', async () => {
    const h = await setup({
      config: config({ agent: { max_turns: 2 } }),
      turns: [
        calls([{ name: 'page__read', callId: 'c1' }]),
        calls([{ name: 'page__read', callId: 'c2' }]),
        say('never requested'),
      ],
    });
    const state = await h.runner.send(h.conversationId, 'loop forever');
    expect(state.status).toBe('completed');
    expect(state.stopReason).toBe('max_turns');
    expect(state.turn).toBe(2);
    expect(h.model.requests).toHaveLength(2);
    const items = await h.items();
    expect(items.at(-1)).toMatchObject({ type: 'otto.note', reason: 'max_turns' });
    expect(String(items.at(-1)!.text)).toContain('agent.max_turns (2)');
    expectValidTranscript(items);
    expect(h.eventsOf('run.status').at(-1)).toMatchObject({ status: 'completed', stopReason: 'max_turns' });

    // The note is Otto's own: it is never sent to the model.
    await h.runner.send(h.conversationId, 'continue');
    const input = h.model.requests[2]!.input;
    expect(input.some((i) => i.type === 'otto.note')).toBe(false);
    expect(input).toHaveLength(items.length); // everything but the note, plus the new message
  });

  it('keeps the worker alive with a ping every 20 s while a run is active, and stops when idle', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', callId: 'c1' }]), say('ok')] });
    const gate = h.host.gate('page.read');
    expect(h.runner.keepAliveRunning).toBe(false);
    const run = h.runner.send(h.conversationId, 'go');
    await gate.started;
    expect(h.runner.keepAliveRunning).toBe(true);
    expect((await h.state())!.heartbeatAt).toBe(0);
    h.timers.advance(19_999);
    expect(h.pings).toBe(0);
    h.timers.advance(1);
    await waitFor(() => h.pings === 1, 'first ping');
    // Each tick also refreshes the persisted heartbeat of the active run.
    await waitFor(async () => (await h.state())!.heartbeatAt === 20_000, 'heartbeat written');
    h.timers.advance(40_000);
    await waitFor(() => h.pings === 3, 'three pings');
    await waitFor(async () => (await h.state())!.heartbeatAt === 60_000, 'heartbeat refreshed');
    gate.open();
    await run;
    expect(h.runner.keepAliveRunning).toBe(false);
    expect(h.timers.intervals).toBe(0);
    h.timers.advance(100_000);
    expect(h.pings).toBe(3);
  });

  it('refuses a second send while a run is active in the conversation', async () => {
    const h = await setup({ turns: [calls([{ name: 'page__read', callId: 'c1' }]), say('ok')] });
    const gate = h.host.gate('page.read');
    const run = h.runner.send(h.conversationId, 'one');
    await gate.started;
    await expect(h.runner.send(h.conversationId, 'two')).rejects.toThrow(/already active/);
    expect(h.runner.isActive(h.conversationId)).toBe(true);
    gate.open();
    await run;
    expect(h.runner.isActive(h.conversationId)).toBe(false);
  });

  it('runs two conversations at the same time', async () => {
    const h = await setup();
    const other = (await h.store.create()).id;
    const d = deferred();
    h.model.push([{ type: 'wait', until: d.promise }, ...say('first')], say('second'));
    const a = h.runner.send(h.conversationId, 'a');
    await waitFor(() => h.model.requests.length === 1, 'first request');
    const b = await h.runner.send(other, 'b');
    expect(b.status).toBe('completed');
    d.resolve();
    expect((await a).status).toBe('completed');
  });

  it('rejects send to a conversation that does not exist', async () => {
    const h = await setup();
    await expect(h.runner.send('nope', 'hi')).rejects.toThrow(/not found/);
  });

  it('titles the conversation from its first message', async () => {
    const h = await setup({ turns: [say('a'), say('b')] });
    await h.runner.send(h.conversationId, 'Find the cheapest flight to Lisbon\nin May');
    await h.runner.send(h.conversationId, 'and hotels');
    expect((await h.store.get(h.conversationId))!.title).toBe('Find the cheapest flight to Lisbon');
  });
});
