/**
 * docs/specs/002-ot-tools.md (the `ot` pack): every scenario of every requirement, named after it, with the exact
 * strings of the spec and of ../shared/reference/onetool-facts.md. Tools are called through the interceptor, as the
 * model and the command line call them.
 */
import { describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { otFixture, fakeEnv, realStores } from './otSupport.ts';
import { buildRegistry } from '../../src/background/registry.ts';
import { ConfigSchema } from '../../src/config/schema.ts';
import { DOC_SLUG_OVERRIDES, docSlug, docUrl } from '../../src/tools/packs/ot/index.ts';
import { browserEnvironment, detectBrowser } from '../../src/tools/packs/ot/env.ts';
import { globToRegExp, notify } from '../../src/tools/packs/ot/notify.ts';
import { NO_MATCHES } from '../../src/tools/packs/ot/help.ts';
import { toolContext } from '../support/toolContext.ts';
import { ToolInterceptor, type ToolCallRecord } from '../../src/tools/interceptor.ts';

const ALIASES = { ws: 'brave.web_search', alias_f: 'demo.foo' };
const SNIPPETS = {
  foon: {
    description: 'Get foo() for n items',
    params: { n: { default: 5, description: 'Number of items' } },
    body: 'demo.foo(n={{ n }})',
  },
  barn: { description: 'Get bar() for n items', params: { n: { required: true } }, body: 'demo.bar(n={{ n }})' },
  pkg_versions: { description: 'Check package versions', body: 'demo.bar(n=1)' },
  bare: { body: 'demo.bar(n=2)' },
};
const full = () => otFixture({ aliases: ALIASES, snippets: SNIPPETS });
const text = async (p: Promise<unknown>): Promise<string> => {
  const v = await p;
  expect(typeof v).toBe('string');
  return v as string;
};
const yaml = async (p: Promise<unknown>): Promise<unknown> => parse(await text(p));

describe('Requirement: List Tools', () => {
  it('Scenario: List all tools — every registered tool, default info level min', async () => {
    const f = full();
    const out = (await yaml(f.call('ot.tools'))) as { name: string; description: string }[];
    expect(out.map((t) => t.name)).toEqual(f.registry.names());
    expect(out).toEqual(await yaml(f.call('ot.tools', { info: 'min' })));
  });

  it('Scenario: Filter by pattern — case-insensitive substring of the name, always partial', async () => {
    const f = full();
    const names = (await yaml(f.call('ot.tools', { pattern: 'search', info: 'list' }))) as string[];
    expect(names).toEqual(['brave.search', 'brave.web_search', 'github.search']);
    expect(await yaml(f.call('ot.tools', { pattern: 'SeArCh', info: 'list' }))).toEqual(names);
    expect(await yaml(f.call('ot.tools', { pattern: 'eb_sea', info: 'list' }))).toEqual(['brave.web_search']);
    expect(await yaml(f.call('ot.tools', { pattern: 'nothing-like-this', info: 'list' }))).toEqual([]);
  });

  it('Scenario: Info level list — only tool names, as a list of strings', async () => {
    const f = full();
    const out = await yaml(f.call('ot.tools', { info: 'list' }));
    expect(out).toEqual(f.registry.names());
    expect((out as unknown[]).every((x) => typeof x === 'string')).toBe(true);
  });

  it('Scenario: Info level min — each entry is {name, description}', async () => {
    const f = full();
    const out = (await yaml(f.call('ot.tools', { pattern: 'brave' }))) as Record<string, unknown>[];
    expect(out).toEqual([
      { name: 'brave.search', description: 'Search the web with Brave.' },
      { name: 'brave.web_search', description: 'Search the web (alias-friendly name).' },
    ]);
  });

  it('Scenario: Info level full — {name, signature, description, source} plus args, returns, example when available', async () => {
    const f = full();
    const out = (await yaml(f.call('ot.tools', { pattern: 'brave.search', info: 'full' }))) as Record<
      string,
      unknown
    >[];
    expect(out).toEqual([
      {
        name: 'brave.search',
        signature: 'brave.search(query: str, count: int = 10)',
        description: 'Search the web with Brave.\nReturns titles and URLs.',
        args: ['query: What to search for', 'count: Number of results'],
        returns: 'A list of {title, url, snippet}.',
        example: 'brave.search(query="otto extension", count=5)',
        source: 'local',
      },
    ]);
    expect(Object.keys(out[0]!)).toEqual(['name', 'signature', 'description', 'args', 'returns', 'example', 'source']);
    const all = (await yaml(f.call('ot.tools', { info: 'full' }))) as {
      name: string;
      source: string;
      signature: string;
    }[];
    for (const t of all) {
      expect(t.source).toMatch(/^(local|proxy:.+)$/);
      expect(t.signature.startsWith(`${t.name}(`)).toBe(true);
    }
    expect(all.find((t) => t.name === 'github.search')!.source).toBe('proxy:github');
    // No args/returns/example keys when the tool has none.
    const bare = all.find((t) => t.name === 'firecrawl.scrape')!;
    expect(Object.keys(bare)).toEqual(['name', 'signature', 'description', 'source']);
  });

  it("Scenario: Proxy tool signature from schema — required without defaults, optional with default or '...'", async () => {
    const f = full();
    const [entry] = (await yaml(f.call('ot.tools', { pattern: 'github.search', info: 'full' }))) as {
      signature: string;
    }[];
    expect(entry!.signature).toBe("github.search(query: str, repo: str = '...', limit: int = 10)");
  });

  it('Scenario: Proxy tool arguments from schema — args is a list of "param_name: description"', async () => {
    const f = full();
    const [entry] = (await yaml(f.call('ot.tools', { pattern: 'github.search', info: 'full' }))) as {
      args: string[];
    }[];
    expect(entry!.args).toEqual(['query: Search query', 'repo: owner/name to search in', 'limit: Max results']);
  });
});

describe('Requirement: Configuration Summary', () => {
  it('Scenario: Show config — aliases, snippets with descriptions, servers', async () => {
    const f = otFixture({
      aliases: ALIASES,
      snippets: { foon: SNIPPETS.foon, barn: SNIPPETS.barn },
      servers: {
        proxy_package_version: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer sk-secret-123456' },
        },
      },
    });
    const out = await text(f.call('ot.config'));
    expect(parse(out)).toEqual({
      aliases: { ws: 'brave.web_search', alias_f: 'demo.foo' },
      snippets: { foon: { description: 'Get foo() for n items' }, barn: { description: 'Get bar() for n items' } },
      servers: ['proxy_package_version'],
    });
    // The spec's layout: config order, two levels of flow for the snippets. Its quotes around the descriptions are
    // PyYAML's habit, not needed by YAML; the spec's text parses to the same value.
    expect(out).toBe(
      [
        'aliases: {ws: brave.web_search, alias_f: demo.foo}',
        'snippets: {foon: {description: Get foo() for n items}, barn: {description: Get bar() for n items}}',
        'servers: [proxy_package_version]',
      ].join('\n'),
    );
    expect(parse(out)).toEqual(
      parse(
        'aliases: {ws: brave.web_search, alias_f: demo.foo}\n' +
          'snippets: {foon: {description: "Get foo() for n items"}, barn: {description: "Get bar() for n items"}}\n' +
          'servers: [proxy_package_version]',
      ),
    );
    expect(out).not.toContain('sk-secret');
  });

  it('Scenario: Empty config — {aliases: {}, snippets: {}, servers: []}', async () => {
    const f = otFixture();
    expect(await text(f.call('ot.config'))).toBe('aliases: {}\nsnippets: {}\nservers: []');
    const json = otFixture({ output: { format: 'json' } });
    expect(await json.call('ot.config')).toBe('{"aliases":{},"snippets":{},"servers":[]}');
  });

  it('info="full" shows the effective config with defaults, never a header value', async () => {
    const f = otFixture({
      servers: { gh: { url: 'https://mcp.example.com/', headers: { Authorization: 'Bearer sk-secret-123456' } } },
    });
    const out = await text(f.call('ot.config', { info: 'full' }));
    const cfg = parse(out) as { agent: { mode: string }; servers: { gh: { headers: Record<string, string> } } };
    expect(cfg.agent.mode).toBe('tools');
    expect(cfg.servers.gh.headers).toEqual({ Authorization: '[redacted]' });
    expect(out).not.toContain('sk-secret');
    expect(await yaml(f.call('ot.config', { info: 'list' }))).toContain('agent');
  });
});

