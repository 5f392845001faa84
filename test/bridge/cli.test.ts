import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import path, { join } from 'node:path';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOL_NAME, bridgeRegistry, mcpTools } from '../../src/cli/mcp/listedTools.ts';
import { modeDefinitions } from '../../src/background/codeMode.ts';
import { parseMcpArgs } from '../../src/cli/mcp/index.ts';
import { unpackedExtensionId } from '../../src/cli/mcp/extensionId.ts';
import { openInBrowser } from '../../src/cli/mcp/open.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('otto mcp: the tools', () => {
  it('lists the panel model’s tool set under its wire names, minus llm.*, with truthful hints', () => {
    const tools = mcpTools();
    const registry = bridgeRegistry();
    const panel = modeDefinitions(registry, 'tools', 'default').map((d) => d.function.name);
    expect(tools.map((t) => t.name)).toEqual(panel.filter((n) => !n.startsWith('llm__')));
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const t of tools) {
      expect(t.name).toMatch(MCP_TOOL_NAME);
      const tool = registry.get(t.title)!;
      expect(t.annotations.readOnlyHint).toBe(tool.effect === 'reads');
      expect(t.annotations.destructiveHint).toBe(tool.effect !== 'reads');
      expect(t.inputSchema.type).toBe('object');
      // Descriptions name tools as the client calls them.
      expect(t.description).not.toMatch(/\b(dom|tabs|ot)\.(snapshot|click|type|result|help)\(/);
    }
    const snapshot = tools.find((t) => t.name === 'dom__snapshot')!;
    expect(snapshot.annotations).toMatchObject({ title: 'dom.snapshot', readOnlyHint: true, destructiveHint: false });
  });
});

describe('otto mcp: options', () => {
  it('defaults to the id of the unpacked build in dist/, and refuses what is not an option', () => {
    expect(parseMcpArgs([], {}).extensionId).toBe(unpackedExtensionId(path.join(ROOT, 'dist')));
    expect(parseMcpArgs(['--no-open', '--http', '0'], {})).toMatchObject({ open: false, http: 0 });
    expect(() => parseMcpArgs(['--port', '1'], {})).toThrow("unknown option '--port'");
    expect(() => parseMcpArgs(['--extension-id', 'xyz'], {})).toThrow(
      "'xyz' is not a Chrome extension id (32 letters a–p)",
    );
    expect(() => parseMcpArgs(['--http', 'abc'], {})).toThrow("--http: 'abc' is not a port number");
  });
});

/** Status of an initialize POST with extra headers (fetch would drop a Host header; http.request sends it). */
function post(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('otto mcp --http', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves Streamable HTTP on 127.0.0.1 and lists the tools at once', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'mcp', '--http', '0', '--no-open'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await expect.poll(() => /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err)?.[1], { timeout: 30_000 }).toBeTruthy();
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(err)![0];
    const client = new Client({ name: 'HTTP Agent', version: '1.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(mcpTools().map((t) => t.name));
    await client.close();
    // A page elsewhere that rebinds a name to 127.0.0.1 (its Host), or a page's fetch (its Origin), gets nothing.
    expect(await post(url, { host: 'evil.example' })).toBe(403);
    expect(await post(url, { origin: 'http://127.0.0.1:9999' })).toBe(403);
  }, 60_000);

  it('without --no-open, the connect page URL is handed to the browser command; a missing browser says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otto-open-'));
    const log = join(dir, 'argv.txt');
    const fakeBrowser = join(dir, 'browser.sh');
    writeFileSync(fakeBrowser, `#!/bin/sh\nprintf '%s' "$1" > '${log}'\n`);
    chmodSync(fakeBrowser, 0o755);
    const url = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/src/connect/index.html#port=1&token=x';
    expect(await openInBrowser(url, fakeBrowser)).toBe(true);
    await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: 5000 }).toBe(url);
    expect(await openInBrowser(url, join(dir, 'no-such-browser'))).toBe(false);
  });
});
