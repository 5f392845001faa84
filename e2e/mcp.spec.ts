/**
 * Issue 8 e2e: MCP servers as proxy packs in the real extension. A real MCP server (the official SDK's server side,
 * test/support/mcp-server) runs on loopback: Otto connects to it from the service worker, lists its tools through
 * ot.packs / ot.tools, the model calls one through the agent loop, health says connected; the server is stopped →
 * disconnected/degraded with clear errors and nothing else breaks; restarted + ot.reload → connected again.
 */
import type { Page } from '@playwright/test';
import { parse } from 'yaml';
import { test, expect, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import { connectToFakeApi, conversation, send, waitForStatus } from './support/agent.ts';
import { startMcpServer, type RunningMcpServer } from '../test/support/mcp-server/index.ts';

interface RunReply {
  ok: boolean;
  output?: string;
  error?: { message: string; reason: string; kind: string };
}
interface ServerStatus {
  name: string;
  state: string;
  toolCount: number;
  tools: string[];
  transport?: string;
  error?: string;
  headers: string[];
}

let mcp: RunningMcpServer;
let legacy: RunningMcpServer;

test.beforeAll(async () => {
  mcp = await startMcpServer({ instructions: 'A test server: echo, add, search, slow, fail, crash, image, empty.' });
  legacy = await startMcpServer({ mode: 'sse' });
});
test.afterAll(async () => {
  await mcp?.close();
  await legacy?.close();
});

const run = (panel: Page, text: string) => panelRequest<RunReply>(panel, { type: 'command.run', text });
const health = async (panel: Page) =>
  parse((await run(panel, 'ot.health()')).output!) as { proxy: Record<string, unknown> };
const servers = async (panel: Page) =>
  (await panelRequest<{ servers: ServerStatus[] }>(panel, { type: 'servers.list' })).servers;

function serversYaml(extra = ''): string {
  return `servers:\n  demo: {url: "${mcp.url}", timeout: 1, headers: {X-Otto-Test: "\${DEMO_TOKEN}"}}\n  legacy: {url: "${legacy.sseUrl}"}\n${extra}`;
}

async function configure(panel: Page): Promise<void> {
  await panelRequest(panel, { type: 'secrets.save', yaml: 'DEMO_TOKEN: tok-123\n' });
  await panelRequest(panel, { type: 'config.save', yaml: serversYaml() });
}

test('Otto connects to the MCP servers and lists their tools via ot.packs / ot.tools; health says connected', async ({
  panel,
}) => {
  await configure(panel);
  const list = await servers(panel);
  expect(list.map((s) => [s.name, s.state, s.transport, s.toolCount])).toEqual([
    ['demo', 'connected', 'streamable-http', 8],
    ['legacy', 'connected', 'sse', 8],
  ]);
  // Header names only: the secret value never goes to the panel.
  expect(list[0]!.headers).toEqual(['X-Otto-Test']);
  expect(JSON.stringify(list)).not.toContain('tok-123');

  const packs = (await run(panel, 'ot.packs()')).output!;
  expect(packs).toContain('{name: demo, source: proxy, tool_count: 8}');
  expect(packs).toContain('{name: legacy, source: proxy, tool_count: 8}');
  // The server's own instructions (from initialize) are the pack's instructions, marked as the server's text.
  expect((await run(panel, 'ot.packs(pattern="demo", info="full")')).output).toMatch(
    /# demo pack\n\nInstructions from the MCP server 'demo' \(the server's text, not Otto's or the user's\):\n<external-content-([0-9a-f]{8})>\nA test server: echo, add, search, slow, fail, crash, image, empty\.\n<\/external-content-\1>\n\nSource: proxy:demo/,
  );
  const tools = (await run(panel, 'ot.tools(pattern="demo.", info="full")')).output!;
  expect(tools).toContain(
    "signature: \"demo.search(query: str, limit: int = 10, mode: str = '...', tags: list = '...', ratio: float = '...')\"",
  );
  expect(tools).toContain('signature: "demo.echo(text: str, upper: bool = False)"');
  expect(tools).toContain('source: proxy:demo');

  expect((await health(panel)).proxy).toEqual({
    status: 'ok',
    server_count: 2,
    servers: { demo: 'connected', legacy: 'connected' },
  });
  // The ${DEMO_TOKEN} reference was sent resolved.
  await run(panel, 'demo.echo(text="header check")');
  expect(mcp.calls.at(-1)!.headers['x-otto-test']).toBe('tok-123');
});

test('proxy tools: text, image, empty, tool errors, argument validation and the per-server timeout', async ({
  panel,
}) => {
  await configure(panel);
  expect((await run(panel, 'demo.echo(text="hello", upper=True)')).output).toMatch(
    /<external-content-[0-9a-f]+>\nHELLO\n<\/external-content/,
  );
  expect((await run(panel, 'legacy.add(a=2, b=3)')).output).toMatch(/\n5\n/);
  expect((await run(panel, 'demo.image()')).output).toContain('a red dot\n[Binary content: image/png]');
  expect((await run(panel, 'demo.empty()')).output).toBe('Tool returned empty response.');

  const failed = await run(panel, 'demo.fail(message="on purpose")');
  expect(failed.ok).toBe(false);
  expect(failed.error!.message).toContain('failed on purpose: on purpose');
  const invalid = await run(panel, 'demo.add(a="one")');
  expect(invalid.error!.message).toContain('Missing required parameter: b');
  expect(invalid.error!.message).toContain('Parameter a must be an integer');
  const slow = await run(panel, 'demo.slow(ms=3000)');
  expect(slow.error!.message).toContain('demo.slow timed out after 1 s (config servers.demo.timeout)');
  // Still connected after all of that.
  expect((await servers(panel))[0]!.state).toBe('connected');
});

test('the model calls an MCP tool through the agent loop', async ({ panel, fakeApi }) => {
  fakeApi.reset();
  await connectToFakeApi(panel, fakeApi, { yaml: serversYaml() });
  await panelRequest(panel, { type: 'secrets.update', set: { DEMO_TOKEN: 'tok-123' } });
  await run(panel, 'ot.reload()');
  fakeApi.script([
    { match: 'ask the test server', calls: [{ name: 'demo__echo', arguments: { text: 'hi from the model' } }] },
    { match: 'hi from the model', text: 'The test server echoed it.' },
  ]);
  const id = await send(panel, 'please ask the test server to echo something');
  await waitForStatus(panel, id, 'completed');
  const items = (await conversation(panel, id)).items.map((i) => i.item);
  const output = items.find((i) => i.type === 'function_call_output') as { output: string } | undefined;
  expect(output?.output).toMatch(/<external-content-[0-9a-f]+>\nhi from the model\n<\/external-content-[0-9a-f]+>/);
  expect(items.at(-1)).toMatchObject({ type: 'message', role: 'assistant' });
  expect(mcp.calls.at(-1)).toMatchObject({ tool: 'echo', args: { text: 'hi from the model' } });
  // The model was offered the proxy tools (wire names, the server's schema).
  const offered = (fakeApi.requests[0]!.body as { tools: { name: string; parameters: unknown }[] }).tools;
  expect(offered.find((t) => t.name === 'demo__search')?.parameters).toMatchObject({ required: ['query'] });
});

test('the server stops → disconnected/degraded with clear errors, other tools fine; restarted + ot.reload → connected', async ({
  panel,
}) => {
  const port = mcp.port;
  await configure(panel);
  expect((await servers(panel))[0]!.state).toBe('connected');
  await mcp.close();

  const call = await run(panel, 'demo.echo(text="anyone?")');
  expect(call.ok).toBe(false);
  expect(call.error!.message).toContain("MCP server 'demo' is disconnected:");
  expect(call.error!.message).toContain(`Check that it is running at ${mcp.url}, then run ot.reload() to reconnect.`);
  expect((await health(panel)).proxy).toEqual({
    status: 'degraded',
    server_count: 2,
    servers: { demo: 'disconnected', legacy: 'connected' },
  });
  const status = (await servers(panel))[0]!;
  expect(status.state).toBe('disconnected');
  expect(status.toolCount).toBe(8); // its tools stay listed and say what is wrong
  // Nothing else broke: another server, local packs and the registry.
  expect((await run(panel, 'legacy.echo(text="still here")')).output).toContain('still here');
  expect((await run(panel, 'ot.version()')).ok).toBe(true);
  expect((await run(panel, 'tabs.list()')).ok).toBe(true);
  // ot.reload while it is still down: still disconnected, still no crash.
  expect((await run(panel, 'ot.reload()')).output).toBe('OK: Configuration reloaded');
  expect((await servers(panel))[0]!.state).toBe('disconnected');

  mcp = await startMcpServer({ port, instructions: 'restarted' });
  expect((await run(panel, 'ot.reload()')).output).toBe('OK: Configuration reloaded');
  expect((await health(panel)).proxy).toEqual({
    status: 'ok',
    server_count: 2,
    servers: { demo: 'connected', legacy: 'connected' },
  });
  expect((await run(panel, 'demo.echo(text="back again")')).output).toContain('back again');
});

test('the worker dies: a fresh worker reconnects at start-up and the proxy tools work at once', async ({
  context,
  panel,
}) => {
  await configure(panel);
  expect((await servers(panel))[0]!.state).toBe('connected');
  const sessionsBefore = mcp.sessions();
  await stopServiceWorker(context, panel);
  // The first request wakes a new worker; its start-up connects before tools are used.
  expect((await run(panel, 'demo.echo(text="after restart")')).output).toContain('after restart');
  expect((await servers(panel)).map((s) => s.state)).toEqual(['connected', 'connected']);
  expect(mcp.sessions()).toBeGreaterThan(sessionsBefore);
});

test('settings messages: test a server before adding it, add, disable, remove; deps.check', async ({ panel }) => {
  await panelRequest(panel, { type: 'config.save', yaml: '' });
  const tested = await panelRequest<{ ok: boolean; message: string; toolCount: number }>(panel, {
    type: 'servers.test',
    url: mcp.url,
  });
  expect(tested).toMatchObject({ ok: true, toolCount: 8, message: 'Connected over Streamable HTTP: 8 tools' });
  const refused = await panelRequest<{ ok: boolean; message: string }>(panel, {
    type: 'servers.test',
    url: 'http://127.0.0.1:9/mcp',
  });
  expect(refused.ok).toBe(false);

  const added = await panelRequest<{ servers: ServerStatus[] }>(panel, {
    type: 'servers.set',
    name: 'added',
    url: mcp.url,
    timeout: 5,
  });
  expect(added.servers).toEqual([expect.objectContaining({ name: 'added', state: 'connected', toolCount: 8 })]);
  expect((await run(panel, 'added.echo(text="new server")')).output).toContain('new server');
  expect((await panelRequest<{ yaml: string }>(panel, { type: 'config.get' })).yaml).toContain('added:');

  const disabled = await panelRequest<{ servers: ServerStatus[] }>(panel, {
    type: 'servers.set',
    name: 'added',
    enabled: false,
  });
  expect(disabled.servers[0]).toMatchObject({ name: 'added', state: 'disabled' });
  expect((await run(panel, 'ot.packs(info="list")')).output).not.toContain('added');
  expect((await health(panel)).proxy).toEqual({ status: 'ok', server_count: 1, servers: { added: 'disabled' } });

  const removed = await panelRequest<{ removed: boolean; servers: ServerStatus[] }>(panel, {
    type: 'servers.remove',
    name: 'added',
  });
  expect(removed).toEqual({ removed: true, servers: [] });

  const deps = await panelRequest<{ ok: boolean; tools: { tool: string; ok: boolean }[] }>(panel, {
    type: 'deps.check',
    tool: 'web.fetch',
  });
  expect(deps.tools).toEqual([expect.objectContaining({ tool: 'web.fetch', ok: true })]);
  expect((await health(panel)) as unknown).toMatchObject({ deps: { status: 'ok', missing: [] } });
});