describe('Requirement: Health Check', () => {
  it('Scenario: Show health — version, browser, extension id, registry, proxy with each server', async () => {
    const f = otFixture(
      { servers: { proxy_package_version: { url: 'https://mcp.example.com/mcp' } } },
      { servers: { state: (name) => (name === 'proxy_package_version' ? 'connected' : undefined) } },
    );
    expect(await text(f.call('ot.health'))).toBe(
      [
        'version: 1.2.3',
        'browser: Chromium 140.0.7339.185',
        'extension_id: abcdefghijklmnopabcdefghijklmnop',
        `registry: {status: ok, tool_count: ${f.registry.size}}`,
        'proxy: {status: ok, server_count: 1, servers: {proxy_package_version: connected}}',
      ].join('\n'),
    );
  });

  it('Scenario: Disconnected server — server "disconnected", proxy "degraded"', async () => {
    // No MCP layer reports yet: a configured server is disconnected.
    const f = otFixture({
      servers: {
        github: { url: 'https://mcp.example.com/gh' },
        off: { url: 'https://mcp.example.com/off', enabled: false },
      },
    });
    const h = (await yaml(f.call('ot.health'))) as { proxy: unknown };
    expect(h.proxy).toEqual({
      status: 'degraded',
      server_count: 2,
      servers: { github: 'disconnected', off: 'disabled' },
    });
  });

  it('reads the browser from navigator.userAgentData (full version when granted), else from userAgent', async () => {
    const brands = [
      { brand: 'Not.A/Brand', version: '99' },
      { brand: 'Chromium', version: '140' },
    ];
    expect(await detectBrowser({ userAgentData: { brands } })).toBe('Chromium 140');
    expect(
      await detectBrowser({
        userAgentData: {
          brands,
          getHighEntropyValues: async () => ({
            fullVersionList: [...brands, { brand: 'Google Chrome', version: '140.0.7339.185' }],
          }),
        },
      }),
    ).toBe('Google Chrome 140.0.7339.185');
    expect(
      await detectBrowser({
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/139.0.1.2 Safari/537.36',
      }),
    ).toBe('Chrome 139.0.1.2');
  });
});

