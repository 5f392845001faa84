/**
 * Issue 4 e2e: settings, in the options page and in the panel's settings view. The YAML editor refuses invalid
 * text (line:column, nothing saved), the forms keep the user's comments, secrets stay masked and never come back
 * from the worker, and "Test connection" makes one request and reports the exact, redacted problem.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectToFakeApi } from './support/agent.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });

const savedYaml = async (page: Page) => (await panelRequest<{ yaml: string }>(page, { type: 'config.get' })).yaml;
const secretNames = async (page: Page) =>
  (await panelRequest<{ names: string[] }>(page, { type: 'secrets.get_names' })).names;

/** The options page, with Otto pointed at the fake API. */
async function optionsPage(panel: Page, api: FakeApi, extensionId: string, opts: { key?: string } = {}): Promise<Page> {
  await connectToFakeApi(panel, api, { ...opts, localHosts: false });
  const page = await panel.context().newPage();
  await page.setViewportSize({ width: 820, height: 1000 });
  await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await expect(page.getByTestId('settings')).toBeVisible();
  return page;
}

/** The panel's own settings view, at panel size. */
async function panelSettings(panel: Page, api: FakeApi, opts: { key?: string } = {}): Promise<void> {
  await panel.setViewportSize({ width: 400, height: 900 });
  // The settings forms are checked against exactly the YAML they write: no suite-wide approvals section.
  await connectToFakeApi(panel, api, { ...opts, localHosts: false });
  await panel.reload();
  await panel.getByRole('button', { name: 'Settings' }).click();
  await expect(panel.getByTestId('settings')).toBeVisible();
}

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test('invalid YAML shows line:column, Save stays off, and the saved config is unchanged', async ({
  panel,
  fakeApi,
}) => {
  await panelSettings(panel, fakeApi);
  const before = await savedYaml(panel);
  const editor = panel.getByTestId('config-yaml');
  await expect(editor).toHaveValue(before);

  // A wrong value: an error located at the value; Save stays off.
  await editor.fill(`${before}  max_turns: many\n`);
  const errors = panel.getByTestId('config-errors');
  await expect(errors).toContainText(/line 5, column 14: agent\.max_turns: should be a number/);
  await expect(panel.getByTestId('config-save')).toBeDisabled();
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  await panel.getByTestId('config-errors').getByRole('button').first().click();
  await expect(editor).toBeFocused();
  await panel.getByTestId('config-yaml').evaluate((el: HTMLTextAreaElement) => el.scrollIntoView());
  await panel.screenshot({ path: path.join(SHOTS, 'settings-invalid.png') });

  // A key this version does not know (a typo, or another version's): a warning naming it; Save stays possible.
  await editor.fill(`${before}  modle: gpt-x\n`);
  await expect(panel.getByTestId('config-warnings')).toHaveText(
    'line 5, column 3: agent.modle: not a setting this version of Otto knows; ignored',
  );
  await expect(panel.getByTestId('config-errors')).toHaveCount(0);
  await expect(panel.getByTestId('config-save')).toBeEnabled();

  // A YAML syntax error.
  await editor.fill('agent:\n  model: [unclosed\n');
  await expect(errors).toContainText(/line \d+, column \d+:/);
  await expect(panel.getByTestId('config-save')).toBeDisabled();

  // The worker refuses it too, with the same line:column, and keeps what was saved.
  const refused = await panel.evaluate(() =>
    (globalThis as unknown as { ottoPanel: { request(b: unknown): Promise<unknown> } }).ottoPanel
      .request({ type: 'config.save', yaml: 'agent:\n  max_turns: many\n' })
      .then(
        () => 'saved',
        (e: Error) => e.message,
      ),
  );
  expect(refused).toBe('line 2, column 14: agent.max_turns: should be a number, not text');
  expect(await savedYaml(panel)).toBe(before);

  // #45: text that reads as nothing (`&&`, an anchor on nothing) is not "no settings": refused in the editor and by
  // the worker, so no form edit can later fail on it in the YAML reader's words.
  await editor.fill('&&');
  await expect(errors).toHaveText(
    'line 1, column 3: the whole file: should be a map (one "key: value" per line), not empty',
  );
  await expect(panel.getByTestId('config-save')).toBeDisabled();
  const nothing = await panel.evaluate(() =>
    (globalThis as unknown as { ottoPanel: { request(b: unknown): Promise<unknown> } }).ottoPanel
      .request({ type: 'config.save', yaml: '&&' })
      .then(
        () => 'saved',
        (e: Error) => e.message,
      ),
  );
  expect(nothing).toBe('line 1, column 3: the whole file: should be a map (one "key: value" per line), not empty');
  expect(await savedYaml(panel)).toBe(before);

  // Fixing it enables Save, and the worker stores it.
  await editor.fill(`${before}  max_turns: 7\n`);
  await expect(panel.getByTestId('config-errors')).toHaveCount(0);
  await panel.getByTestId('config-save').click();
  await expect(panel.getByTestId('config-message')).toHaveText('Saved.');
  expect(await savedYaml(panel)).toContain('max_turns: 7');
});

