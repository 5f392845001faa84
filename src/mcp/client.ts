/**
 * One connection to an MCP server with the official SDK's client: Streamable HTTP first, the older HTTP+SSE
 * transport when the server answers the Streamable POST with a 4xx that means "not here" (400/404/405/406/415) —
 * the fallback the MCP spec describes for backwards compatibility. A network failure is not a reason to try the
 * other transport: the server is down either way.
 *
 * JSON Schema validation of tool outputs (which the SDK client does when a tool declares an output schema) uses
 * `@cfworker/json-schema` instead of the SDK's default Ajv, which compiles schemas with `new Function` — forbidden in
 * the extension.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  McpError,
  ToolListChangedNotificationSchema,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from './serverConfig.ts';
import { CallGuard } from './callGuard.ts';

export type TransportKind = 'streamable-http' | 'sse';
export type { McpToolInfo };

export interface ConnectOptions {
  /** Try this transport first (the one that worked last time). Default streamable-http. */
  prefer?: TransportKind;
  /** `fetch` for the transports (tests; default globalThis.fetch). */
  fetch?: typeof fetch;
  clientInfo?: { name: string; version: string };
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Default: the server's timeout. */
  timeoutMs?: number;
}

/** The reasons a Streamable HTTP POST fails that mean "this server speaks the old SSE transport". */
const FALLBACK_STATUS = new Set([400, 404, 405, 406, 415, -1]);

export function shouldFallBack(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && FALLBACK_STATUS.has(error.code);
}

/** Errors that come from the server's answer (JSON-RPC errors), as opposed to the connection failing. */
export function isProtocolError(error: unknown): error is McpError {
  return error instanceof McpError;
}

export const REQUEST_TIMEOUT_CODE = -32001;

export class McpConnection {
  /** Called once when the transport reports an error or closes by itself (not by `close()`). */
  onTrouble: ((error: Error) => void) | undefined;
  /** Called when the server says its tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged: (() => void) | undefined;
  private closing = false;

  constructor(
    readonly spec: ServerSpec,
    readonly client: Client,
    readonly transport: Transport,
    readonly kind: TransportKind,
    readonly guard: CallGuard = new CallGuard(),
  ) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (!this.closing) this.onToolsChanged?.();
    });
    client.onerror = (error) => {
      if (!this.closing) this.onTrouble?.(error);
    };
    client.onclose = () => {
      if (!this.closing) this.onTrouble?.(new Error('the connection closed'));
    };
  }

  get serverInfo(): { name: string; version: string } | undefined {
    const v = this.client.getServerVersion();
    return v ? { name: v.name, version: v.version } : undefined;
  }

  get instructions(): string | undefined {
    return this.client.getInstructions() || undefined;
  }

  /** Every tool, following `nextCursor` pages. */
  async listTools(options: CallOptions = {}): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await this.client.listTools(cursor ? { cursor } : undefined, this.requestOptions(options));
      tools.push(...res.tools);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /**
   * One call on its own HTTP request (see callGuard.ts): a broken answer stream rejects with a CallFault at once,
   * and the request is ended when the call ends — answered, timed out, cancelled or faulted. A timeout or a fault
   * cancels the request on the server (`notifications/cancelled`, sent by the SDK on abort).
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    const ticket = this.guard.expect(name, args);
    const cancel = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
    try {
      const sdk = this.client.callTool({ name, arguments: args }, undefined, {
        ...this.requestOptions(options),
        signal,
      }) as Promise<Record<string, unknown>>;
      sdk.catch(() => undefined);
      return await Promise.race([sdk, ticket.fault]);
    } catch (error) {
      if (!cancel.signal.aborted) cancel.abort(error);
      throw error;
    } finally {
      ticket.end();
    }
  }

  async ping(timeoutMs: number): Promise<void> {
    await this.client.ping({ timeout: timeoutMs });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => undefined);
  }

  private requestOptions(options: CallOptions): { timeout: number; signal?: AbortSignal } {
    const timeout = options.timeoutMs ?? this.spec.timeoutMs;
    return options.signal ? { timeout, signal: options.signal } : { timeout };
  }
}

function makeTransport(kind: TransportKind, spec: ServerSpec, fetchImpl: typeof fetch): Transport {
  const url = new URL(spec.url);
  const requestInit: RequestInit = { headers: spec.headers };
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit, fetch: fetchImpl });
  return new StreamableHTTPClientTransport(url, {
    requestInit,
    fetch: fetchImpl,
    // The standalone GET stream reconnects a few times; after that the manager's liveness check decides.
    reconnectionOptions: {
      initialReconnectionDelay: 500,
      maxReconnectionDelay: 5000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 2,
    },
  });
}

async function attempt(kind: TransportKind, spec: ServerSpec, options: ConnectOptions): Promise<McpConnection> {
  const client = new Client(options.clientInfo ?? { name: 'otto', version: '0.0.0' }, {
    capabilities: {},
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
  });
  const guard = new CallGuard(options.fetch);
  const transport = makeTransport(kind, spec, guard.fetch);
  try {
    await client.connect(transport, { timeout: spec.timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return new McpConnection(spec, client, transport, kind, guard);
}

/** Connects (initialize handshake included), falling back to the other transport as described above. */
export async function connectServer(spec: ServerSpec, options: ConnectOptions = {}): Promise<McpConnection> {
  const order: TransportKind[] = options.prefer === 'sse' ? ['sse', 'streamable-http'] : ['streamable-http', 'sse'];
  try {
    return await attempt(order[0]!, spec, options);
  } catch (first) {
    const fallBack = order[0] === 'streamable-http' ? shouldFallBack(first) : isSseNotFound(first);
    if (!fallBack) throw first;
    try {
      return await attempt(order[1]!, spec, options);
    } catch (second) {
      // Report the Streamable HTTP failure: it is the transport the server should speak.
      throw order[0] === 'streamable-http' ? first : second;
    }
  }
}

/** An SSE GET answered with a status meaning "no SSE endpoint here" (so the Streamable transport is worth a try). */
function isSseNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 400 && code < 500;
}

/** A short, readable reason for a failure to connect or call (no stack, no headers). */
export function describeError(error: unknown): string {
  if (error instanceof StreamableHTTPError) {
    const text = error.message.replace(/^Streamable HTTP error: /, '');
    return error.code !== undefined && error.code > 0 ? `HTTP ${error.code}: ${text}` : text;
  }
  if (error instanceof McpError) return error.message.replace(/^MCP error (-?\d+): /, '');
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error && cause.message && cause.message !== error.message ? ` (${cause.message})` : '';
    const msg = error.message || error.name;
    return `${msg}${why}`;
  }
  return String(error);
}
