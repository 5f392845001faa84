/**
 * MCP servers as proxy packs, against a real MCP server (the official SDK's server side) on loopback: connection
 * over Streamable HTTP and the SSE fallback, tools as the pack `<server>` (source proxy:<server>), signatures,
 * validation, results, errors, timeouts, a server that is down or drops mid-session, and ot.reload.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMcpServer, type RunningMcpServer } from '../support/mcp-server/index.ts';
import type { CachedTools, ToolCache } from '../../src/mcp/index.ts';
import { parse } from 'yaml';
import { unwrap, waitFor, world, type World } from './helpers.ts';

/** ot.health's proxy section, parsed. */
const proxyOf = async (w: World): Promise<unknown> => (parse(await w.run('ot.health')) as { proxy: unknown }).proxy;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(opts: Parameters<typeof startMcpServer>[0] = {}): Promise<RunningMcpServer> {
  const s = await startMcpServer(opts);
  let closed = false;
  const close = s.close.bind(s);
  s.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  cleanups.push(() => s.close());
  return s;
}

async function otto(servers: Record<string, unknown>, opts: Parameters<typeof world>[1] = {}): Promise<World> {
  const w = await world(servers, opts);
  cleanups.push(() => w.close());
  return w;
}

describe('connecting', () => {
  it('connects over Streamable HTTP; the tools become the pack <server> with source proxy:<server>', async () => {
    const s = await server({ instructions: 'Test server: echo and friends.' });
    const w = await otto({ demo: { url: s.url } });
    expect(w.manager.state('demo')).toBe('connected');
    expect(w.registry().pack('demo')).toMatchObject({ name: 'demo', source: 'proxy:demo' });
    // The server's instructions are its text, inside the untrusted boundary.
    expect(w.registry().pack('demo')!.instructions).toMatch(
      /^Instructions from the MCP server 'demo' \(the server's text, not Otto's or the user's\):\n<external-content-([0-9a-f]{8})>\nTest server: echo and friends\.\n<\/external-content-\1>$/,
    );
    expect(w.registry().pack('demo')!.tools).toEqual([
      'demo.add',
      'demo.crash',
      'demo.echo',
      'demo.empty',
      'demo.fail',
      'demo.image',
      'demo.search',
      'demo.slow',
    ]);
    expect(w.manager.status()[0]).toMatchObject({
      name: 'demo',
      state: 'connected',
      transport: 'streamable-http',
      toolCount: 8,
      toolsFrom: 'live',
    });
    // The model is shown the server's schema as is (minus $schema), under a wire-safe name.
    const def = w.registry().definitions((_t, q) => q === 'demo.search')[0]!;
    expect(def.function.name).toBe('demo__search');
    expect(def.function.parameters).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { limit: { type: 'integer', default: 10 } },
    });
    expect(def.function.parameters).not.toHaveProperty('$schema');
  });

  it('falls back to the HTTP+SSE transport for a server that only speaks it', async () => {
    const s = await server({ mode: 'sse' });
    const w = await otto({ legacy: { url: s.sseUrl } });
    expect(w.manager.status()[0]).toMatchObject({ state: 'connected', transport: 'sse', toolCount: 8 });
    expect(unwrap(await w.run('legacy.echo', { text: 'over sse' }))).toBe('over sse');
    // It tried Streamable HTTP first (a POST the old server refused), then the SSE stream.
    expect(s.requests.map((r) => `${r.method} ${r.path}`).slice(0, 2)).toEqual(['POST /sse', 'GET /sse']);
  });

  it('sends header values with ${NAME} secrets substituted; a missing secret leaves the server disconnected, saying which', async () => {
    const s = await server({ requireHeaders: { authorization: 'Bearer t0k3n' } });
    const headers = { Authorization: 'Bearer ${DEMO_TOKEN}' };
    const w = await otto({ demo: { url: s.url, headers } }, { secrets: { DEMO_TOKEN: 't0k3n' } });
    expect(w.manager.state('demo')).toBe('connected');
    await w.run('demo.echo', { text: 'x' });
    expect(s.calls[0]!.headers.authorization).toBe('Bearer t0k3n');

    const w2 = await otto({ demo: { url: s.url, headers } });
    expect(w2.manager.status()[0]).toMatchObject({
      state: 'disconnected',
      error:
        'header Authorization references the secret DEMO_TOKEN, which is not set. Add DEMO_TOKEN in Settings → Secrets, then run ot.reload()',
      headers: ['Authorization'],
    });
  });

  it('a disabled server is not connected, and does not degrade the proxy', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url, enabled: false } });
    expect(w.manager.state('demo')).toBe('disabled');
    expect(s.requests).toHaveLength(0);
    expect(w.registry().pack('demo')).toBeUndefined();
    expect(await proxyOf(w)).toEqual({ status: 'ok', server_count: 1, servers: { demo: 'disabled' } });
  });
});

