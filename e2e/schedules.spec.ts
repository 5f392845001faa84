/**
 * Schedules (#46): a schedule fired through the worker's test hook (`otto.schedules.runNow`, no waiting for real
 * time) replays a snippet on the fixture shop with no model request, records its history, and leaves the user's
 * tabs as they were (the run works in a background window of its own, closed after); a scheduled task whose model
 * wants to delete on the webmail fixture (outside "Summarise my inbox.") pauses, notifies, and the site receives
 * nothing until the user approves in the panel, then the history records the end; a run missed while the browser
 * was closed runs once when it opens again, marked late.
 */
import { chromium, type Page, type Worker } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect, panelRequest, currentServiceWorker } from './support/fixtures.ts';
import { chromiumPath, extensionArgs } from './support/browser.ts';
import { connectToFakeApi } from './support/agent.ts';
import { shopSnippetYaml, shopUrl } from './support/shopOrder.ts';

interface RunRecord {
  id: string;
  scheduleId: string;
  outcome: string;
  late: boolean;
  trigger: string;
  output: string;
  tokens: number;
  costUsd: number;
  durationMs?: number;
  reason?: string;
  failedStep?: string;
}

/** The user's tabs and focused window, as the worker sees them. */
function userTabs(sw: Worker): Promise<{ tabs: string[]; windows: number }> {
  return sw.evaluate(async () => {
    const tabs = await chrome.tabs.query({});
    const windows = await chrome.windows.getAll();
    return {
      tabs: tabs.map((t) => `${t.id} ${t.windowId} ${t.url ?? ''}`).sort(),
      windows: windows.length,
    };
  });
}

