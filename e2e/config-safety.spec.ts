/**
 * #30 e2e: a stored config Otto cannot read never sends anything anywhere. Chromium maps api.openai.com (the default
 * endpoint) to a loopback listener that counts connections, so a silent fall-back to the defaults would show up as
 * a connection there. The configs are written straight to chrome.storage.local, as an upgrade would leave them.
 */
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { chromiumPath, extensionArgs } from './support/browser.ts';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';

interface Listener {
  port: number;
  connections: () => number;
  close(): Promise<void>;
}

/** A TCP listener that accepts and counts connections (TLS never completes: nothing is answered). */
async function countingListener(): Promise<Listener> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    count++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

type Fixtures = { openai: Listener; api: FakeApi; ctx: BrowserContext; sw: Worker; extensionId: string };

const test = base.extend<{ panel: Page }, Fixtures>({
  openai: [
    async ({}, use) => {
      const l = await countingListener();
      await use(l);
      await l.close();
    },
    { scope: 'worker' },
  ],
  api: [
    async ({}, use) => {
      const api = await startFakeApi({ fallback: 'error' });
      await use(api);
      await api.close();
    },
    { scope: 'worker' },
  ],
  ctx: [
    async ({ openai }, use) => {
      const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-e2e-config-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath(),
        headless: true,
        args: [...extensionArgs(), `--host-resolver-rules=MAP api.openai.com 127.0.0.1:${openai.port}`],
      });
      await use(context);
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  sw: [
    async ({ ctx }, use) => use(ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'))),
    { scope: 'worker' },
  ],
  extensionId: [async ({ sw }, use) => use(new URL(sw.url()).host), { scope: 'worker' }],
  panel: async ({ ctx, extensionId }, use) => {
    const page = await ctx.newPage();
    await page.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
    await page.getByTestId('worker-status').and(page.locator('[data-state="ready"]')).waitFor();
    await use(page);
    await page.close();
  },
});

/** Writes config and secrets text straight into storage, past the settings page's validation. */
async function store(sw: Worker, config: string): Promise<void> {
  await sw.evaluate(
    ([c]) => chrome.storage.local.set({ config: c, secrets: 'OPENAI_API_KEY: sk-stored-key-0123456789abcdef\n' }),
    [config] as const,
  );
}

async function sendFromPanel(panel: Page, text: string): Promise<void> {
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
}

test.beforeEach(({ api }) => api.reset());

test('control: the listener does stand in for the default endpoint (a valid default config reaches it)', async ({
  panel,
  sw,
  openai,
}) => {
  // No base_url: the default, https://api.openai.com/v1 — which Chromium sends to the counting listener.
  await store(sw, 'agent:\n  max_retries: 0\n');
  await panel.reload();
  await expect(panel.getByTestId('run-endpoint')).toHaveText('gpt-5-mini @ api.openai.com');
  const before = openai.connections();
  await sendFromPanel(panel, 'hello default');
  await expect(panel.getByTestId('run-status')).toHaveAttribute('data-status', 'error', { timeout: 30_000 });
  expect(openai.connections()).toBeGreaterThan(before);
});

test('an unknown key is a warning naming it; the run reaches the configured server, not the default', async ({
  panel,
  sw,
  api,
  openai,
}) => {
  const before = openai.connections();
  await store(sw, `agent:\n  base_url: ${api.url}\n  model: gpt-test\n  colour: blue # from another version\n`);
  api.script([{ match: 'hello configured', text: 'Hello from the configured server.' }]);
  await panel.reload();
  const warning = panel.getByTestId('config-warning');
  await expect(warning).toContainText(
    'line 4, column 3: agent.colour: not a setting this version of Otto knows; ignored',
  );
  await expect(panel.getByTestId('run-endpoint')).toHaveText(`gpt-test @ ${new URL(api.url).host}`);
  await sendFromPanel(panel, 'hello configured');
  await expect(panel.getByTestId('message-assistant').last()).toContainText('Hello from the configured server.');
  expect(api.responsesRequests()).toHaveLength(1);
  expect(openai.connections()).toBe(before);
  // The stored text was not rewritten without the key.
  expect(await sw.evaluate(() => chrome.storage.local.get('config').then((r) => r.config as string))).toContain(
    'colour: blue',
  );
  // The settings page names it too.
  await panel.getByTestId('config-warning-settings').click();
  await expect(panel.getByTestId('settings-config-warnings')).toContainText('agent.colour');
});

test('a wrong value: no run, no connection anywhere, and the panel shows the problem at its line with Settings', async ({
  panel,
  sw,
  api,
  openai,
}) => {
  await panel.reload();
  await panel.getByTestId('new-conversation').click();
  const before = openai.connections();
  // Written while the panel is open (as an upgrade or another window would): the panel hears of it.
  await store(sw, `agent:\n  base_url: ${api.url}\n  max_turns: many\n  colour: blue\n`);
  const banner = panel.getByTestId('config-banner');
  await expect(banner).toBeVisible();
  await expect(panel.getByTestId('config-problems')).toHaveText(
    'line 3, column 14: agent.max_turns: should be a number, not text',
  );
  await expect(banner).toContainText('agent.colour');
  await expect(panel.getByTestId('run-endpoint')).toHaveText('nothing is sent until settings are fixed');

  await sendFromPanel(panel, 'hello broken');
  // The refused message stays in the box (nothing typed is lost): wait for that before typing the next one, or the
  // refusal's restore can land on top of it.
  await expect(panel.getByTestId('chat-input')).toHaveValue('hello broken');
  // Refused in the worker as well, whatever the panel knew.
  const refused = await panel.evaluate(() =>
    (globalThis as unknown as { ottoPanel: { request(b: unknown): Promise<unknown> } }).ottoPanel
      .request({ type: 'chat.send', text: 'hello again' })
      .then(
        () => 'sent',
        (e: Error) => e.message,
      ),
  );
  expect(refused).toBe(
    "Otto's configuration does not validate, so nothing was sent. Fix it in Settings:\nline 3, column 14: agent.max_turns: should be a number, not text",
  );
  // A command that would call a model refuses too; ot.health says why.
  await panel.getByTestId('chat-input').fill('ot.health()');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(panel.getByTestId('command-card').last()).toContainText('status: invalid');
  await expect(panel.getByTestId('command-card').last()).toContainText('agent.max_turns');

  await expect(panel.getByTestId('message-user')).toHaveCount(0);
  expect(api.requests.length).toBe(0);
  expect(openai.connections()).toBe(before);

  await panel.getByTestId('config-open-settings').click();
  await expect(panel.getByTestId('settings-config-problems')).toContainText('line 3, column 14: agent.max_turns');
});