describe('ot.packs, ot.tools and validation', () => {
  it('ot.packs and ot.tools(info="full") show the proxy tools with signatures derived from the schema', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    expect(await w.run('ot.packs', { pattern: 'demo' })).toBe('- {name: demo, source: proxy, tool_count: 8}');
    expect(await w.run('ot.packs', { pattern: 'demo', info: 'full' })).toContain('# demo pack\n\nSource: proxy:demo');
    const full = await w.run('ot.tools', { pattern: 'demo.search', info: 'full' });
    expect(full).toContain(
      "signature: \"demo.search(query: str, limit: int = 10, mode: str = '...', tags: list = '...', ratio: float = '...')\"",
    );
    expect(full).toContain('source: proxy:demo');
    expect(full).toContain('query: Search query');
    expect(await w.run('ot.tools', { pattern: 'demo.echo', info: 'full' })).toContain(
      'signature: "demo.echo(text: str, upper: bool = False)"',
    );
  });

  it('arguments are checked against the JSON Schema before the server is called', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    expect(await w.run('demo.add', { a: 1 })).toBe('Error: Missing required parameter: b');
    expect(await w.run('demo.add', { a: 'one', b: 2, c: 3 })).toBe(
      'Error: Parameter a must be an integer; Unknown parameter: c',
    );
    expect(s.calls).toHaveLength(0);
    expect(unwrap(await w.run('demo.add', { a: 2, b: 3 }))).toBe('5');
    expect(s.calls).toEqual([expect.objectContaining({ tool: 'add', args: { a: 2, b: 3 } })]);
  });
});

describe('results and errors', () => {
  it('text parts joined, binary parts summarised, empty results as the reference says; output delimited as untrusted', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    const echo = await w.run('demo.echo', { text: 'hello', upper: true });
    expect(echo).toMatch(/^<external-content-[0-9a-f]{8}>\nHELLO\n<\/external-content-[0-9a-f]{8}>$/);
    expect(unwrap(await w.run('demo.image'))).toBe('a red dot\n[Binary content: image/png]');
    expect(await w.run('demo.empty')).toBe('Tool returned empty response.');
  });

  it('tool errors are errors: isError results and a crashing handler', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    expect(await w.run('demo.fail', { message: 'quota' })).toBe('Error: failed on purpose: quota');
    expect(await w.run('demo.crash')).toBe('Error: demo.crash failed: the handler crashed');
    expect(w.records.filter((r) => !r.success).map((r) => [r.tool, r.errorType])).toEqual([
      ['demo.fail', 'McpToolError'],
      ['demo.crash', 'Error'],
    ]);
    // The server is still fine afterwards.
    expect(w.manager.state('demo')).toBe('connected');
    expect(unwrap(await w.run('demo.echo', { text: 'still here' }))).toBe('still here');
  });

  it('each server has its own timeout; a slow tool times out with a message naming the setting', async () => {
    const s = await server();
    const w = await otto({ quick: { url: s.url, timeout: 0.3 }, patient: { url: s.url, timeout: 5 } });
    const started = Date.now();
    expect(await w.run('quick.slow', { ms: 2000 })).toBe(
      'Error: quick.slow timed out after 0.3 s (config servers.quick.timeout)',
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(unwrap(await w.run('patient.slow', { ms: 400 }))).toBe('done after 400 ms');
    expect(w.manager.state('quick')).toBe('connected');
  });

  it('an aborted call stops waiting for the server, and the server stays connected', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    const abort = new AbortController();
    const started = Date.now();
    const call = w.manager.call('demo', 'slow', { ms: 5000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('stopped by the user')), 50);
    await expect(call).rejects.toThrow('stopped by the user');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(w.manager.state('demo')).toBe('connected');
  });
});

