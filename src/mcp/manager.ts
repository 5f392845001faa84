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
import type { AnyTool, ToolContext } from '../tools/Tool.ts';
import { untrustedTag, wrapUntrusted } from '../shared/untrusted.ts';
import { planDeferral, toolBudget as sharedBudget, type ToolBudget } from '../tools/toolBudget.ts';
import { originPattern } from '../sdk/deps.ts';
import type { PermissionsLike } from '../sdk/sdkRuntime.ts';
import {
  connectServer,
  describeError,
  isProtocolError,
  REQUEST_TIMEOUT_CODE,
  type McpConnection,
  type McpToolInfo,
  type TransportKind,
} from './client.ts';
import { fingerprint, serverSpec, type ServerConfig, type ServerSpec } from './serverConfig.ts';
import { EMPTY_RESPONSE, formatCallResult, McpToolError } from './content.ts';
import { offerTools, type ToolView } from './toolOffer.ts';
import { CallFault } from './callGuard.ts';
import { CallLimiter } from './limiter.ts';
import { fingerprintTool, newPinRecord, review, type PinRecord, type ReviewState } from './pins.ts';
import { valueRedactor } from './valueRedactor.ts';
import { CAPS, clean } from './sanitize.ts';
import { searchTool, SEARCH_PACK } from './searchTool.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { originOf } from '../shared/origin.ts';

export type ServerState = 'connected' | 'connecting' | 'disconnected' | 'disabled';

export interface CachedTools {
  url: string;
  transport?: TransportKind;
  tools: McpToolInfo[];
  savedAt: number;
}

/**
 * Where the last tool list of each server is kept (IndexedDB in the worker), so a restarted worker knows them, and
 * the pins of what the user approved (pins.ts).
 */
export interface ToolCache {
  load(server: string): Promise<CachedTools | undefined>;
  save(server: string, value: CachedTools): Promise<void>;
  loadPins?(server: string): Promise<PinRecord | undefined>;
  savePins?(server: string, value: PinRecord | undefined): Promise<void>;
}

/** One tool of a server as the settings show it. */
export type { ToolView } from './toolOffer.ts';

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
  /** Every tool with its state, for the settings (review, reasons, the description as the model gets it). */
  toolViews: ToolView[];
  /** Tools waiting for the user's review (changed or new). */
  review: string[];
  /** What cleaning the server's text did, shown as a warning on its row. */
  warnings: string[];
  /** What its tool definitions cost per model request (characters of JSON, about a quarter as many tokens). */
  cost: { chars: number; tokens: number; deferred: boolean };
  /** Calls running and waiting for a free connection. */
  calls: { running: number; waiting: number };
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
  /** Every stored secret value: redacted from whatever a server returns, with the header values sent to it. */
  secrets?: () => Iterable<string>;
  /** A tool changed or appeared and is off until the user reviews it: tell the user, revoke what it was allowed. */
  onReview?: (server: string, tool: string, kind: 'changed' | 'new') => void;
  /** The request budget for tool definitions (default: the worker's). */
  budget?: ToolBudget;
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
  pins?: PinRecord;
  views: ToolView[];
  warnings: string[];
  costChars: number;
  /** The calls of this server's origin (servers on one host share the browser's connections). */
  limiter: CallLimiter;
  /** Bumped on every tool list applied: an older list finishing its fingerprints late is dropped. */
  listGen: number;
  relisting?: boolean;
  relistAgain?: boolean;
}

const toolsKey = (tools: readonly McpToolInfo[]): string =>
  JSON.stringify(tools.map((t) => [t.name, t.description, t.inputSchema, t.annotations?.readOnlyHint, t.title]));

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return signal ? raceAbort(promise, signal) : promise;
}

