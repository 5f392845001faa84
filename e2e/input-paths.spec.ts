/**
 * Issue 34 e2e: bad input in the panel and the settings, with the built extension in real Chromium. A 1 MB message
 * is refused before any request and stays in the box; bad MCP URLs get a reason; deeply nested YAML gets one
 * clear error; a secret with ':' and a line break round-trips; a key with a zero-width character is refused; a
 * 10,000-snippet config stays responsive in the editor, saves, and works; a runaway snippet is cancelled within a
 * second while the worker keeps answering.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { test, expect, panelRequest } from './support/fixtures.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';

/** No key, the model API at the fake server (any model request would show in its log), a fresh panel. */
async function freshPanel(panel: Page, api: FakeApi, yaml = ''): Promise<void> {
  await panel.setViewportSize({ width: 400, height: 800 });
  await panelRequest(panel, {
    type: 'config.save',
    yaml: `agent:\n  base_url: ${api.url}\n  model: gpt-test\n${yaml}`,
  });
  await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
}

async function optionsPage(panel: Page, extensionId: string): Promise<Page> {
  const page = await panel.context().newPage();
  await page.setViewportSize({ width: 900, height: 1000 });
  await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await expect(page.getByTestId('settings')).toBeVisible();
  return page;
}

const cards = (panel: Page) => panel.getByTestId('command-card');

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test('a 1 MB message is refused in the composer before any request, and the text stays', async ({ panel, fakeApi }) => {
  await freshPanel(panel, fakeApi);
  const input = panel.getByTestId('chat-input');
  const text = 'word '.repeat(200_000).trim();
  await input.fill(text);
  await expect(panel.getByTestId('composer-limit')).toHaveText(
    'This message is 999,999 characters long; Otto takes at most 200,000 (about 50 pages) in one message. Shorten it, or send it in parts.',
  );
  await expect(panel.getByTestId('chat-send')).toBeDisabled();
  await input.press('Enter');
  await expect(input).toHaveValue(text);
  expect(fakeApi.requests).toHaveLength(0);
  await expect(panel.getByTestId('conversation-list').getByRole('listitem')).toHaveCount(0);
  // Shortened under the limit, the hint goes away and it can be sent.
  await input.fill('short');
  await expect(panel.getByTestId('composer-limit')).toHaveCount(0);
  await expect(panel.getByTestId('chat-send')).toBeEnabled();
});

test('the MCP form and the YAML say why a URL is wrong', async ({ panel, fakeApi, extensionId }) => {
  await freshPanel(panel, fakeApi);
  const page = await optionsPage(panel, extensionId);
  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('local');
  const url = form.getByRole('textbox', { name: 'URL' });
  await url.fill('http://[::1');
  await expect(form.locator('.error-text')).toHaveText(
    'The URL has an IPv6 address without its closing ]: write it as [::1].',
  );
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  await url.fill('http://300.300.300.300/mcp');
  await expect(form.locator('.error-text')).toHaveText(
    'The URL has 300.300.300.300, which is not an IP address: each of its four numbers is at most 255.',
  );
  await expect(form).not.toContainText('undefined');

  // In the YAML: a URL without a scheme is refused at save, with the reason at its line.
  const editor = page.getByTestId('config-yaml');
  const before = await editor.inputValue();
  await editor.fill(`${before}servers:\n  local:\n    url: localhost:8080/mcp\n`);
  await expect(page.getByTestId('config-errors')).toHaveText(
    'line 6, column 10: servers.local.url: has no http:// or https:// at the start: write http://localhost:8080/mcp (or https://…)',
  );
  await expect(page.getByTestId('config-save')).toBeDisabled();
  // The worker refuses it the same way.
  const refused = await panel.evaluate(
    (yaml) =>
      (globalThis as unknown as { ottoPanel: { request(b: unknown): Promise<unknown> } }).ottoPanel
        .request({ type: 'config.save', yaml })
        .then(
          () => 'saved',
          (e: Error) => e.message,
        ),
    'servers:\n  local:\n    url: localhost:8080/mcp\n',
  );
  expect(refused).toBe(
    'line 3, column 10: servers.local.url: has no http:// or https:// at the start: write http://localhost:8080/mcp (or https://…)',
  );
  await page.close();
});

test('deeply nested YAML gets one clear error, not a stack overflow per column', async ({
  panel,
  fakeApi,
  extensionId,
}) => {
  await freshPanel(panel, fakeApi);
  const page = await optionsPage(panel, extensionId);
  const editor = page.getByTestId('config-yaml');
  await editor.fill(`version: 2\nx: ${'['.repeat(1186)}`);
  const errors = page.getByTestId('config-errors').getByRole('listitem');
  await expect(errors).toHaveCount(1);
  await expect(errors).toHaveText(
    'line 2, column 68: nested more than 64 levels deep ([ or { inside each other): settings never need that many; remove the extra brackets or indentation',
  );
  await expect(page.getByTestId('config-errors')).not.toContainText('call stack');
  await page.close();
});

