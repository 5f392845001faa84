/**
 * Issue #16 e2e: the developer Logs view (a transform's span is there, secrets are not), secrets of any shape kept
 * out of tool outputs, and live reference pages for MCP packs (ot.help never links to a page that does not exist).
 */
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectToFakeApi } from './support/agent.ts';
import { startMcpServer, type RunningMcpServer } from '../test/support/mcp-server/index.ts';

interface RunReply {
  ok: boolean;
  output?: string;
}

test.beforeEach(({ fakeApi }) => fakeApi.reset());

test('Logs view: turned on in Settings, it lists the llm.transform spans, the failed one at level error; a non-sk key in a 401 body appears nowhere', async ({
  panel,
  fakeApi,
}) => {
  const key = 'gsk_e2eGroqShapedKey_77Qx';
  await connectToFakeApi(panel, fakeApi, {
    key,
    yaml: `transform:\n  base_url: ${fakeApi.url}\n  model: gpt-logs-e2e\n`,
  });
  // Off by default: the data view has no Logs tab.
  await panel.getByTestId('open-stats').click();
  await expect(panel.getByTestId('tab-files')).toBeVisible();
  await expect(panel.getByTestId('tab-logs')).toHaveCount(0);
  await panel.getByTestId('open-stats').click();

  // Turn it on in Settings.
  await panel.getByTestId('open-settings').click();
  await panel.getByTestId('settings-developer-logs').check();
  await panel.getByTestId('settings-save-developer').click();
  await expect(panel.getByTestId('settings-developer-result')).toContainText('Saved');
  await panel.getByTestId('open-settings').click();

  fakeApi.scriptChat([
    { match: 'Extract', content: '42' },
    { http: { status: 401, body: { error: { message: `Invalid API Key: ${key}`, type: 'invalid_request_error' } } } },
  ]);
  const ok = await panelRequest<RunReply>(panel, {
    type: 'command.run',
    text: 'llm.transform(input="The answer is 42.", prompt="Extract the number")',
  });
  expect(ok.output).toBe('42');
  const failed = await panelRequest<RunReply>(panel, {
    type: 'command.run',
    text: 'llm.transform(input="x", prompt="Extract again")',
  });
  // The spec's words for a refused key, whatever its shape (#45; it used to be 'Error: 401 Invalid API Key: [redacted]').
  expect(failed.output).toBe('Error: Authentication error - check OPENAI_API_KEY in secrets.yaml');
  // The transform's request counts in the statistics like the agent's own (it used to be missing).
  await expect
    .poll(async () => {
      const s = await panelRequest<{ report: { models: { model: string; requests?: number }[] } }>(panel, {
        type: 'stats.summary',
        period: 'all',
      });
      return s.report.models.map((m) => m.model);
    })
    .toContain('gpt-logs-e2e');

  await panel.getByTestId('open-stats').click();
  await panel.getByTestId('tab-logs').click();
  await panel.getByTestId('logs-filter').fill('llm.transform');
  // This test's two transforms (a model name no other spec uses: the worker's log outlives a spec file).
  const spans = panel
    .locator('[data-testid="log-entry"][data-span="llm.transform"]')
    .filter({ hasText: 'model=gpt-logs-e2e' });
  await expect(spans).toHaveCount(2);
  // The failed transform is logged at level error (#45: it was info, so "error and up" hid it).
  await expect(spans.nth(0)).toHaveAttribute('data-level', 'info');
  await expect(spans.nth(1)).toHaveAttribute('data-level', 'error');
  await expect(spans.nth(1)).toContainText('Authentication error - check OPENAI_API_KEY in secrets.yaml');
  // Filtering by level: errors only hides the successful span and keeps the failed one.
  await panel.getByTestId('logs-level').selectOption('error');
  const errorsOnly = panel.locator('[data-testid="log-entry"]').filter({ hasText: 'model=gpt-logs-e2e' });
  await expect(errorsOnly).toHaveCount(1);
  await expect(errorsOnly).toHaveAttribute('data-level', 'error');
  await panel.getByTestId('logs-level').selectOption('debug');
  await panel.getByTestId('logs-filter').fill('');
  await expect(panel.getByTestId('log-entry').first()).toBeVisible();
  expect(await panel.getByTestId('logs-view').innerText()).not.toContain(key);
  // Export hands over the same redacted entries.
  const download = panel.waitForEvent('download');
  await panel.getByTestId('logs-export').click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray().then((b) => Buffer.concat(b).toString('utf8'));
  expect(text).toContain('"span": "llm.transform"');
  expect(text).not.toContain(key);
});

test.describe('live docs for MCP packs', () => {
  let mcp: RunningMcpServer;
  test.beforeAll(async () => {
    mcp = await startMcpServer({ instructions: 'Demo server for the docs page.' });
  });
  test.afterAll(async () => mcp?.close());

  test('ot.help links an MCP pack to a page that exists and shows its tools from their schemas', async ({
    panel,
    context,
    extensionId,
  }) => {
    await panelRequest(panel, { type: 'config.save', yaml: `servers:\n  demo: {url: "${mcp.url}"}\n` });
    const detail = await panelRequest<{ docsUrl: string }>(panel, { type: 'help.tool', name: 'demo.echo' });
    expect(detail.docsUrl).toBe(`chrome-extension://${extensionId}/src/docs/index.html?pack=demo`);
    const help = await panelRequest<RunReply>(panel, { type: 'command.run', text: 'ot.help(query="demo")' });
    expect(help.output).toContain(`chrome-extension://${extensionId}/src/docs/index.html?pack=demo`);

    const page = await context.newPage();
    await page.goto(detail.docsUrl);
    await expect(page.locator('h1')).toHaveText('The demo pack');
    await expect(page.locator('h2#echo')).toContainText('demo.echo');
    await expect(page.getByText('Demo server for the docs page.')).toBeVisible();
    // Its navigation leads to bundled pages that exist.
    await page.getByRole('link', { name: 'tabs', exact: true }).click();
    await expect(page.locator('h1')).toHaveText('The tabs pack');
    // A pack that is not there says so instead of a blank page.
    await page.goto(`chrome-extension://${extensionId}/src/docs/index.html?pack=nope`);
    await expect(page.getByTestId('docs-status')).toContainText('Otto has no pack named "nope"');
    await page.close();
    await panelRequest(panel, { type: 'config.save', yaml: '' });
  });
});