describe('Requirement: Notify Message', () => {
  it('Scenario: Send notification — routed to the topic file and appended as a YAML document', async () => {
    const { stores, files } = realStores();
    const f = otFixture({ notify: { topics: [{ pattern: 'notes', file: '~/notes/notes.yaml' }] } }, { stores });
    expect(await f.call('ot.notify', { topic: 'notes', message: 'Remember to review PR #123' })).toBe(
      'OK: notes -> notes.yaml',
    );
    expect(await f.call('ot.notify', { topic: 'notes', message: 'second: with "quotes"\nand a line' })).toBe(
      'OK: notes -> notes.yaml',
    );
    const file = await files.get('notes.yaml');
    expect(file!.mime).toBe('text/yaml');
    expect(file!.content.startsWith('---\nts: ')).toBe(true);
    const docs = parseAllDocuments(file!.content).map(
      (d) => d.toJS() as { ts: string; topic: string; message: string },
    );
    expect(docs.map((d) => [d.topic, d.message])).toEqual([
      ['notes', 'Remember to review PR #123'],
      ['notes', 'second: with "quotes"\nand a line'],
    ]);
    expect(Object.keys(docs[0]!)).toEqual(['ts', 'topic', 'message']);
    expect(new Date(docs[0]!.ts).toISOString()).toBe(docs[0]!.ts);
  });

  it('Scenario: No matching topic — "SKIP: no matching topic"', async () => {
    const { stores, files } = realStores();
    const f = otFixture({ notify: { topics: [{ pattern: 'notes', file: 'notes.yaml' }] } }, { stores });
    expect(await f.call('ot.notify', { topic: 'unknown:topic', message: 'test' })).toBe('SKIP: no matching topic');
    expect(await files.list()).toEqual([]);
  });

  it('topic patterns are globs and the first match wins; concurrent appends are all kept', async () => {
    const { stores, files } = realStores();
    const topics = [
      { pattern: 'status:*', file: 'status.yaml' },
      { pattern: 'status:build', file: 'never.yaml' },
      { pattern: 'log?', file: 'logs.yaml' },
      { pattern: '[!x]*', file: 'other.yaml' },
    ];
    expect(await notify(topics, stores, 'status:build', 'green')).toBe('OK: status:build -> status.yaml');
    expect(await notify(topics, stores, 'log1', 'a')).toBe('OK: log1 -> logs.yaml');
    expect(await notify(topics, stores, 'misc', 'b')).toBe('OK: misc -> other.yaml');
    expect(await notify(topics, stores, 'xray', 'c')).toBe('SKIP: no matching topic');
    await Promise.all(Array.from({ length: 20 }, (_, i) => notify(topics, stores, 'status:x', `m${i}`)));
    const docs = parseAllDocuments((await files.get('status.yaml'))!.content);
    expect(docs).toHaveLength(21);
    expect(globToRegExp('a.b*').test('a.bcd')).toBe(true);
    expect(globToRegExp('a.b*').test('axbcd')).toBe(false);
  });
});

describe('Requirement: Reload Configuration', () => {
  it('Scenario: Reload config — clears cached config, reloads, "OK: Configuration reloaded"', async () => {
    // A worker-like setup: config "on disk", a cache, and a registry rebuilt on reload (as src/background does).
    let disk = { aliases: { ws: 'brave.web_search' } } as Record<string, unknown>;
    let cached: ReturnType<typeof ConfigSchema.parse> | undefined;
    const settings = () => (cached ??= ConfigSchema.parse(disk));
    const reload = vi.fn(async () => {
      cached = undefined;
      registry = buildRegistry(settings(), { ot });
    });
    const ot = { reload, environment: fakeEnv };
    let registry = buildRegistry(settings(), { ot });
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const ctx = toolContext({ config: settings(), registry });
      return ctx.callTool(name, args);
    };
    expect(await call('ot.aliases')).toBe('ws -> brave.web_search');
    disk = { aliases: { ws: 'brave.web_search', tl: 'tabs.list' } };
    expect(await call('ot.aliases')).toBe('ws -> brave.web_search'); // still cached
    expect(await call('ot.reload')).toBe('OK: Configuration reloaded');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(await call('ot.aliases')).toBe('tl -> tabs.list\nws -> brave.web_search');
    expect(registry.resolve('tl')?.name).toBe('list');
  });
});

describe('Requirement: Runtime Statistics', () => {
  async function withCalls() {
    const s = realStores();
    await s.stats.recordBatch({
      toolCalls: [
        { tool: 'brave.search', durationMs: 10, success: true, charsIn: 10, charsOut: 100 },
        { tool: 'brave.search', durationMs: 30, success: false, errorType: 'Error', charsIn: 10, charsOut: 0 },
        { tool: 'demo.foo', durationMs: 5, success: true, charsIn: 5, charsOut: 5 },
      ],
    });
    return s;
  }

  it('Scenario: Get all-time stats — total_calls, success_rate, context_saved, time_saved_ms, tools', async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    const r = (await yaml(f.call('ot.stats'))) as Record<string, unknown>;
    expect(r).toMatchObject({ period: 'all', total_calls: 3, success_rate: 66.7, html_report: null });
    expect(r).toHaveProperty('context_saved');
    expect(r).toHaveProperty('time_saved_ms');
    expect((r.tools as { tool: string; total_calls: number }[]).map((t) => [t.tool, t.total_calls])).toEqual([
      ['brave.search', 2],
      ['demo.foo', 1],
    ]);
  });

  it('Scenario: Filter by period — day, week, month, all', async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    for (const period of ['day', 'week', 'month', 'all']) {
      const r = (await yaml(f.call('ot.stats', { period }))) as Record<string, unknown>;
      expect(r.period).toBe(period);
      expect(r.total_calls).toBe(3);
    }
  });

  it('Scenario: Filter by tool — statistics of that tool only', async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    const r = (await yaml(f.call('ot.stats', { tool: 'brave.search' }))) as Record<string, unknown>;
    expect(r).toMatchObject({ tool: 'brave.search', total_calls: 2, success_rate: 50 });
    expect((r.tools as { tool: string }[]).map((t) => t.tool)).toEqual(['brave.search']);
  });

  it("Scenario: Generate HTML report — kept in Otto's files, named in html_report", async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    const r = (await yaml(f.call('ot.stats', { output: 'stats.html' }))) as Record<string, unknown>;
    expect(r.html_report).toBe('stats.html');
    const file = await s.files.get('stats.html');
    expect(file!.mime).toBe('text/html');
    expect(file!.content).toContain('<html');
  });

  it('Scenario: Stats disabled — an error message saying so', async () => {
    const s = await withCalls();
    const f = otFixture({ stats: { enabled: false } }, { stores: s.stores });
    expect(await f.call('ot.stats')).toBe('Error: Statistics collection is disabled in configuration');
  });

  it('Scenario: HTML write error — "Error: Cannot write to \'<path>\': <error>"', async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    const out = await text(f.call('ot.stats', { output: 'reports/report.html' }));
    expect(out).toMatch(/^Error: Cannot write to 'reports\/report\.html': .+/);
    const failing = otFixture({}, { stores: { ...s.stores, computeStats: (o) => s.stats.computeStats(o) } });
    vi.spyOn(s.files, 'save').mockRejectedValueOnce(new Error('QuotaExceededError: storage is full'));
    expect(await failing.call('ot.stats', { output: 'report.html' })).toBe(
      "Error: Cannot write to 'report.html': QuotaExceededError: storage is full",
    );
  });

  it('Scenario: Invalid period — the exact message', async () => {
    const s = await withCalls();
    const f = otFixture({}, { stores: s.stores });
    expect(await f.call('ot.stats', { period: 'invalid' })).toBe(
      "Error: Invalid period 'invalid'. Valid: day, week, month, all. Example: ot.stats(period='day')",
    );
  });
});

