/**
 * The MCP layer's state: one entry per configured server — its connection, its tools (live, or the last list seen,
 * kept across worker restarts), and its state for `ot.health`, the settings page and the tools themselves.
 *
 *   sync(servers, getSecret)   connect what is new or changed (or everything, with `force`, for ot.reload), drop what
 *                              was removed, disconnect what was disabled; waits for connections up to a budget so
 *                              start-up and "save settings" see the tools, and reports later arrivals via onChange
 *   registerPacks(registry)    each server with known tools becomes the pack `<server>`, source `proxy:<server>`
 *   call(server, tool, ...)    runs a tool with the server's timeout; a tool of a server that is down says so
 *   status() / state(name)     for servers.list and ot.health
 *   test(spec)                 a throw-away connection: does this URL speak MCP, and with which tools?
 *
 * Failure is contained: a server that cannot connect, times out, or drops mid-session is `disconnected` with the
 * reason; its (last known) tools stay registered and fail with a message that names the server, the reason and the
 * fix (`ot.reload()` reconnects). Nothing here throws into the worker's start-up, and other packs never notice.
 * A dropped connection is noticed either by a failing call or by the transport reporting trouble, which is then
 * confirmed with a ping before the server is declared disconnected.
 */
import { raceAbort } from '../shared/raceAbort.ts';
import type { OttoConfig } from '../config/schema.ts';
import { log as sharedLog, type Logger } from '../shared/log.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { AnyTool } from '../tools/Tool.ts';
import type { ToolContext } from '../tools/context.ts';
import { wrapUntrusted } from '../content/untrusted.ts';
import { originPattern } from '../sdk/deps.ts';
import type { PermissionsLike } from '../sdk/runtime.ts';
import {
  connectServer,
  describeError,
  isProtocolError,
  REQUEST_TIMEOUT_CODE,
  type McpConnection,
  type McpToolInfo,
  type TransportKind,
} from './client.ts';
import { fingerprint, serverSpec, type ServerConfig, type ServerSpec } from './config.ts';
import { EMPTY_RESPONSE, formatCallResult } from './content.ts';
import { proxyTool } from './proxyTool.ts';

export type ServerState = 'connected' | 'connecting' | 'disconnected' | 'disabled';

export interface CachedTools {
  url: string;
  transport?: TransportKind;
  tools: McpToolInfo[];
  savedAt: number;
}

/** Where the last tool list of each server is kept (IndexedDB in the worker), so a restarted worker knows them. */
export interface ToolCache {
  load(server: string): Promise<CachedTools | undefined>;
  save(server: string, value: CachedTools): Promise<void>;
}

export interface ServerStatus {
  name: string;
  url: string;
  enabled: boolean;
  state: ServerState;
  /** Why it is not connected (redacted), or a problem registering its pack. */
  error?: string;
  transport?: TransportKind;
  toolCount: number;
  /** Function names (the part after `<server>.`), sorted. */
  tools: string[];
  /** Whether the tool list is from the live connection, from before (cache), or unknown. */
  toolsFrom: 'live' | 'cache' | 'none';
  /** Seconds, as configured. */
  timeout: number;
  /** Header names (values are never shown). */
  headers: string[];
  serverInfo?: { name: string; version: string };
  connectedAt?: number;
}

export interface ServerTestInput {
  name?: string;
  url: string;
  headers?: Record<string, string>;
  /** Seconds (default 30). */
  timeout?: number;
}

export interface ServerTestResult {
  ok: boolean;
  message: string;
  transport?: TransportKind;
  toolCount?: number;
  tools?: string[];
  serverInfo?: { name: string; version: string };
  latencyMs: number;
}

export interface McpManagerOptions {
  clientInfo?: { name: string; version: string };
  /** `fetch` for the transports (tests). */
  fetch?: typeof fetch;
  /** Host permissions are checked before connecting when given (the worker passes chrome.permissions). */
  permissions?: PermissionsLike;
  cache?: ToolCache;
  logger?: Logger;
  /** Applied to every error text that leaves the manager (the worker's secret redactor). */
  redact?: (text: string) => string;
  /** A server's tool list changed outside `sync` (a slow connection finished): rebuild the registry. */
  onChange?: () => void;
  /** How long `sync` waits for connections (ms, default 5000); later ones arrive through onChange. */
  connectBudgetMs?: number;
  /** How long a liveness ping may take (ms, default 5000, capped by the server's timeout). */
  pingTimeoutMs?: number;
  now?: () => number;
}

