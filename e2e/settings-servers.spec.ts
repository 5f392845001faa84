/**
 * Issue 8 e2e: the "MCP servers" settings section, with a real MCP server (the official SDK's server side,
 * test/support/mcp-server) on loopback. A server is added through the form (Test first, then Save) and shows
 * connected with its tool count; disabling it takes its tools out of ot.tools; Test on a wrong URL shows the exact
 * error and saves nothing; Remove asks inside the UI, then drops the entry (comments in the YAML kept).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import { startMcpServer, type RunningMcpServer } from '../test/support/mcp-server/index.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });

const BASE = '# my settings\nagent:\n  model: gpt-5-mini # keep this comment\n';

/** The row's summary: the count and what the tools cost per model request. */
const EIGHT_TOOLS = /^8 tools · about [\d,]+ tokens per request$/;
let mcp: RunningMcpServer;
test.beforeAll(async () => {
  mcp = await startMcpServer();
});
test.afterAll(async () => {
  await mcp?.close();
});

const savedYaml = async (page: Page) => (await panelRequest<{ yaml: string }>(page, { type: 'config.get' })).yaml;
const toolList = async (page: Page) =>
  (await panelRequest<{ ok: boolean; output?: string }>(page, { type: 'command.run', text: 'ot.tools(info="list")' }))
    .output ?? '';

test.beforeEach(async ({ panel }) => {
  await panelRequest(panel, { type: 'config.save', yaml: BASE });
  await panelRequest(panel, { type: 'secrets.save', yaml: 'DEMO_TOKEN: tok-123\n' });
});

async function optionsPage(panel: Page, extensionId: string): Promise<Page> {
  const page = await panel.context().newPage();
  await page.setViewportSize({ width: 820, height: 1100 });
  await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await expect(page.getByTestId('servers')).toBeVisible();
  return page;
}

/** The panel's own settings view at the narrowest panel width. */
async function panelServers(panel: Page): Promise<void> {
  await panel.setViewportSize({ width: 360, height: 900 });
  await panel.reload();
  await panel.getByTestId('open-settings').click();
  await expect(panel.getByTestId('servers')).toBeVisible();
}

const addForm = (page: Page) => page.getByRole('form', { name: 'Add a server' });
const row = (page: Page, name: string) => page.locator(`[data-testid="server-row"][data-name="${name}"]`);

