/**
 * The extension pages' side of the panel port: `request()` sends a typed request and resolves with its reply — the
 * type `PanelReplies` (panelReplies.ts) names for that request. Reconnects when the worker restarts (the port disconnects
 * when the worker dies).
 */
import {
  PANEL_PORT,
  WorkerToPanel,
  parseMessage,
  type PanelRequestType,
  type RequestBody,
  type WorkerEvent,
} from '../shared/messages.ts';
import type { Reply } from './panelReplies.ts';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
export type { RequestBody };

export class PortClient {
  private port: chrome.runtime.Port | undefined;
  private pending = new Map<string, Pending>();
  private seq = 0;
  private listeners = new Set<(e: WorkerEvent) => void>();

  onEvent(cb: (e: WorkerEvent) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  request<K extends PanelRequestType>(body: RequestBody<K>): Promise<Reply<K>> {
    const id = `r${++this.seq}-${Date.now().toString(36)}`;
    const port = this.connect();
    return new Promise<Reply<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      port.postMessage({ ...body, id });
    });
  }

  private connect(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: PANEL_PORT });
    port.onMessage.addListener((raw: unknown) => this.receive(raw));
    port.onDisconnect.addListener(() => {
      this.port = undefined;
      for (const p of this.pending.values()) p.reject(new Error('Otto restarted its background worker; please retry.'));
      this.pending.clear();
    });
    this.port = port;
    return port;
  }

  private receive(raw: unknown): void {
    const parsed = parseMessage(WorkerToPanel, raw);
    if (!parsed.ok) return;
    const msg = parsed.value;
    if (msg.type === 'result') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.data);
      else p.reject(new Error(msg.error));
      return;
    }
    for (const cb of this.listeners) cb(msg);
  }
}