interface Entry {
  readonly name: string;
  cfg: ServerConfig;
  spec?: ServerSpec;
  fp?: string;
  state: ServerState;
  error?: string;
  packError?: string;
  conn?: McpConnection;
  tools: McpToolInfo[];
  toolsKey: string;
  proxies: AnyTool[];
  toolsFrom: 'live' | 'cache' | 'none';
  transport?: TransportKind;
  connecting?: Promise<void>;
  /** Bumped on every (re)connect and disconnect: callbacks of an older connection are ignored. */
  gen: number;
  connectedAt?: number;
  checking?: boolean;
  instructions?: string;
  serverInfo?: { name: string; version: string };
}

const toolsKey = (tools: readonly McpToolInfo[]): string =>
  JSON.stringify(tools.map((t) => [t.name, t.description, t.inputSchema, t.annotations?.readOnlyHint, t.title]));

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? raceAbort(promise, signal) : promise;
}

export class McpManager {
  private readonly entries = new Map<string, Entry>();
  private readonly log: Logger;
  private readonly redact: (text: string) => string;
  private syncing = 0;
  private bookkeeping: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpManagerOptions = {}) {
    this.log = options.logger ?? sharedLog;
    this.redact = options.redact ?? ((t) => t);
  }

  /** The state of a configured server (undefined when unknown): the `ServerStatusSource` of ot.health. */
  state(name: string): ServerState | undefined {
    return this.entries.get(name)?.state;
  }

  /** Every configured server, sorted by name. */
  status(): ServerStatus[] {
    return [...this.entries.values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((e) => {
        const s: ServerStatus = {
          name: e.name,
          url: e.cfg.url,
          enabled: e.cfg.enabled,
          state: e.state,
          toolCount: e.tools.length,
          tools: e.tools.map((t) => t.name).sort(),
          toolsFrom: e.toolsFrom,
          timeout: e.cfg.timeout,
          headers: Object.keys(e.cfg.headers).sort(),
        };
        const error = e.error ?? e.packError;
        if (error) s.error = error;
        if (e.transport) s.transport = e.transport;
        if (e.serverInfo) s.serverInfo = e.serverInfo;
        if (e.connectedAt !== undefined && e.state === 'connected') s.connectedAt = e.connectedAt;
        return s;
      });
  }

  /**
   * Brings the connections in line with config `servers`. `force`: reconnect every enabled server (ot.reload), or
   * the named ones. Resolves when all connections settled or the budget ran out, whichever is first; never rejects.
   */
  async sync(
    servers: OttoConfig['servers'],
    getSecret: (name: string) => string | undefined,
    opts: { force?: boolean | readonly string[] } = {},
  ): Promise<void> {
    this.syncing++;
    // Bookkeeping is serialised (it awaits the tool cache): two syncs racing (config saved + storage.onChanged)
    // must not both start a connection for the same server. Waiting for the connections is not.
    const previous = this.bookkeeping;
    let release!: () => void;
    this.bookkeeping = new Promise<void>((r) => (release = r));
    await previous;
    try {
      const waits: Promise<void>[] = [];
      for (const [name, e] of this.entries) {
        if (name in servers) continue;
        this.disconnect(e);
        this.entries.delete(name);
      }
      for (const [name, cfg] of Object.entries(servers)) {
        let e = this.entries.get(name);
        const isNew = !e;
        if (!e) {
          e = { name, cfg, state: 'disconnected', tools: [], toolsKey: '[]', proxies: [], toolsFrom: 'none', gen: 0 };
          this.entries.set(name, e);
          await this.loadCache(e);
        }
        const urlChanged = e.cfg.url !== cfg.url;
        e.cfg = cfg;
        if (urlChanged && e.toolsFrom !== 'none') this.setTools(e, [], 'none', false);
        if (!cfg.enabled) {
          this.disconnect(e);
          e.state = 'disabled';
          delete e.error;
          continue;
        }
        let spec: ServerSpec;
        try {
          spec = serverSpec(name, cfg, getSecret);
        } catch (error) {
          this.disconnect(e);
          delete e.spec;
          delete e.fp;
          e.state = 'disconnected';
          e.error = this.redact(error instanceof Error ? error.message : String(error));
          continue;
        }
        const fp = fingerprint(spec);
        const force = opts.force === true || (Array.isArray(opts.force) && opts.force.includes(name));
        if (!isNew && !force && e.fp === fp && e.state !== 'disabled') {
          if (e.connecting) waits.push(e.connecting);
          continue;
        }
        e.spec = spec;
        e.fp = fp;
        waits.push(this.connect(e));
      }
      release();
      if (waits.length) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all(waits),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.connectBudgetMs ?? 5000))),
        ]);
        clearTimeout(timer);
      }
    } finally {
      release();
      this.syncing--;
    }
  }

  /** Registers a pack per server with known tools (built-in packs keep their names; a clash is reported). */
  registerPacks(registry: ToolRegistry): void {
    for (const e of [...this.entries.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      delete e.packError;
      if (e.state === 'disabled' || !e.proxies.length) continue;
      try {
        registry.registerPack(
          { name: e.name, source: `proxy:${e.name}`, ...(e.instructions ? { instructions: e.instructions } : {}) },
          e.proxies,
        );
      } catch (error) {
        e.packError = `its tools could not be registered: ${error instanceof Error ? error.message : String(error)}`;
        this.log.warn(`MCP server '${e.name}': ${e.packError}`);
      }
    }
  }

  /** Runs `tool` on `server` (through the proxy tool, so already validated by the interceptor). */
  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    ctx: Pick<ToolContext, 'signal'>,
  ): Promise<string> {
    const e = this.entries.get(server);
    const q = `${server}.${tool}`;
    if (!e) throw new Error(`MCP server '${server}' is not configured (config servers.${server})`);
    if (e.connecting) await abortable(e.connecting, ctx.signal);
    if (e.state === 'disabled')
      throw new Error(`MCP server '${server}' is disabled (config servers.${server}.enabled); enable it to use ${q}`);
    const conn = e.conn;
    if (e.state !== 'connected' || !conn) throw new Error(this.disconnectedMessage(e));
    const gen = e.gen;
    let result: Record<string, unknown>;
    try {
      result = await conn.callTool(tool, args, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (isProtocolError(error) && error.code === REQUEST_TIMEOUT_CODE)
        throw new Error(`${q} timed out after ${e.cfg.timeout} s (config servers.${server}.timeout)`, { cause: error });
      if (isProtocolError(error) && error.code !== -32000)
        throw new Error(this.redact(`${q} failed: ${describeError(error)}`), { cause: error });
      this.markLost(e, gen, `the connection failed during ${q}: ${describeError(error)}`);
      throw new Error(this.disconnectedMessage(e), { cause: error });
    }
    const text = formatCallResult(result);
    return text === EMPTY_RESPONSE ? text : wrapUntrusted(text);
  }

  /** A throw-away connection to `input` (headers may reference secrets): the settings page's "Test". */
  async test(input: ServerTestInput, getSecret: (name: string) => string | undefined): Promise<ServerTestResult> {
    const started = (this.options.now ?? Date.now)();
    const took = (): number => (this.options.now ?? Date.now)() - started;
    let conn: McpConnection | undefined;
    try {
      const spec = serverSpec(
        input.name ?? 'test',
        { url: input.url, headers: input.headers ?? {}, timeout: input.timeout ?? 30, enabled: true },
        getSecret,
      );
      await this.checkHostPermission(spec.url);
      conn = await connectServer(spec, this.connectOptions());
      const tools = await conn.listTools();
      const names = tools.map((t) => t.name).sort();
      const out: ServerTestResult = {
        ok: true,
        message: `Connected over ${conn.kind === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}: ${names.length} tool${names.length === 1 ? '' : 's'}`,
        transport: conn.kind,
        toolCount: names.length,
        tools: names,
        latencyMs: took(),
      };
      if (conn.serverInfo) out.serverInfo = conn.serverInfo;
      return out;
    } catch (error) {
      return { ok: false, message: this.redact(describeError(error)), latencyMs: took() };
    } finally {
      await conn?.close();
    }
  }

  /** Closes every connection (tests, shutdown). */
  async close(): Promise<void> {
    const conns = [...this.entries.values()].map((e) => e.conn).filter((c): c is McpConnection => !!c);
    for (const e of this.entries.values()) this.disconnect(e);
    await Promise.all(conns.map((c) => c.close()));
  }

  // ---- internals -----------------------------------------------------------------------------------------------

  private connectOptions(prefer?: TransportKind): Parameters<typeof connectServer>[1] {
    return {
      ...(prefer ? { prefer } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.clientInfo ? { clientInfo: this.options.clientInfo } : {}),
    };
  }

  private async checkHostPermission(url: string): Promise<void> {
    const pattern = originPattern(url);
    if (!this.options.permissions || !pattern) return;
    let granted: boolean;
    try {
      granted = await this.options.permissions.contains({ origins: [pattern] });
    } catch {
      granted = false;
    }
    if (!granted)
      throw new Error(
        `Otto has no host permission for ${pattern}. Allow Otto on that site (chrome://extensions → Otto → Details → Site access), then run ot.reload()`,
      );
  }

  private disconnectedMessage(e: Entry): string {
    return this.redact(
      `MCP server '${e.name}' is disconnected: ${e.error ?? 'not connected'}. Check that it is running at ${e.cfg.url}, then run ot.reload() to reconnect.`,
    );
  }

  private async loadCache(e: Entry): Promise<void> {
    if (!this.options.cache) return;
    try {
      const cached = await this.options.cache.load(e.name);
      if (!cached || cached.url !== e.cfg.url || !Array.isArray(cached.tools)) return;
      if (cached.transport) e.transport = cached.transport;
      this.setTools(e, cached.tools, 'cache', false);
    } catch {
      // No cache: the tools appear when the server connects.
    }
  }

  private setTools(e: Entry, tools: McpToolInfo[], from: Entry['toolsFrom'], notify: boolean): void {
    e.toolsFrom = from;
    const key = toolsKey(tools);
    if (key === e.toolsKey) return;
    const proxies: AnyTool[] = [];
    for (const info of tools) {
      try {
        proxies.push(proxyTool(e.name, info, (server, tool, args, ctx) => this.call(server, tool, args, ctx)));
      } catch (error) {
        this.log.warn(
          `MCP server '${e.name}': tool '${info.name}' skipped: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    e.tools = tools;
    e.toolsKey = key;
    e.proxies = proxies;
    if (notify && this.syncing === 0) this.options.onChange?.();
  }

  private connect(e: Entry): Promise<void> {
    this.disconnect(e);
    const gen = e.gen;
    const spec = e.spec!;
    e.state = 'connecting';
    delete e.error;
    const run = async (): Promise<void> => {
      await this.checkHostPermission(spec.url);
      const conn = await connectServer(spec, this.connectOptions(e.transport));
      if (gen !== e.gen) return void (await conn.close());
      let tools: McpToolInfo[];
      try {
        tools = await conn.listTools();
      } catch (error) {
        await conn.close();
        throw error;
      }
      if (gen !== e.gen) return void (await conn.close());
      e.conn = conn;
      e.transport = conn.kind;
      e.state = 'connected';
      e.connectedAt = (this.options.now ?? Date.now)();
      const instructions = conn.instructions;
      if (instructions) e.instructions = instructions;
      else delete e.instructions;
      const info = conn.serverInfo;
      if (info) e.serverInfo = info;
      conn.onTrouble = (error) => void this.checkAlive(e, gen, error);
      this.setTools(e, tools, 'live', true);
      this.log.info(`MCP server '${e.name}' connected over ${conn.kind} with ${tools.length} tools`, {
        server: e.name,
      });
      void this.options.cache
        ?.save(e.name, { url: spec.url, transport: conn.kind, tools, savedAt: (this.options.now ?? Date.now)() })
        .catch(() => undefined);
    };
    const p: Promise<void> = run()
      .catch((error: unknown) => {
        if (gen !== e.gen) return;
        e.state = 'disconnected';
        e.error = this.redact(`could not connect: ${describeError(error)}`);
        this.log.warn(`MCP server '${e.name}' ${e.error}`, { server: e.name });
      })
      .finally(() => {
        if (e.connecting === p) delete e.connecting;
      });
    e.connecting = p;
    return p;
  }

  /** The transport reported trouble: confirm with a ping before declaring the server gone. */
  private async checkAlive(e: Entry, gen: number, error: Error): Promise<void> {
    if (gen !== e.gen || e.state !== 'connected' || e.checking || !e.conn) return;
    e.checking = true;
    try {
      await e.conn.ping(Math.min(this.options.pingTimeoutMs ?? 5000, e.spec?.timeoutMs ?? 5000));
    } catch (pingError) {
      this.markLost(e, gen, `the connection was lost (${describeError(error)}; ping: ${describeError(pingError)})`);
    } finally {
      e.checking = false;
    }
  }

  private markLost(e: Entry, gen: number, reason: string): void {
    if (gen !== e.gen) return;
    this.disconnect(e);
    e.state = 'disconnected';
    e.error = this.redact(reason);
    this.log.warn(`MCP server '${e.name}' disconnected: ${e.error}`, { server: e.name });
  }

  /** Drops the connection (if any) and invalidates callbacks of the old one. Keeps the tools. */
  private disconnect(e: Entry): void {
    e.gen++;
    const conn = e.conn;
    delete e.conn;
    delete e.connecting;
    if (conn) void conn.close();
  }
}
