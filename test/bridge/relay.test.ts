import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { INTERRUPTED, Relay, deniedMessage, timeoutMessage } from '../../src/cli/mcp/relay.ts';
import { unpackedExtensionId } from '../../src/cli/mcp/extensionId.ts';

const EXT = 'abcdefghijklmnopabcdefghijklmnop';
const relays: Relay[] = [];
const sockets: WebSocket[] = [];

async function relay(over: Partial<ConstructorParameters<typeof Relay>[0]> = {}) {
  const asked: string[] = [];
  const r = new Relay({
    extensionId: EXT,
    client: () => ({ name: 'Claude Code', version: '2.0' }),
    onConnectNeeded: (url, why) => asked.push(`${why} ${url}`),
    pingIntervalMs: 60_000,
    ...over,
  });
  await r.start();
  relays.push(r);
  return { r, asked };
}

/** Connects like a client with the given Origin; resolves 'open' or the refusal's status code. */
function connect(
  url: string,
  origin: string,
  reply?: (msg: Record<string, unknown>) => unknown,
): Promise<{ outcome: string; ws: WebSocket; first: Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(url, { headers: { origin } });
  sockets.push(ws);
  // Listening from the start, as the worker does: the first call can arrive right behind the hello.
  if (reply) extension(ws, reply);
  const first = new Promise<Record<string, unknown>>((resolve) =>
    ws.once('message', (d) => resolve(JSON.parse(String(d)))),
  );
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ outcome: 'open', ws, first }));
    ws.once('unexpected-response', (_req, res) => resolve({ outcome: String(res.statusCode), ws, first }));
    ws.once('error', () => resolve({ outcome: 'error', ws, first }));
  });
}

/** The worker's side: answers hello, then answers each call with `reply`. */
function extension(ws: WebSocket, reply: (msg: Record<string, unknown>) => unknown) {
  ws.on('message', (d) => {
    const msg = JSON.parse(String(d)) as Record<string, unknown>;
    const out = reply(msg);
    if (out) ws.send(JSON.stringify(out));
  });
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  for (const r of relays.splice(0)) await r.close();
});

