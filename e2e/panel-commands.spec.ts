/**
 * Issue 7 e2e, "In the panel": command mode in the composer (commands run directly — no model, no key — and show in
 * a command card), history recall, cancelling, and the help browser. Screenshots go to e2e-artifacts/screenshots/.
 */
import http from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/**
 * No API key at all, the model API pointed at the fake server (so any model request would be seen in its log),
 * and a fresh panel at side-panel size.
 */
async function noKey(panel: Page, api: FakeApi, yaml = ''): Promise<void> {
  await panel.setViewportSize({ width: 400, height: 680 });
  await panelRequest(panel, {
    type: 'config.save',
    yaml: `agent:\n  base_url: ${api.url}\n  model: gpt-test\n${yaml}`,
  });
  await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  expect(await panelRequest(panel, { type: 'secrets.get_names' })).toMatchObject({ names: [] });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
}

async function type(panel: Page, text: string): Promise<void> {
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
}

const cards = (panel: Page) => panel.getByTestId('command-card');

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test('with no API key, ot.tools(info="list") runs as a command card and makes no model request', async ({
  panel,
  fakeApi,
}) => {
  await noKey(panel, fakeApi);
  const before = fakeApi.requests.length;
  const input = panel.getByTestId('chat-input');
  await input.fill('ot.tools(info="list")');
  // The composer knows it is a command before it is sent.
  await expect(input).toHaveAttribute('data-mode', 'command');
  await expect(panel.getByTestId('composer-hint')).toContainText('without the model');
  await expect(panel.getByTestId('chat-send')).toHaveText('Run');
  await input.press('Enter');

  const card = cards(panel);
  await expect(card).toHaveAttribute('data-status', 'ok');
  await expect(card.getByTestId('command-text')).toHaveText('ot.tools(info="list")');
  const output = card.getByTestId('command-output');
  await expect(output).toContainText('dom.click');
  await expect(card.getByTestId('command-duration')).toHaveText(/^\d+(\.\d)? (ms|s)$/);
  await expect(card).toContainText('1 tool call');
  // Long output is clipped, with the whole of it one click away.
  await expect(input).toHaveValue('');
  await expect(input).toBeFocused();
  await expect(output).not.toContainText('tabs.list');
  await card.getByTestId('command-expand').click();
  await expect(card.getByTestId('command-expand')).toHaveText('Show less');
  for (const name of ['ot.help', 'ot.tools', 'tabs.list', 'llm.transform']) await expect(output).toContainText(name);
  // Nothing went to the model, and nothing became a chat message.
  expect(fakeApi.requests.length).toBe(before);
  await expect(panel.getByTestId('message-user')).toHaveCount(0);
  await expect(panel.getByTestId('run-status')).toHaveAttribute('data-status', 'idle');

  // Command cards are panel view state: they come back when the panel reloads.
  await panel.reload();
  await expect(cards(panel)).toHaveCount(1);
  await expect(cards(panel)).toHaveAttribute('data-status', 'ok');
  await cards(panel).getByTestId('command-expand').click();
  await expect(cards(panel).getByTestId('command-output')).toContainText('tabs.list');
  expect(fakeApi.requests.length).toBe(before);
});

test('with OpenAI and no key, the setup card offers commands, and they run', async ({ panel, fakeApi }) => {
  await noKey(panel, fakeApi);
  await panelRequest(panel, { type: 'config.save', yaml: 'agent:\n  base_url: https://api.openai.com/v1\n' });
  await panel.reload();
  const setup = panel.getByTestId('setup-card');
  await expect(setup).toBeVisible();
  await setup.getByRole('button', { name: 'ot.tools(info="list")' }).click();
  await expect(panel.getByTestId('chat-input')).toHaveValue('ot.tools(info="list")');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(cards(panel)).toHaveAttribute('data-status', 'ok');
  await expect(cards(panel).getByTestId('command-output')).toContainText('dom.click');
  await expect(panel.getByTestId('error-banner')).toHaveCount(0);
  // The help browser and settings need no key either.
  await panel.getByTestId('open-help').click();
  await expect(panel.locator('[data-testid="help-result"][data-kind="pack"]').first()).toBeVisible();
  await panel.getByTestId('open-settings').click();
  await expect(panel.getByTestId('settings')).toBeVisible();
  expect(fakeApi.requests.length).toBe(0);
});