/** Polls the history until the schedule has a run that is no longer going. */
async function settledRuns(panel: Page, scheduleId: string): Promise<RunRecord[]> {
  let runs: RunRecord[] = [];
  await expect
    .poll(
      async () => {
        runs = await panelRequest<RunRecord[]>(panel, { type: 'schedules.history', scheduleId });
        return runs.length > 0 && runs.every((r) => r.outcome !== 'running');
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return runs;
}

test.beforeEach(({ fakeApi }) => fakeApi.reset());

// The webmail fixture of e2e/task-scope.spec.ts (a React app); `actions` is every state change its server received.
const APPS = path.resolve(import.meta.dirname, 'fixtures/pages/apps');
const actions: string[] = [];
let mailServer: http.Server;
let mailPort = 0;
const MAIL = () => `http://mail.example:${mailPort}`;
const MAILS = [
  { id: 1, from: 'Alice', subject: 'Lunch on Friday?', body: 'Are you free on Friday at noon?' },
  { id: 2, from: 'Bob', subject: 'Weekend plans', body: 'Hiking on Saturday?' },
];

test.beforeAll(async () => {
  mailServer = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    for await (const _chunk of req) void _chunk;
    if (req.method === 'POST') {
      actions.push(url.pathname.replace(/^\/(api\/)?/, ''));
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/api/mail') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MAILS));
      return;
    }
    const file = url.pathname === '/' ? 'webmail.html' : url.pathname.replace(/^\/+/, '');
    try {
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html';
      const content = await readFile(path.join(APPS, path.normalize(file)));
      res.writeHead(200, { 'content-type': type }).end(content);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => mailServer.listen(0, '127.0.0.1', r));
  mailPort = (mailServer.address() as AddressInfo).port;
});

test.afterAll(async () => {
  mailServer.closeAllConnections();
  await new Promise<void>((r) => mailServer.close(() => r()));
});

test('a scheduled task reaching a step outside its scope pauses and notifies; the site receives nothing until the user approves in the panel', async ({
  panel,
  fakeApi,
  serviceWorker,
}) => {
  test.setTimeout(120_000);
  actions.length = 0;
  const schedule = `schedules:\n  inbox:\n    when: daily 07:00\n    task: Summarise my inbox.\n    url: ${MAIL()}/\n`;
  await connectToFakeApi(panel, fakeApi, { yaml: schedule });
  const before = await userTabs(serviceWorker);
  fakeApi.script([
    // The model goes beyond the task: deleting was not asked for.
    {
      match: 'Summarise my inbox',
      calls: [
        { name: 'dom__wait_for', arguments: { selector: '.trash-icon[data-id="1"]' } },
        { name: 'dom__click', arguments: { selector: '.trash-icon[data-id="1"]' } },
      ],
    },
    { match: /./, text: 'Two emails: lunch with Alice, hiking with Bob.' },
  ]);
  const runId = await serviceWorker.evaluate(
    (id) =>
      (globalThis as unknown as { otto: { schedules: { runNow(i: string): Promise<string> } } }).otto.schedules.runNow(
        id,
      ),
    'inbox',
  );
  const [waiting] = await settledRuns(panel, 'inbox');
  expect([waiting!.id, waiting!.outcome, waiting!.reason]).toEqual([runId, 'paused-waiting', 'wants to delete']);
  // Waiting, and saying so on the desktop; the site has received nothing.
  const notices = await serviceWorker.evaluate(() => chrome.notifications.getAll());
  expect(Object.keys(notices).filter((n) => n.startsWith(`otto-run|inbox|${runId}|`))).toHaveLength(1);
  expect(actions).toEqual([]);
  // The run's own window holds its tab; the user's tabs and focused window are untouched.
  const mine = await userTabs(serviceWorker);
  // (Headless Chromium reports every window focused and `normal`, so the window's focus and state are not asserted
  // here; the run asks for `focused: false, state: 'minimized'`.) The run's tab is alone in a window of its own.
  const runTabs = mine.tabs.filter((t) => t.endsWith(`${MAIL()}/`));
  expect(runTabs).toHaveLength(1);
  const runWindow = runTabs[0]!.split(' ')[1];
  expect(before.tabs.some((t) => t.split(' ')[1] === runWindow)).toBe(false);
  expect(mine.tabs.filter((t) => !t.endsWith(`${MAIL()}/`))).toEqual(before.tabs);

  // The user opens the panel: the card is there (the run's state), and they approve it.
  const conversationId = (waiting as RunRecord & { conversationId: string }).conversationId;
  const state = await serviceWorker.evaluate(
    (id) =>
      (
        globalThis as unknown as {
          otto: {
            runner: {
              getState(
                c: string,
              ): Promise<{ status: string; approval?: { callId: string; outOfScope?: { effects: string[] } } }>;
            };
          };
        }
      ).otto.runner.getState(id),
    conversationId,
  );
  expect([state.status, state.approval?.outOfScope?.effects]).toEqual(['awaiting_approval', ['delete']]);
  await panelRequest(panel, { type: 'chat.approve', conversationId, callId: state.approval!.callId, scope: 'once' });
  await expect.poll(() => actions).toEqual(['delete']);
  let done: RunRecord | undefined;
  await expect
    .poll(
      async () =>
        (done = (await panelRequest<RunRecord[]>(panel, { type: 'schedules.history', scheduleId: 'inbox' }))[0])
          ?.outcome,
      { timeout: 60_000 },
    )
    .toBe('done');
  expect(done!.output).toBe('Two emails: lunch with Alice, hiking with Bob.');
  expect(done!.tokens).toBeGreaterThan(0);
  // Its window is closed at the end.
  await expect.poll(() => userTabs(serviceWorker)).toEqual(before);
});

test('a schedule fired through the test hook replays its snippet with 0 model requests, records history, and leaves the user tabs alone', async ({
  panel,
  pages,
  fakeApi,
  serviceWorker,
}) => {
  const schedule = [
    'schedules:',
    '  shop-weekly:',
    '    when: every monday 09:00',
    '    snippet: shop',
    '    args: { password: hunter2, quantity: "3" }',
  ].join('\n');
  await connectToFakeApi(panel, fakeApi, { yaml: `${shopSnippetYaml(shopUrl(pages.origin))}${schedule}\n` });
  const before = await userTabs(serviceWorker);

  const runId = await serviceWorker.evaluate(
    (id) =>
      (globalThis as unknown as { otto: { schedules: { runNow(i: string): Promise<string> } } }).otto.schedules.runNow(
        id,
      ),
    'shop-weekly',
  );
  expect(runId).toMatch(/^shop-weekly:\d+$/);
  const [run] = await settledRuns(panel, 'shop-weekly');

  expect([run!.outcome, run!.failedStep, run!.reason]).toEqual(['done', undefined, undefined]);
  expect(run!.output).toMatch(/Order for 3 × Widget placed by Ada Lovelace\.\s+Confirmation number: ORD-\d{7}/);
  expect([run!.id, run!.trigger, run!.late, run!.tokens, run!.costUsd]).toEqual([runId, 'run-now', false, 0, 0]);
  expect(run!.durationMs).toBeGreaterThan(0);
  // No model, no key: the fake API heard nothing.
  expect(fakeApi.requests.length).toBe(0);
  // The run's window is gone; the user's tabs and focused window are as they were.
  await expect.poll(() => userTabs(serviceWorker)).toEqual(before);

  const list = await panelRequest<{ schedules: { id: string; cron: string; nextRun: number; last: RunRecord }[] }>(
    panel,
    {
      type: 'schedules.list',
    },
  );
  const view = list.schedules.find((s) => s.id === 'shop-weekly')!;
  expect([view.cron, view.last.id, new Date(view.nextRun).getDay(), new Date(view.nextRun).getHours()]).toEqual([
    '0 9 * * 1',
    runId,
    1,
    9,
  ]);
  // The alarm is armed for that time.
  const alarm = await serviceWorker.evaluate(() => chrome.alarms.get('schedule:shop-weekly'));
  expect(alarm?.scheduledTime).toBe(view.nextRun);
});

test('a run missed while the browser was closed runs once when it opens again, marked late', async ({ pages }) => {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-sched-'));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: extensionArgs(),
    });
  // Ten minutes ago, local time: a daily schedule whose time passed while the browser was closed.
  const due = new Date(Date.now() - 10 * 60_000);
  const hhmm = `${String(due.getHours()).padStart(2, '0')}:${String(due.getMinutes()).padStart(2, '0')}`;
  const yaml = `${shopSnippetYaml(shopUrl(pages.origin))}schedules:\n  daily-shop:\n    when: daily ${hhmm}\n    snippet: shop\n    args: { password: hunter2 }\n`;
  try {
    let context = await launch();
    let sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const extensionId = new URL(sw.url()).host;
    const openPanel = async () => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
      await page.getByTestId('worker-status').and(page.locator('[data-state="ready"]')).waitFor();
      return page;
    };
    let panel = await openPanel();
    await panelRequest(panel, { type: 'config.save', yaml });
    // Saving arms it from now: today's time has passed, so nothing runs and the alarm is for tomorrow.
    await expect
      .poll(() => sw.evaluate(() => chrome.alarms.get('schedule:daily-shop').then((a) => a?.scheduledTime)))
      .toBeGreaterThan(Date.now());
    expect(await panelRequest<RunRecord[]>(panel, { type: 'schedules.history', scheduleId: 'daily-shop' })).toEqual([]);
    // The schedule has existed since yesterday (as if made then): today's time was owed while the browser was closed.
    await sw.evaluate(async () => {
      const key = 'schedules.since';
      const since = (await chrome.storage.local.get(key))[key] as Record<string, { when: string; at: number }>;
      since['daily-shop']!.at = Date.now() - 24 * 3600_000;
      await chrome.storage.local.set({ [key]: since });
    });
    await context.close();

    context = await launch();
    sw = await currentServiceWorker(context, extensionId);
    panel = await openPanel();
    const runs = await settledRuns(panel, 'daily-shop');
    expect(runs.map((r) => [r.outcome, r.late, r.trigger])).toEqual([['done', true, 'missed']]);
    expect(runs[0]!.output).toContain('Confirmation number: ORD-');
    // Once: another start of the worker finds the run in the history and does not repeat it.
    await sw.evaluate(() =>
      (
        globalThis as unknown as { otto: { schedules: { engine: { catchUp(): Promise<void> } } } }
      ).otto.schedules.engine.catchUp(),
    );
    expect(
      (await panelRequest<RunRecord[]>(panel, { type: 'schedules.history', scheduleId: 'daily-shop' })).length,
    ).toBe(1);
    await context.close();
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
});