describe('Requirement: YAML Flow Style Output', () => {
  it('Scenario: Flow style formatting — simple objects inline, lists of objects as block sequences of flow items', async () => {
    const f = full();
    const health = await text(f.call('ot.health'));
    expect(health).toContain(`registry: {status: ok, tool_count: ${f.registry.size}}`);
    const packs = await text(f.call('ot.packs'));
    expect(packs.split('\n')).toContain('- {name: brave, source: local, tool_count: 2}');
    expect(packs.split('\n').every((l) => /^- \{.*\}$/.test(l))).toBe(true);
  });

  it('Scenario: Readability — parseable YAML, flow style never nested more than 2 levels', async () => {
    const f = otFixture({ servers: { a: { url: 'https://a.example/' } } });
    for (const [name, args] of [
      ['ot.health', {}],
      ['ot.tools', { info: 'full' }],
      ['ot.packs', {}],
      ['ot.config', {}],
    ] as const) {
      const out = await text(f.call(name, args));
      expect(() => parse(out)).not.toThrow();
      for (const line of out.split('\n')) {
        let depth = 0;
        let max = 0;
        for (const c of line.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
          if (c === '{' || c === '[') max = Math.max(max, ++depth);
          if (c === '}' || c === ']') depth--;
        }
        expect(max, `${name}: ${line}`).toBeLessThanOrEqual(2);
      }
    }
  });

  it('output.format json gives compact JSON for every structured reply', async () => {
    const f = otFixture({ output: { format: 'json' }, aliases: ALIASES });
    expect(JSON.parse(await text(f.call('ot.packs', { info: 'list' })))).toContain('brave');
    expect(JSON.parse(await text(f.call('ot.aliases', { info: 'full' })))).toEqual([
      { name: 'alias_f', target: 'demo.foo' },
      { name: 'ws', target: 'brave.web_search' },
    ]);
  });
});

describe('Requirement: Logging', () => {
  it('Scenario: Span naming — ot.<function_name> for every ot function', async () => {
    const { stores } = realStores();
    const f = otFixture({ aliases: ALIASES, snippets: SNIPPETS }, { stores, reload: async () => undefined });
    const calls: [string, Record<string, unknown>][] = [
      ['tools', {}],
      ['packs', {}],
      ['aliases', {}],
      ['snippets', {}],
      ['help', { query: 'brave' }],
      ['config', {}],
      ['health', {}],
      ['notify', { topic: 'x', message: 'y' }],
      ['reload', {}],
      ['version', {}],
      ['stats', {}],
      ['result', { handle: 'nonexistent' }],
      ['run', { code: 'demo.bar(n=1)' }],
      ['call', { tool: 'demo.bar', args: { n: 1 } }],
      ['save_snippet', { name: 'x' }],
    ];
    for (const [fn, args] of calls) await f.call(`ot.${fn}`, args).catch(() => undefined);
    const spans = f.logger.entries().flatMap((e) => (e.span?.startsWith('ot.') ? [e.span] : []));
    expect(spans).toEqual(calls.map(([fn]) => `ot.${fn}`));
    expect(new Set(f.registry.pack('ot')!.tools)).toEqual(new Set(calls.map(([fn]) => `ot.${fn}`)));
  });
});

describe('Requirement: Pack Discovery', () => {
  it('Scenario: List all packs — local and proxy, default info level min', async () => {
    const f = full();
    const out = (await yaml(f.call('ot.packs'))) as { name: string }[];
    expect(out.map((p) => p.name)).toEqual(['brave', 'demo', 'firecrawl', 'github', 'ot', 'web']);
    expect(out).toEqual(await yaml(f.call('ot.packs', { info: 'min' })));
  });

  it('Scenario: Filter by pattern — case-insensitive substring of the pack name', async () => {
    const f = full();
    expect(await yaml(f.call('ot.packs', { pattern: 'brav', info: 'list' }))).toEqual(['brave']);
    expect(await yaml(f.call('ot.packs', { pattern: 'BRAV', info: 'list' }))).toEqual(['brave']);
    expect(await yaml(f.call('ot.packs', { pattern: 'e', info: 'list' }))).toEqual([
      'brave',
      'demo',
      'firecrawl',
      'web',
    ]);
  });

  it('Scenario: Info level list — only pack names', async () => {
    const f = full();
    expect(await yaml(f.call('ot.packs', { info: 'list' }))).toEqual([
      'brave',
      'demo',
      'firecrawl',
      'github',
      'ot',
      'web',
    ]);
  });

  it('Scenario: Info level min — {name, source, tool_count}, source "local" or "proxy"', async () => {
    const f = full();
    const out = (await yaml(f.call('ot.packs'))) as Record<string, unknown>[];
    expect(out[0]).toEqual({ name: 'brave', source: 'local', tool_count: 2 });
    expect(out.find((p) => p.name === 'github')).toEqual({ name: 'github', source: 'proxy', tool_count: 1 });
    expect(out.find((p) => p.name === 'ot')).toEqual({ name: 'ot', source: 'local', tool_count: 15 });
  });

  it('Scenario: Info level full — pack header, instructions, tools with descriptions', async () => {
    const f = full();
    expect(await f.call('ot.packs', { pattern: 'brave', info: 'full' })).toBe(
      [
        '# brave pack',
        '',
        'Web search with Brave. Prefer brave.search for facts.',
        '',
        '## Tools',
        '',
        '- **brave.search**: Search the web with Brave.',
        '- **brave.web_search**: Search the web (alias-friendly name).',
      ].join('\n'),
    );
  });

  it('Scenario: Pack with configured instructions — config packs.<name>.instructions shown', async () => {
    // The real registry applies config `packs` (the prompts.yaml of the reference).
    const config = ConfigSchema.parse({ packs: { tabs: { instructions: 'Always list tabs before closing one.' } } });
    const registry = buildRegistry(config);
    const ctx = toolContext({ config, registry });
    const out = await text(ctx.callTool('ot.packs', { pattern: 'tabs', info: 'full' }));
    expect(out).toContain('# tabs pack\n\nAlways list tabs before closing one.\n\n## Tools');
    expect(out).toContain('- **tabs.list**: List open tabs');
  });

  it('Scenario: Proxy pack — tools from the proxy server, source shown as proxy', async () => {
    const f = full();
    const out = await text(f.call('ot.packs', { pattern: 'github', info: 'full' }));
    expect(out).toContain('# github pack');
    expect(out).toContain('Source: proxy:github');
    expect(out).toContain('- **github.search**: Search GitHub code.');
    expect(await yaml(f.call('ot.packs', { pattern: 'github' }))).toEqual([
      { name: 'github', source: 'proxy', tool_count: 1 },
    ]);
  });
});