test('the connection form keeps comments, presets fill the base URL, and the key stays masked', async ({
  panel,
  fakeApi,
  extensionId,
}) => {
  const page = await optionsPage(panel, fakeApi, extensionId);
  await panelRequest(panel, {
    type: 'config.save',
    yaml: `# my settings\nagent:\n  base_url: ${fakeApi.url} # local fake\n  model: gpt-test\n`,
  });
  await page.reload();
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue(fakeApi.url);

  await page.getByLabel('Base URL preset').selectOption({ label: 'Ollama' });
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue('http://127.0.0.1:11434/v1');
  await page.getByLabel('Base URL', { exact: true }).fill(fakeApi.url);
  await page.getByLabel('Model', { exact: true }).fill('gpt-test-2');
  await page.getByTestId('settings-save-connection').click();
  await expect(page.getByTestId('settings-connection-result')).toHaveText('Connection saved.');
  const yaml = await savedYaml(panel);
  expect(yaml).toContain('# my settings');
  expect(yaml).toContain('# local fake');
  expect(yaml).toContain('model: gpt-test-2');

  const key = 'sk-options-page-key-1234567890';
  await page.getByLabel('OpenAI API key').fill(key);
  await expect(page.getByLabel('OpenAI API key')).toHaveAttribute('type', 'password');
  await page.getByTestId('settings-save-key').click();
  await expect(page.getByTestId('settings-key-result')).toHaveText('API key saved.');
  await expect(page.getByLabel('OpenAI API key')).toHaveValue('');
  await expect(page.getByLabel('OpenAI API key')).toHaveAttribute('placeholder', /saved/);
  expect(await secretNames(panel)).toContain('OPENAI_API_KEY');
  await page.reload();
  await expect(page.getByTestId('settings')).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await page.screenshot({ path: path.join(SHOTS, 'settings.png'), fullPage: true });
  await page.close();
});

