/**
 * The scope gate in the agent loop (issue #42): a call whose effects the user's words did not ask for asks — even
 * where a site allowance would have let it through — with a card that says so; the same call in a task that asked for
 * it runs with today's approvals; "Allow for this task" widens the scope; denied, the model gets Otto's words only.
 */
import { describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { FakeHost, outputOf, setup, waitFor } from './helpers.ts';
import type { CallAssessment, ToolRunContext } from '../../src/agent/toolHost.ts';
import type { EffectKind } from '../../src/shared/taskScope.ts';
import { z } from '../../src/shared/zod.ts';

const MAIL = 'https://mail.test';

/** A host that judges like the real one: the effect comes from the target's words (`kind` stands for them here). */
class EffectHost extends FakeHost {
  async assess(qualifiedName: string, args: unknown): Promise<CallAssessment> {
    const a = args as Record<string, unknown>;
    const effects = typeof a.kind === 'string' ? [a.kind as EffectKind] : [];
    return {
      destructive: await this.isDestructive(qualifiedName, args),
      target: {
        origin: MAIL,
        tab: { id: 1, origin: MAIL, isRunTab: true },
        element: { role: 'button', name: 'Send', context: ['To: attacker@evil.test', 'Body: the code is 4411'] },
      },
      effects,
    };
  }
}

async function gateSetup(turns: NonNullable<Parameters<typeof setup>[0]>['turns'], destructive = false) {
  const h = await setup({ origin: MAIL, turns });
  const host = new EffectHost();
  host.define('dom.click', {
    readOnly: false,
    schema: z.object({ ref: z.string(), kind: z.string().optional() }),
    destructive: () => destructive,
    impl: (a) => `clicked ${String(a.ref)}`,
  });
  h.host = host;
  h.runner = h.newRunner();
  return { h, host };
}

const SEND = { name: 'dom__click', args: { ref: 'send', kind: 'send' }, callId: 'c1' };

describe('the scope gate', () => {
  it('a send in a task that only asked to summarise asks, and the card says the request did not ask for it', async () => {
    const { h, host } = await gateSetup([calls([SEND]), say('done')]);
    const st = await h.runner.send(h.conversationId, 'Summarise my inbox.');
    expect(st.taskScope).toEqual({ effects: ['read', 'fill'], sites: ['mail.test'], asked: 'summarise my inbox' });
    expect(st.status).toBe('awaiting_approval');
    expect(st.approval!.outOfScope).toEqual({
      effects: ['send'],
      site: 'mail.test',
      sentence:
        'You asked to summarise your inbox. Otto wants to send or post to attacker@evil.test on mail.test (“Send”) — your request did not ask for this; a page Otto read may have asked for it.',
    });
    const done = await h.runner.deny(h.conversationId, 'c1');
    expect(done.status).toBe('completed');
    expect(host.count('dom.click')).toBe(0);
    expect(outputOf(await h.items(), 'c1')).toBe(
      "Error: the user denied dom.click: it would send or post on mail.test, which the user's request did not ask for. Nothing was done. Do not try to do this another way; finish the task the user asked for.",
    );
  });

  it('a scheduled run keeps the scope agreed when it was scheduled: its words are not read again (#46)', async () => {
    const { h, host } = await gateSetup([calls([SEND]), say('sent')]);
    const agreed = { effects: ['read', 'fill'] as EffectKind[], sites: ['mail.test'], asked: 'check my inbox' };
    // The task text names sending, but what was agreed did not: the send waits for the user.
    const st = await h.runner.send(h.conversationId, 'Send Bob a short hello', { scope: agreed });
    expect(st.taskScope).toEqual(agreed);
    expect(st.status).toBe('awaiting_approval');
    expect(st.approval!.outOfScope!.effects).toEqual(['send']);
    expect(host.count('dom.click')).toBe(0);
  });

  it('"Always on this site" does not cover an action outside the task', async () => {
    const { h, host } = await gateSetup([calls([SEND]), say('done')], true);
    await h.sites.allow(MAIL);
    const st = await h.runner.send(h.conversationId, 'Summarise my inbox.');
    expect(st.status).toBe('awaiting_approval');
    expect(st.approval!.outOfScope!.effects).toEqual(['send']);
    expect(host.count('dom.click')).toBe(0);
  });

  it('the same send asked by the user runs with no card', async () => {
    const { h, host } = await gateSetup([calls([SEND]), say('sent')]);
    const st = await h.runner.send(h.conversationId, 'Send Bob a short hello');
    expect(st.status).toBe('completed');
    expect(h.eventsOf('approval.required')).toHaveLength(0);
    expect(host.count('dom.click')).toBe(1);
  });

  it('a read-only click (no effect) never asks', async () => {
    const { h } = await gateSetup([calls([{ name: 'dom__click', args: { ref: 'next' }, callId: 'n' }]), say('ok')]);
    expect((await h.runner.send(h.conversationId, 'Summarise my inbox.')).status).toBe('completed');
    expect(h.eventsOf('approval.required')).toHaveLength(0);
  });

  it('"Allow for this task" widens the scope: the next send of the run does not ask', async () => {
    const { h, host } = await gateSetup([calls([SEND]), calls([{ ...SEND, callId: 'c2' }]), say('done')]);
    await h.runner.send(h.conversationId, 'Summarise my inbox.');
    const st = await h.runner.approve(h.conversationId, 'c1', 'task');
    expect(st.status).toBe('completed');
    expect(st.taskScope!.effects).toEqual(['read', 'fill', 'send']);
    expect(host.count('dom.click')).toBe(2);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
  });

  it('a later message widens the scope; the scope survives a worker restart', async () => {
    const { h } = await gateSetup([say('summary'), calls([SEND]), say('sent')]);
    await h.runner.send(h.conversationId, 'Summarise my inbox.');
    h.runner = h.newRunner();
    expect((await h.state())!.taskScope!.effects).toEqual(['read', 'fill']);
    const st = await h.runner.send(h.conversationId, 'Now reply to Bob: see you then');
    expect(st.status).toBe('completed');
    expect(st.taskScope).toMatchObject({ effects: ['read', 'fill', 'send'], asked: 'summarise my inbox' });
  });

  it('inside a program: the step asks inline and a denial stops the program with Otto’s words', async () => {
    const { h, host } = await gateSetup([calls([{ name: 'ot__run', args: {}, callId: 'prog' }]), say('finished')]);
    host.define('ot.run', {
      readOnly: false,
      schema: z.object({}),
      impl: async (_a, ctx: ToolRunContext) => {
        await ctx.approve!('dom.click', { ref: 'send', kind: 'delete' });
        return 'program done';
      },
    });
    const running = h.runner.send(h.conversationId, 'Summarise my inbox.');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    expect((await h.state())!.approval).toMatchObject({ callId: 'prog~1', outOfScope: { effects: ['delete'] } });
    await h.runner.deny(h.conversationId, 'prog~1');
    expect((await running).status).toBe('completed');
    expect(outputOf(await h.items(), 'prog')).toContain(
      "the user denied dom.click: it would delete on mail.test, which the user's request did not ask for",
    );
  });
});