describe('a server that is down or drops', () => {
  it('down at start: disconnected, proxy degraded, its calls say so, other packs keep working', async () => {
    const s = await server();
    const port = s.port;
    await s.close();
    const w = await otto({ demo: { url: `http://127.0.0.1:${port}/mcp` } });
    expect(w.manager.state('demo')).toBe('disconnected');
    expect(await proxyOf(w)).toEqual({ status: 'degraded', server_count: 1, servers: { demo: 'disconnected' } });
    expect(w.manager.status()[0]!.error).toMatch(/^could not connect: fetch failed/);
    expect(await w.run('local.ping')).toBe('pong');
    expect(await w.run('ot.version')).toBe('1.2.3');
  });

  it('stopped mid-session: the next call fails clearly, health says disconnected/degraded; restarted + ot.reload reconnects', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } });
    expect(await proxyOf(w)).toEqual({ status: 'ok', server_count: 1, servers: { demo: 'connected' } });
    const port = s.port;
    await s.close();

    const err = await w.run('demo.echo', { text: 'anyone?' });
    expect(err).toMatch(
      new RegExp(
        `^Error: MCP server 'demo' is disconnected: .*\\. Check that it is running at http://127\\.0\\.0\\.1:${port}/mcp, then run ot\\.reload\\(\\) to reconnect\\.$`,
      ),
    );
    expect(await proxyOf(w)).toEqual({ status: 'degraded', server_count: 1, servers: { demo: 'disconnected' } });
    // Its tools are still listed (they say what is wrong when called), and other packs work.
    expect(w.registry().has('demo.echo')).toBe(true);
    expect(await w.run('demo.echo', { text: 'again?' })).toMatch(/^Error: MCP server 'demo' is disconnected/);
    expect(await w.run('local.ping')).toBe('pong');

    // Restart on the same port; ot.reload reconnects.
    await server({ port });
    expect(await w.run('ot.reload')).toBe('OK: Configuration reloaded');
    expect(w.manager.state('demo')).toBe('connected');
    expect(await proxyOf(w)).toEqual({ status: 'ok', server_count: 1, servers: { demo: 'connected' } });
    expect(unwrap(await w.run('demo.echo', { text: 'back' }))).toBe('back');
  });

  it('a dropped stream is noticed without a call: the transport reports trouble, a ping confirms, state becomes disconnected', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } }, { manager: { pingTimeoutMs: 1000 } });
    await waitFor(() => s.requests.some((r) => r.method === 'GET')); // the client's standalone SSE stream is open
    await s.close();
    await waitFor(() => w.manager.state('demo') === 'disconnected', 8000);
    expect(w.manager.status()[0]!.error).toMatch(/^the connection was lost/);
  });

  it('a restarted worker registers the last known tools at once; their calls wait for the reconnection', async () => {
    const s = await server();
    const saved = new Map<string, CachedTools>();
    const cache: ToolCache = { load: async (n) => saved.get(n), save: async (n, v) => void saved.set(n, v) };
    const first = await otto({ demo: { url: s.url } }, { manager: { cache } });
    await waitFor(() => saved.has('demo'));
    await first.close();

    // A new worker whose connection is slower than its start-up budget.
    const w = await otto({ demo: { url: s.url } }, { manager: { cache, connectBudgetMs: 0 } });
    expect(w.manager.status()[0]).toMatchObject({ state: 'connecting', toolsFrom: 'cache', toolCount: 8 });
    expect(w.registry().has('demo.echo')).toBe(true);
    expect(unwrap(await w.run('demo.echo', { text: 'waited' }))).toBe('waited');
    expect(w.manager.status()[0]).toMatchObject({ state: 'connected', toolsFrom: 'live' });
  });

  it('a server that connects after the budget is announced through onChange', async () => {
    const s = await server();
    let changed = 0;
    const w = await otto({ demo: { url: s.url } }, { manager: { connectBudgetMs: 0, onChange: () => void changed++ } });
    expect(w.registry().has('demo.echo')).toBe(false);
    await waitFor(() => changed > 0);
    await w.refresh();
    expect(w.registry().has('demo.echo')).toBe(true);
  });

  it('a server named like a built-in pack does not replace it: the clash is reported', async () => {
    const s = await server();
    const w = await otto({ local: { url: s.url } });
    expect(await w.run('local.ping')).toBe('pong');
    expect(w.manager.status()[0]!.error).toMatch(
      /its tools could not be registered: Pack 'local' is already registered/,
    );
  });
});

describe('test connection (servers.test)', () => {
  it('reports transport and tools without registering anything; failures are messages', async () => {
    const s = await server();
    const w = await otto({});
    const ok = await w.manager.test({ url: s.url }, () => undefined);
    expect(ok).toMatchObject({
      ok: true,
      transport: 'streamable-http',
      toolCount: 8,
      message: 'Connected over Streamable HTTP: 8 tools',
    });
    expect(ok.serverInfo).toEqual({ name: 'otto-test-mcp', version: '1.0.0' });
    expect(w.manager.status()).toEqual([]);
    const bad = await w.manager.test({ url: 'http://127.0.0.1:1/mcp' }, () => undefined);
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/fetch failed/);
    const secret = await w.manager.test({ url: s.url, headers: { Authorization: 'Bearer ${NOPE}' } }, () => undefined);
    expect(secret).toMatchObject({ ok: false, message: expect.stringContaining('NOPE') });
  });

  it('host permission is checked before connecting, naming the pattern', async () => {
    const s = await server();
    const w = await otto({ demo: { url: s.url } }, { manager: { permissions: { contains: async () => false } } });
    expect(w.manager.status()[0]!.error).toBe(
      'could not connect: Otto has no host permission for http://127.0.0.1/*. Allow Otto on that site (chrome://extensions → Otto → Details → Site access), then run ot.reload()',
    );
    expect(s.requests).toHaveLength(0);
  });
});

describe('concurrent syncs', () => {
  it('two syncs racing (settings saved + storage.onChanged) connect once, and both wait for it', async () => {
    const s = await server();
    const w = await otto({});
    w.setServers({ demo: { url: s.url } });
    await Promise.all([w.refresh(), w.refresh(), w.refresh()]);
    expect(w.manager.state('demo')).toBe('connected');
    expect(s.requests.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(3); // initialize, initialized, tools/list
    expect(s.sessions()).toBe(1);
  });
});
