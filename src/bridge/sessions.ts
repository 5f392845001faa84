/**
 * Otto's side of the MCP bridge (#29): the sessions of outside agents, each one a conversation of its own, titled
 * with the client's name, driven by its own runner whose "model" is the client (turns.ts).
 *
 * The connect page gives the worker the relay's port and token (`open`); the worker connects to the relay on
 * 127.0.0.1, learns who asks, and the user answers on the page (`answer`). A session the user allowed is kept in
 * `chrome.storage.session`, so a worker that stopped reconnects to the relay by itself when it starts again
 * (`restore`) without asking the user again; the relay holds the client's calls meanwhile. The relay's pings keep
 * the worker alive while a session is connected (Chrome 116+: WebSocket traffic counts as activity).
 */
import { z } from '../shared/zod.ts';
import {
  BridgeClient,
  RelayToExtension,
  relayUrl,
  type BridgeContent,
  type ExtensionToRelay,
} from '../shared/bridgeProtocol.ts';
import type { AgentRunner } from '../agent/runner.ts';
import type { AgentEvent } from '../agent/agentEvents.ts';
import { BridgeTurns, type BridgeOutput } from './turns.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export const BRIDGE_STORAGE_KEY = 'bridgeSessions';

const Persisted = z.object({
  token: z.string(),
  port: z.number().int(),
  client: BridgeClient,
  conversationId: z.string(),
  tabIds: z.array(z.number().int()),
});
type Persisted = z.infer<typeof Persisted>;

export interface BridgeSessionInfo {
  conversationId: string;
  client: BridgeClient;
  connected: boolean;
  calls: number;
}

export interface BridgeDeps {
  /** A runner for one session, wired like the panel's (same tools host, store, tab scope, sites) with `model`. */
  runner: (model: BridgeTurns) => AgentRunner;
  createConversation: (title: string) => Promise<{ id: string }>;
  /** The tab joins the session's tab group. */
  shareTab: (conversationId: string, tabId: number) => Promise<unknown>;
  setRunTab: (conversationId: string, tabId: number | undefined) => void;
  /** `dom__snapshot` → `dom.snapshot`, for what the panel shows. */
  qualify: (wireName: string) => string;
  /** Sessions changed: the panel re-reads `bridge.list`. */
  changed: () => void;
  storage?: chrome.storage.StorageArea;
  WebSocket?: typeof WebSocket;
  /** How long `open` waits for the relay's hello. */
  helloTimeoutMs?: number;
}

interface Live {
  rec: Persisted;
  ws: WebSocket | undefined;
  runner: AgentRunner;
  turns: BridgeTurns;
  queue: Promise<unknown>;
  calls: number;
}

interface Asking {
  ws: WebSocket;
  port: number;
  client: BridgeClient;
  allowed: boolean;
}

const TERMINAL = new Set(['idle', 'error', 'interrupted', 'completed']);

export function disconnectedMessage(client: string): string {
  return `The user disconnected ${client} from Otto in the browser (Disconnect in Otto's side panel). No browser tools run in this session any more; restart the MCP server to ask again.`;
}

export function secondSessionMessage(connected: string[]): string {
  return `Otto is already connected to ${connected.join(', ')}, and the user did not allow a second session. Disconnect it in Otto's side panel first, then call again after restarting this MCP server.`;
}

export class BridgeSessions {
  readonly #deps: BridgeDeps;
  readonly #live = new Map<string, Live>(); // by conversation id
  readonly #asking = new Map<string, Asking>(); // by token
  #restored: Promise<void> | undefined;

  constructor(deps: BridgeDeps) {
    this.#deps = deps;
  }

