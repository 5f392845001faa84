/**
 * The panel's command mode in the worker (src/background/commandHandlers.ts): `command.run` runs `/help`, `$snippet`,
 * aliases and programs through the interceptor with no model and no API key; `command.classify`/`command.vocabulary`
 * let the panel decide command vs chat; `help.*` feed the help browser.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { otFixture, tool, type OtFixture } from './otSupport.ts';
import { z } from '../../src/shared/zod.ts';
import { commandHandlers, type CommandRunReply } from '../../src/background/commandHandlers.ts';
import type { PortLike } from '../../src/background/panelPort.ts';
import { PanelRequest } from '../../src/shared/messages.ts';

const CONFIG = {
  aliases: { ws: 'brave.web_search', df: 'demo.foo' },
  snippets: {
    pkg: {
      description: 'Bar for n items',
      params: { n: { required: true, description: 'How many' }, label: { default: 'items' } },
      body: 'x = demo.bar(n={{ n }})\n{"label": "{{ label }}", "x": x}',
    },
  },
};

function setup(config: Record<string, unknown> = CONFIG): { f: OtFixture; h: ReturnType<typeof commandHandlers> } {
  const f = otFixture(config, {
    environment: {
      version: () => '1.0.0',
      extensionId: () => 'extid',
      browser: async () => 'Chromium 140',
      extensionUrl: (p) => `chrome-extension://extid/${p}`,
    },
  });
  const h = commandHandlers({
    registry: () => f.registry,
    interceptor: () => f.interceptor,
    // No secrets at all: commands need no API key.
    settings: async () => ({ config: f.config, secrets: {} }),
    environment: { extensionUrl: (p) => `chrome-extension://extid/${p}` },
  });
  return { f, h };
}

const port = {} as PortLike;
function req<T extends PanelRequest['type']>(
  type: T,
  body: Record<string, unknown>,
): Extract<PanelRequest, { type: T }> {
  return PanelRequest.parse({ type, id: 'r1', ...body }) as Extract<PanelRequest, { type: T }>;
}
async function run(
  h: ReturnType<typeof commandHandlers>,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<CommandRunReply> {
  return (await h['command.run'](req('command.run', { text, ...extra }), port)) as CommandRunReply;
}

describe('command.run', () => {
  it('runs ot.tools(info="list") directly, through the interceptor', async () => {
    const { f, h } = setup();
    const r = await run(h, 'ot.tools(info="list")');
    expect(r).toMatchObject({ ok: true, kind: 'program', source: 'ot.tools(info="list")', calls: 1, format: 'yaml' });
    expect(parse((r as { output: string }).output)).toEqual(f.registry.names());
    expect(f.logger.entries().map((e) => e.msg)).toContain('[TOOL EXECUTION] Starting ot.tools');
  });

  it('/help <query> runs ot.help; fuzzy search tolerates typos', async () => {
    const { h } = setup();
    const r = await run(h, '/help serch');
    expect(r).toMatchObject({ ok: true, kind: 'help', source: 'ot.help(query="serch")' });
    expect((r as { output: string }).output).toContain('# Search results for "serch"');
    expect((r as { output: string }).output).toContain('- brave.search');
    expect(await run(h, '/help')).toMatchObject({ ok: true, kind: 'help', source: 'ot.help()' });
  });

  it('$snippet k=v expands and runs the snippet', async () => {
    const { h } = setup();
    const r = await run(h, '$pkg n=3');
    expect(r).toMatchObject({ ok: true, kind: 'snippet', calls: 1 });
    expect((r as { source: string }).source).toBe('x = demo.bar(n=3)\n{"label": "items", "x": x}');
    expect((r as { output: string }).output).toBe('{label: items, x: bar:3}');
    const multi = await run(h, '$pkg\nn: 4\nlabel: "two words"');
    expect((multi as { output: string }).output).toBe('{label: two words, x: bar:4}');
    const missing = await run(h, '$pkg');
    expect(missing).toMatchObject({
      ok: false,
      error: { kind: 'snippet', reason: "Snippet 'pkg' requires parameter 'n'" },
    });
    const unknown = await run(h, '$nope');
    expect(unknown).toMatchObject({ ok: false, error: { reason: "Unknown snippet 'nope'. Available: pkg" } });
  });

  it('aliases from config call their target', async () => {
    const { h } = setup();
    expect(await run(h, 'df(n=5)')).toMatchObject({ ok: true, output: '{foo: 5}', calls: 1 });
    expect(await run(h, 'r = ws(query="otto")\nr')).toMatchObject({ ok: true, output: 'brave.web_search ran' });
  });

  it('programs: variables, nested calls, the last value formatted (JSON with output.format json)', async () => {
    const { h } = setup({ ...CONFIG, output: { format: 'json' } });
    const r = await run(h, 'a = demo.foo(n=1)\nb = demo.bar(n=2)\n[a, b]');
    expect(r).toMatchObject({ ok: true, output: '[{"foo":1},"bar:2"]', calls: 2, format: 'json' });
  });

  it('a bad command comes back as {ok: false, error} with line and column, and nothing runs', async () => {
    const { f, h } = setup();
    const ran: number[] = [];
    f.registry.registerPack({ name: 'mark' }, [tool('mark', 'it', 'Marks', { execute: () => ran.push(1) })]);
    const syntax = await run(h, 'mark.it()\ndemo.foo(n=1');
    expect(syntax).toMatchObject({ ok: false, error: { kind: 'syntax', line: 2, column: 13, label: null } });
    expect((syntax as { error: { message: string } }).error.message).toMatch(/^line 2, column 13: /);
    const unknownTool = await run(h, 'mark.it()\ndemo.nope()');
    expect(unknownTool).toMatchObject({ ok: false, error: { kind: 'name', line: 2, column: 1 } });
    expect(ran).toEqual([]);
    const failing = await run(h, 'demo.foo(n="x")');
    expect(failing).toMatchObject({ ok: false, error: { kind: 'tool', line: 1, column: 1 } });
    expect((failing as { error: { reason: string } }).error.reason).toContain('Parameter n must be an integer');
  });

  it('command.cancel aborts a running command', async () => {
    const { f, h } = setup();
    f.registry.registerPack({ name: 'slow' }, [
      tool('slow', 'wait', 'Waits until aborted', {
        parameters: z.object({}),
        execute: (_a: unknown, ctx: { signal: AbortSignal }) =>
          new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))),
      } as never),
    ]);
    const pending = run(h, 'slow.wait()', { runId: 'run-1' });
    await new Promise((r) => setTimeout(r, 20));
    expect(await h['command.cancel'](req('command.cancel', { runId: 'run-1' }), port)).toEqual({ cancelled: true });
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await h['command.cancel'](req('command.cancel', { runId: 'run-1' }), port)).toEqual({ cancelled: false });
  });
});

describe('command.classify and command.vocabulary', () => {
  it('commands vs chat', async () => {
    const { h } = setup();
    const kind = async (text: string) =>
      ((await h['command.classify'](req('command.classify', { text }), port)) as { kind: string }).kind;
    expect(await kind('ot.tools()')).toBe('command');
    expect(await kind('/help tabs')).toBe('command');
    expect(await kind('$pkg n=1')).toBe('command');
    expect(await kind('ws(query="x")')).toBe('command');
    expect(await kind('x = demo.foo(n=1)')).toBe('command');
    expect(await kind('what tabs do I have open?')).toBe('chat');
    expect(await kind('foo.bar() is broken, why?')).toBe('chat');
  });

  it('vocabulary: packs, tools, aliases, snippets with descriptions', async () => {
    const { f, h } = setup();
    const v = await h['command.vocabulary'](req('command.vocabulary', {}), port);
    expect(v).toEqual({
      packs: f.registry.packs().map((p) => p.name),
      tools: f.registry.names(),
      aliases: { ws: 'brave.web_search', df: 'demo.foo' },
      snippets: { pkg: 'Bar for n items' },
    });
  });
});

describe('help.index, help.tool, help.search', () => {
  it('help.index: packs with docs URLs and tools, snippets with a Try-it invocation, aliases', async () => {
    const { h } = setup();
    const idx = (await h['help.index'](req('help.index', {}), port)) as {
      packs: { name: string; docsUrl: string; tools: { name: string; example?: string }[] }[];
      snippets: { name: string; invocation: string }[];
      aliases: { name: string; target: string }[];
    };
    const brave = idx.packs.find((p) => p.name === 'brave')!;
    expect(brave.docsUrl).toBe('chrome-extension://extid/src/docs/index.html?pack=brave');
    expect(brave.tools[0]).toEqual({
      name: 'brave.search',
      description: 'Search the web with Brave.',
      example: 'brave.search(query="otto extension", count=5)',
    });
    expect(idx.snippets).toEqual([{ name: 'pkg', description: 'Bar for n items', invocation: '$pkg n=<n>' }]);
    expect(idx.aliases).toEqual([
      { name: 'df', target: 'demo.foo' },
      { name: 'ws', target: 'brave.web_search' },
    ]);
  });

  it('help.tool: the detail of one tool (by name, alias or API name), null when unknown', async () => {
    const { h } = setup();
    const t = await h['help.tool'](req('help.tool', { name: 'brave.search' }), port);
    expect(t).toMatchObject({
      name: 'brave.search',
      signature: 'brave.search(query: str, count: int = 10)',
      params: [
        { name: 'query', type: 'str', required: true, hasDefault: false, description: 'What to search for' },
        {
          name: 'count',
          type: 'int',
          required: false,
          hasDefault: true,
          default: 10,
          description: 'Number of results',
        },
      ],
      source: 'local',
      readOnly: true,
      docsUrl: 'chrome-extension://extid/src/docs/index.html?pack=brave',
      packInstructions: 'Web search with Brave. Prefer brave.search for facts.',
    });
    expect(await h['help.tool'](req('help.tool', { name: 'ws' }), port)).toMatchObject({ name: 'brave.web_search' });
    expect(await h['help.tool'](req('help.tool', { name: 'demo__foo' }), port)).toMatchObject({ name: 'demo.foo' });
    expect(await h['help.tool'](req('help.tool', { name: 'nope.nope' }), port)).toBeNull();
  });

  it('help.search: fuzzy hits grouped by kind, best first', async () => {
    const { h } = setup();
    const r = (await h['help.search'](req('help.search', { query: 'frirecrawl' }), port)) as {
      results: { kind: string; name: string; score: number }[];
    };
    expect(r.results.map((x) => x.kind)).toEqual(
      [...r.results.map((x) => x.kind)].sort(
        (a, b) => ['tool', 'pack', 'snippet', 'alias'].indexOf(a) - ['tool', 'pack', 'snippet', 'alias'].indexOf(b),
      ),
    );
    expect(r.results).toContainEqual(expect.objectContaining({ kind: 'pack', name: 'firecrawl' }));
  });
});
