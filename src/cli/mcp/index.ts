/**
 * `npm run otto -- mcp [--no-open] [--http <port>] [--extension-id <id>] [--dist <folder>] [--browser <cmd>]`
 *
 * stdio by default (what Claude Code, Cursor and VS Code start); `--http <port>` serves Streamable HTTP on
 * 127.0.0.1 only, one relay (and one connect question) per MCP session. Everything the server says for people
 * goes to stderr: stdout is the protocol.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Relay } from './relay.ts';
import { clientOf, createMcpServer } from './server.ts';
import { EXTENSION_ID, unpackedExtensionId } from './extensionId.ts';
import { openInBrowser } from './open.ts';
import { mcpTools } from './listedTools.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export interface McpOptions {
  open: boolean;
  http?: number;
  extensionId: string;
  browser?: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function parseMcpArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): McpOptions {
  let open = true;
  let http: number | undefined;
  let extensionId = env.OTTO_EXTENSION_ID;
  let dist = path.join(ROOT, 'dist');
  let browser = env.OTTO_BROWSER;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--no-open') open = false;
    else if (a === '--http') {
      const v = value();
      http = Number(v);
      if (!Number.isInteger(http) || http < 0 || http > 65535) throw new Error(`--http: '${v}' is not a port number`);
    } else if (a === '--extension-id') extensionId = value();
    else if (a === '--dist') dist = value();
    else if (a === '--browser') browser = value();
    else
      throw new Error(
        `unknown option '${a}' (options: --no-open, --http <port>, --extension-id <id>, --dist <folder>, --browser <cmd>)`,
      );
  }
  extensionId ??= unpackedExtensionId(dist);
  if (!EXTENSION_ID.test(extensionId))
    throw new Error(`'${extensionId}' is not a Chrome extension id (32 letters a–p)`);
  return { open, extensionId, ...(http !== undefined ? { http } : {}), ...(browser ? { browser } : {}) };
}

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function newRelay(opts: McpOptions, client: () => ReturnType<typeof clientOf>): Relay {
  return new Relay({
    extensionId: opts.extensionId,
    client,
    onRefused: say,
    onConnectNeeded: (url, why) => {
      const what = why === 'connect' ? `${client().name} asks to use Otto in your browser.` : 'Reconnecting to Otto.';
      if (!opts.open) {
        say(`${what} Open this page in Chrome to answer:`);
        say(`Connect: ${url}`);
        return;
      }
      void openInBrowser(url, opts.browser).then((ok) => {
        if (ok) say(`${what} Opened Otto's connect page in your browser.`);
        else say(`${what} Could not start the browser; open this page in Chrome:\nConnect: ${url}`);
      });
    },
  });
}

export async function runMcp(argv: string[]): Promise<void> {
  const opts = parseMcpArgs(argv);
  if (
    !argv.includes('--extension-id') &&
    !process.env.OTTO_EXTENSION_ID &&
    !existsSync(path.join(ROOT, 'dist', 'manifest.json'))
  )
    say(
      'Otto is not built here (no dist/): run `npm run build` and load dist/ in Chrome, or pass --extension-id <id>.',
    );
  const tools = mcpTools();
  if (opts.http === undefined) {
    // The relay reads the client's name from the server, and the server calls through the relay (after start-up).
    const server = createMcpServer(() => relay, tools);
    const relay = newRelay(opts, () => clientOf(server));
    await relay.start();
    const transport = new StdioServerTransport();
    const stop = async () => {
      await relay.close();
      process.exit(0);
    };
    transport.onclose = () => void stop();
    process.stdin.on('end', () => void stop());
    process.on('SIGTERM', () => void stop());
    process.on('SIGINT', () => void stop());
    await server.connect(transport);
    say(`Otto MCP server on stdio: ${tools.length} tools; relay on 127.0.0.1:${relay.port}.`);
    return;
  }
  await serveHttp(opts, tools);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('request body too large');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Streamable HTTP on loopback: one MCP server, transport and relay per session. */
async function serveHttp(opts: McpOptions, tools: ReturnType<typeof mcpTools>): Promise<void> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; relay: Relay }>();
  const port = opts.http!;
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
          res.writeHead(404).end();
          return;
        }
        // Loopback clients only: a web page that reaches this port (directly or by DNS rebinding) sends a Host of
        // its own name or an Origin header, and gets nothing.
        if (!hosts.includes(req.headers.host ?? '') || req.headers.origin !== undefined) {
          res.writeHead(403).end('Forbidden: Otto’s MCP server answers local MCP clients only.');
          return;
        }
        const body = req.method === 'POST' ? await readJson(req) : undefined;
        const sid = req.headers['mcp-session-id'];
        const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
        if (existing) {
          await existing.transport.handleRequest(req, res, body);
          return;
        }
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              jsonrpc: '2.0',
              error: { code: -32000, message: 'No valid MCP session: initialize first.' },
              id: null,
            }),
          );
          return;
        }
        const server = createMcpServer(() => relay, tools);
        const relay = newRelay(opts, () => clientOf(server));
        await relay.start();
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableDnsRebindingProtection: true,
          allowedHosts: hosts,
          onsessioninitialized: (id) => void sessions.set(id, { transport, relay }),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
          void relay.close();
        };
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      } catch (err) {
        if (!res.headersSent) res.writeHead(400).end(errorMessage(err));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (http.address() as { port: number }).port;
  hosts.push(`127.0.0.1:${actual}`, `localhost:${actual}`);
  say(`Otto MCP server (Streamable HTTP): http://127.0.0.1:${actual}/mcp — ${tools.length} tools.`);
  const stop = async () => {
    for (const s of sessions.values()) await s.relay.close();
    http.closeAllConnections();
    http.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