test('a secret with ":" and a line break round-trips; a key with a zero-width character is refused', async ({
  panel,
  fakeApi,
  extensionId,
  serviceWorker,
}) => {
  await freshPanel(panel, fakeApi);
  // A password box cannot hold a line break, so the value goes through the same request the form sends.
  await panelRequest(panel, { type: 'secrets.update', set: { PEM: 'user: me\npass: x' }, remove: [] });
  const page = await optionsPage(panel, extensionId);
  const secrets = page.getByTestId('secrets');
  // The next "Add secret" still works (the stored text still parses).
  await secrets.getByLabel('Secret name').fill('NEXT');
  await secrets.getByLabel('Secret value').fill('plain');
  await secrets.getByRole('button', { name: 'Add secret' }).click();
  await expect(page.getByTestId('secrets-result')).toHaveText('NEXT saved.');
  const stored = await serviceWorker.evaluate(
    async () => (await chrome.storage.local.get('secrets')).secrets as string,
  );
  expect(parseYaml(stored)).toEqual({ PEM: 'user: me\npass: x', NEXT: 'plain' });

  // A pasted key with a zero-width space: refused when saved, naming the character; nothing stored.
  await secrets.getByLabel('Secret name').fill('OPENAI_API_KEY');
  await secrets.getByLabel('Secret value').fill('sk-test\u200b123');
  await secrets.getByRole('button', { name: 'Add secret' }).click();
  await expect(page.getByTestId('secrets-result')).toHaveText(
    'OPENAI_API_KEY holds an invisible character (zero-width space, U+200B) at position 8: it probably came along with a paste. Copy the value again from its source, or type it, then save.',
  );
  expect(await panelRequest(panel, { type: 'secrets.get_names' })).toEqual({ names: ['NEXT', 'PEM'] });
  await page.close();
});

