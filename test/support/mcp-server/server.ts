/**
 * A real MCP server for Otto's tests, written with the official SDK's server side (`Server` + the Streamable HTTP
 * transport, and the older HTTP+SSE transport for the fallback), on loopback. Tools:
 *
 *   echo(text, upper=False)      read-only; returns the text (upper-cased on request)
 *   add(a, b)                    read-only; a + b as text, plus structuredContent {sum}
 *   search(query, limit=10, mode='fast')   read-only; for signatures: a required str, an int default, an enum
 *   slow(ms=1500)                read-only; answers after `ms` milliseconds (honours cancellation)
 *   fail(message='boom')         returns isError: true with the message
 *   crash()                      the handler throws (a JSON-RPC error reaches the client)
 *   image()                      an image part (1×1 PNG) and a text part
 *   empty()                      no content at all
 *
 * `startMcpServer({port})` can restart on the port of a stopped server (e2e: stop → disconnected, restart → reload).
 * Standalone: `npx tsx test/support/mcp-server/cli.ts --port 8765` (see README.md).
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sleep } from '../../../src/shared/sleep.ts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';

export type McpServerMode = 'streamable' | 'sse' | 'both';

export interface McpServerOptions {
  port?: number;
  host?: string;
  /** `streamable` (default): POST/GET/DELETE on /mcp; `sse`: only the old transport on /sse + /messages; `both`. */
  mode?: McpServerMode;
  name?: string;
  /** Header every request must carry (e.g. `{authorization: 'Bearer t0k3n'}`); others get 401. */
  requireHeaders?: Record<string, string>;
  /** Extra tools (name → handler) for a test. */
  extraTools?: { tool: Tool; run: (args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult> }[];
  /** Instructions sent at initialize. */
  instructions?: string;
  /** Replaces the tool list (asked on every tools/list: a test may change it, then call notifyToolsChanged). */
  listTools?: () => Tool[];
  /** Answers a tools/call the test handles itself (undefined: the built-in tools). */
  runTool?: (
    name: string,
    args: Record<string, unknown>,
    headers: CallRecord['headers'],
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ) => CallToolResult | Promise<CallToolResult | undefined> | undefined;
  /**
   * Raw HTTP for a tools/call (a hostile or broken server): return true when the response was written here. Gets
   * the JSON-RPC id to answer (or not).
   */
  raw?: (
    call: { name: string; id: unknown; args: Record<string, unknown> },
    req: IncomingMessage,
    res: ServerResponse,
  ) => boolean;
}