test('/help tabz shows fuzzy results, with docs links to the bundled reference', async ({ panel, fakeApi }) => {
  await noKey(panel, fakeApi);
  const before = fakeApi.requests.length;
  await type(panel, '/help tabz');
  const card = cards(panel);
  await expect(card).toHaveAttribute('data-status', 'ok');
  await expect(card).toHaveAttribute('data-kind', 'help');
  await expect(card.getByTestId('command-source')).toContainText('ot.help(query="tabz")');
  const out = card.getByTestId('command-output');
  await expect(out.locator('h1')).toContainText('Search results for "tabz"');
  await expect(out).toContainText('tabs.list');
  await expect(out).toContainText('List open tabs');
  expect(fakeApi.requests.length).toBe(before);
  await type(panel, '/help tabs.list');
  await expect(cards(panel)).toHaveCount(2);
  const more = cards(panel).nth(1).getByTestId('command-expand');
  if (await more.count()) await more.click();
  const docs = cards(panel)
    .nth(1)
    .getByRole('link', { name: /docs\/tools\/tabs\.html/ });
  await expect(docs).toHaveAttribute('href', /^chrome-extension:\/\/[a-p]{32}\/docs\/tools\/tabs\.html$/);
  await expect(docs).toHaveAttribute('target', '_blank');
  await shot(panel, 'command-help');
});

test('a typo in a command shows the line and column, and points at it', async ({ panel, fakeApi }) => {
  await noKey(panel, fakeApi);
  await type(panel, 'tabs.lst()');
  const unknown = cards(panel).first();
  await expect(unknown).toHaveAttribute('data-status', 'error');
  await expect(unknown.getByTestId('command-error')).toHaveText(
    'line 1, column 1: unknown tool \'tabs.lst\'; search with ot.help(query="tabs.lst")',
  );

  await panel.getByTestId('chat-input').fill('ot.version()\not.help(query="x"');
  await panel.getByTestId('chat-input').press('Enter');
  const syntax = cards(panel).nth(1);
  await expect(syntax).toHaveAttribute('data-status', 'error');
  const error = syntax.getByTestId('command-error');
  await expect(error).toHaveAttribute('data-line', '2');
  await expect(error).toHaveAttribute('data-column', '18');
  await expect(error).toContainText('line 2, column 18:');
  await expect(syntax.locator('.command-pointer')).toHaveText(`ot.help(query="x"\n${' '.repeat(17)}^`);
  await shot(panel, 'command-error');
});

