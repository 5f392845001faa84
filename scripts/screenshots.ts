/**
 * The README's screenshots of today's panel, reproducibly: `npx vite build --logLevel warn && npx tsx
 * scripts/screenshots.ts`. Launches the built extension in headless Chromium (as the e2e suite does, e2e/support/),
 * scripts the fake Responses API, and writes docs/screenshots/{panel,dark,help,schedules,approval}.png at side-panel
 * size (400 × 640): a conversation with a tool card (light and dark), the help view, the Schedules tab, and the
 * task-scope approval card on the webmail fixture (e2e/fixtures/pages/apps/webmail.html, as e2e/task-scope.spec.ts).
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DIST, ROOT, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';

const OUT = path.join(ROOT, 'docs/screenshots');
const APPS = path.join(ROOT, 'e2e/fixtures/pages/apps');
const MAILS = [
  { id: 1, from: 'Alice', subject: 'Lunch on Friday?', body: 'Are you free on Friday at noon?' },
  { id: 2, from: 'Bob', subject: 'Weekend plans', body: 'Hiking on Saturday?' },
];

type PanelGlobal = { ottoPanel: { request(x: unknown): Promise<unknown> } };

function request<T>(panel: Page, body: Record<string, unknown>): Promise<T> {
  return panel.evaluate((b) => (globalThis as unknown as PanelGlobal).ottoPanel.request(b), body) as Promise<T>;
}

async function ready(panel: Page): Promise<void> {
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
}

/** The webmail fixture on loopback; POSTs (the app's actions) answer 204 and do nothing. */
async function startMail(): Promise<{ url: string; close(): void }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    for await (const chunk of req) void chunk;
    if (req.method === 'POST') return void res.writeHead(204).end();
    if (url.pathname === '/api/mail')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MAILS));
    const file = url.pathname === '/' ? 'webmail.html' : url.pathname.replace(/^\/+/, '');
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
    try {
      const content = await readFile(path.join(APPS, path.normalize(file)));
      res.writeHead(200, { 'content-type': type }).end(content);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://mail.example:${port}/`, close: () => server.close() };
}

/** A panel tab at side-panel size, pointed at the fake API, in a fresh conversation. */
async function openPanel(context: BrowserContext, api: FakeApi): Promise<Page> {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 400, height: 640 });
  await panel.goto(`chrome-extension://${new URL(sw.url()).host}/src/sidepanel/index.html`);
  await ready(panel);
  const yaml = `agent:\n  base_url: ${api.url}\n  model: gpt-5-mini\napprovals:\n  local_hosts: [127.0.0.1, localhost]\n`;
  await request(panel, { type: 'config.save', yaml });
  await request(panel, { type: 'secrets.save', yaml: 'OPENAI_API_KEY: sk-screenshot-key-000000\n' });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await ready(panel);
  return panel;
}

async function shot(panel: Page, name: string): Promise<void> {
  await panel.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`wrote docs/screenshots/${name}.png`);
}

/** A conversation with a tool card (light, then dark), the help view, and the Schedules tab. */
async function conversation(panel: Page, api: FakeApi): Promise<void> {
  api.script([
    { match: 'tabs do I have', calls: [{ name: 'tabs__list', arguments: {} }] },
    {
      match: /"tabs"/,
      text: 'You have **2 tabs** open:\n\n| Tab | Site |\n|---|---|\n| Otto | this panel |\n| Mail | mail.example |\n\nWant me to summarise your inbox next?',
    },
  ]);
  await panel.getByTestId('chat-input').fill('What tabs do I have open?');
  await panel.getByTestId('chat-input').press('Enter');
  await panel.getByTestId('message-assistant').filter({ hasText: 'summarise your inbox' }).waitFor();
  await panel.locator('[data-testid="run-status"][data-status="idle"]').waitFor();
  await shot(panel, 'panel');
  await panel.emulateMedia({ colorScheme: 'dark' });
  await shot(panel, 'dark');
  await panel.emulateMedia({ colorScheme: 'light' });

  await panel.getByTestId('open-help').click();
  await panel.getByTestId('help-view').waitFor();
  await shot(panel, 'help');
  await panel.getByTestId('open-help').click();

  await request(panel, {
    type: 'schedules.save',
    scheduleId: 'price-watch',
    when: 'every 2 hours',
    task: 'Read the price of the desk lamp on the shop page',
    watch: { condition: 'changed' },
  });
  await panel.getByTestId('open-stats').click();
  await panel.getByTestId('tab-schedules').click();
  await panel.getByTestId('schedule-row').first().waitFor();
  await shot(panel, 'schedules');
  await panel.getByTestId('open-stats').click();
}

/** "Summarise my inbox." and a model that then wants to buy: the task-scope card, in the panel. */
async function approval(panel: Page, api: FakeApi, mailUrl: string): Promise<void> {
  const mail = await panel.context().newPage();
  await mail.goto(mailUrl);
  await mail.locator('.mail-row').first().waitFor();
  await mail.locator('#nav-store').click();
  const tabId = await panel.evaluate(
    async (u) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith(u))!.id!,
    mailUrl,
  );
  api.script([
    { match: 'Summarise my inbox', calls: [{ name: 'dom__text', arguments: {} }] },
    { match: /Desk lamp/, calls: [{ name: 'dom__click', arguments: { selector: '.buy[data-item="lamp"]' } }] },
    { match: /denied|clicked|error/i, text: 'Done.' },
  ]);
  const { conversationId } = await request<{ conversationId: string }>(panel, {
    type: 'chat.send',
    text: 'Summarise my inbox.',
    tabId,
  });
  await panel.evaluate((cid) => localStorage.setItem('otto.panel.current', cid), conversationId);
  await panel.reload();
  await ready(panel);
  await panel.locator('[data-testid="approval"][data-kind="scope"]').waitFor({ timeout: 60_000 });
  await panel.getByTestId('approval').scrollIntoViewIfNeeded();
  await shot(panel, 'approval');
  await panel.getByTestId('approval-deny').click();
  await mail.close();
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, 'manifest.json'))) throw new Error('dist/ is missing: run `npm run build` first.');
  process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK = '1';
  const api = await startFakeApi({ fallback: 'error' });
  const mail = await startMail();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-shots-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: extensionArgs(),
  });
  try {
    const panel = await openPanel(context, api);
    await conversation(panel, api);
    await panel.evaluate(() => localStorage.clear());
    await panel.reload();
    await ready(panel);
    await approval(panel, api, mail.url);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    mail.close();
    await api.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