test('Test connection reports success, or the exact problem without the key', async ({ panel, fakeApi }) => {
  await panelSettings(panel, fakeApi, { key: 'sk-test-connection-key-111111' });
  fakeApi.script([{ match: 'otto_ping', calls: [{ name: 'otto_ping', arguments: {} }], times: Infinity }]);
  await panel.getByTestId('settings-test').click();
  const result = panel.getByTestId('settings-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText(
    /Connected: gpt-test answered at .* over the Responses API in \d+ ms\. It called a tool, so tool use works\./,
  );
  const sent = fakeApi.responsesRequests().at(-1)!;
  expect(sent.body?.stream).toBe(true);
  expect(sent.schemaErrors ?? []).toEqual([]);

  // A preset sets the wire too: llama.cpp's server speaks Chat Completions.
  await panel.getByTestId('settings-base-url-preset').selectOption({ label: 'llama.cpp server' });
  await expect(panel.getByTestId('settings-api')).toHaveValue('chat');
  await expect(panel.getByLabel('Base URL', { exact: true })).toHaveValue('http://127.0.0.1:8080/v1');
  await panel.getByLabel('Base URL', { exact: true }).fill(fakeApi.url);
  await panel.getByTestId('settings-test').click();
  await expect(result).toContainText(/over Chat Completions in \d+ ms\. It called a tool/);
  expect(fakeApi.agentChatRequests()).toHaveLength(1);
  await panel.getByTestId('settings-api').selectOption('auto');
  await panel.screenshot({ path: path.join(SHOTS, 'settings-panel.png') });

  // A wrong key typed into the form is tested before saving; the problem is exact and the key is not in it.
  fakeApi.setExpectedKey('sk-the-right-key-222222');
  await panel.getByLabel('OpenAI API key').fill('sk-typed-but-wrong-333333');
  await panel.getByTestId('settings-test').click();
  await expect(result).toHaveAttribute('data-ok', 'false');
  await expect(result).toContainText('The API key was rejected (401). Check OPENAI_API_KEY in Settings.');
  expect(await panel.content()).not.toContain('sk-typed-but-wrong-333333</');
  await expect(result).not.toContainText('sk-typed-but-wrong');
  fakeApi.setExpectedKey(undefined);

  // Nothing listening: a network problem naming the URL.
  await panel.getByLabel('OpenAI API key').fill('');
  await panel.getByLabel('Base URL', { exact: true }).fill('http://127.0.0.1:9/v1');
  await panel.getByTestId('settings-test').click();
  await expect(result).toContainText('Could not connect to http://127.0.0.1:9/v1');
});

test('secrets are edited masked, and their values never come back from the worker', async ({ panel, fakeApi }) => {
  await panelSettings(panel, fakeApi);
  const value = 'ghp-very-secret-token-4444';
  const secrets = panel.getByTestId('secrets');
  await secrets.getByLabel('Secret name').fill('GITHUB_TOKEN');
  await secrets.getByLabel('Secret value').fill(value);
  await secrets.getByRole('button', { name: 'Add secret' }).click();
  await expect(panel.getByTestId('secrets-result')).toHaveText('GITHUB_TOKEN saved.');
  const row = secrets.getByTestId('secret-row').filter({ hasText: 'GITHUB_TOKEN' });
  await expect(row).toContainText('••••••••');
  expect(await secretNames(panel)).toEqual(expect.arrayContaining(['GITHUB_TOKEN', 'OPENAI_API_KEY']));

  await row.getByRole('button', { name: 'Replace GITHUB_TOKEN' }).click();
  await row.getByLabel('New value for GITHUB_TOKEN').fill('ghp-replaced-5555');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByTestId('secrets-result')).toHaveText('GITHUB_TOKEN replaced.');

  // Whatever the panel can ask for, no value is in it.
  const everything = JSON.stringify([
    await panelRequest(panel, { type: 'secrets.get_names' }),
    await panelRequest(panel, { type: 'config.get' }),
    await panelRequest(panel, { type: 'config.export' }),
  ]);
  expect(everything).not.toContain('ghp-replaced-5555');
  expect(await panel.content()).not.toContain('ghp-replaced-5555');

  await secrets.getByRole('button', { name: 'Remove GITHUB_TOKEN' }).click();
  await expect(panel.getByTestId('secrets-result')).toHaveText('GITHUB_TOKEN removed.');
  expect(await secretNames(panel)).not.toContain('GITHUB_TOKEN');
  // Invalid names are refused before anything is sent.
  await secrets.getByLabel('Secret name').fill('1 bad name');
  await expect(secrets.getByRole('button', { name: 'Add secret' })).toBeDisabled();
});

