/**
 * The panel's long-lived port. Each request is validated (zod, `PanelRequest`), dispatched to its handler, and
 * answered with a `result` carrying the request's id. Ports from anything but our own extension pages are
 * disconnected at once. A handler is typed to produce the reply `PanelReplies` (port/panelReplies.ts) names for its
 * request, which is what `PortClient.request` promises the page.
 */
import {
  PANEL_PORT,
  PanelRequest,
  parseMessage,
  type PanelReply,
  type PanelRequestType,
  type Req,
  type WorkerToPanel,
} from '../shared/messages.ts';
import type { Reply } from '../port/panelReplies.ts';
import { isExtensionPage } from '../shared/origin.ts';
import { reject, traffic } from './traffic.ts';
import { textTooLong } from '../shared/limits.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export type Handler<K extends PanelRequestType> = (req: Req<K>, port: PortLike) => Promise<Reply<K>> | Reply<K>;
export type Handlers = { [K in PanelRequestType]: Handler<K> };

export interface PortLike {
  name: string;
  sender?: chrome.runtime.MessageSender;
  postMessage(msg: unknown): void;
  disconnect(): void;
  onMessage: { addListener(cb: (msg: unknown) => void): void };
  onDisconnect: { addListener(cb: () => void): void };
}

/**
 * `ready` delays request handling until start-up work is done (marking interrupted runs), so the panel never sees a
 * run as 'running' that died with the previous worker.
 */
export function acceptPanelPort(
  port: PortLike,
  selfId: string,
  handlers: Handlers,
  hello: WorkerToPanel,
  ready: Promise<unknown> = Promise.resolve(),
): boolean {
  if (port.name !== PANEL_PORT || !isExtensionPage(port.sender, selfId)) {
    reject('port', `refused port '${port.name}' from ${port.sender?.url ?? port.sender?.origin ?? 'unknown sender'}`);
    port.disconnect();
    return false;
  }
  port.postMessage(hello);
  port.onMessage.addListener((raw) => void ready.then(() => dispatch(port, raw, handlers)));
  return true;
}

async function dispatch(port: PortLike, raw: unknown, handlers: Handlers): Promise<void> {
  const parsed = parseMessage(PanelRequest, raw);
  if (!parsed.ok) {
    reject('port', parsed.error);
    const id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
    // A request over a size limit is something a user did (pasted too much): say it in their terms.
    if (id) safePost(port, { type: 'result', id, ok: false, error: sizeRefusal(raw) ?? parsed.error });
    return;
  }
  traffic.port.accepted++;
  const req = parsed.value;
  let reply: PanelReply;
  try {
    const handler = handlers[req.type] as Handler<typeof req.type>;
    reply = { type: 'result', id: req.id, ok: true, data: await handler(req as never, port) };
  } catch (err) {
    reply = { type: 'result', id: req.id, ok: false, error: errorMessage(err) };
  }
  safePost(port, reply);
}

/** For a request whose only fault is a text over its limit: the limit in words; otherwise undefined. */
function sizeRefusal(raw: unknown): string | undefined {
  const r = PanelRequest.safeParse(raw);
  if (r.success || r.error.issues.length !== 1) return undefined;
  const issue = r.error.issues[0]!;
  if (issue.code !== 'too_big' || issue.origin !== 'string') return undefined;
  let value: unknown = raw;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return typeof value === 'string' ? textTooLong(value.length, Number(issue.maximum)) : undefined;
}

function safePost(port: PortLike, msg: WorkerToPanel): void {
  try {
    port.postMessage(msg);
  } catch {
    // The panel closed meanwhile; nothing to deliver to.
  }
}