describe('Requirement: Alias Introspection', () => {
  it('Scenario: List all aliases — every mapping, default info level min', async () => {
    const f = full();
    expect(await f.call('ot.aliases')).toBe('alias_f -> demo.foo\nws -> brave.web_search');
    expect(await f.call('ot.aliases', { info: 'min' })).toBe(await f.call('ot.aliases'));
  });

  it('Scenario: Filter by pattern — name or target, case-insensitive substring', async () => {
    const f = full();
    expect(await f.call('ot.aliases', { pattern: 'search' })).toBe('ws -> brave.web_search');
    expect(await f.call('ot.aliases', { pattern: 'ALIAS' })).toBe('alias_f -> demo.foo');
    expect(await f.call('ot.aliases', { pattern: 'zzz' })).toBe("No aliases match 'zzz'.");
  });

  it('Scenario: Info level list — only alias names', async () => {
    expect(await yaml(full().call('ot.aliases', { info: 'list' }))).toEqual(['alias_f', 'ws']);
  });

  it('Scenario: Info level min — alias_name -> target', async () => {
    expect((await text(full().call('ot.aliases', { info: 'min' }))).split('\n')).toContain('ws -> brave.web_search');
    expect(await otFixture().call('ot.aliases')).toBe('No aliases configured.');
  });

  it('Scenario: Info level full — structured {name, target}', async () => {
    expect(await yaml(full().call('ot.aliases', { info: 'full' }))).toEqual([
      { name: 'alias_f', target: 'demo.foo' },
      { name: 'ws', target: 'brave.web_search' },
    ]);
  });
});

describe('Requirement: Snippet Introspection', () => {
  it('Scenario: List all snippets — names with descriptions, default info level min', async () => {
    const f = full();
    expect(await f.call('ot.snippets')).toBe(
      'bare: (no description)\nbarn: Get bar() for n items\nfoon: Get foo() for n items\npkg_versions: Check package versions',
    );
    expect(await f.call('ot.snippets', { info: 'min' })).toBe(await f.call('ot.snippets'));
  });

  it('Scenario: Filter snippets by pattern — name or description', async () => {
    const f = full();
    expect(await f.call('ot.snippets', { pattern: 'pkg' })).toBe('pkg_versions: Check package versions');
    expect(await f.call('ot.snippets', { pattern: 'BAR()' })).toBe('barn: Get bar() for n items');
  });

  it('Scenario: Info level list — only snippet names', async () => {
    expect(await yaml(full().call('ot.snippets', { info: 'list' }))).toEqual(['bare', 'barn', 'foon', 'pkg_versions']);
  });

  it('Scenario: Info level min — snippet_name: description', async () => {
    expect(await full().call('ot.snippets', { pattern: 'foon', info: 'min' })).toBe('foon: Get foo() for n items');
    expect(await otFixture().call('ot.snippets')).toBe('No snippets configured.');
  });

  const BRV = {
    brv_research: {
      description: 'Search web and extract structured findings',
      params: { topic: { description: 'Topic to research' }, count: { default: 5, description: 'Number of sources' } },
      body: 'results = brave.search(query="{{ topic }}", count={{ count }})\nllm.transform(input=results, prompt="Extract key findings")\n',
    },
  };

  it('Scenario: Info level full — description, params with defaults, body template, example invocation', async () => {
    const out = await text(otFixture({ snippets: BRV }).call('ot.snippets', { pattern: 'brv_research', info: 'full' }));
    expect(out).toContain('description: Search web and extract structured findings');
    expect(out).toContain('count: {default: 5, description: "Number of sources"}');
    expect(out).toContain('body: |\n  results = brave.search(query="{{ topic }}", count={{ count }})');
    expect(out).toContain('# $brv_research topic=<topic>');
  });

  it("Scenario: Snippet output format — exactly the spec's layout", async () => {
    const out = await otFixture({ snippets: BRV }).call('ot.snippets', { pattern: 'brv_research', info: 'full' });
    expect(out).toBe(
      [
        'name: brv_research',
        'description: Search web and extract structured findings',
        'params:',
        '  topic: {description: "Topic to research"}',
        '  count: {default: 5, description: "Number of sources"}',
        'body: |',
        '  results = brave.search(query="{{ topic }}", count={{ count }})',
        '  llm.transform(input=results, prompt="Extract key findings")',
        '',
        '# Example with defaults:',
        '# $brv_research topic=<topic>',
        '# Expands to:',
        'results = brave.search(query="<topic>", count=5)',
        'llm.transform(input=results, prompt="Extract key findings")',
      ].join('\n'),
    );
  });
});

