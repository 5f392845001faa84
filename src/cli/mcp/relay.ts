/**
 * The relay (#29): a WebSocket server on 127.0.0.1 only, on a random port, at an unguessable path, that Otto's
 * service worker connects to. It refuses every connection whose path is not the token or whose Origin is not Otto's
 * extension, so a web page that finds the port gets nothing: the browser sets Origin on a page's WebSocket and the
 * page cannot forge it. Calls wait here for the user's answer on the connect page; the answer, a Disconnect in the
 * panel, or five minutes of silence become errors the outside agent can read.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import '../../shared/zod.ts';
import {
  ExtensionToRelay,
  connectUrl,
  type BridgeClient,
  type BridgeContent,
  type RelayToExtension,
} from '../../shared/bridgeProtocol.ts';

export interface CallResult {
  content: BridgeContent[];
  isError: boolean;
}

export interface RelayOptions {
  extensionId: string;
  /** The MCP client as it introduced itself (read at each connection). */
  client: () => BridgeClient;
  /** The connect page must be shown (first call, or the worker did not come back by itself). */
  onConnectNeeded: (url: string, why: 'connect' | 'reconnect') => void;
  /** How long a call waits for the user's answer (default five minutes). */
  answerTimeoutMs?: number;
  /** How long a call waits for a restarted worker before the connect page is shown again (default 5 s). */
  reconnectGraceMs?: number;
  pingIntervalMs?: number;
  /** A refusal worth telling the user about (Otto loaded under another id). */
  onRefused?: (message: string) => void;
}

type State = { kind: 'idle' } | { kind: 'asking' } | { kind: 'allowed' } | { kind: 'ended'; message: string };

const MINUTES = 60_000;

export class Relay {
  readonly token = randomBytes(24).toString('base64url');
  readonly session = randomBytes(8).toString('hex');
  #http: Server | undefined;
  #wss: WebSocketServer | undefined;
  #socket: WebSocket | undefined;
  #state: State = { kind: 'idle' };
  #port = 0;
  #seq = 0;
  readonly #pending = new Map<string, (r: CallResult) => void>();
  /** Woken on every state or socket change. */
  #waiters = new Set<() => void>();
  #ping: ReturnType<typeof setInterval> | undefined;
  /** Refused connection attempts (tests read it). */
  refused = 0;

  constructor(readonly opts: RelayOptions) {}

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return connectUrl(this.opts.extensionId, this.#port, this.token);
  }

  get connected(): boolean {
    return this.#state.kind === 'allowed' && !!this.#socket;
  }

