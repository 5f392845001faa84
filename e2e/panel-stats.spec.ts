/**
 * Issues 6 and 7 e2e in the panel: the Stats view (the figures of ot.stats), the Files view (ot.stats HTML reports,
 * ot.notify topic files, stored large results) with open and download, and a tool card's stored-result link.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectToFakeApi } from './support/agent.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/** Otto pointed at the fake API (with a key unless `key: false`), the panel reloaded fresh at side-panel size. */
async function ready(panel: Page, api: FakeApi, opts: { key?: boolean; yaml?: string } = {}): Promise<void> {
  await panel.setViewportSize({ width: 400, height: 720 });
  if (opts.key === false) {
    await panelRequest(panel, { type: 'config.save', yaml: `agent:\n  base_url: ${api.url}\n${opts.yaml ?? ''}` });
    await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  } else await connectToFakeApi(panel, api, { yaml: opts.yaml ?? '' });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
}

async function type(panel: Page, text: string): Promise<void> {
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
}

async function openFiles(panel: Page): Promise<void> {
  if ((await panel.getByTestId('open-stats').getAttribute('aria-pressed')) !== 'true')
    await panel.getByTestId('open-stats').click();
  await panel.getByTestId('tab-files').click();
  await expect(panel.getByTestId('files-view')).toBeVisible();
}

interface Summary {
  report: { tools: { tool: string; total_calls: number }[]; model_requests: number };
}
const callsOf = async (panel: Page, tool: string) =>
  (await panelRequest<Summary>(panel, { type: 'stats.summary', period: 'day' })).report.tools.find(
    (t) => t.tool === tool,
  )?.total_calls ?? 0;

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test('after a model run with a tool call, the Stats view shows the call count for that tool', async ({
  panel,
  fakeApi,
}) => {
  await ready(panel, fakeApi);
  const before = await callsOf(panel, 'tabs.list');
  fakeApi.script([
    {
      match: 'count my tabs',
      calls: [{ name: 'tabs__list', arguments: {} }],
      usage: { input_tokens: 60, output_tokens: 9 },
    },
    { match: /"tabs"/, text: 'You have some tabs.', usage: { input_tokens: 90, output_tokens: 5 } },
  ]);
  await type(panel, 'count my tabs');
  await expect(panel.getByTestId('message-assistant')).toHaveText('You have some tabs.');
  await expect.poll(() => callsOf(panel, 'tabs.list')).toBe(before + 1);

  await panel.getByTestId('open-stats').click();
  const view = panel.getByTestId('stats-view');
  await expect(view).toBeVisible();
  await view.getByTestId('stats-period-day').click();
  await expect(view.getByTestId('stats-period-day')).toHaveAttribute('aria-pressed', 'true');
  const row = view.locator('[data-testid="stats-tool-row"][data-tool="tabs.list"]');
  await expect(row.getByTestId('stats-tool-calls')).toHaveText(String(before + 1));
  await expect(view.getByTestId('stats-calls')).toHaveText(/^[1-9][\d,]*$/);
  await expect(view.getByTestId('stats-success')).toHaveText(/%$/);
  await expect(view.getByTestId('stats-requests')).toHaveText(/^[1-9][\d,]*$/);
  await expect(view.locator('[data-testid="stats-model-row"][data-model="gpt-test"]')).toBeVisible();
  await expect(view.getByTestId('stats-chart').locator('svg rect').first()).toBeAttached();
  await view.getByTestId('stats-estimates').locator('summary').click();
  await expect(view.getByTestId('stats-estimates')).toContainText('context_saved =');
  await expect(view.getByTestId('stats-estimates')).toContainText('time_saved_ms =');
  await shot(panel, 'stats');

  // Every period answers; "all" includes the day.
  await view.getByTestId('stats-period-all').click();
  await expect(view.getByTestId('stats-period-all')).toHaveAttribute('aria-pressed', 'true');
  await expect(row.getByTestId('stats-tool-calls')).toHaveText(/^[1-9][\d,]*$/);
  await view.getByTestId('stats-period-month').click();
  await expect(row).toBeVisible();
  // The same button goes back to the chat.
  await panel.getByTestId('open-stats').click();
  await expect(panel.getByTestId('message-assistant')).toBeVisible();
});