describe('Requirement: Unified Help', () => {
  it('Scenario: General help (no query) — discovery commands, info levels, examples, tips', async () => {
    const out = await text(full().call('ot.help'));
    expect(out.startsWith('# Otto help')).toBe(true);
    for (const s of [
      'ot.tools()',
      'ot.packs()',
      'ot.snippets()',
      'ot.aliases()',
      '## Info levels',
      'info="list"',
      'info="min"',
      'info="full"',
      '## Examples',
      '## Tips',
    ])
      expect(out).toContain(s);
  });

  it('Scenario: Exact tool lookup — heading, description, signature, arguments, returns, example, docs URL', async () => {
    expect(await full().call('ot.help', { query: 'brave.search' })).toBe(
      [
        '# brave.search',
        '',
        'Search the web with Brave.\nReturns titles and URLs.',
        '',
        '## Signature',
        '',
        '```',
        'brave.search(query: str, count: int = 10)',
        '```',
        '',
        '## Arguments',
        '',
        '- `query` (str, required): What to search for',
        '- `count` (int, default 10): Number of results',
        '',
        '## Returns',
        '',
        'A list of {title, url, snippet}.',
        '',
        '## Example',
        '',
        '```',
        'brave.search(query="otto extension", count=5)',
        '```',
        '',
        '## Docs',
        '',
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop/src/docs/index.html?pack=brave',
      ].join('\n'),
    );
  });

  it('Scenario: Exact pack lookup — heading, instructions, tools, docs URL', async () => {
    const out = await text(full().call('ot.help', { query: 'firecrawl' }));
    expect(out).toBe(
      [
        '# firecrawl pack',
        '',
        'Crawl and scrape sites.',
        '',
        '## Tools',
        '',
        '- **firecrawl.scaffold**: Scaffold a crawl job.',
        '- **firecrawl.scrape**: Scrape one page as markdown.',
        '',
        '## Docs',
        '',
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop/src/docs/index.html?pack=firecrawl',
      ].join('\n'),
    );
  });

  it('Scenario: Snippet lookup — name, description, parameters with defaults, body, example invocation', async () => {
    const out = await text(full().call('ot.help', { query: '$foon' }));
    expect(out).toBe(
      [
        'name: foon',
        'description: Get foo() for n items',
        'params:',
        '  n: {default: 5, description: "Number of items"}',
        'body: |',
        '  demo.foo(n={{ n }})',
        '',
        '# Example with defaults:',
        '# $foon',
        '# Expands to:',
        'demo.foo(n=5)',
      ].join('\n'),
    );
  });

  it('Scenario: Alias lookup — alias name, target, usage hint', async () => {
    const out = await text(full().call('ot.help', { query: 'ws' }));
    expect(out.startsWith('# Alias: ws\n\nMaps to: `brave.web_search`\n')).toBe(true);
    expect(out).toContain('`ws(...)` runs `brave.web_search(...)`');
    expect(out).toContain('ws(query: str)');
  });

  it('Scenario: Fuzzy search — results grouped by type: tools, packs, snippets, aliases', async () => {
    const out = await text(full().call('ot.help', { query: 'web fetch' }));
    expect(out.startsWith('# Search results for "web fetch"')).toBe(true);
    const tools = out.indexOf('## Tools');
    const packs = out.indexOf('## Packs');
    expect(tools).toBeGreaterThan(0);
    expect(out.slice(tools).split('\n')[2]).toBe('- web.fetch: Fetch a web page and return its text.');
    if (packs > 0) expect(packs).toBeGreaterThan(tools);
    // Every kind shows up under its own heading, in the spec's order.
    const all = await text(full().call('ot.help', { query: 'bar' }));
    const order = ['## Tools', '## Packs', '## Snippets', '## Aliases']
      .map((h) => all.indexOf(h))
      .filter((i) => i >= 0);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(all).toContain('- $barn: Get bar() for n items');
    const aliasHits = await text(full().call('ot.help', { query: 'alias_g' }));
    expect(aliasHits).toContain('## Aliases\n\n- alias_f -> demo.foo');
  });

  it('Scenario: Fuzzy matching with typos — close matches, sorted by match score', async () => {
    const f = full();
    const out = await text(f.call('ot.help', { query: 'scaffoldl' }));
    expect(out).toContain('## Tools\n\n- firecrawl.scaffold: Scaffold a crawl job.');
    const typo = await text(f.call('ot.help', { query: 'frirecrawl' }));
    expect(typo).toContain('- firecrawl (2 tools)');
    const { searchHelp } = await import('../../src/tools/packs/ot/index.ts');
    const hits = searchHelp(f.registry, ALIASES, SNIPPETS, 'serch');
    for (const kind of ['tool', 'pack', 'snippet', 'alias']) {
      const scores = hits.filter((h) => h.kind === kind).map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => a - b));
    }
    expect(hits[0]!.kind).toBe('tool');
    expect(
      hits
        .filter((h) => h.kind === 'tool')
        .map((h) => h.name)
        .slice(0, 3),
    ).toEqual(expect.arrayContaining(['brave.search', 'github.search']));
  });

  it('swapped letters count as one typo: "fecth", "scaffodl" and "sreach" still find their tools', async () => {
    const f = full();
    const { searchHelp } = await import('../../src/tools/packs/ot/index.ts');
    const top = (q: string) => searchHelp(f.registry, ALIASES, SNIPPETS, q).filter((h) => h.kind === 'tool')[0]?.name;
    expect(top('fecth')).toBe('web.fetch');
    expect(top('scaffodl')).toBe('firecrawl.scaffold');
    expect(['brave.search', 'github.search']).toContain(top('sreach'));
  });

  it('Scenario: Info level list — only names of matching items', async () => {
    // `web` is a pack here, so the exact pack lookup answers: its tools' names.
    expect(await full().call('ot.help', { query: 'web', info: 'list' })).toBe('web.fetch');
    const out = await text(full().call('ot.help', { query: 'fetch web', info: 'list' }));
    expect(out).toContain('## Tools\n\n- web.fetch');
    for (const line of out.split('\n').filter((l) => l.startsWith('- '))) expect(line).not.toContain(':');
    expect(await full().call('ot.help', { query: 'brave.search', info: 'list' })).toBe('brave.search');
  });

  it('Scenario: Info level min (default) — names with brief descriptions', async () => {
    const f = full();
    const out = await text(f.call('ot.help', { query: 'serch' }));
    expect(out).toContain('- brave.search: Search the web with Brave.');
    expect(out).not.toContain('Returns titles and URLs.');
    expect(await f.call('ot.help', { query: 'serch', info: 'min' })).toBe(out);
  });

  it('Scenario: Info level full — complete documentation with every available field', async () => {
    const out = await text(full().call('ot.help', { query: 'brave.search', info: 'full' }));
    for (const s of [
      '# brave.search',
      '## Signature',
      '## Arguments',
      '## Returns',
      '## Example',
      '## Source',
      'local',
      '## Access',
      'Read-only.',
      '## Pack `brave`',
      'Prefer brave.search for facts.',
      '## Docs',
    ])
      expect(out).toContain(s);
  });

  it('Scenario: Documentation URL generation — slug overrides, else the pack name', async () => {
    expect(DOC_SLUG_OVERRIDES).toEqual({
      brave: 'brave-search',
      code: 'code-search',
      db: 'database',
      ground: 'grounding-search',
      llm: 'transform',
      web: 'web-fetch',
    });
    expect(['brave', 'code', 'db', 'ground', 'llm', 'web', 'tabs', 'firecrawl'].map(docSlug)).toEqual([
      'brave-search',
      'code-search',
      'database',
      'grounding-search',
      'transform',
      'web-fetch',
      'tabs',
      'firecrawl',
    ]);
    // Default: Otto's own pages bundled in the extension.
    expect(docUrl('web', undefined, fakeEnv)).toBe(
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/docs/tools/web-fetch.html',
    );
    // config docs.base_url: the reference's site format with {slug}, or a plain prefix.
    expect(docUrl('brave', 'https://onetool.beycom.online/reference/tools/{slug}/', fakeEnv)).toBe(
      'https://onetool.beycom.online/reference/tools/brave-search/',
    );
    expect(docUrl('llm', 'https://docs.example.com/otto/', fakeEnv)).toBe(
      'https://docs.example.com/otto/transform.html',
    );
    const f = otFixture({ docs: { base_url: 'https://onetool.beycom.online/reference/tools/{slug}/' } });
    expect(await f.call('ot.help', { query: 'web.fetch' })).toContain(
      '## Docs\n\nhttps://onetool.beycom.online/reference/tools/web-fetch/',
    );
    expect(await f.call('ot.help', { query: 'demo' })).toContain('https://onetool.beycom.online/reference/tools/demo/');
  });

  it('Scenario: No matches — says so and suggests ot.tools() / ot.packs()', async () => {
    const out = await full().call('ot.help', { query: 'xyznonexistent' });
    expect(out).toBe(NO_MATCHES);
    expect(out).toBe(
      'No matches found.\n\nBrowse what is available instead:\n' +
        '- `ot.tools()` lists every tool (`ot.tools(pattern="tab")` filters)\n' +
        '- `ot.packs()` lists the packs\n' +
        '- `ot.snippets()` lists the snippets\n' +
        '- `ot.aliases()` lists the aliases',
    );
    expect(NO_MATCHES.startsWith('No matches found.')).toBe(true);
    for (const s of ['ot.tools()', 'ot.packs()', 'ot.snippets()', 'ot.aliases()']) expect(NO_MATCHES).toContain(s);
  });

  it('resolves in the reference order: tool (dotted), pack, $snippet, alias, then search; lookups ignore case', async () => {
    const f = otFixture({ aliases: { demo: 'brave.search', 'x.y': 'demo.foo' }, snippets: { web: SNIPPETS.foon } });
    expect(await f.call('ot.help', { query: 'demo' })).toContain('# demo pack'); // pack before alias
    expect(await f.call('ot.help', { query: '$web' })).toContain('name: web'); // $ → snippet, not the web pack
    expect(await f.call('ot.help', { query: 'x.y' })).toContain('# Alias: x.y'); // dotted but no tool → alias
    expect(await f.call('ot.help', { query: 'BRAVE.Search' })).toContain('# brave.search');
    expect(await f.call('ot.help', { query: 'Firecrawl' })).toContain('# firecrawl pack');
  });
});

