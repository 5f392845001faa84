/**
 * #19/#14, the registration window. While a watched tab loads during a run, Otto registers its page-start script
 * (console/request capture and the listener registry) for that URL's path, so the page is captured from its first
 * script. Chrome registers by URL, not by tab: another tab loading the same path in that window gets the script too.
 * There the script wraps nothing: only the watched tab's responses carry the mark it looks for (page/pageStartMark.ts).
 * A page that fakes the mark is taken back out as soon as it commits (content/pageStartDisarm.ts): the page's own
 * functions are back and nothing it logged reaches the worker. The watched tab keeps its capture from the start.
 *
 * The watched tab's page is held back by the server for a few seconds, so the window is wide open when the
 * bystander loads the very same path. The window is stored (page/registrationWindows.ts): a worker stopped inside it
 * comes back, still disarms the bystander, and removes the registration it left.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Worker } from '@playwright/test';
import { test, expect, stopServiceWorker } from './support/fixtures.ts';
import { connectToFakeApi, send, waitForStatus } from './support/agent.ts';
import { tabIdFor } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

const HOLD_MS = 4_000;

/**
 * `/win/page.html?slow` is answered after HOLD_MS, `?slow-long` after a minute, `?held` once `release()` is
 * called and with Otto's mark faked (`Server-Timing: otto-page-start`); every other page at once. Records the paths asked for. Each page's first script notes whether Otto's
 * console wrapper was there when it ran (`firstSawOtto`): the proof that the page-start script did reach it.
 */
async function startSite(): Promise<{ origin: string; hits: string[]; release(): void; close(): Promise<void> }> {
  const hits: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const page = (who: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${who}</title>
<script>window.firstSawOtto = !Function.prototype.toString.call(console.log).includes('[native code]');
console.log(${JSON.stringify(`${who}: first script`)});</script></head>
<body><h1>${who}</h1><button id="b">Press</button>
<script>document.getElementById('b').addEventListener('click', () => console.log('pressed'));</script></body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(`${url.pathname}${url.search}`);
    const send = () =>
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          ...(url.search === '?held' ? { 'server-timing': 'otto-page-start' } : {}),
        })
        .end(
          page(
            url.search.startsWith('?slow') ? 'watched page' : url.pathname === '/win/page.html' ? 'bystander' : 'start',
          ),
        );
    if (url.search === '?slow') setTimeout(send, HOLD_MS);
    else if (url.search === '?slow-long') setTimeout(send, 60_000);
    else if (url.search === '?held') void held.then(send);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What of Otto is in the page's world: its slots, and whether the page's functions are its own natives. */