export class McpManager {
  private readonly entries = new Map<string, Entry>();
  private readonly limiters = new Map<string, CallLimiter>();
  private readonly log: Logger;
  private readonly redact: (text: string) => string;
  private readonly budget: ToolBudget;
  private syncing = 0;
  private bookkeeping: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpManagerOptions = {}) {
    this.log = options.logger ?? sharedLog;
    this.redact = options.redact ?? ((t) => t);
    this.budget = options.budget ?? sharedBudget;
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
          toolViews: e.views,
          review: e.views.filter((v) => v.state === 'changed' || v.state === 'new').map((v) => v.name),
          warnings: e.warnings,
          cost: {
            chars: e.costChars,
            tokens: Math.ceil(e.costChars / 4),
            deferred: this.budget.deferred.has(e.name),
          },
          calls: { running: e.limiter.active, waiting: e.limiter.waiting },
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
        // Removed: a server added again later is connected (and approved) anew.
        void this.options.cache?.savePins?.(name, undefined).catch(() => undefined);
      }
      for (const [name, cfg] of Object.entries(servers)) {
        let e = this.entries.get(name);
        const isNew = !e;
        if (!e) {
          e = {
            name,
            cfg,
            state: 'disconnected',
            tools: [],
            toolsKey: '',
            proxies: [],
            toolsFrom: 'none',
            gen: 0,
            views: [],
            warnings: [],
            costChars: 0,
            limiter: this.limiterFor(cfg.url),
            listGen: 0,
          };
          this.entries.set(name, e);
          await this.loadCache(e);
        }
        const urlChanged = e.cfg.url !== cfg.url;
        e.cfg = cfg;
        if (urlChanged) e.limiter = this.limiterFor(cfg.url);
        if (urlChanged && e.toolsFrom !== 'none') await this.setTools(e, [], 'none', false);
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
          e.error = this.redact(errorMessage(error));
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
    // What is already registered (Otto's own packs) is sent on every request; servers share the rest of the budget.
    const fixed = JSON.stringify(registry.definitions()).length;
    const registered: Entry[] = [];
    for (const e of [...this.entries.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      delete e.packError;
      if (e.state === 'disabled' || !e.proxies.length) continue;
      try {
        const instructions = this.packInstructions(e);
        registry.registerPack(
          { name: e.name, source: `proxy:${e.name}`, ...(instructions ? { instructions } : {}) },
          e.proxies,
        );
        registered.push(e);
      } catch (error) {
        e.packError = `its tools could not be registered: ${errorMessage(error)}`;
        this.log.warn(`MCP server '${e.name}': ${e.packError}`);
      }
    }
    const deferred = planDeferral(
      fixed,
      registered.map((e) => ({ name: e.name, chars: e.costChars })),
      this.budget.budgetChars,
    );
    this.budget.setDeferred(deferred);
    if (!deferred.size) return;
    const budget = this.budget;
    try {
      registry.registerPack({ name: SEARCH_PACK }, [
        searchTool({
          candidates: () =>
            registered
              .filter((e) => budget.deferred.has(e.name))
              .flatMap((e) => e.proxies.map((t) => ({ tool: t, qualified: `${e.name}.${t.name}` }))),
          load: (names) => budget.load(names),
        }),
      ]);
    } catch (error) {
      this.log.warn(`the tool search could not be registered: ${errorMessage(error)}`);
    }
  }

  /** A tool's state changes by the user (settings): on (the current version approved and pinned) or off. */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<void> {
    const e = this.entries.get(server);
    const info = e?.tools.find((t) => t.name === tool);
    if (!e || !info) throw new Error(`MCP server '${server}' has no tool '${tool}'`);
    const pins = e.pins ?? newPinRecord(e.cfg.url);
    const fp = await fingerprintTool(info).catch(() => `unhashable:${info.name}`);
    pins.tools[tool] = { fp, tool: info, at: this.now(), ...(enabled ? {} : { off: true }) };
    e.pins = pins;
    await this.options.cache?.savePins?.(server, pins).catch(() => undefined);
    e.toolsKey = '';
    await this.setTools(e, e.tools, e.toolsFrom, false);
    this.options.onChange?.();
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
    const view = e.views.find((v) => v.name === tool);
    if (view && view.state !== 'on') throw new Error(this.offMessage(e, view));
    const conn = e.conn;
    if (e.state !== 'connected' || !conn) throw new Error(this.disconnectedMessage(e));
    const gen = e.gen;
    const sent = this.serverRedactor(e);
    const limiter = e.limiter;
    const release = await limiter.acquire(
      q,
      e.spec?.timeoutMs ?? e.cfg.timeout * 1000,
      ctx.signal,
      () =>
        new Error(
          `${q} waited ${e.cfg.timeout} s for a free connection to MCP server '${server}' (${limiter.active} calls running, ${limiter.waiting} waiting) and was not sent`,
        ),
    );
    let result: Record<string, unknown>;
    try {
      result = await conn.callTool(tool, args, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw await this.callError(e, gen, q, error, sent);
    } finally {
      release();
    }
    let text: string;
    try {
      text = formatCallResult(result);
    } catch (error) {
      if (error instanceof McpToolError) throw new McpToolError(sent(error.message));
      throw error;
    }
    text = sent(text);
    return text === EMPTY_RESPONSE ? text : wrapUntrusted(text);
  }

  /** A failed call as the error the model and the user read (redacted), marking the server lost only when it is. */
  private async callError(
    e: Entry,
    gen: number,
    q: string,
    error: unknown,
    sent: (t: string) => string,
  ): Promise<Error> {
    const server = e.name;
    const plain = (why: string): Error =>
      new Error(sent(`MCP server '${server}' ${why} during ${q}; the call was ended and the server stays connected`), {
        cause: error,
      });
    if (error instanceof CallFault) return plain(error.message.replace(/^the server /, ''));
    if (isProtocolError(error) && error.code === REQUEST_TIMEOUT_CODE)
      return new Error(`${q} timed out after ${e.cfg.timeout} s (config servers.${server}.timeout)`, {
        cause: error,
      });
    if (isShapeError(error)) return plain(`answered with a result of the wrong shape (${shapeProblem(error)})`);
    if (error instanceof SyntaxError) return plain('sent invalid JSON');
    if (isProtocolError(error) && error.code !== -32000)
      return new Error(sent(`${q} failed: ${describeError(error)}`), { cause: error });
    // The connection broke: is the server still there?
    const conn = e.conn;
    if (conn && gen === e.gen) {
      try {
        await conn.ping(Math.min(this.options.pingTimeoutMs ?? 5000, e.spec?.timeoutMs ?? 5000));
        return plain(`dropped the connection (${describeError(error)})`);
      } catch {
        // Gone.
      }
    }
    this.markLost(e, gen, `the connection failed during ${q}: ${describeError(error)}`);
    return new Error(sent(this.disconnectedMessage(e)), { cause: error });
  }

  private offMessage(e: Entry, view: ToolView): string {
    const where = `Settings → MCP servers → ${e.name}`;
    switch (view.state) {
      case 'changed':
        return `${e.name}.${view.name} is off: the server changed it since you approved it. Review the change in ${where} and turn it on again to use it.`;
      case 'new':
        return `${e.name}.${view.name} is off: the server added it after you connected it. Turn it on in ${where} to use it.`;
      case 'invalid':
        return `${e.name}.${view.name} is off: ${view.reason ?? 'its definition cannot be used'}.`;
      default:
        return `${e.name}.${view.name} is turned off (${where}).`;
    }
  }

  /** Removes what Otto sent this server (header values, every secret) from what it returns, in all encodings. */
  private serverRedactor(e: Entry): (text: string) => string {
    const values = [...Object.values(e.spec?.headers ?? {}), ...(this.options.secrets?.() ?? [])];
    const own = valueRedactor(values);
    return (t) => this.redact(own(t));
  }

  private packInstructions(e: Entry): string | undefined {
    if (!e.instructions) return undefined;
    const c = clean(e.instructions, CAPS.instructions);
    const tag = untrustedTag(this.tagOf(e));
    return `Instructions from the MCP server '${e.name}' (the server's text, not Otto's or the user's):\n${wrapUntrusted(c.text, tag)}`;
  }

  private tagOf(e: Entry): string {
    e.pins ??= newPinRecord(e.cfg.url);
    return e.pins.tag;
  }

  private limiterFor(url: string): CallLimiter {
    const origin = originOf(url) ?? url;
    let l = this.limiters.get(origin);
    if (!l) this.limiters.set(origin, (l = new CallLimiter()));
    return l;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
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
      const pins = await this.options.cache.loadPins?.(e.name);
      if (pins && pins.url === e.cfg.url && pins.tools && typeof pins.tag === 'string') e.pins = pins;
    } catch {
      // No pins: the first list seen is pinned.
    }
    try {
      const cached = await this.options.cache.load(e.name);
      if (!cached || cached.url !== e.cfg.url || !Array.isArray(cached.tools)) return;
      if (cached.transport) e.transport = cached.transport;
      await this.setTools(e, cached.tools, 'cache', false);
    } catch {
      // No cache: the tools appear when the server connects.
    }
  }

  /**
   * A tool list (live, cached, or after list_changed) → what is offered. Each tool is compared with the pins: the
   * first list of a server is pinned as approved; later, a changed or new tool is off until the user reviews it
   * (announced through onReview), and a tool whose schema cannot be used is off with the reason.
   */
  private async setTools(e: Entry, tools: McpToolInfo[], from: Entry['toolsFrom'], notify: boolean): Promise<void> {
    e.toolsFrom = from;
    const listGen = ++e.listGen;
    const fps = new Map<string, string>();
    for (const t of tools) fps.set(t.name, await fingerprintTool(t).catch(() => `unhashable:${t.name}`));
    if (listGen !== e.listGen) return; // a newer list arrived meanwhile
    let pinsChanged = false;
    if (from !== 'none' && (!e.pins || e.pins.url !== e.cfg.url || !e.pins.since)) {
      // First sight of this server (even with no tools yet): what the user connected is what they approved.
      const pins = e.pins?.url === e.cfg.url ? e.pins : newPinRecord(e.cfg.url);
      pins.since = this.now();
      for (const t of tools) pins.tools[t.name] = { fp: fps.get(t.name)!, tool: t, at: this.now() };
      e.pins = pins;
      pinsChanged = true;
    }
    const pins = e.pins;
    const states = pins ? review(pins, fps) : new Map<string, ReviewState>();
    const key = `${toolsKey(tools)}|${JSON.stringify([...states])}`;
    if (pinsChanged) void this.options.cache?.savePins?.(e.name, pins).catch(() => undefined);
    if (key === e.toolsKey) return;
    const offer = offerTools({
      server: e.name,
      tools,
      states,
      pins,
      previous: new Map(e.views.map((v) => [v.name, v.state])),
      tagHex: this.tagOf(e),
      instructions: e.instructions,
      call: (server, tool, args, ctx) => this.call(server, tool, args, ctx),
      log: this.log,
      onReview: this.options.onReview,
    });
    e.tools = tools;
    e.toolsKey = key;
    e.proxies = offer.proxies;
    e.views = offer.views;
    e.warnings = offer.warnings;
    e.costChars = offer.costChars;
    if (notify && this.syncing === 0) this.options.onChange?.();
  }

  /** `notifications/tools/list_changed`: list again and compare (one re-list at a time; a burst is coalesced). */
  private async relist(e: Entry, gen: number): Promise<void> {
    if (e.relisting) {
      e.relistAgain = true;
      return;
    }
    e.relisting = true;
    try {
      do {
        e.relistAgain = false;
        const conn = e.conn;
        if (!conn || gen !== e.gen) return;
        const tools = await conn.listTools();
        if (gen !== e.gen) return;
        await this.setTools(e, tools, 'live', true);
        this.saveCache(e, tools);
      } while (e.relistAgain);
    } catch (error) {
      this.log.warn(`MCP server '${e.name}': listing its tools again failed: ${describeError(error)}`, {
        server: e.name,
      });
    } finally {
      e.relisting = false;
    }
  }

  private saveCache(e: Entry, tools: McpToolInfo[]): void {
    if (!e.spec) return;
    void this.options.cache
      ?.save(e.name, {
        url: e.spec.url,
        ...(e.transport ? { transport: e.transport } : {}),
        tools,
        savedAt: this.now(),
      })
      .catch(() => undefined);
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
      conn.onToolsChanged = () => void this.relist(e, gen);
      e.toolsKey = ''; // instructions may have changed: rebuild
      await this.setTools(e, tools, 'live', true);
      this.log.info(`MCP server '${e.name}' connected over ${conn.kind} with ${tools.length} tools`, {
        server: e.name,
      });
      this.saveCache(e, tools);
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

/** The SDK's result validation failed (a zod error: the result is not a CallToolResult). */
function isShapeError(error: unknown): error is { issues: { path?: unknown[]; message?: string }[] } {
  return !!error && typeof error === 'object' && Array.isArray((error as { issues?: unknown }).issues);
}

function shapeProblem(error: { issues: { path?: unknown[]; message?: string }[] }): string {
  const first = error.issues[0];
  if (!first) return 'not a tool result';
  const path = first.path?.length ? first.path.join('.') : 'the result';
  return `${path}: ${first.message ?? 'invalid'}`.slice(0, 200);
}