describe('Requirement: Query Stored Results', () => {
  const LINES = Array.from({ length: 500 }, (_, i) =>
    i % 50 === 7 ? `line ${i + 1}: ERROR configuration failed` : `line ${i + 1}: ok`,
  );
  async function stored() {
    const s = realStores();
    const ref = await s.results.store(LINES.join('\n'), { tool: 'demo.bar' });
    const f = otFixture({}, { stores: s.stores });
    const q = async (args: Record<string, unknown>) =>
      (await yaml(f.call('ot.result', { handle: ref.handle, ...args }))) as Record<string, unknown> & {
        lines: string[];
      };
    return { s, f, handle: ref.handle, q };
  }

  it('Scenario: Basic query with defaults — lines 1-100', async () => {
    const { q } = await stored();
    const r = await q({});
    expect(r.lines).toEqual(LINES.slice(0, 100));
    expect(r).toMatchObject({ offset: 1, returned: 100, total_lines: 500, has_more: true });
  });

  it('Scenario: Query with offset and limit — lines 101-150', async () => {
    const { q } = await stored();
    const r = await q({ offset: 101, limit: 50 });
    expect(r.lines).toEqual(LINES.slice(100, 150));
  });

  it('Scenario: Query with search filter — regex, offset/limit over the matches', async () => {
    const { q } = await stored();
    const r = await q({ search: 'error' });
    expect(r.lines).toEqual(LINES.filter((l) => /error/i.test(l)));
    expect(r.matches).toBe(10);
    expect(r.total_lines).toBe(LINES.length); // "Total lines in stored result", not the match count
    const page = await q({ search: 'error', offset: 3, limit: 2 });
    expect(page.lines).toEqual(LINES.filter((l) => /error/i.test(l)).slice(2, 4));
  });

  it('Scenario: Query with fuzzy matching — similar content, best first', async () => {
    const { q } = await stored();
    const r = await q({ search: 'confgiuration', fuzzy: true, limit: 5 });
    expect(r.lines.length).toBeGreaterThan(0);
    expect(r.lines.every((l) => l.includes('configuration'))).toBe(true);
    const scores = r.scores as number[];
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
  });

  it('Scenario: Invalid handle — an error message saying the handle was not found', async () => {
    const { f } = await stored();
    expect(await f.call('ot.result', { handle: 'nonexistent' })).toBe('Error: Result not found: nonexistent');
  });

  it('Scenario: Expired handle — an error message saying the result expired', async () => {
    const s = realStores();
    const ref = await s.results.store(LINES.join('\n'), { result_ttl: 60 });
    const f = otFixture({}, { stores: s.stores });
    s.clock.now += 61_000;
    expect(await f.call('ot.result', { handle: ref.handle })).toBe(`Error: Result expired: ${ref.handle}`);
  });

  it('#45: an expired handle is a failed call — ot.stats counts it so, and its span is logged at error', async () => {
    const s = realStores();
    const ref = await s.results.store(LINES.join('\n'), { result_ttl: 60 });
    const f = otFixture({}, { stores: s.stores });
    const records: ToolCallRecord[] = [];
    const interceptor = new ToolInterceptor({ logger: f.logger, onRecord: (r) => records.push(r) });
    const ctx = toolContext({ config: f.config, logger: f.logger, registry: f.registry, interceptor });
    s.clock.now += 61_000;
    expect(await ctx.callTool('ot.result', { handle: ref.handle })).toBe(`Error: Result expired: ${ref.handle}`);
    await s.stats.recordBatch({ toolCalls: records });
    const r = (await yaml(ctx.callTool('ot.stats', { tool: 'ot.result' }))) as Record<string, unknown>;
    expect(r).toMatchObject({ tool: 'ot.result', total_calls: 1, success_rate: 0 });
    expect(f.logger.entries().find((e) => e.span === 'ot.result')).toMatchObject({
      level: 'error',
      fields: expect.objectContaining({ error: `Result expired: ${ref.handle}` }),
    });
  });

  it('Scenario: Query response format — lines, total_lines, returned, offset, has_more', async () => {
    const { q } = await stored();
    const r = await q({ offset: 491, limit: 50 });
    expect(r).toMatchObject({ total_lines: 500, returned: 10, offset: 491, has_more: false });
    expect(r.lines).toHaveLength(10);
  });

  it('Scenario: 1-indexed offset — offset=1 starts at the first line', async () => {
    const { q } = await stored();
    expect((await q({ offset: 1, limit: 1 })).lines).toEqual(['line 1: ok']);
  });

  it('Scenario: Offset validation — "offset must be >= 1 (1-indexed), got 0"', async () => {
    const { f, handle } = await stored();
    await expect(f.call('ot.result', { handle, offset: 0 })).rejects.toThrow(
      /^offset must be >= 1 \(1-indexed\), got 0$/,
    );
  });

  it('Scenario: Limit validation — "limit must be >= 1, got 0"', async () => {
    const { f, handle } = await stored();
    await expect(f.call('ot.result', { handle, limit: 0 })).rejects.toThrow(/^limit must be >= 1, got 0$/);
  });
});