// Save right after an import: its own YAML check must be answered even when the editor's debounced check starts
// after it (src/ui/settings/yamlChecker.ts).
test('reset to defaults, export without secrets, import a file', async ({ panel, fakeApi }) => {
  const key = 'sk-export-config-key-666666';
  await panelSettings(panel, fakeApi, { key });
  // Someone pasted their key into the instructions: the export must not carry it.
  const yaml = `agent:\n  base_url: ${fakeApi.url}\n  model: gpt-test\n  instructions: "my key is ${key}"\n`;
  await panelRequest(panel, { type: 'config.save', yaml });
  await panel.reload();
  await panel.getByRole('button', { name: 'Settings' }).click();

  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('config-export').click()]);
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(download.suggestedFilename()).toBe('otto-config.yaml');
  expect(exported).toContain('model: gpt-test');
  expect(exported).not.toContain(key);
  expect(exported).toContain('[redacted]');

  await panel.getByTestId('config-reset').click();
  const editor = panel.getByTestId('config-yaml');
  await expect(editor).toHaveValue(/max_turns: 25/);
  await expect(editor).toHaveValue(/base_url: https:\/\/api\.openai\.com\/v1/);
  expect(await savedYaml(panel)).toBe(yaml); // not saved until Save

  await panel.getByTestId('config-import').setInputFiles({
    name: 'mine.yaml',
    mimeType: 'text/yaml',
    buffer: Buffer.from(`agent:\n  base_url: ${fakeApi.url}\n  model: imported-model\n`),
  });
  await expect(editor).toHaveValue(/model: imported-model/);
  await expect(panel.getByTestId('config-message')).toContainText('Loaded mine.yaml');
  await panel.getByTestId('config-save').click();
  await expect(panel.getByTestId('config-message')).toHaveText('Saved.');
  expect(await savedYaml(panel)).toContain('model: imported-model');
  // The connection form follows the saved config.
  await expect(panel.getByLabel('Model', { exact: true })).toHaveValue('imported-model');
});

test('approvals policy and transform settings save into the YAML', async ({ panel, fakeApi }) => {
  await panelSettings(panel, fakeApi);
  await panel.getByTestId('settings-approvals-policy').selectOption('auto');
  await panel.getByLabel(/Always allowed on these sites/).fill('https://example.com\n*.example.org');
  await panel.getByLabel('Timeout (seconds)').fill('45');
  await panel.getByLabel('Transform model').fill('gpt-5-nano');
  await panel.getByTestId('settings-save-behaviour').click();
  await expect(panel.getByTestId('settings-behaviour-result')).toHaveText('Saved.');
  const yaml = await savedYaml(panel);
  expect(yaml).toContain('policy: auto');
  expect(yaml).toMatch(/allowed_origins:\n\s+- https:\/\/example\.com\n\s+- "\*\.example\.org"/);
  expect(yaml).toContain('timeout: 45');
  expect(yaml).toContain('model: gpt-5-nano');
  await panel.getByTestId('settings-approvals-policy').selectOption('ask');
  await panel.getByLabel(/Always allowed on these sites/).fill('');
  await panel.getByTestId('settings-save-behaviour').click();
  await expect(panel.getByTestId('settings-behaviour-result')).toHaveText('Saved.');
  expect(await savedYaml(panel)).not.toContain('approvals');
});

test('first run without a key: a setup card, and a key saved there takes effect', async ({ panel }) => {
  await panel.setViewportSize({ width: 400, height: 640 });
  await panelRequest(panel, { type: 'config.save', yaml: '' });
  await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  const card = panel.getByTestId('setup-card');
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'LM Studio' })).toBeVisible();
  await card.getByLabel('OpenAI API key').fill('sk-first-run-key-777777');
  await card.getByRole('button', { name: 'Save key' }).click();
  await expect(card).toHaveCount(0);
  await expect(panel.getByTestId('empty-state')).toBeVisible();
  expect(await secretNames(panel)).toEqual(['OPENAI_API_KEY']);

  // A local server needs no key: choosing one from the card also ends the setup.
  await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  await panel.reload();
  await panel.getByTestId('setup-card').getByRole('button', { name: 'Ollama' }).click();
  await expect(panel.getByTestId('setup-card')).toHaveCount(0);
  expect(await savedYaml(panel)).toContain('base_url: http://127.0.0.1:11434/v1');
  await panelRequest(panel, { type: 'config.save', yaml: '' });
});