describe('relay: only Otto, only on loopback', () => {
  it('refuses a page Origin, another extension, and a wrong path, even on the right port', async () => {
    const { r } = await relay();
    const base = `ws://127.0.0.1:${r.port}`;
    expect((await connect(`${base}/${r.token}`, 'http://127.0.0.1:8080')).outcome).toBe('403');
    expect((await connect(`${base}/${r.token}`, 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba')).outcome).toBe(
      '403',
    );
    expect((await connect(`${base}/${r.token.slice(1)}x`, `chrome-extension://${EXT}`)).outcome).toBe('403');
    expect((await connect(`${base}/`, `chrome-extension://${EXT}`)).outcome).toBe('403');
    expect(r.refused).toBe(4);
    const ok = await connect(`${base}/${r.token}`, `chrome-extension://${EXT}`);
    expect(ok.outcome).toBe('open');
    expect(await ok.first).toEqual({
      type: 'hello',
      client: { name: 'Claude Code', version: '2.0' },
      allowed: false,
      session: r.session,
    });
  });

  it('an Otto loaded under another id, with the right token, is refused with a hint naming the option to use', async () => {
    const hints: string[] = [];
    const { r } = await relay({ onRefused: (m) => hints.push(m) });
    const other = 'ponmlkjihgfedcbaponmlkjihgfedcba';
    expect((await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${other}`)).outcome).toBe('403');
    expect((await connect(`ws://127.0.0.1:${r.port}/nope`, `chrome-extension://${other}`)).outcome).toBe('403');
    expect(hints).toEqual([
      `Refused chrome-extension://${other}: this server expects Otto at chrome-extension://${EXT}. Start it with --extension-id ${other} if Otto is loaded from another folder.`,
    ]);
  });

  it('the token is long and random; the connect URL names the extension and carries port and token in the fragment', async () => {
    const { r } = await relay();
    const { r: other } = await relay();
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.token).not.toBe(other.token);
    expect(r.url).toBe(`chrome-extension://${EXT}/src/connect/index.html#port=${r.port}&token=${r.token}`);
  });
});

describe('relay: calls wait for the user', () => {
  it('the first call shows the connect page and waits; allowed, it runs and returns the result', async () => {
    const { r, asked } = await relay();
    const call = r.call('dom__snapshot', { ref: 'e1' });
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe(`connect ${r.url}`);
    const { ws } = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`);
    const seen: Record<string, unknown>[] = [];
    extension(ws, (m) => {
      seen.push(m);
      if (m.type === 'call')
        return { type: 'result', id: m.id, content: [{ type: 'text', text: 'page' }], isError: false };
      return undefined;
    });
    ws.send(JSON.stringify({ type: 'answer', allowed: true }));
    expect(await call).toEqual({ content: [{ type: 'text', text: 'page' }], isError: false });
    expect(seen.find((m) => m.type === 'call')).toMatchObject({ name: 'dom__snapshot', arguments: { ref: 'e1' } });
  });

  it('Deny ends the session: the waiting call and every later one say the user denied it', async () => {
    const { r } = await relay();
    const call = r.call('tabs__list', {});
    const { ws } = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`);
    ws.send(JSON.stringify({ type: 'answer', allowed: false }));
    const text = `Error: ${deniedMessage('Claude Code')}`;
    expect(await call).toEqual({ content: [{ type: 'text', text }], isError: true });
    expect(await r.call('tabs__list', {})).toEqual({ content: [{ type: 'text', text }], isError: true });
  });

  it('a second-session refusal carries the message naming the connected client', async () => {
    const { r } = await relay();
    const call = r.call('tabs__list', {});
    const { ws } = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`);
    ws.send(JSON.stringify({ type: 'answer', allowed: false, message: 'Otto is already connected to Cursor.' }));
    expect((await call).content[0]).toEqual({ type: 'text', text: 'Error: Otto is already connected to Cursor.' });
  });

  it('no answer in time: the call says so, and the next call asks again', async () => {
    const { r, asked } = await relay({ answerTimeoutMs: 200 });
    expect(await r.call('tabs__list', {})).toEqual({
      content: [{ type: 'text', text: `Error: ${timeoutMessage('Claude Code')}` }],
      isError: true,
    });
    expect(timeoutMessage('Claude Code')).toBe(
      "No answer on Otto's connect page within 5 minutes, so Claude Code was not connected to the browser. Call a tool again to ask again.",
    );
    void r.call('tabs__list', {});
    await expect.poll(() => asked.length).toBe(2);
  });

  it('Disconnect from the panel fails the call in flight and every later one with its message', async () => {
    const { r } = await relay();
    const { ws } = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`);
    ws.send(JSON.stringify({ type: 'answer', allowed: true }));
    await expect.poll(() => r.connected).toBe(true);
    const inFlight = r.call('dom__click', { ref: 'e1' });
    await new Promise((res) => setTimeout(res, 50));
    ws.send(JSON.stringify({ type: 'disconnect', message: 'The user disconnected Claude Code.' }));
    expect((await inFlight).content[0]).toEqual({ type: 'text', text: 'Error: The user disconnected Claude Code.' });
    expect((await r.call('tabs__list', {})).content[0]).toEqual({
      type: 'text',
      text: 'Error: The user disconnected Claude Code.',
    });
  });

  it('a worker that goes away mid-call: the call says its effect is unknown; the next waits for the reconnect, without asking again', async () => {
    const { r, asked } = await relay({ reconnectGraceMs: 100 });
    const first = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`);
    first.ws.send(JSON.stringify({ type: 'answer', allowed: true }));
    await expect.poll(() => r.connected).toBe(true);
    const inFlight = r.call('dom__click', { ref: 'e1' });
    await new Promise((res) => setTimeout(res, 50));
    first.ws.terminate();
    expect((await inFlight).content[0]).toEqual({ type: 'text', text: `Error: ${INTERRUPTED}` });
    const next = r.call('tabs__list', {});
    // Not reconnected within the grace: the connect page is shown again, to reconnect (it asks nothing).
    await expect.poll(() => asked.at(-1)).toBe(`reconnect ${r.url}`);
    const again = await connect(`ws://127.0.0.1:${r.port}/${r.token}`, `chrome-extension://${EXT}`, (m) =>
      m.type === 'call'
        ? { type: 'result', id: m.id, content: [{ type: 'text', text: 'tabs' }], isError: false }
        : undefined,
    );
    expect(await again.first).toMatchObject({ type: 'hello', allowed: true });
    expect(await next).toEqual({ content: [{ type: 'text', text: 'tabs' }], isError: false });
  });
});

describe('unpackedExtensionId', () => {
  it("is Chrome's id for an unpacked folder: sha256 of the path, 32 letters a–p", () => {
    const id = unpackedExtensionId('/work/otto/dist');
    expect(id).toMatch(/^[a-p]{32}$/);
    expect(unpackedExtensionId('/work/otto/dist/')).toBe(id);
    expect(unpackedExtensionId('/work/otto/dist2')).not.toBe(id);
  });
});
