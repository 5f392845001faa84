/**
 * The panel port typed end to end (#15 step 3): a page's `request()` returns the reply `PanelReplies` names for its
 * request type, and a worker handler must produce that reply. The `@ts-expect-error` lines are the failing side:
 * `tsc --noEmit` reports any of them that stops being an error. The round trip runs a real `PortClient` against the
 * worker's `acceptPanelPort` over a pair of in-memory ports, so the worker still validates with zod at the boundary.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { acceptPanelPort, type Handler, type Handlers, type PortLike } from '../../src/background/panelPort.ts';
import { PortClient } from '../../src/port/portClient.ts';
import type { RequestBody } from '../../src/shared/messages.ts';
import type { Reply } from '../../src/port/panelReplies.ts';
import type { CommandRunReply, ServersReply } from '../../src/port/replies.ts';

/** A connected pair: what one side posts, the other side's listeners receive (asynchronously, as in Chrome). */
function portPair(): { page: chrome.runtime.Port; worker: PortLike } {
  const toPage: ((m: unknown) => void)[] = [];
  const toWorker: ((m: unknown) => void)[] = [];
  const deliver = (to: ((m: unknown) => void)[], m: unknown) =>
    queueMicrotask(() => to.forEach((cb) => cb(JSON.parse(JSON.stringify(m)))));
  const worker: PortLike = {
    name: 'otto-panel',
    sender: { id: 'self', url: 'chrome-extension://self/src/sidepanel/index.html' },
    postMessage: (m) => deliver(toPage, m),
    disconnect: () => undefined,
    onMessage: { addListener: (cb) => void toWorker.push(cb) },
    onDisconnect: { addListener: () => undefined },
  };
  const page = {
    name: 'otto-panel',
    postMessage: (m: unknown) => deliver(toWorker, m),
    onMessage: { addListener: (cb: (m: unknown) => void) => void toPage.push(cb) },
    onDisconnect: { addListener: () => undefined },
  } as unknown as chrome.runtime.Port;
  return { page, worker };
}

function connect(handlers: Partial<Handlers>): PortClient {
  const { page, worker } = portPair();
  vi.stubGlobal('chrome', { runtime: { connect: () => page } });
  acceptPanelPort(worker, 'self', handlers as Handlers, { type: 'hello', version: '0', startedAt: 0 });
  return new PortClient();
}

afterEach(() => vi.unstubAllGlobals());

describe('panel port: one reply type per request', () => {
  it('request() resolves with the handler’s reply, typed by the request type', async () => {
    const client = connect({
      'command.cancel': (req) => ({ cancelled: req.runId === 'r1' }),
      'servers.list': () => ({ servers: [] }),
    });
    const cancelled = client.request({ type: 'command.cancel', runId: 'r1' });
    expectTypeOf(cancelled).toEqualTypeOf<Promise<{ cancelled: boolean }>>();
    expect(await cancelled).toEqual({ cancelled: true });
    const servers = client.request({ type: 'servers.list' });
    expectTypeOf(servers).toEqualTypeOf<Promise<ServersReply>>();
    expect(await servers).toEqual({ servers: [] });
  });

  it('the worker still validates with zod: a malformed request is refused before any handler runs', async () => {
    let ran = 0;
    const client = connect({ 'command.cancel': () => (ran++, { cancelled: false }) });
    const bad = { type: 'command.cancel', runId: '' } as RequestBody<'command.cancel'>;
    await expect(client.request(bad)).rejects.toThrow(/^invalid message at runId: /);
    expect(ran).toBe(0);
  });

  it('types: request bodies, replies and handlers are checked against PanelReplies', () => {
    expectTypeOf<Reply<'command.run'>>().toEqualTypeOf<CommandRunReply>();
    expectTypeOf<Reply<'help.page'>>().toEqualTypeOf<{ title: string; html: string } | null>();
    // A field with a zod default may be left out by the page (`scope` defaults to 'once')...
    expectTypeOf<{ type: 'chat.approve'; conversationId: 'c'; callId: 'x' }>().toMatchTypeOf<
      RequestBody<'chat.approve'>
    >();
    // ...and the handler receives it filled in.
    expectTypeOf<Parameters<Handler<'chat.approve'>>[0]['scope']>().toEqualTypeOf<'once' | 'site' | 'task'>();

    const client = {} as PortClient;
    const never = () => {
      // @ts-expect-error — no such request type
      void client.request({ type: 'format.disk' });
      // @ts-expect-error — command.run needs its text
      void client.request({ type: 'command.run' });
      // @ts-expect-error — a field the request does not have
      void client.request({ type: 'ping', extra: 1 });
    };
    void never;

    // @ts-expect-error — command.cancel answers {cancelled: boolean}, not a string
    const wrongReply: Handler<'command.cancel'> = () => 'cancelled';
    // @ts-expect-error — help.tool answers a detail or null, never undefined
    const missingNull: Handler<'help.tool'> = async () => undefined;
    void wrongReply;
    void missingNull;
  });
});