test('a 10,000-snippet config: the editor stays responsive, it saves, and its snippets run', async ({
  panel,
  fakeApi,
  extensionId,
}) => {
  // 35-80 s on a quiet machine; at a load of 20 the save alone took 22 s and the test ran out at 120 s.
  test.setTimeout(240_000);
  await freshPanel(panel, fakeApi);
  const page = await optionsPage(panel, extensionId);
  const editor = page.getByTestId('config-yaml');
  const before = await editor.inputValue();
  const snippets = Array.from(
    { length: 10_000 },
    (_, i) =>
      `  s${i}:\n    description: snippet ${i}, a version check with a description long enough to pass 1 MB\n    body: ot.version()\n`,
  ).join('');
  const big = `${before}snippets:\n${snippets}`;
  expect(big.length).toBeGreaterThan(1_000_000); // over the old limit of the port
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  // Pasted at once (Playwright's fill types through the page, which is not what a paste costs).
  await editor.evaluate((el: HTMLTextAreaElement, text) => {
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  await expect(page.getByTestId('config-errors')).toHaveCount(0);
  await expect(page.getByTestId('config-checking')).toHaveCount(0, { timeout: 20_000 });
  // Real keystrokes at the end of the text: from keydown to the next painted frame, validation waiting for a pause.
  // The same keystrokes in a plain textarea holding the same text are the baseline (the machine may be loaded).
  const typingMs = async (testId: string): Promise<number> => {
    await page.getByTestId(testId).evaluate((el: HTMLTextAreaElement) => {
      const w = window as unknown as { keyTimes: number[] };
      w.keyTimes = [];
      let t0 = 0;
      el.addEventListener('keydown', () => (t0 = performance.now()));
      el.addEventListener('input', () =>
        requestAnimationFrame(() => setTimeout(() => w.keyTimes.push(performance.now() - t0), 0)),
      );
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    });
    for (let i = 0; i < 5; i++) await page.keyboard.type(i === 4 ? '\n' : ' ');
    await expect.poll(() => page.evaluate(() => (window as unknown as { keyTimes: number[] }).keyTimes.length)).toBe(5);
    return page.evaluate(() => (window as unknown as { keyTimes: number[] }).keyTimes.sort((a, b) => a - b)[2]!);
  };
  const keystrokeMs = await typingMs('config-yaml');
  await page.evaluate((text) => {
    const plain = document.createElement('textarea');
    plain.dataset.testid = 'plain';
    plain.value = text;
    document.body.append(plain);
  }, big);
  const plainMs = await typingMs('plain');
  await page.evaluate(() => document.querySelector('[data-testid="plain"]')?.remove());
  await page.getByTestId('config-yaml').focus();
  // The check after a pause runs on a background thread: the page keeps painting while the 1 MB config is checked.
  expect(workers.filter((u) => /\/assets\/yamlCheck\.worker\.js$/.test(u))).toHaveLength(1);
  const checkGapMs = await page.evaluate(async () => {
    const el = document.querySelector<HTMLTextAreaElement>('[data-testid="config-yaml"]')!;
    const checking = () => document.querySelector('[data-testid="config-checking"]') !== null;
    await new Promise((r) => requestAnimationFrame(r));
    el.value += ' ';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    // From the first frame after the edit until the check's answer is shown.
    await new Promise((r) => requestAnimationFrame(r));
    let last = performance.now();
    let longest = 0;
    while (checking()) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
    return longest;
  });
  console.log(`longest frame gap while the 1 MB config was checked: ${checkGapMs.toFixed(0)} ms`);
  // On the page's own thread the check held it about a second (more under load); a textarea keystroke is the scale.
  expect(checkGapMs).toBeLessThan(Math.max(400, plainMs * 3));
  console.log(
    `yaml editor keystroke with a ${(big.length / 1e6).toFixed(2)} MB config: ${keystrokeMs.toFixed(0)} ms; plain textarea: ${plainMs.toFixed(0)} ms (medians of 5)`,
  );
  // Before: about a second per keystroke (the whole config parsed on each); now about what a plain textarea costs.
  expect(keystrokeMs).toBeLessThan(Math.max(300, plainMs * 2.5));
  await expect(page.getByTestId('config-save')).toBeEnabled({ timeout: 20_000 });
  const started = Date.now();
  await page.getByTestId('config-save').click();
  await expect(page.getByTestId('config-message')).toHaveText('Saved.', { timeout: 60_000 });
  console.log(`save of the 10,000-snippet config: ${Date.now() - started} ms`);

  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
  await panel.getByTestId('chat-input').fill('$s9999');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(cards(panel)).toHaveAttribute('data-status', 'ok', { timeout: 30_000 });
  await expect(cards(panel).getByTestId('command-output')).toHaveText('0.1.0');
  await page.close();
});

test('a runaway snippet stops by itself; a long one is cancelled within a second while the worker keeps answering', async ({
  panel,
  fakeApi,
}) => {
  // A page that never answers: the long snippet's last call waits on it.
  const hang = http.createServer(() => undefined);
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/never`;
  try {
    // `long`: 1,500 calls, then (one level down, through ot.run) a fetch that never ends.
    const calls = Array.from({ length: 1500 }, () => '      ot.version()\n').join('');
    await freshPanel(
      panel,
      fakeApi,
      `snippets:\n  loop:\n    body: ot.run(code="$loop")\n  long:\n    body: |\n${calls}      ot.run(code="web.fetch(url=\\"${hangUrl}\\")")\n`,
    );

    // A snippet that starts itself stops by itself, at once, with one clear message.
    await panel.getByTestId('chat-input').fill('$loop');
    await panel.getByTestId('chat-input').press('Enter');
    await expect(cards(panel).first()).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
    await expect(cards(panel).first().getByTestId('command-error')).toContainText(
      'stopped: programs nested more than 8 deep ($loop → ot.run: $loop → ot.run: $loop → ot.run: $loop → …)',
    );

    await panel.getByTestId('chat-input').fill('$long');
    await panel.getByTestId('chat-input').press('Enter');
    const running = cards(panel).nth(1);
    await expect(running).toHaveAttribute('data-status', 'running');
    // The worker answers while the program runs its calls.
    const pingMs = await panel.evaluate(async () => {
      const t0 = performance.now();
      await (globalThis as unknown as { ottoPanel: { request(b: unknown): Promise<unknown> } }).ottoPanel.request({
        type: 'ping',
      });
      return performance.now() - t0;
    });
    expect(pingMs).toBeLessThan(1000);
    await expect(running).toHaveAttribute('data-status', 'running');
    const t0 = Date.now();
    await panel.keyboard.press('Escape');
    await expect(running).toHaveAttribute('data-status', 'cancelled', { timeout: 5_000 });
    const cancelMs = Date.now() - t0;
    console.log(`long snippet: ping while running ${pingMs.toFixed(0)} ms, cancelled in ${cancelMs} ms`);
    expect(cancelMs).toBeLessThan(1000);
    // And the worker still runs commands.
    await panel.getByTestId('chat-input').fill('ot.version()');
    await panel.getByTestId('chat-input').press('Enter');
    await expect(cards(panel).nth(2)).toHaveAttribute('data-status', 'ok');
  } finally {
    hang.closeAllConnections();
    await new Promise((r) => hang.close(r));
  }
});
