import { describe, expect, it } from 'vitest';
import { ScriptedModel, calls, say } from '../support/scriptedModel.ts';
import { config, expectValidTranscript, outputOf, setup } from './helpers.ts';
import { FakeHost } from './helpers.ts';
import { NoPendingApprovalError } from '../../src/agent/runner.ts';

const SHOP = 'https://shop.example';

describe('approvals', () => {
  it('pauses before a destructive call (policy ask) and runs it once approved', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [
        calls([
          { name: 'page__read', callId: 'r' },
          { name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' },
        ]),
        say('Clicked.'),
      ],
    });
    const paused = await h.runner.send(h.conversationId, 'buy it');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval).toMatchObject({ callId: 'c1', name: 'dom.click', arguments: '{"ref":"e1"}', origin: SHOP });
    expect(paused.pendingCalls.map((c) => [c.callId, c.status])).toEqual([
      ['r', 'done'],
      ['c1', 'awaiting_approval'],
    ]);
    expect(h.host.count('page.read')).toBe(1); // calls before it ran
    expect(h.host.count('dom.click')).toBe(0);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
    expect(h.eventsOf('run.status').at(-1)!.status).toBe('awaiting_approval');
    expect(h.runner.isActive(h.conversationId)).toBe(false);
    expect(h.runner.keepAliveRunning).toBe(false);
    expect((await h.state())!.status).toBe('awaiting_approval');

    const state = await h.runner.approve(h.conversationId, 'c1', 'once');
    expect(state.status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(1);
    const items = await h.items();
    // The model is told the user said yes.
    expect(outputOf(items, 'c1')).toBe('[The user approved this call.]\nclicked e1');
    expectValidTranscript(items);
    expect(await h.sites.isAllowed(SHOP)).toBe(false);
  });

  it('deny sends the model "Error: the user denied <tool>" and the run continues', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }]), say('Understood.')],
    });
    await h.runner.send(h.conversationId, 'buy it');
    const state = await h.runner.deny(h.conversationId, 'c1');
    expect(state.status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(0);
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('Error: the user denied dom.click');
    expect(h.model.requests[1]!.input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: 'Error: the user denied dom.click',
    });
    expect(h.eventsOf('tool.finished').at(-1)).toMatchObject({ callId: 'c1', status: 'error', reason: 'denied' });
  });

  it('"always allow on this site" is remembered for that origin only', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [
        calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }]),
        calls([{ name: 'dom__click', args: { ref: 'e2' }, callId: 'c2' }]),
        say('both clicked'),
      ],
    });
    await h.runner.send(h.conversationId, 'go');
    const state = await h.runner.approve(h.conversationId, 'c1', 'site');
    // The second click on the same site ran without asking.
    expect(state.status).toBe('completed');
    expect(h.eventsOf('approval.required')).toHaveLength(1);
    expect(h.host.count('dom.click')).toBe(2);
    expect(await h.sites.isAllowed(SHOP)).toBe(true);
    expect(state.pendingCalls).toEqual([]);

    // Another conversation on the same site: still allowed (remembered in storage, not in the run).
    const other = (await h.store.create()).id;
    h.model.push(calls([{ name: 'dom__click', args: { ref: 'e3' }, callId: 'c3' }]), say('ok'));
    expect((await h.runner.send(other, 'again')).status).toBe('completed');

    // A different origin asks again.
    h.origin = 'https://bank.example';
    h.model.push(calls([{ name: 'dom__click', args: { ref: 'e4' }, callId: 'c4' }]));
    const paused = await h.runner.send(h.conversationId, 'elsewhere');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval!.origin).toBe('https://bank.example');
  });

  it('policy auto runs destructive calls without asking', async () => {
    const h = await setup({
      origin: SHOP,
      config: config({ approvals: { policy: 'auto' } }),
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }]), say('done')],
    });
    expect((await h.runner.send(h.conversationId, 'go')).status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(1);
    expect(h.eventsOf('approval.required')).toHaveLength(0);
  });

  it('origins in approvals.allowed_origins run without asking (wildcards too)', async () => {
    const h = await setup({
      origin: 'https://www.shop.example',
      config: config({ approvals: { allowed_origins: ['https://*.shop.example'] } }),
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }]), say('done')],
    });
    expect((await h.runner.send(h.conversationId, 'go')).status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(1);
  });

  it('asks only when the call is destructive (isDestructive decides per call)', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [
        calls([
          { name: 'dom__type', args: { ref: 'e1', text: 'me' }, callId: 'plain' },
          { name: 'dom__type', args: { ref: 'e2', text: 'pw', password: true }, callId: 'secret' },
        ]),
        say('ok'),
      ],
    });
    const paused = await h.runner.send(h.conversationId, 'log in');
    expect(paused.approval!.callId).toBe('secret');
    expect(h.host.count('dom.type')).toBe(1);
    await h.runner.approve(h.conversationId, 'secret');
    expect(h.host.count('dom.type')).toBe(2);
  });

  it('two destructive calls approved once each pause twice', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [
        calls([
          { name: 'dom__click', args: { ref: 'a' }, callId: 'c1' },
          { name: 'dom__click', args: { ref: 'b' }, callId: 'c2' },
        ]),
        say('ok'),
      ],
    });
    await h.runner.send(h.conversationId, 'go');
    const second = await h.runner.approve(h.conversationId, 'c1', 'once');
    expect(second.status).toBe('awaiting_approval');
    expect(second.approval!.callId).toBe('c2');
    expect((await h.runner.approve(h.conversationId, 'c2', 'once')).status).toBe('completed');
    expect(h.host.count('dom.click')).toBe(2);
  });

  it('survives a worker restart: a new runner on the same database continues from IndexedDB alone', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
    });
    await h.runner.send(h.conversationId, 'buy it');

    // The worker dies; a new one builds a new runner, with a new model client and tool host.
    const model = new ScriptedModel([say('Bought.')]);
    const host = new FakeHost();
    h.host = host;
    h.model = model;
    const fresh = h.newRunner();
    expect(await fresh.recoverInterrupted()).toEqual([]); // a pause is not an interruption
    const resumed = await fresh.resume(h.conversationId); // re-announces the pending approval
    expect(resumed.status).toBe('awaiting_approval');
    expect(h.eventsOf('approval.required')).toHaveLength(2);

    const state = await fresh.approve(h.conversationId, 'c1', 'once');
    expect(state.status).toBe('completed');
    expect(host.count('dom.click')).toBe(1);
    expect(model.requests[0]!.input.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    expectValidTranscript(await h.items());
  });

  it('a denial also survives a restart', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
    });
    await h.runner.send(h.conversationId, 'buy it');
    h.model = new ScriptedModel([say('OK, not buying.')]);
    const state = await h.newRunner().deny(h.conversationId, 'c1');
    expect(state.status).toBe('completed');
    expect(outputOf(await h.items(), 'c1')).toBe('Error: the user denied dom.click');
  });

  it('refuses approve/deny for a call that is not pending', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }])],
    });
    await expect(h.runner.approve(h.conversationId, 'c1')).rejects.toBeInstanceOf(NoPendingApprovalError);
    await h.runner.send(h.conversationId, 'go');
    await expect(h.runner.deny(h.conversationId, 'other')).rejects.toBeInstanceOf(NoPendingApprovalError);
    expect((await h.state())!.status).toBe('awaiting_approval');
  });

  it('a new message while awaiting approval answers the pending call and goes on', async () => {
    const h = await setup({
      origin: SHOP,
      turns: [calls([{ name: 'dom__click', args: { ref: 'e1' }, callId: 'c1' }]), say('Fine, I will not.')],
    });
    await h.runner.send(h.conversationId, 'buy it');
    const state = await h.runner.send(h.conversationId, "no, don't");
    expect(state.status).toBe('completed');
    const items = await h.items();
    expect(outputOf(items, 'c1')).toBe('Error: the user did not approve dom.click (they sent a new message instead)');
    expect(h.host.count('dom.click')).toBe(0);
    expectValidTranscript(items);
  });
});