test('adds a real MCP server through the form: Test shows its tool count, Save connects it', async ({
  panel,
  extensionId,
}) => {
  const page = await optionsPage(panel, extensionId);
  await expect(page.getByTestId('servers')).toContainText('No servers configured.');
  const form = addForm(page);
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('demo');
  await form.getByRole('textbox', { name: 'URL' }).fill(mcp.url);
  await form.getByRole('textbox', { name: /Headers/ }).fill('X-Otto-Test: ${DEMO_TOKEN}');
  await form.getByRole('spinbutton', { name: 'Timeout (s)' }).fill('20');

  await form.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(page.getByTestId('server-test-result')).toHaveText('Connected over Streamable HTTP: 8 tools');
  await expect(page.getByTestId('server-test-result')).toHaveAttribute('data-ok', 'true');
  // Testing saves nothing.
  expect(await savedYaml(panel)).toBe(BASE);

  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('server-save-result')).toHaveText('demo saved.');
  const demo = row(page, 'demo');
  await expect(demo).toHaveAttribute('data-state', 'connected');
  await expect(demo.getByTestId('server-state')).toHaveText('connected');
  await expect(demo).toContainText('streamable-http');
  await expect(demo.getByTestId('server-tool-count')).toHaveText(EIGHT_TOOLS);
  await demo.getByTestId('server-tool-count').click();
  await expect(demo.locator('details code', { hasText: 'echo' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');

  // Stored with the user's comments kept; the secret stays a reference; the YAML editor shows the new text.
  const yaml = await savedYaml(panel);
  expect(yaml).toContain('# keep this comment');
  expect(yaml).toContain(mcp.url);
  expect(yaml).toContain('${DEMO_TOKEN}');
  expect(yaml).not.toContain('tok-123');
  await expect(page.getByTestId('config-yaml')).toHaveValue(yaml);
  expect(await toolList(panel)).toContain('demo.echo');

  // A second server of the same name is refused before any request.
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('demo');
  await form.getByRole('textbox', { name: 'URL' }).fill(mcp.url);
  await expect(form).toContainText('A server named demo is already configured.');
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();

  // Per-server Test and Reconnect.
  await demo.getByRole('button', { name: 'Test demo' }).click();
  await expect(demo.getByTestId('server-result')).toHaveText('Connected over Streamable HTTP: 8 tools');
  await demo.getByRole('button', { name: 'Reconnect demo' }).click();
  await expect(demo.getByTestId('server-result')).toHaveText('demo reconnected.');
  await expect(demo).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('servers').screenshot({ path: path.join(SHOTS, 'settings-servers.png') });
  await page.close();
});

test('disabling a server in the panel settings shows it disabled and its tools leave ot.tools', async ({ panel }) => {
  await panelRequest(panel, { type: 'servers.set', name: 'demo', url: mcp.url });
  expect(await toolList(panel)).toContain('demo.echo');
  await panelServers(panel);
  const demo = row(panel, 'demo');
  await expect(demo).toHaveAttribute('data-state', 'connected');
  await expect(demo.getByTestId('server-tool-count')).toHaveText(EIGHT_TOOLS);

  const toggle = demo.getByRole('checkbox', { name: 'demo enabled' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(demo).toHaveAttribute('data-state', 'disabled');
  await expect(demo.getByTestId('server-state')).toHaveText('disabled');
  await expect(demo.getByTestId('server-result')).toHaveText('demo disabled.');
  await expect(demo.getByRole('button', { name: 'Reconnect demo' })).toBeDisabled();
  expect(await toolList(panel)).not.toContain('demo.echo');
  expect(await savedYaml(panel)).toMatch(/enabled: false/);
  // Readable at 360 px: nothing wider than the view.
  const overflow = await panel.getByTestId('servers').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await panel.screenshot({ path: path.join(SHOTS, 'settings-servers-panel.png') });

  await toggle.check();
  await expect(demo).toHaveAttribute('data-state', 'connected');
  await expect(demo.getByTestId('server-tool-count')).toHaveText(EIGHT_TOOLS);
  expect(await toolList(panel)).toContain('demo.echo');
});

test('Test on a wrong URL shows the exact error and saves nothing', async ({ panel, extensionId }) => {
  const page = await optionsPage(panel, extensionId);
  const form = addForm(page);
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('broken');
  await form.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:9/mcp');

  // A malformed header line is caught in the form: no request at all.
  await form.getByRole('textbox', { name: /Headers/ }).fill('no colon here');
  await expect(form).toContainText('Header line 1: write it as "Name: value"');
  await expect(form.getByRole('button', { name: 'Test', exact: true })).toBeDisabled();
  await form.getByRole('textbox', { name: /Headers/ }).fill('');

  const direct = await panelRequest<{ ok: boolean; message: string }>(panel, {
    type: 'servers.test',
    url: 'http://127.0.0.1:9/mcp',
  });
  expect(direct.ok).toBe(false);
  await form.getByRole('button', { name: 'Test', exact: true }).click();
  const result = page.getByTestId('server-test-result');
  await expect(result).toHaveAttribute('data-ok', 'false');
  await expect(result).toHaveAttribute('role', 'alert');
  await expect(result).toHaveText(direct.message);
  expect(direct.message.length).toBeGreaterThan(10);

  expect(await savedYaml(panel)).toBe(BASE);
  expect(await panelRequest<{ servers: unknown[] }>(panel, { type: 'servers.list' })).toEqual({ servers: [] });
  await expect(row(page, 'broken')).toHaveCount(0);
  await page.close();
});

test('Remove asks inside the UI, then drops the server from the config and its tools', async ({
  panel,
  extensionId,
}) => {
  await panelRequest(panel, { type: 'servers.set', name: 'demo', url: mcp.url });
  const page = await optionsPage(panel, extensionId);
  const demo = row(page, 'demo');
  await expect(demo).toHaveAttribute('data-state', 'connected');
  page.on('dialog', () => {
    throw new Error('no browser dialogs');
  });

  await demo.getByRole('button', { name: 'Remove demo', exact: true }).click();
  const confirm = demo.getByRole('group', { name: 'Confirm removing demo' });
  await expect(confirm).toContainText('Remove demo?');
  await confirm.getByRole('button', { name: 'Keep demo' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await savedYaml(panel)).toContain('demo:');

  await demo.getByRole('button', { name: 'Remove demo', exact: true }).click();
  await demo.getByRole('button', { name: 'Yes, remove demo' }).click();
  await expect(demo).toHaveCount(0);
  await expect(page.getByTestId('servers')).toContainText('No servers configured.');
  const yaml = await savedYaml(panel);
  expect(yaml).not.toContain('demo');
  expect(yaml).toContain('# keep this comment');
  expect(await toolList(panel)).not.toContain('demo.echo');
  await page.close();
});