  async start(): Promise<number> {
    const http = createServer((_req, res) => {
      res.writeHead(404).end();
    });
    const wss = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 * 1024 });
    http.on('upgrade', (req, socket, head) => {
      if (!this.#admits(req)) {
        this.refused++;
        const origin = req.headers.origin ?? '';
        // Another Otto build (loaded from another folder) with the right token: say how to fix it.
        if (/^chrome-extension:\/\/[a-p]{32}$/.test(origin) && this.#pathOk(req))
          this.opts.onRefused?.(
            `Refused ${origin}: this server expects Otto at chrome-extension://${this.opts.extensionId}. Start it with --extension-id ${origin.slice(19)} if Otto is loaded from another folder.`,
          );
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.#adopt(ws));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
    this.#http = http;
    this.#wss = wss;
    this.#port = (http.address() as AddressInfo).port;
    this.#ping = setInterval(() => this.#send({ type: 'ping', at: Date.now() }), this.opts.pingIntervalMs ?? 15_000);
    this.#ping.unref?.();
    return this.#port;
  }

  /** The path must be the token and the Origin Otto's extension page or worker. */
  #admits(req: IncomingMessage): boolean {
    return this.#pathOk(req) && req.headers.origin === `chrome-extension://${this.opts.extensionId}`;
  }

  #pathOk(req: IncomingMessage): boolean {
    const path = Buffer.from((req.url ?? '').split('?')[0] ?? '');
    const want = Buffer.from(`/${this.token}`);
    return path.length === want.length && timingSafeEqual(path, want);
  }

  #adopt(ws: WebSocket): void {
    const old = this.#socket;
    this.#socket = ws;
    if (old && old !== ws) old.close(1000, 'replaced');
    ws.on('message', (data) => this.#receive(String(data)));
    ws.on('close', () => {
      if (this.#socket !== ws) return;
      this.#socket = undefined;
      // Calls in flight died with the worker: whether an action took effect is unknown, so say so.
      for (const [id, resolve] of this.#pending) {
        this.#pending.delete(id);
        resolve(errorResult(INTERRUPTED));
      }
      this.#wake();
    });
    this.#send({
      type: 'hello',
      client: this.opts.client(),
      allowed: this.#state.kind === 'allowed',
      session: this.session,
    });
    this.#wake();
  }

  #receive(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = ExtensionToRelay.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data;
    switch (msg.type) {
      case 'answer':
        if (this.#state.kind === 'allowed' && msg.allowed) break;
        this.#state = msg.allowed
          ? { kind: 'allowed' }
          : { kind: 'ended', message: msg.message ?? deniedMessage(this.opts.client().name) };
        this.#wake();
        break;
      case 'result':
        this.#pending.get(msg.id)?.({ content: msg.content, isError: msg.isError });
        this.#pending.delete(msg.id);
        break;
      case 'disconnect':
        this.#state = { kind: 'ended', message: msg.message };
        for (const [id, resolve] of this.#pending) {
          this.#pending.delete(id);
          resolve(errorResult(msg.message));
        }
        this.#wake();
        break;
      case 'pong':
        break;
    }
  }

  #send(msg: RelayToExtension): boolean {
    const ws = this.#socket;
    if (!ws || ws.readyState !== ws.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const w of waiters) w();
  }

  /** Resolves at the next state or socket change, or after `ms`. */
  #changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#waiters.delete(done);
        resolve();
      }, ms);
      const done = () => {
        clearTimeout(t);
        resolve();
      };
      this.#waiters.add(done);
    });
  }

  /** Waits until the user allowed and the worker is connected; an error text when that will not happen. */
  async #ready(): Promise<string | undefined> {
    const deadline = Date.now() + (this.opts.answerTimeoutMs ?? 5 * MINUTES);
    let shownReconnect = false;
    const grace = this.opts.reconnectGraceMs ?? 5000;
    const waitStart = Date.now();
    for (;;) {
      const s = this.#state;
      if (s.kind === 'ended') return s.message;
      if (s.kind === 'allowed' && this.#socket) return undefined;
      if (s.kind === 'idle') {
        this.#state = { kind: 'asking' };
        this.opts.onConnectNeeded(this.url, 'connect');
      }
      // Allowed, but the worker went away (restarted): it reconnects by itself; if not soon, the connect page
      // brings it back (without asking again: the session is already allowed).
      if (s.kind === 'allowed' && !shownReconnect && Date.now() - waitStart > grace) {
        shownReconnect = true;
        this.opts.onConnectNeeded(this.url, 'reconnect');
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        if (this.#state.kind === 'asking') this.#state = { kind: 'idle' }; // the next call asks again
        return timeoutMessage(this.opts.client().name);
      }
      await this.#changed(Math.min(left, s.kind === 'allowed' && !shownReconnect ? grace : left));
    }
  }

  /** One tool call through the browser: waits for the connection, then for the result. */
  async call(name: string, args: Record<string, unknown>): Promise<CallResult> {
    const problem = await this.#ready();
    if (problem) return errorResult(problem);
    const id = `c${++this.#seq}`;
    const result = new Promise<CallResult>((resolve) => this.#pending.set(id, resolve));
    if (!this.#send({ type: 'call', id, name, arguments: args })) {
      this.#pending.delete(id);
      return errorResult(INTERRUPTED);
    }
    return result;
  }

  async close(): Promise<void> {
    if (this.#ping) clearInterval(this.#ping);
    for (const [id, resolve] of this.#pending) {
      this.#pending.delete(id);
      resolve(errorResult('The Otto MCP server is shutting down.'));
    }
    this.#socket?.close(1001, 'server closing');
    this.#wss?.close();
    const http = this.#http;
    if (http) {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    }
  }
}

export const INTERRUPTED =
  "Otto's browser connection was interrupted during this call (the extension's worker restarted or the browser " +
  'closed); whether it took effect is unknown. Check the page before trying again.';

export function deniedMessage(client: string): string {
  return `The user denied ${client}'s request to use Otto in the browser. No browser tools can run in this session; restart the MCP server to ask again.`;
}

export function timeoutMessage(client: string): string {
  return `No answer on Otto's connect page within 5 minutes, so ${client} was not connected to the browser. Call a tool again to ask again.`;
}

export function errorResult(text: string): CallResult {
  return { content: [{ type: 'text', text: `Error: ${text}` }], isError: true };
}