test('Up recalls commands and messages; Esc cancels a running command', async ({ panel, fakeApi }) => {
  // A page that takes 2 s to answer keeps the first statement busy long enough to cancel the program.
  const slow = http.createServer((_req, res) => setTimeout(() => res.end('<title>slow</title>slow'), 2000));
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow-command`;
  try {
    await noKey(panel, fakeApi);
    const input = panel.getByTestId('chat-input');
    await type(panel, 'ot.version()');
    await expect(cards(panel)).toHaveAttribute('data-status', 'ok');
    await expect(cards(panel).getByTestId('command-output')).toHaveText('0.1.0');
    await type(panel, '/help tabs');
    await expect(cards(panel)).toHaveCount(2);

    await input.press('ArrowUp');
    await expect(input).toHaveValue('/help tabs');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('ot.version()');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('/help tabs');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('');
    await input.press('ArrowUp');
    await input.press('ArrowUp');
    await input.press('Enter');
    await expect(cards(panel)).toHaveCount(3);
    await expect(cards(panel).nth(2).getByTestId('command-text')).toHaveText('ot.version()');

    await type(panel, `t = tabs.open(url="${slowUrl}", active=False)\ntabs.list()`);
    const running = cards(panel).nth(3);
    await expect(running).toHaveAttribute('data-status', 'running');
    await expect(panel.getByTestId('chat-stop')).toBeVisible();
    await expect(input).toHaveAttribute('placeholder', /Esc to cancel/);
    await panel.keyboard.press('Escape');
    await expect(running).toHaveAttribute('data-status', 'cancelled', { timeout: 15_000 });
    await expect(panel.getByTestId('chat-send')).toBeVisible();
    await expect(input).toBeFocused();
  } finally {
    slow.closeAllConnections();
    await new Promise((r) => slow.close(r));
    for (const p of panel.context().pages()) if (p.url().startsWith(slowUrl)) await p.close();
  }
});

test('the help browser finds tabs.list with a typo, shows its detail, and Try it fills the input', async ({
  panel,
  fakeApi,
  extensionId,
}) => {
  await noKey(panel, fakeApi);
  await panel.getByTestId('open-help').click();
  const view = panel.getByTestId('help-view');
  await expect(view).toBeVisible();
  // Browsing: packs → tools.
  await view.locator('[data-testid="help-result"][data-kind="pack"][data-name="tabs"]').click();
  await expect(view.locator('[data-testid="help-result"][data-name="tabs.open"]')).toBeVisible();
  await view.getByRole('button', { name: '← All packs' }).click();

  // Searching, with a typo.
  await panel.getByTestId('help-search').fill('tabz.lst');
  const hit = view.locator('[data-testid="help-result"][data-kind="tool"][data-name="tabs.list"]');
  await expect(hit).toBeVisible();
  await shot(panel, 'help-search');
  await hit.click();
  const detail = panel.getByTestId('help-detail');
  await expect(detail).toHaveAttribute('data-tool', 'tabs.list');
  await expect(detail.getByTestId('help-signature')).toContainText('tabs.list(');
  await expect(detail.getByTestId('help-docs')).toHaveAttribute(
    'href',
    `chrome-extension://${extensionId}/docs/tools/tabs.html`,
  );
  await expect(detail.getByTestId('help-docs')).toHaveAttribute('target', '_blank');
  await shot(panel, 'help');

  // A tool with arguments shows them.
  await detail.getByTestId('help-back').click();
  await panel.getByTestId('help-search').fill('tabs open');
  await view.locator('[data-testid="help-result"][data-kind="tool"][data-name="tabs.open"]').click();
  await expect(detail.getByTestId('help-signature')).toHaveText('tabs.open(url: str, active: bool = True)');
  await expect(detail.getByTestId('help-params')).toContainText('url');
  await shot(panel, 'help-detail');
  await detail.getByTestId('help-back').click();
  await view.locator('[data-testid="help-result"][data-kind="tool"][data-name="tabs.list"]').click();

  const example = (await detail.getByTestId('help-example').first().textContent())!;
  expect(example).toContain('tabs.list(');
  await detail.getByTestId('help-try').click();
  await expect(panel.getByTestId('help-view')).toHaveCount(0);
  const input = panel.getByTestId('chat-input');
  await expect(input).toHaveValue(example);
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute('data-mode', 'command');
  await input.press('Enter');
  await expect(cards(panel)).toHaveAttribute('data-status', 'ok');

  // The docs link opens the bundled page.
  await panel.getByTestId('open-help').click();
  await panel.getByTestId('help-search').fill('tabs.list');
  await panel.locator('[data-testid="help-result"][data-name="tabs.list"]').click();
  const [doc] = await Promise.all([panel.context().waitForEvent('page'), panel.getByTestId('help-docs').click()]);
  await expect(doc.locator('h1')).toHaveText('The tabs pack');
  await doc.close();
});

test('help and commands controls have accessible names', async ({ panel, fakeApi }) => {
  await noKey(panel, fakeApi);
  await type(panel, 'ot.version()');
  await expect(cards(panel)).toHaveAttribute('data-status', 'ok');
  for (const open of ['', 'open-help', 'open-stats'] as const) {
    if (open) await panel.getByTestId(open).click();
    await panel.waitForTimeout(200);
    const unnamed = await panel.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('button, input:not([type=hidden]), textarea, select, a[href]')]
        .filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim() || el.getAttribute('title')))
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed, `unnamed controls (${open || 'chat'})`).toEqual([]);
  }
});