export interface CallRecord {
  tool: string;
  args: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export interface RunningMcpServer {
  /** The Streamable HTTP endpoint (`…/mcp`). */
  url: string;
  /** The HTTP+SSE endpoint (`…/sse`), when the mode serves it. */
  sseUrl: string;
  port: number;
  origin: string;
  /** Every tools/call received, in order. */
  calls: CallRecord[];
  /** Every HTTP request's method and path. */
  requests: { method: string; path: string; headers: Record<string, string | string[] | undefined> }[];
  sessions(): number;
  /** Sends notifications/tools/list_changed on every open session. */
  notifyToolsChanged(): Promise<void>;
  close(): Promise<void>;
}

// 1×1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const TEST_TOOLS: Tool[] = [
  {
    name: 'echo',
    description: 'Echo the text back.\nUseful to check the connection.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'What to echo' },
        upper: { type: 'boolean', default: false, description: 'Upper-case it' },
      },
      required: ['text'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'add',
    description: 'Add two integers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'integer', description: 'First' }, b: { type: 'integer', description: 'Second' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'search',
    description: 'Search the test corpus.',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query' },
        limit: { type: 'integer', default: 10, description: 'Max results' },
        mode: { type: 'string', enum: ['fast', 'full'], description: 'How hard to look' },
        tags: { type: 'array', items: { type: 'string' } },
        ratio: { type: 'number' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'slow',
    description: 'Answer after a delay.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', default: 1500, description: 'Delay in ms' } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'fail',
    description: 'Always fails (isError: true).',
    inputSchema: { type: 'object', properties: { message: { type: 'string', default: 'boom' } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'crash',
    description: 'The handler throws.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'image',
    description: 'Return a tiny PNG image and a caption.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'empty',
    description: 'Return nothing.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];

async function runTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  switch (name) {
    case 'echo': {
      const text = String(args.text ?? '');
      return { content: [{ type: 'text', text: args.upper === true ? text.toUpperCase() : text }] };
    }
    case 'add': {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    }
    case 'search': {
      const limit = typeof args.limit === 'number' ? args.limit : 10;
      return { content: [{ type: 'text', text: `results for ${String(args.query)} (limit ${limit})` }] };
    }
    case 'slow': {
      const ms = typeof args.ms === 'number' ? args.ms : 1500;
      await sleep(ms, signal);
      return { content: [{ type: 'text', text: `done after ${ms} ms` }] };
    }
    case 'fail':
      return {
        isError: true,
        content: [{ type: 'text', text: `failed on purpose: ${String(args.message ?? 'boom')}` }],
      };
    case 'crash':
      throw new Error('the handler crashed');
    case 'image':
      return {
        content: [
          { type: 'text', text: 'a red dot' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      };
    case 'empty':
      return { content: [] };
    default:
      throw new Error(`Unknown tool: ${name}`);
  }
}

function makeServer(opts: McpServerOptions, calls: CallRecord[], headersOf: () => CallRecord['headers']): Server {
  const server = new Server(
    { name: opts.name ?? 'otto-test-mcp', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true } },
      ...(opts.instructions ? { instructions: opts.instructions } : {}),
    },
  );
  const extra = opts.extraTools ?? [];
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: opts.listTools ? opts.listTools() : [...TEST_TOOLS, ...extra.map((e) => e.tool)],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, ctx) => {
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    const headers = headersOf();
    calls.push({ tool: req.params.name, args, headers });
    const custom = extra.find((e) => e.tool.name === req.params.name);
    if (custom) return custom.run(args);
    const own = await opts.runTool?.(req.params.name, args, headers, ctx);
    if (own) return own;
    return runTool(req.params.name, args, ctx.signal);
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function startMcpServer(opts: McpServerOptions = {}): Promise<RunningMcpServer> {
  const mode = opts.mode ?? 'streamable';
  const calls: CallRecord[] = [];
  const requests: RunningMcpServer['requests'] = [];
  const streamable = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const sse = new Map<string, { transport: SSEServerTransport; server: Server }>();
  let currentHeaders: CallRecord['headers'] = {};

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });
    currentHeaders = req.headers;
    for (const [k, v] of Object.entries(opts.requireHeaders ?? {})) {
      if (req.headers[k.toLowerCase()] !== v) return jsonError(res, 401, `missing or wrong header ${k}`);
    }
    if (url.pathname === '/mcp' && mode !== 'sse') {
      const sid = req.headers['mcp-session-id'];
      const sessionId = Array.isArray(sid) ? sid[0] : sid;
      if (req.method === 'POST') {
        const body = await readBody(req);
        if (sessionId) {
          const s = streamable.get(sessionId);
          if (!s) return jsonError(res, 404, 'Session not found');
          const rpc = body as {
            method?: string;
            id?: unknown;
            params?: { name?: string; arguments?: Record<string, unknown> };
          };
          if (opts.raw && rpc?.method === 'tools/call') {
            const args = rpc.params?.arguments ?? {};
            calls.push({ tool: String(rpc.params?.name), args, headers: req.headers });
            if (opts.raw({ name: String(rpc.params?.name), id: rpc.id, args }, req, res)) return;
            calls.pop();
          }
          return s.transport.handleRequest(req, res, body);
        }
        if (!isInitializeRequest(body)) return jsonError(res, 400, 'No session: send initialize first');
        const server = makeServer(opts, calls, () => currentHeaders);
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void streamable.set(id, { transport, server }),
        });
        transport.onclose = () => {
          if (transport.sessionId) streamable.delete(transport.sessionId);
        };
        await server.connect(transport);
        return transport.handleRequest(req, res, body);
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        const s = sessionId ? streamable.get(sessionId) : undefined;
        if (!s) return jsonError(res, 404, 'Session not found');
        return s.transport.handleRequest(req, res);
      }
      return jsonError(res, 405, 'Method not allowed');
    }
    if (url.pathname === '/sse' && mode !== 'streamable') {
      if (req.method !== 'GET') return jsonError(res, 405, 'Method not allowed');
      const transport = new SSEServerTransport('/messages', res);
      const server = makeServer(opts, calls, () => currentHeaders);
      sse.set(transport.sessionId, { transport, server });
      transport.onclose = () => void sse.delete(transport.sessionId);
      await server.connect(transport);
      return;
    }
    if (url.pathname === '/messages' && mode !== 'streamable' && req.method === 'POST') {
      const s = sse.get(url.searchParams.get('sessionId') ?? '');
      if (!s) return jsonError(res, 404, 'Session not found');
      return s.transport.handlePostMessage(req, res, await readBody(req));
    }
    jsonError(res, 404, 'Not found');
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonError(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const origin = `http://${host}:${port}`;
  return {
    url: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    port,
    origin,
    calls,
    requests,
    sessions: () => streamable.size + sse.size,
    async notifyToolsChanged() {
      for (const { server } of [...streamable.values(), ...sse.values()])
        await server.sendToolListChanged().catch(() => undefined);
    },
    async close() {
      for (const { server } of [...streamable.values(), ...sse.values()]) await server.close().catch(() => undefined);
      streamable.clear();
      sse.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
