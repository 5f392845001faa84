/** Issue 2's first e2e tests: the built extension in real Chromium. */
import { test, expect, panelRequest, currentServiceWorker, stopServiceWorker } from './support/fixtures.ts';
import { call } from './page-tools.helpers.ts';

type Traffic = Record<'port' | 'runtime', { accepted: number; rejected: number }>;
const readTraffic = (sw: import('@playwright/test').Worker) =>
  sw.evaluate(
    () => JSON.parse(JSON.stringify((globalThis as unknown as { otto: { traffic: Traffic } }).otto.traffic)) as Traffic,
  );

test('the service worker starts and answers', async ({ serviceWorker }) => {
  const info = await serviceWorker.evaluate(() => {
    const o = (globalThis as unknown as { otto: { version: string; startedAt: number } }).otto;
    return { version: o.version, startedAt: o.startedAt, manifest: chrome.runtime.getManifest().version };
  });
  expect(info.version).toBe(info.manifest);
  expect(info.startedAt).toBeGreaterThan(0);
});

test('the panel page renders and round-trips a typed message over its port', async ({ panel }) => {
  await expect(panel.getByTestId('worker-status')).toContainText('connected');
  await expect(panel.getByRole('textbox', { name: 'Message Otto' })).toBeVisible();
  const payload = { nested: { list: [1, 'two', null], ok: true } };
  expect(await panelRequest(panel, { type: 'echo', payload })).toEqual(payload);
  // A message that fails the schema is answered with a validation error, not acted on.
  const error = await panel.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const port = chrome.runtime.connect({ name: 'otto-panel' });
        port.onMessage.addListener((m: { type: string; ok?: boolean; error?: string }) => {
          if (m.type === 'result') resolve(m.error ?? 'no error');
        });
        port.postMessage({ type: 'config.save', id: 'bad-1', yaml: 42 });
      }),
  );
  expect(error).toMatch(/invalid message at yaml/);
});

test('an idle page runs nothing of Otto; after a page tool call the page and its same- and cross-origin iframes answer', async ({
  context,
  panel,
  serviceWorker,
  pages,
  otherOrigin,
}) => {
  const page = await context.newPage();
  await page.goto(`${pages.origin}/frames.html?cross=${otherOrigin.port}`);
  await expect(page.frameLocator('#cross').locator('p')).toHaveText('I am a child frame.');
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id, page.url());
  expect(tabId).toBeDefined();
  type Pong = { url: string; isTop: boolean };
  // No content script in the manifest: a page Otto has not worked on has none of its scripts, in any frame.
  expect(await panelRequest<Pong[]>(panel, { type: 'frames.ping', tabId })).toEqual([]);
  await call(serviceWorker, 'snapshot', tabId);
  const pongs = await panelRequest<Pong[]>(panel, { type: 'frames.ping', tabId });
  expect(pongs).toHaveLength(3);
  expect(pongs.find((p) => p.isTop)?.url).toBe(page.url());
  expect(pongs.some((p) => !p.isTop && p.url === `${pages.origin}/child.html?name=same`)).toBe(true);
  expect(pongs.some((p) => !p.isTop && p.url === `${otherOrigin.origin}/child.html?name=cross`)).toBe(true);
  await page.close();
});

test('IndexedDB reads back what the worker wrote after the worker restarts', async ({
  context,
  extensionId,
  panel,
}) => {
  const before = await currentServiceWorker(context, extensionId);
  const value = { n: Math.random(), at: Date.now() };
  const firstStart = await before.evaluate(async (v) => {
    const o = (
      globalThis as unknown as {
        otto: { startedAt: number; storage: { putMeta(k: string, v: unknown): Promise<void> } };
      }
    ).otto;
    await o.storage.putMeta('e2e-restart', v);
    return o.startedAt;
  }, value);

  await stopServiceWorker(context, panel);

  // Any extension event wakes it again: a request over a fresh port does.
  const pong = await panel.evaluate(() => {
    const port = chrome.runtime.connect({ name: 'otto-panel' });
    return new Promise<{ startedAt: number }>((resolve) => {
      port.onMessage.addListener(
        (m: { type: string; data?: { startedAt: number } }) => m.type === 'result' && resolve(m.data!),
      );
      port.postMessage({ type: 'ping', id: 'after-restart' });
    });
  });
  const after = await currentServiceWorker(context, extensionId);
  expect(pong.startedAt).toBeGreaterThan(firstStart);
  const readBack = await after.evaluate(() =>
    (globalThis as unknown as { otto: { storage: { getMeta(k: string): Promise<unknown> } } }).otto.storage.getMeta(
      'e2e-restart',
    ),
  );
  expect(readBack).toEqual(value);
});

test('a forged message from a web page reaches nothing', async ({
  context,
  extensionId,
  panel,
  serviceWorker,
  pages,
}) => {
  const page = await context.newPage();
  await page.goto(`${pages.origin}/hostile.html`);
  // Otto has worked on the page, so its content script is there (it answers the worker) — it could have listened,
  // and must not have.
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id, page.url());
  await call(serviceWorker, 'snapshot', tabId);
  expect((await panelRequest<unknown[]>(panel, { type: 'frames.ping', tabId })).length).toBe(1);

  const sw = await currentServiceWorker(context, extensionId);
  const before = await readTraffic(sw);
  const { runtimeReachable } = await page.evaluate(() =>
    (window as unknown as { forgeAll(): { runtimeReachable: boolean } }).forgeAll(),
  );
  await page.waitForTimeout(500);
  const after = await readTraffic(sw);

  expect(runtimeReachable).toBe(false);
  expect(after.runtime).toEqual(before.runtime);
  expect(after.port).toEqual(before.port);
  const { yaml } = await panelRequest<{ yaml: string }>(panel, { type: 'config.get' });
  expect(yaml).not.toContain('evil');
  await page.close();
});