  get #storage(): chrome.storage.StorageArea {
    return this.#deps.storage ?? chrome.storage.session;
  }

  get #WS(): typeof WebSocket {
    return this.#deps.WebSocket ?? WebSocket;
  }

  async #load(): Promise<Persisted[]> {
    const raw = (await this.#storage.get(BRIDGE_STORAGE_KEY))[BRIDGE_STORAGE_KEY];
    const parsed = z.array(Persisted).safeParse(raw ?? []);
    return parsed.success ? parsed.data : [];
  }

  async #save(): Promise<void> {
    await this.#storage.set({ [BRIDGE_STORAGE_KEY]: [...this.#live.values()].map((l) => l.rec) });
  }

  /** The runner of a bridge conversation (the panel's approve/deny/stop go to it), else undefined. */
  runnerFor(conversationId: string): AgentRunner | undefined {
    return this.#live.get(conversationId)?.runner;
  }

  list(): BridgeSessionInfo[] {
    return [...this.#live.values()].map((l) => ({
      conversationId: l.rec.conversationId,
      client: l.rec.client,
      connected: !!l.ws && l.ws.readyState === l.ws.OPEN,
      calls: l.calls,
    }));
  }

  /** Worker start-up: reconnect every session the user allowed before the worker stopped. */
  restore(): Promise<void> {
    return (this.#restored ??= (async () => {
      for (const rec of await this.#load()) {
        if (this.#live.has(rec.conversationId)) continue;
        const live = this.#adopt(rec);
        this.#deps.setRunTab(rec.conversationId, rec.tabIds[0]);
        this.#connect(live);
      }
    })());
  }

  /**
   * The connect page opened: connect to the relay and learn who asks. `others` names the sessions already
   * connected (a second one needs the user's explicit yes).
   */
  async open(port: number, token: string): Promise<{ client: BridgeClient; allowed: boolean; others: string[] }> {
    await this.restore();
    const mine = [...this.#live.values()].find((l) => l.rec.token === token);
    if (mine) {
      if (!mine.ws || mine.ws.readyState > 1) this.#connect(mine);
      return { client: mine.rec.client, allowed: true, others: [] };
    }
    const old = this.#asking.get(token);
    if (old) old.ws.close();
    const ws = new this.#WS(relayUrl(port, token));
    const hello = await new Promise<{ client: BridgeClient; allowed: boolean }>((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error('The MCP server did not answer on 127.0.0.1. Is `npm run otto -- mcp` still running?'));
      }, this.#deps.helloTimeoutMs ?? 5000);
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error('Could not reach the MCP server on 127.0.0.1: it has stopped, or this page is stale.'));
      };
      ws.onmessage = (e) => {
        const msg = parseRelay(e.data);
        if (msg?.type === 'hello') {
          clearTimeout(timer);
          resolve(msg);
        }
      };
    });
    this.#asking.set(token, { ws, port, client: hello.client, allowed: false });
    ws.onclose = () => this.#asking.delete(token);
    const others = this.list()
      .filter((s) => s.connected)
      .map((s) => s.client.name);
    return { client: hello.client, allowed: false, others };
  }

  /** The user's answer on the connect page. Allowed: the session starts, with the chosen tabs in its group. */
  async answer(token: string, allow: boolean, tabIds: number[]): Promise<{ conversationId?: string }> {
    const asking = this.#asking.get(token);
    if (!asking) throw new Error('This connection request is no longer open (the MCP server stopped or it timed out).');
    this.#asking.delete(token);
    if (!allow) {
      const others = this.list()
        .filter((s) => s.connected)
        .map((s) => s.client.name);
      const message = others.length ? secondSessionMessage(others) : undefined;
      send(asking.ws, { type: 'answer', allowed: false, ...(message ? { message } : {}) });
      setTimeout(() => asking.ws.close(), 200);
      return {};
    }
    const { id } = await this.#deps.createConversation(asking.client.name);
    const rec: Persisted = { token, port: asking.port, client: asking.client, conversationId: id, tabIds };
    const live = this.#adopt(rec);
    for (const tabId of tabIds) await this.#deps.shareTab(id, tabId).catch(() => undefined);
    this.#deps.setRunTab(id, tabIds[0]);
    this.#attach(live, asking.ws);
    await this.#save();
    send(asking.ws, { type: 'answer', allowed: true });
    this.#deps.changed();
    return { conversationId: id };
  }

  /** Disconnect in the panel: the client's calls fail from now on with a message saying so. */
  async disconnect(conversationId: string): Promise<boolean> {
    const live = this.#live.get(conversationId);
    if (!live) return false;
    this.#live.delete(conversationId);
    live.turns.fail(disconnectedMessage(live.rec.client.name));
    if (live.ws) {
      send(live.ws, { type: 'disconnect', message: disconnectedMessage(live.rec.client.name) });
      const ws = live.ws;
      setTimeout(() => ws.close(1000, 'disconnected by the user'), 200);
    }
    await live.runner.stop(conversationId).catch(() => undefined);
    await this.#save();
    this.#deps.changed();
    return true;
  }

  #adopt(rec: Persisted): Live {
    const turns = new BridgeTurns(rec.client.name);
    const runner = this.#deps.runner(turns);
    const live: Live = { rec, ws: undefined, runner, turns, queue: Promise.resolve(), calls: 0 };
    // A run that ends without the call's output (stopped in the panel, failed) still answers the client.
    runner.subscribe((ev: AgentEvent) => {
      if (ev.type !== 'run.status' || ev.conversationId !== rec.conversationId || !TERMINAL.has(ev.status)) return;
      if (!turns.waiting) return;
      if (ev.stopReason === 'aborted') turns.fail("the user stopped this call in Otto's side panel.");
      else turns.fail(`Otto could not finish the call: ${ev.error?.message ?? ev.stopReason ?? ev.status}.`);
    });
    this.#live.set(rec.conversationId, live);
    return live;
  }

  #connect(live: Live): void {
    const ws = new this.#WS(relayUrl(live.rec.port, live.rec.token));
    this.#attach(live, ws);
    ws.onerror = () => undefined; // onclose follows
  }

  #attach(live: Live, ws: WebSocket): void {
    live.ws = ws;
    ws.onmessage = (e) => {
      const msg = parseRelay(e.data);
      if (!msg) return;
      if (msg.type === 'ping') send(ws, { type: 'pong', at: msg.at });
      else if (msg.type === 'hello' && msg.session && !msg.allowed) {
        // A relay that never heard the user's yes (it restarted): tell it the session stands.
        send(ws, { type: 'answer', allowed: true });
      } else if (msg.type === 'call') {
        live.queue = live.queue.then(() => this.#call(live, ws, msg.id, msg.name, msg.arguments));
      }
    };
    ws.onclose = () => {
      if (live.ws !== ws) return;
      live.ws = undefined;
      // The MCP server went away (the client quit): the session is over. A worker that stops closes the socket
      // without running this, and reconnects from storage when it starts again.
      if (this.#live.get(live.rec.conversationId) === live) {
        this.#live.delete(live.rec.conversationId);
        live.turns.fail('the MCP server closed the connection.');
        void this.#save();
        this.#deps.changed();
      }
    };
  }

  async #call(live: Live, ws: WebSocket, id: string, name: string, args: Record<string, unknown>): Promise<void> {
    live.calls++;
    const conversationId = live.rec.conversationId;
    // The output of the previous call reaches the client as soon as the loop hands it over, a moment before its run
    // has written its end: the next run starts after that.
    while (live.runner.isActive(conversationId)) await new Promise((r) => setTimeout(r, 1));
    const callId = `call_mcp_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const output = live.turns.expect({ callId, name, argumentsText: JSON.stringify(args) });
    // The user message names who called what — never the arguments, which are not the user's words.
    const text = `${live.rec.client.name} called ${this.#deps.qualify(name)}`;
    // The scope's "request" is the client's call, not the user's words: the card names the client (#42).
    live.runner.send(conversationId, text, { caller: live.rec.client.name }).catch((err: unknown) => {
      live.turns.fail(`Otto could not run the call: ${errorMessage(err)}`);
    });
    const result: BridgeOutput = await output;
    send(ws, { type: 'result', id, content: bounded(result.content), isError: result.isError });
  }
}

function parseRelay(data: unknown): RelayToExtension | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed = RelayToExtension.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function send(ws: WebSocket, msg: ExtensionToRelay): void {
  if (ws.readyState === 1) ws.send(JSON.stringify(msg));
}

function bounded(content: BridgeContent[]): BridgeContent[] {
  return content.slice(0, 100);
}