describe('Requirement: Result Query Logging', () => {
  it('Scenario: Span naming — span ot.result with handle, offset, limit and search', async () => {
    const s = realStores();
    const ref = await s.results.store('a\nb\nerror c', {});
    const f = otFixture({}, { stores: s.stores });
    await f.call('ot.result', { handle: ref.handle, search: 'error' });
    await f.call('ot.result', { handle: ref.handle, offset: 2, limit: 1 });
    const spans = f.logger.entries().filter((e) => e.span === 'ot.result');
    expect(spans.map((e) => e.fields)).toEqual([
      expect.objectContaining({ handle: ref.handle, offset: 1, limit: 100, search: 'error' }),
      expect.objectContaining({ handle: ref.handle, offset: 2, limit: 1 }),
    ]);
    expect(spans[1]!.fields).not.toHaveProperty('search');
  });
});

describe('Requirement: Version', () => {
  it('Scenario: Get version — the version string', async () => {
    expect(await otFixture().call('ot.version')).toBe('1.2.3');
  });

  it('falls back to 0.0.0-dev when the version is unknown; reads the manifest in the extension', async () => {
    expect(await otFixture({}, { environment: { ...fakeEnv, version: () => undefined } }).call('ot.version')).toBe(
      '0.0.0-dev',
    );
    expect(browserEnvironment.version()).toBeUndefined(); // no chrome.* in node
    vi.stubGlobal('chrome', {
      runtime: {
        id: 'extid',
        getManifest: () => ({ version: '0.9.1' }),
        getURL: (p: string) => `chrome-extension://extid/${p}`,
      },
    });
    try {
      expect(browserEnvironment.version()).toBe('0.9.1');
      expect(browserEnvironment.extensionId()).toBe('extid');
      expect(docUrl('llm', undefined, browserEnvironment)).toBe('chrome-extension://extid/docs/tools/transform.html');
      expect(await otFixture({}, { environment: browserEnvironment }).call('ot.version')).toBe('0.9.1');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
