/**
 * #34, model streams in the built extension: servers that answer a stream request with something else, a proxy that
 * renames items mid-stream, and a key that cannot be sent. Each ends with a clear message (or the answer, once) and
 * the transcript as it was.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { conversation } from './support/agent.ts';
import { readyPanel, sendText } from './support/panelChat.ts';

test.describe.configure({ mode: 'serial' });
test.beforeEach(({ fakeApi }) => fakeApi.reset());

const conversationId = (panel: Page) =>
  panel.evaluate(() => {
    const events = (globalThis as unknown as { __events?: { conversationId: string }[] }).__events ?? [];
    return events.at(-1)?.conversationId ?? '';
  });

test('a 200 web page is named, with the base URL to check; not retried; the transcript stays and the next turn works', async ({
  panel,
  fakeApi,
}) => {
  await readyPanel(panel, fakeApi, { sidePanelSize: false });
  fakeApi.script([
    {
      match: 'first question',
      http: {
        status: 200,
        body: '<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body><h1>It works</h1></body></html>',
        headers: { 'content-type': 'text/html' },
      },
    },
    { match: 'second question', text: 'Now it answers.' },
  ]);
  await sendText(panel, 'first question');
  const banner = panel.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-kind', 'not_a_stream');
  await expect(banner).toContainText('The server did not answer with a stream.');
  await expect(banner).toContainText(
    `The server at ${fakeApi.url} answered with a web page instead of a stream: check the base URL (agent.base_url in Settings)`,
  );
  await expect(banner).toContainText('The page is titled "Welcome to nginx!".');
  await expect(banner.getByTestId('banner-open-settings')).toBeVisible();
  expect(fakeApi.responsesRequests()).toHaveLength(1);
  await expect(panel.getByTestId('message-user')).toHaveText(['first question']);

  await sendText(panel, 'second question');
  await expect(panel.getByTestId('message-assistant')).toHaveText(['Now it answers.']);
  await expect(panel.getByTestId('message-user')).toHaveText(['first question', 'second question']);
});

test('a server that ignores stream: true and sends the whole response as JSON: its answer is shown once', async ({
  panel,
  fakeApi,
}) => {
  await readyPanel(panel, fakeApi, { sidePanelSize: false });
  fakeApi.script([{ match: 'whole please', text: 'This answer arrived in one JSON body.', nonStream: true }]);
  await sendText(panel, 'whole please');
  await expect(panel.getByTestId('message-assistant')).toHaveText(['This answer arrived in one JSON body.']);
  await expect(panel.getByTestId('run-status')).not.toHaveAttribute('data-status', 'running');
  await expect(panel.getByTestId('error-banner')).toHaveCount(0);
  expect(fakeApi.responsesRequests()).toHaveLength(1);
  const view = await conversation(panel, await conversationId(panel));
  expect(view.items.map((i) => [i.item.type, i.item.role])).toEqual([
    ['message', 'user'],
    ['message', 'assistant'],
  ]);
});

test('a proxy that changes item ids mid-stream: the answer is shown, stored and sent back once', async ({
  panel,
  fakeApi,
}) => {
  await readyPanel(panel, fakeApi, { sidePanelSize: false });
  fakeApi.script([
    { match: 'through the proxy', text: 'Shown once, whatever the proxy calls it.', rotateIds: true },
    { match: 'and again', text: 'Second answer.' },
  ]);
  await sendText(panel, 'through the proxy');
  await expect(panel.getByTestId('message-assistant')).toHaveText(['Shown once, whatever the proxy calls it.']);
  await expect(panel.getByTestId('run-status')).not.toHaveAttribute('data-status', 'running');
  const view = await conversation(panel, await conversationId(panel));
  expect(view.items.map((i) => i.item.type)).toEqual(['message', 'message']);

  await sendText(panel, 'and again');
  await expect(panel.getByTestId('message-assistant')).toHaveText([
    'Shown once, whatever the proxy calls it.',
    'Second answer.',
  ]);
  const sent = (fakeApi.responsesRequests().at(-1)?.body?.input ?? []) as { role?: string }[];
  expect(sent.filter((i) => i.role === 'assistant')).toHaveLength(1);
});

test('a key with a zero-width character blames the key, sends nothing and never shows the key', async ({
  panel,
  fakeApi,
  serviceWorker,
}) => {
  await readyPanel(panel, fakeApi, { sidePanelSize: false });
  // Stored as a paste from a web page would leave it (written straight to storage, past any check at saving).
  const key = 'sk-e2e-test\u200b-key-000000';
  await serviceWorker.evaluate((k) => chrome.storage.local.set({ secrets: `OPENAI_API_KEY: "${k}"\n` }), key);
  const before = fakeApi.requests.length;
  await sendText(panel, 'hello with a pasted key');
  const banner = panel.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-kind', 'auth');
  await expect(banner).toContainText('The API key cannot be sent.');
  await expect(banner).toContainText(
    'Your API key contains an invisible character (U+200B, zero-width space) at position 12, so it cannot be sent. Paste the key again in Settings (OPENAI_API_KEY), without that character.',
  );
  await expect(banner).not.toContainText('sk-e2e-test');
  await expect(banner).not.toContainText('ISO-8859-1');
  expect(fakeApi.requests.length).toBe(before);
  await expect(panel.getByTestId('message-user')).toHaveText(['hello with a pasted key']);
  await banner.getByTestId('banner-check-key').click();
  await expect(panel.getByTestId('settings')).toBeVisible();
});