test('ot.stats(output="report.html") as a command: Files lists it, Open shows the SVG chart, Download saves it', async ({
  panel,
  fakeApi,
  context,
}) => {
  await ready(panel, fakeApi, { key: false });
  await type(panel, 'ot.stats(output="report.html")');
  const card = panel.getByTestId('command-card');
  await expect(card).toHaveAttribute('data-status', 'ok');
  // With many recorded tools (other specs share this profile) the output is clipped: open it in full.
  const showAll = card.getByRole('button', { name: /^Show all/ });
  if (await showAll.count()) await showAll.click();
  await expect(card.getByTestId('command-output')).toContainText('html_report: report.html');
  expect(fakeApi.requests).toHaveLength(0);

  await openFiles(panel);
  const row = panel.locator('[data-testid="file-row"][data-name="report.html"]');
  await expect(row).toBeVisible();
  await expect(row).toContainText('text/html');
  await shot(panel, 'files');

  const [tab] = await Promise.all([context.waitForEvent('page'), row.getByTestId('file-open').click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toMatch(/^blob:chrome-extension:\/\//);
  await expect(tab.locator('svg').first()).toBeVisible();
  expect(await tab.locator('svg').count()).toBeGreaterThanOrEqual(1);
  await tab.close();

  const [download] = await Promise.all([panel.waitForEvent('download'), row.getByTestId('file-download').click()]);
  expect(download.suggestedFilename()).toBe('report.html');
  expect(readFileSync((await download.path())!, 'utf8')).toContain('<svg');
});

test('ot.notify topic files appear in the Files view when config has a topic', async ({ panel, fakeApi, context }) => {
  const yaml = 'notify:\n  topics:\n    - {pattern: "panel-e2e*", file: "~/notes/panel-notes.yaml"}\n';
  await ready(panel, fakeApi, { key: false, yaml });
  await openFiles(panel);
  await expect(panel.getByTestId('pending-topics')).toContainText('panel-notes.yaml');
  await expect(panel.locator('[data-testid="file-row"][data-name="panel-notes.yaml"]')).toHaveCount(0);

  await panel.getByTestId('open-stats').click();
  await type(panel, 'ot.notify(topic="panel-e2e.build", message="hello from the panel")');
  await expect(panel.getByTestId('command-card')).toHaveAttribute('data-status', 'ok');
  await expect(panel.getByTestId('command-output')).toHaveText('OK: panel-e2e.build -> panel-notes.yaml');

  await openFiles(panel);
  const row = panel.locator('[data-testid="file-row"][data-name="panel-notes.yaml"]');
  await expect(row).toBeVisible();
  await expect(panel.getByTestId('pending-topics')).toHaveCount(0);
  const [tab] = await Promise.all([context.waitForEvent('page'), row.getByTestId('file-open').click()]);
  await expect(tab.locator('body')).toContainText('message: hello from the panel');
  await expect(tab.locator('body')).toContainText('topic: panel-e2e.build');
  await tab.close();
});

test("a stored result's handle in a tool card opens it in the Files view", async ({ panel, fakeApi, pages }) => {
  // tabs.scope all: the tab is not in Otto's group (the panel is in front), and this test is about stored results.
  await ready(panel, fakeApi, { yaml: 'output:\n  max_inline_size: 120\n  preview_lines: 3\ntabs:\n  scope: all\n' });
  const page = await panel.context().newPage();
  await page.goto(`${pages.origin}/child.html?stored-result`);
  await panel.bringToFront();
  try {
    fakeApi.script([
      { match: 'list tabs', calls: [{ name: 'tabs__list', arguments: {} }] },
      { match: /handle/, text: 'Stored; I can page through it.' },
    ]);
    await type(panel, 'list tabs please');
    await expect(panel.getByTestId('message-assistant')).toHaveText('Stored; I can page through it.');
    const link = panel.locator('[data-testid="tool-call"][data-tool="tabs.list"]').getByTestId('result-link');
    const handle = (await link.textContent())!.trim();
    expect(handle).toMatch(/^[0-9a-f]{12}$/);
    await link.click();

    const preview = panel.getByTestId('result-preview');
    await expect(preview).toHaveAttribute('data-handle', handle);
    await expect(preview.locator('pre')).toContainText('stored-result');
    await expect(panel.locator(`[data-testid="result-row"][data-handle="${handle}"]`)).toBeVisible();
    await shot(panel, 'stored-result');
    const [download] = await Promise.all([
      panel.waitForEvent('download'),
      preview.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`otto-result-${handle}.txt`);
    expect(readFileSync((await download.path())!, 'utf8')).toContain('stored-result');
  } finally {
    await page.close();
  }
});