function hooks(page: Page) {
  return page.evaluate(() => {
    const native = (f: unknown) => Function.prototype.toString.call(f).includes('[native code]');
    return {
      captureSlot: Symbol.for('otto.devlog') in window,
      registrySlot: Symbol.for('otto.listeners') in window,
      consoleLog: native(console.log),
      fetch: native(window.fetch),
      xhrOpen: native(XMLHttpRequest.prototype.open),
      addEventListener: native(EventTarget.prototype.addEventListener),
      onclick: native(Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick')!.set),
    };
  });
}
const CLEAN = {
  captureSlot: false,
  registrySlot: false,
  consoleLog: true,
  fetch: true,
  xhrOpen: true,
  addEventListener: true,
  onclick: true,
};

/** Runs a tool as the agent would (outside a run) and returns its text. */
function tool(sw: Worker, name: string, args: Record<string, unknown>): Promise<string> {
  return sw.evaluate(
    async ([n, a]) => {
      const g = globalThis as unknown as {
        otto: {
          registry: () => {
            get(q: string): {
              parameters: { parse(x: unknown): unknown };
              execute(x: unknown, ctx: unknown): Promise<unknown>;
            };
          };
        };
      };
      const t = g.otto.registry().get(n);
      try {
        return String(await t.execute(t.parameters.parse(a), { signal: new AbortController().signal }));
      } catch (e) {
        return `Error: ${(e as Error).message}`;
      }
    },
    [name, args] as const,
  );
}

test('a tab loading the same path while a watched tab loads keeps none of Otto (natives back, nothing captured reaches the worker); the watched tab is captured from its first script', async ({
  context,
  panel,
  fakeApi,
  serviceWorker: sw,
}) => {
  test.setTimeout(90_000);
  const site = await startSite();
  await connectToFakeApi(panel, fakeApi);
  const watched = await context.newPage();
  const bystander = await context.newPage();
  try {
    await watched.goto(`${site.origin}/win/start.html`);
    const tabId = await tabIdFor(panel, watched.url());
    const slow = `${site.origin}/win/page.html?slow`;
    fakeApi.script([
      // Working on the tab makes it watched; its next load during the run gets the page-start script.
      { match: 'open the page', calls: [{ name: 'dom__snapshot', arguments: {} }] },
      { calls: [{ name: 'tabs__navigate', arguments: { url: slow } }] },
      { text: 'Opened.' },
    ]);
    const id = await send(panel, 'open the page', { tabId });
    // The watched tab is waiting for its page: the registration is live. The bystander loads the same path now.
    await expect.poll(() => site.hits.includes('/win/page.html?slow'), { timeout: 30_000 }).toBe(true);
    await bystander.goto(`${site.origin}/win/page.html?other`);
    expect(site.hits.filter((h) => h.startsWith('/win/page.html'))).toEqual([
      '/win/page.html?slow',
      '/win/page.html?other',
    ]);
    // The watched tab's page has not arrived yet: the bystander loaded inside the window.
    expect(watched.url()).toBe(`${site.origin}/win/start.html`);
    // The script reached the bystander (same path) but wrapped nothing: its first script saw the natives.
    expect(await bystander.evaluate(() => (window as unknown as { firstSawOtto: boolean }).firstSawOtto)).toBe(false);
    await expect.poll(() => hooks(bystander), { timeout: 10_000 }).toEqual(CLEAN);
    await bystander.locator('#b').click(); // the page's own listener, through its native addEventListener
    await waitForStatus(panel, id, 'completed', 60_000);
    expect(watched.url()).toBe(slow);
    expect(await watched.evaluate(() => (window as unknown as { firstSawOtto: boolean }).firstSawOtto)).toBe(true);

    // The watched tab: captured from its first script (the registered script came before it).
    const watchedLog = await tool(sw, 'dom.console', { tab_id: tabId });
    expect(watchedLog).toMatch(
      /^Console of the page named below: 1 message \(0 errors or uncaught\)\. Captured since the page started/,
    );
    expect(watchedLog).toMatch(/>\npage: http:\/\/127\.0\.0\.1:\d+\/win\/page\.html\?slow\n/);
    expect(watchedLog).toContain('watched page: first script');
    // The bystander: nothing it logged was kept. Asking now installs a capture late, which says so.
    const bystanderTab = await tabIdFor(panel, bystander.url());
    const bystanderLog = await tool(sw, 'dom.console', { tab_id: bystanderTab });
    expect(bystanderLog).toMatch(
      /^Console of the page named below: 0 messages \(0 errors or uncaught\)\. Capture began late/,
    );
    expect(bystanderLog).toMatch(/>\npage: http:\/\/127\.0\.0\.1:\d+\/win\/page\.html\?other\n/);
    expect(bystanderLog).not.toContain('bystander: first script');
    expect(bystanderLog).not.toContain('pressed');
  } finally {
    await watched.close();
    await bystander.close();
    await site.close();
  }
});

test('a worker stopped inside the window comes back still knowing it: a bystander that fakes the mark and committed meanwhile is disarmed, and the registration left behind is removed', async ({
  context,
  panel,
  fakeApi,
}) => {
  test.setTimeout(90_000);
  const site = await startSite();
  await connectToFakeApi(panel, fakeApi);
  const watched = await context.newPage();
  const bystander = await context.newPage();
  const registered = () =>
    panel.evaluate(async () =>
      (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id).filter((x) => x.startsWith('otto-dev')),
    );
  try {
    await watched.goto(`${site.origin}/win/start.html`);
    const tabId = await tabIdFor(panel, watched.url());
    fakeApi.script([
      { match: 'open the page', calls: [{ name: 'dom__snapshot', arguments: {} }] },
      { calls: [{ name: 'tabs__navigate', arguments: { url: `${site.origin}/win/page.html?slow-long` } }] },
      { text: 'Opened.' },
    ]);
    await send(panel, 'open the page', { tabId });
    await expect.poll(() => site.hits.includes('/win/page.html?slow-long'), { timeout: 30_000 }).toBe(true);
    await expect.poll(registered, { timeout: 10_000 }).toEqual([`otto-devcapture-${tabId}`]);
    // The bystander asks for the same path; the server holds its answer while the worker is stopped, so it commits
    // (with the registered script) after the stop, and its commit is the event that starts a fresh worker. Its
    // response fakes the mark, so the script arms there and only the worker's disarm can take it out.
    const loading = bystander.goto(`${site.origin}/win/page.html?held`);
    await expect.poll(() => site.hits.includes('/win/page.html?held'), { timeout: 10_000 }).toBe(true);
    await stopServiceWorker(context, panel);
    site.release();
    await loading;
    expect(await bystander.evaluate(() => (window as unknown as { firstSawOtto: boolean }).firstSawOtto)).toBe(true);
    await expect.poll(() => hooks(bystander), { timeout: 10_000 }).toEqual(CLEAN);
    // The fresh worker removed the registration the stopped one left (the watched page has still not arrived).
    await expect.poll(registered, { timeout: 10_000 }).toEqual([]);
    expect(watched.url()).toBe(`${site.origin}/win/start.html`);
  } finally {
    await watched.close();
    await bystander.close();
    await site.close();
  }
});
