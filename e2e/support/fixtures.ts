/**
 * Worker-scoped fixtures: one Chromium with the built extension per Playwright worker, its service worker, the
 * extension id, and two loopback static servers for fixture pages. `panel` is a fresh panel page per test, opened
 * as a tab (the side panel itself needs a user gesture to open).
 */
import { test as base, chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, ROOT, chromiumPath, extensionArgs } from './browser.ts';
import { startStaticServer, type StaticServer } from './staticServer.ts';
import { startFakeApi, type FakeApi } from '../../test/support/fake-api/index.ts';

export interface WorkerFixtures {
  extContext: BrowserContext;
  extensionId: string;
  pages: StaticServer;
  otherOrigin: StaticServer;
  /** The fake Responses API on loopback; tests script it (`api.script([...])`) and read `api.requests`. */
  fakeApi: FakeApi;
}

export interface TestFixtures {
  /** The extension's browser context (Playwright's own `context` fixture is per test; ours is per worker). */
  context: BrowserContext;
  serviceWorker: Worker;
  panel: Page;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  extContext: [
    async ({}, use) => {
      if (!existsSync(path.join(DIST, 'manifest.json')))
        throw new Error('dist/ is missing: run `npm run build` first.');
      // Playwright reads the body of every response the extension's worker gets (Network.getResponseBody on the
      // worker, for traces). A worker stopped while such a read is pending crashes Chromium's browser process
      // (SIGTRAP; reproduced without Otto, see docs/decisions.md "The reliability test's lost panel tab: cause"), which
      // closes every page: what stopServiceWorker's tests saw as a lost panel tab. Playwright then leaves the worker's
      // network alone; page traces are unchanged. Read by Playwright each time it attaches to a worker.
      process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK = '1';
      const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-e2e-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath(),
        headless: true,
        args: extensionArgs(),
      });
      await use(context);
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  extensionId: [
    async ({ extContext: context }, use) => {
      const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      await use(new URL(sw.url()).host);
    },
    { scope: 'worker' },
  ],
  pages: [
    async ({}, use) => {
      const s = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
      await use(s);
      await s.close();
    },
    { scope: 'worker' },
  ],
  otherOrigin: [
    async ({}, use) => {
      const s = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
      await use(s);
      await s.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ extContext }, use) => use(extContext),
  fakeApi: [
    async ({}, use) => {
      const api = await startFakeApi({ fallback: 'error' });
      await use(api);
      await api.close();
    },
    { scope: 'worker' },
  ],
  serviceWorker: async ({ extContext: context, extensionId }, use) => {
    await use(await currentServiceWorker(context, extensionId));
  },
  panel: async ({ extContext: context, extensionId }, use) => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
    await page.getByTestId('worker-status').and(page.locator('[data-state="ready"]')).waitFor();
    await use(page);
    await page.close();
  },
});

export const expect = test.expect;

/** The live service worker of the extension (a new one after a restart). */
export async function currentServiceWorker(context: BrowserContext, extensionId: string): Promise<Worker> {
  const live = context.serviceWorkers().filter((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
  return live.at(-1) ?? (await context.waitForEvent('serviceworker'));
}

/** Sends a typed request over the panel's port (the same client the UI uses) and returns its result. */
export function panelRequest<T = unknown>(panel: Page, body: Record<string, unknown>): Promise<T> {
  return panel.evaluate(
    (b) => (globalThis as unknown as { ottoPanel: { request(x: unknown): Promise<unknown> } }).ottoPanel.request(b),
    body,
  ) as Promise<T>;
}

/**
 * Stops the extension's service worker through the DevTools protocol (as Chrome does to an idle worker) and
 * resolves once Chrome reports it stopped. The next extension event starts a fresh one; Playwright's Worker handle
 * then reaches the new instance. The session is only a way in: `stopAllWorkers` stops workers, never the page.
 * Safe only while Playwright leaves the worker's network alone (set in `extContext`): otherwise a stop can crash
 * the browser.
 */
export async function stopServiceWorker(context: BrowserContext, anyPage: Page): Promise<void> {
  if (process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK !== '1')
    throw new Error('stopServiceWorker: launch through the extContext fixture (a stop can crash a traced browser).');
  const cdp = await context.newCDPSession(anyPage);
  type Versions = { versions: { runningStatus: string; scriptURL: string }[] };
  const stopped = new Promise<void>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', (e: Versions) => {
      if (e.versions.some((v) => v.scriptURL.startsWith('chrome-extension://') && v.runningStatus === 'stopped'))
        resolve();
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  // The session may already be gone with the worker it watched; that is not a failure of the stop.
  await cdp.detach().catch(() => undefined);
}
