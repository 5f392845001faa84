/**
 * Issue 4 e2e: the side panel UI (opened as a tab), driven the way a person uses it — typing, clicking, keys —
 * against the fake Responses API. Screenshots of the main states go to e2e-artifacts/screenshots/.
 */
import http from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { test, expect, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import { expectSchemaValidRequests } from './support/agent.ts';
import { faults } from '../test/support/fake-api/index.ts';
import { readyPanel, sendText } from './support/panelChat.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

const runStatus = (panel: Page) => panel.getByTestId('run-status');
const currentId = (panel: Page) => panel.evaluate(() => localStorage.getItem('otto.panel.current') ?? '');

/** What the message list shows, as comparable lines (kind, tool, status, text). */
async function rendered(panel: Page): Promise<string[]> {
  return panel
    .getByTestId('messages')
    .evaluate((root) =>
      [...root.querySelectorAll<HTMLElement>('[data-testid]')]
        .filter((el) =>
          ['message-user', 'message-assistant', 'tool-call', 'note', 'reasoning', 'turn-meta', 'tool-group'].includes(
            el.dataset.testid!,
          ),
        )
        .map((el) =>
          [el.dataset.testid, el.dataset.tool ?? '', el.dataset.status ?? '', el.innerText.trim()].join(' | '),
        ),
    );
}

/** Records every data-status a tool card takes (the panel may pass through a state between two polls). */
async function watchToolStatuses(panel: Page): Promise<void> {
  await panel.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __toolStatuses: string[] }).__toolStatuses = seen;
    const note = () =>
      document.querySelectorAll<HTMLElement>('[data-testid="tool-call"]').forEach((el) => {
        const s = `${el.dataset.tool}:${el.dataset.status}`;
        if (seen.at(-1) !== s) seen.push(s);
      });
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    });
  });
}

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test.afterEach(({ fakeApi }) => expectSchemaValidRequests(fakeApi));

test('send a message and see the reply stream in', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  await expect(panel.getByTestId('empty-state')).toBeVisible();
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await shot(panel, 'empty');

  const reply =
    'Here is a **short** answer with a list:\n\n- one\n- two\n\n```js\nconsole.log("hi")\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com/docs)';
  fakeApi.script([{ match: 'hello', text: reply, delayMs: 40, usage: { input_tokens: 321, output_tokens: 45 } }]);
  await sendText(panel, 'hello Otto');
  await expect(panel.getByTestId('chat-input')).toHaveValue('');
  await expect(panel.getByTestId('message-user')).toHaveText('hello Otto');
  // Mid-stream: a streaming bubble, the run is running and Stop replaces Send.
  await expect(panel.locator('[data-testid="message-assistant"][data-streaming="true"]')).toBeVisible();
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'running');
  await expect(panel.getByTestId('chat-stop')).toBeVisible();

  const answer = panel.getByTestId('message-assistant');
  await expect(answer).toHaveAttribute('data-streaming', 'false', { timeout: 15_000 });
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await expect(answer.locator('strong')).toHaveText('short');
  await expect(answer.locator('li')).toHaveCount(2);
  await expect(answer.locator('table td')).toHaveText(['1', '2']);
  await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible();
  const link = answer.getByRole('link', { name: 'docs' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  // Per-turn usage and model under the answer.
  const meta = panel.getByTestId('turn-meta');
  await expect(meta).toContainText('gpt-test');
  await expect(meta).toContainText('321 in');
  // Focus is back in the input, ready for the next message.
  await expect(panel.getByTestId('chat-input')).toBeFocused();
  await shot(panel, 'chatting');
});

test('keyboard: Shift+Enter adds a line, Enter sends, Up recalls the last message', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([{ match: 'line two', text: 'Got both lines.', times: 2 }]);
  const input = panel.getByTestId('chat-input');
  await input.focus();
  await panel.keyboard.type('line one');
  await panel.keyboard.press('Shift+Enter');
  await panel.keyboard.type('line two');
  await expect(input).toHaveValue('line one\nline two');
  await panel.keyboard.press('Enter');
  await expect(panel.getByTestId('message-user')).toHaveText('line one\nline two');
  await expect(panel.getByTestId('message-assistant')).toHaveText('Got both lines.');
  await expect(input).toBeFocused();
  await panel.keyboard.press('ArrowUp');
  await expect(input).toHaveValue('line one\nline two');
});

test('a tool card goes running → ok with a duration, then the answer follows', async ({ panel, fakeApi }) => {
  // A page that takes 1.5 s to load keeps tabs.open running long enough to see (and photograph).
  const slow = http.createServer((_req, res) => setTimeout(() => res.end('<title>slow</title>slow page'), 1500));
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  try {
    await readyPanel(panel, fakeApi);
    fakeApi.script([
      { match: 'open the slow page', calls: [{ name: 'tabs__open', arguments: { url: slowUrl, active: false } }] },
      { match: /opened/, calls: [{ name: 'tabs__list', arguments: {} }] },
      { match: /"tabs"/, text: 'I opened the slow page and listed your tabs.' },
    ]);
    await watchToolStatuses(panel);
    await sendText(panel, 'open the slow page');
    const openCard = panel.locator('[data-testid="tool-call"][data-tool="tabs.open"]');
    await expect(openCard).toHaveAttribute('data-status', 'running');
    await expect(openCard.getByTestId('tool-duration')).toContainText('running');
    await shot(panel, 'tool-running');
    await expect(openCard).toHaveAttribute('data-status', 'ok', { timeout: 15_000 });
    await expect(openCard.getByTestId('tool-duration')).toHaveText(/^\d+(\.\d)? (ms|s)$/);
    const listCard = panel.locator('[data-testid="tool-call"][data-tool="tabs.list"]');
    await expect(listCard).toHaveAttribute('data-status', 'ok');
    await expect(listCard.getByTestId('tool-duration')).toHaveText(/^\d+(\.\d)? (ms|s)$/);
    await expect(panel.getByTestId('message-assistant')).toHaveText('I opened the slow page and listed your tabs.');
    await shot(panel, 'chat-with-tools');
    const seen = await panel.evaluate(() => (globalThis as unknown as { __toolStatuses: string[] }).__toolStatuses);
    expect(seen.filter((s) => s.startsWith('tabs.open:'))).toEqual(
      expect.arrayContaining(['tabs.open:running', 'tabs.open:ok']),
    );
    expect(seen.indexOf('tabs.open:running')).toBeLessThan(seen.indexOf('tabs.open:ok'));
    // Details: pretty arguments and the result preview.
    await openCard.getByRole('button', { name: /tabs\.open/ }).click();
    await expect(openCard.locator('.tool-section pre').first()).toContainText(`"url": "${slowUrl}"`);
    await expect(openCard.locator('.tool-section pre').nth(1)).toContainText('opened');
    await shot(panel, 'tool-done');
  } finally {
    slow.closeAllConnections();
    await new Promise((r) => slow.close(r));
    for (const p of panel.context().pages()) if (p.url().startsWith(slowUrl)) await p.close();
  }
});

test('a failing tool shows an error card and the loop goes on', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([
    {
      match: 'switch tabs',
      calls: [
        { name: 'tabs__activate', arguments: { tab_id: 987654 } },
        { name: 'tabs__teleport', arguments: { to: 'mars' } },
      ],
    },
    { match: /Error/, text: 'That tab does not exist, and I have no teleport tool.' },
  ]);
  await sendText(panel, 'switch tabs please');
  const activate = panel.locator('[data-testid="tool-call"][data-tool="tabs.activate"]');
  const unknown = panel.locator('[data-testid="tool-call"][data-tool="tabs__teleport"]');
  await expect(activate).toHaveAttribute('data-status', 'error');
  await expect(activate.locator('.tool-error')).toContainText('Error');
  await expect(unknown).toHaveAttribute('data-status', 'error');
  await expect(unknown.locator('.tool-error')).toContainText(/unknown tool/i);
  await expect(panel.getByTestId('message-assistant')).toHaveText(
    'That tab does not exist, and I have no teleport tool.',
  );
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  // Both cards are one group, collapsible.
  const group = panel.getByTestId('tool-group');
  await expect(group.getByRole('button', { name: /2 tool calls · 2 failed/ })).toBeVisible();
});

async function fixtureTab(panel: Page, url: string): Promise<{ page: Page; tabId: number }> {
  const page = await panel.context().newPage();
  await page.goto(url);
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, page.url());
  await panel.bringToFront();
  return { page, tabId };
}

test('approve and deny a destructive call inline', async ({ panel, fakeApi, pages }) => {
  await readyPanel(panel, fakeApi);
  const victim = await fixtureTab(panel, `${pages.origin}/child.html?victim-ui`);
  fakeApi.script([
    { match: 'close it', calls: [{ name: 'tabs__close', arguments: { tab_id: victim.tabId } }] },
    { match: /closed/, text: 'Closed it.' },
  ]);
  await sendText(panel, 'close it');
  // The tab is not the one the user asked from (the panel is in front): Otto first asks to share it (#27).
  const share = panel.locator('[data-testid="approval"][data-kind="share"]');
  await expect(share).toContainText("Share 'Child frame' (");
  await shot(panel, 'approval-share');
  await panel.getByRole('button', { name: 'Share', exact: true }).click();
  const approval = panel.locator('[data-testid="approval"]:not([data-kind="share"])');
  await expect(approval).toBeVisible();
  await expect(approval).toContainText('tabs.close');
  await expect(panel.locator('[data-testid="tool-call"][data-tool="tabs.close"]')).toHaveAttribute(
    'data-status',
    'awaiting',
  );
  await expect(panel.getByTestId('approval-always')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await shot(panel, 'approval');
  expect(victim.page.isClosed()).toBe(false);
  await panel.getByTestId('approval-approve').click();
  await expect(panel.getByTestId('message-assistant')).toHaveText('Closed it.');
  await expect.poll(() => victim.page.isClosed()).toBe(true);
  await expect(panel.locator('[data-testid="tool-call"][data-tool="tabs.close"]')).toHaveAttribute('data-status', 'ok');
  await expect(panel.getByTestId('approval')).toHaveCount(0);
  await expect(panel.getByTestId('chat-input')).toBeFocused();

  // Deny: the tab stays, the card shows the denial, the model is told and answers.
  const survivor = await fixtureTab(panel, `${pages.origin}/child.html?survivor-ui`);
  fakeApi.script([
    { match: 'close the other', calls: [{ name: 'tabs__close', arguments: { tab_id: survivor.tabId } }] },
    { match: /denied/, text: 'Understood, I left it open.' },
  ]);
  await sendText(panel, 'close the other one');
  await expect(share).toBeVisible();
  await share.getByTestId('approval-approve').click();
  await expect(approval).toBeVisible();
  await panel.getByTestId('approval-deny').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Understood, I left it open.');
  const denied = panel.locator('[data-testid="tool-call"][data-tool="tabs.close"]').last();
  await expect(denied).toHaveAttribute('data-status', 'error');
  await expect(denied.locator('.tool-error')).toContainText('denied');
  expect(survivor.page.isClosed()).toBe(false);
  await survivor.page.close();
});

test('"Always on this site" allows the site from then on', async ({ panel, fakeApi, otherOrigin }) => {
  await readyPanel(panel, fakeApi);
  const origin = otherOrigin.origin;
  try {
    // The page stays in front (as when the user looks at it with the panel open beside it).
    const first = await panel.context().newPage();
    await first.goto(`${origin}/child.html?always-1`);
    const firstId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, first.url());
    fakeApi.script([
      { match: 'close this', calls: [{ name: 'tabs__close', arguments: { tab_id: firstId } }] },
      { match: /closed/, text: 'Closed.', times: 2 },
    ]);
    await sendText(panel, 'close this');
    await expect(panel.getByTestId('approval')).toContainText(origin);
    await expect(panel.getByTestId('approval-always')).toBeEnabled();
    await panel.getByTestId('approval-always').click();
    await expect(panel.getByTestId('message-assistant')).toHaveText('Closed.');
    await expect.poll(() => first.isClosed()).toBe(true);

    const second = await panel.context().newPage();
    await second.goto(`${origin}/child.html?always-2`);
    const secondId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, second.url());
    fakeApi.enqueue({ match: 'and this', calls: [{ name: 'tabs__close', arguments: { tab_id: secondId } }] });
    await sendText(panel, 'and this one');
    await expect(panel.getByTestId('message-assistant').last()).toHaveText('Closed.');
    await expect.poll(() => second.isClosed()).toBe(true);
    await expect(panel.locator('[data-testid="tool-call"][data-tool="tabs.close"]').last()).toHaveAttribute(
      'data-status',
      'ok',
    );
  } finally {
    // Other specs in this browser ask for approval on this origin: take the grant back.
    await panel.evaluate(
      (o) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('otto');
          open.onsuccess = () => {
            const tx = open.result.transaction('sitePermissions', 'readwrite');
            tx.objectStore('sitePermissions').delete(o);
            tx.oncomplete = () => (open.result.close(), resolve());
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
      origin,
    );
  }
});

test('stop mid-run with the button and with Esc', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  fakeApi.script([{ match: 'long story', text: long, delayMs: 80, times: 2 }]);
  await sendText(panel, 'tell me a long story');
  await expect(panel.locator('[data-testid="message-assistant"][data-streaming="true"]')).toContainText('word1');
  await panel.getByTestId('chat-stop').click();
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await expect(runStatus(panel)).toHaveText('Stopped');
  await expect(panel.getByTestId('note')).toBeVisible();
  await expect(panel.getByTestId('message-assistant')).not.toContainText('word79');
  await expect(panel.getByTestId('chat-send')).toBeVisible();

  await sendText(panel, 'another long story');
  await expect(panel.locator('[data-testid="message-assistant"][data-streaming="true"]')).toContainText('word1');
  await panel.keyboard.press('Escape');
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await expect(panel.getByTestId('note')).toHaveCount(2);
  await expect(panel.getByTestId('chat-input')).toBeFocused();
});

test('a rejected key shows the key banner; no key points to settings', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi, { key: 'sk-wrong-key-1234567890' });
  fakeApi.setExpectedKey('sk-right-key-0987654321');
  await sendText(panel, 'hello?');
  const banner = panel.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-kind', 'auth');
  await expect(banner).toContainText('API key');
  await expect(banner).not.toContainText('sk-wrong-key-1234567890');
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'error');
  await shot(panel, 'error');
  await banner.getByTestId('banner-check-key').click();
  await expect(panel.getByTestId('settings')).toBeVisible();
  await expect(panel.getByLabel('OpenAI API key')).toBeVisible();
  fakeApi.setExpectedKey(undefined);

  // No key for OpenAI's own API: a banner whose button opens Settings, and nothing sent anywhere.
  await panelRequest(panel, { type: 'config.save', yaml: 'agent:\n  base_url: https://api.openai.com/v1\n' });
  await panelRequest(panel, { type: 'secrets.save', yaml: '' });
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await expect(panel.getByTestId('setup-card')).toBeVisible();
  await shot(panel, 'setup');
  const before = fakeApi.requests.length;
  await sendText(panel, 'hello without a key');
  await expect(panel.getByTestId('error-banner')).toContainText('No API key');
  await panel.getByTestId('banner-open-settings').click();
  await expect(panel.getByTestId('settings')).toBeVisible();
  expect(fakeApi.requests.length).toBe(before);
});

test('a rate limit shows the countdown, a cut stream offers Retry', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([
    { ...faults.rateLimit(2), match: 'busy' },
    { match: 'busy', text: 'Made it.' },
  ]);
  await sendText(panel, 'busy server');
  await expect(panel.getByTestId('retry-banner')).toContainText(/Rate limited.*retrying in [12] s/);
  await expect(panel.getByTestId('message-assistant')).toHaveText('Made it.');
  await expect(panel.getByTestId('retry-banner')).toHaveCount(0);

  fakeApi.script([
    { match: 'cut me', text: 'This reply will be cut somewhere in the middle of it.', cutAfter: 6 },
    { match: 'cut me', text: 'Complete reply.' },
  ]);
  await sendText(panel, 'cut me');
  const banner = panel.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-kind', 'stream_cut');
  await banner.getByTestId('chat-retry').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Complete reply.');
  await expect(panel.getByTestId('error-banner')).toHaveCount(0);
  await expect(panel.getByTestId('message-user')).toHaveCount(2);
});

test('a run interrupted by the worker dying offers Resume', async ({ context, panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([
    { match: 'slow task', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), delayMs: 150 },
    { match: /"tabs"/, text: 'Finished after resume.' },
  ]);
  await sendText(panel, 'slow task');
  await expect(panel.locator('[data-testid="message-assistant"][data-streaming="true"]')).toBeVisible();
  await stopServiceWorker(context, panel);
  await panel.reload();
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'interrupted');
  await panel.getByTestId('run-resume').click();
  await expect(panel.getByTestId('message-assistant')).toHaveText('Finished after resume.');
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await expect(panel.locator('[data-testid="tool-call"][data-tool="tabs.list"]')).toHaveAttribute('data-status', 'ok');
});

test('a conversation reopens identically after the panel reloads', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  // A reasoning model, so reasoning items carry encrypted_content and replay under store:false.
  await panelRequest(panel, { type: 'config.save', yaml: `agent:\n  base_url: ${fakeApi.url}\n  model: gpt-5-mini\n` });
  fakeApi.script([
    {
      match: 'tabs please',
      reasoning: { summary: 'The user wants their tabs; list them.' },
      calls: [
        { name: 'tabs__list', arguments: {} },
        { name: 'tabs__nothing', arguments: {} },
      ],
    },
    {
      match: /Error/,
      text: 'You have **some** tabs. One tool was missing.',
      usage: { input_tokens: 500, output_tokens: 20 },
    },
    { match: 'thanks', text: 'You are welcome.' },
  ]);
  await sendText(panel, 'tabs please');
  await expect(panel.getByTestId('message-assistant')).toContainText('You have some tabs.');
  await sendText(panel, 'thanks');
  await expect(panel.getByTestId('message-assistant').nth(1)).toHaveText('You are welcome.');
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  const before = await rendered(panel);
  expect(before.filter((l) => l.startsWith('tool-call'))).toHaveLength(2);
  expect(before.some((l) => l.startsWith('reasoning'))).toBe(true);

  await panel.reload();
  await expect(panel.getByTestId('message-user')).toHaveCount(2);
  expect(await rendered(panel)).toEqual(before);

  // Switching away and back rebuilds it the same way too.
  await panel.getByTestId('new-conversation').click();
  await expect(panel.getByTestId('message-user')).toHaveCount(0);
  await panel.getByTestId('open-conversations').click();
  await panel
    .getByTestId('conversations')
    .getByRole('button', { name: /^tabs please/ })
    .click();
  await expect(panel.getByTestId('message-user')).toHaveCount(2);
  expect(await rendered(panel)).toEqual(before);
});

test('hostile HTML in an assistant message renders inert', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  const hostile = [
    'Look: <img src=x onerror="window.__pwned = \'img\'">',
    '<script>window.__pwned = "script"</script>',
    "[click me](javascript:window.__pwned='link')",
    '<a href="javascript:window.__pwned=\'raw\'">raw link</a>',
    '<iframe src="javascript:parent.__pwned=\'frame\'"></iframe>',
    '<svg onload="window.__pwned=\'svg\'"></svg>',
    '<form action="https://evil.example"><button>go</button></form>',
    '![tracker](https://evil.example/pixel.png?secret=1)',
    '<a href="JaVaScRiPt:window.__pwned=\'case\'">mixed case</a>',
    '<a href="data:text/html,<script>parent.__pwned=1</script>">data link</a>',
    '<div style="position:fixed;inset:0" onclick="window.__pwned=\'div\'">overlay</div>',
    '<details open ontoggle="window.__pwned=\'toggle\'"><summary>s</summary>d</details>',
    'the end',
    '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss\'">',
  ].join('\n\n');
  fakeApi.script([{ match: 'be evil', text: [hostile] }]);
  await sendText(panel, 'be evil');
  const msg = panel.getByTestId('message-assistant');
  await expect(msg).toContainText('the end');
  await expect(
    msg.locator(
      'img, script, iframe, svg, math, style, form, input, button:not(.copy), [onerror], [onload], [onclick], [ontoggle], [style]',
    ),
  ).toHaveCount(0);
  await expect(panel.locator('a[href^="javascript:" i], a[href^="data:" i]')).toHaveCount(0);
  await msg.getByText('overlay').click();
  await msg.getByText('mixed case').click();
  await msg.getByText('click me').click();
  await msg.getByText('raw link').click();
  await panel.waitForTimeout(300);
  expect(await panel.evaluate(() => (globalThis as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  // The image became a plain link: nothing was fetched from the tracker.
  await expect(msg.getByRole('link', { name: '[image: tracker]' })).toHaveAttribute('href', /evil\.example/);
});

test('an exported conversation contains no secret', async ({ panel, fakeApi }) => {
  const key = 'sk-e2e-export-key-5555555555';
  await readyPanel(panel, fakeApi, { key });
  await panelRequest(panel, { type: 'secrets.update', set: { MY_TOKEN: 'tok-very-secret-98765' } });
  fakeApi.script([
    { match: 'remember', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: `Noted: tok-very-secret-98765 and ${key}.` },
  ]);
  await sendText(panel, `remember tok-very-secret-98765 and ${key}`);
  await expect(panel.getByTestId('message-assistant')).toContainText('Noted');

  for (const [format, testId] of [
    ['markdown', 'export-markdown'],
    ['json', 'export-json'],
  ] as const) {
    await panel.getByRole('button', { name: 'Export conversation' }).click();
    const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId(testId).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(format === 'json' ? /\.json$/ : /\.md$/);
    expect(text).toContain('[redacted]');
    expect(text).toContain('tabs.list');
    expect(text).not.toContain('tok-very-secret-98765');
    expect(text).not.toContain(key);
    if (format === 'json') expect(() => JSON.parse(text)).not.toThrow();
  }
  await panelRequest(panel, { type: 'secrets.update', remove: ['MY_TOKEN'] });
});

test('conversations: new, switch, rename, search, delete', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([{ text: 'ok.', times: Infinity }]);
  const stamp = Date.now().toString(36);
  await sendText(panel, `alpha ${stamp}`);
  await expect(panel.getByTestId('message-assistant')).toHaveText('ok.');
  const first = await currentId(panel);
  await panel.getByTestId('new-conversation').click();
  await expect(panel.getByTestId('empty-state')).toBeVisible();
  await sendText(panel, `beta ${stamp}`);
  await expect(panel.getByTestId('message-assistant')).toHaveText('ok.');
  expect(await currentId(panel)).not.toBe(first);

  await panel.getByTestId('open-conversations').click();
  const drawer: Locator = panel.getByTestId('conversations');
  await drawer.getByLabel('Search conversations').fill(stamp);
  await expect(drawer.getByTestId('conversation-item')).toHaveCount(2);
  await drawer.getByLabel('Search conversations').fill(`alpha ${stamp}`);
  await expect(drawer.getByTestId('conversation-item')).toHaveCount(1);
  await drawer.getByRole('button', { name: `Rename alpha ${stamp}` }).click();
  await drawer.getByLabel('New title').fill(`gamma ${stamp}`);
  await drawer.getByLabel('New title').press('Enter');
  await drawer.getByLabel('Search conversations').fill(`gamma ${stamp}`);
  await expect(drawer.getByTestId('conversation-item')).toHaveCount(1);
  await shot(panel, 'conversations');
  await drawer.getByRole('button', { name: new RegExp(`^gamma ${stamp}`) }).click();
  await expect(panel.getByTestId('message-user')).toHaveText(`alpha ${stamp}`);
  await expect(panel.getByRole('heading', { level: 1 })).toHaveText(`gamma ${stamp}`);

  await panel.getByTestId('open-conversations').click();
  await drawer.getByLabel('Search conversations').fill(stamp);
  await drawer.getByRole('button', { name: `Delete gamma ${stamp}` }).click();
  await drawer.getByRole('button', { name: `Confirm delete gamma ${stamp}` }).click();
  await expect(drawer.getByTestId('conversation-item')).toHaveCount(1);
  await expect(panel.getByTestId('message-user')).toHaveCount(0);
  const list = await panelRequest<{ id: string }[]>(panel, { type: 'conversations.list' });
  expect(list.map((c) => c.id)).not.toContain(first);
});

test('light and dark themes, readable at 360 px', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([
    {
      match: 'tabs do I have',
      calls: [{ name: 'tabs__list', arguments: {} }],
      usage: { input_tokens: 812, output_tokens: 14 },
    },
    {
      match: /"tabs"/,
      text: 'You have **2 tabs** open:\n\n| Tab | Site |\n|---|---|\n| Otto | this panel |\n| Fixture page | 127.0.0.1 |\n\nClose one with:\n\n```\ntabs.close(tab_id=12)\n```\n\nWant me to [read the fixture page](https://example.com/docs) next?',
      usage: { input_tokens: 1204, output_tokens: 96 },
    },
  ]);
  await sendText(panel, 'What tabs do I have open?');
  await expect(panel.getByTestId('message-assistant')).toContainText('Want me to read');
  await expect(runStatus(panel)).toHaveAttribute('data-status', 'idle');
  await shot(panel, 'panel');
  expect(await panel.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');

  await panel.emulateMedia({ colorScheme: 'dark' });
  expect(await panel.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 22, 26)');
  await shot(panel, 'dark');
  await panel.setViewportSize({ width: 360, height: 640 });
  // Nothing overflows sideways at 360 px; text stays at a readable size.
  expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(
    await panel.evaluate(() =>
      parseFloat(getComputedStyle(document.querySelector('[data-testid="message-assistant"] p')!).fontSize),
    ),
  ).toBeGreaterThanOrEqual(13);
  await shot(panel, 'dark-360');
  await panel.emulateMedia({ colorScheme: 'light' });
});

test('every control has an accessible name', async ({ panel, fakeApi }) => {
  await readyPanel(panel, fakeApi);
  fakeApi.script([
    { match: 'hi', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: 'Hi.' },
  ]);
  await sendText(panel, 'hi');
  await expect(panel.getByTestId('message-assistant')).toHaveText('Hi.');
  for (const view of ['chat', 'settings'] as const) {
    if (view === 'settings') await panel.getByRole('button', { name: 'Settings' }).click();
    const unnamed = await panel.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          'button, input:not([type=hidden]):not([hidden]), textarea, select, summary, a[href]',
        ),
      ]
        .filter((el) => {
          const label = el.getAttribute('aria-label') || el.textContent?.trim() || el.getAttribute('title');
          const labelled = el.id && document.querySelector(`label[for="${el.id}"]`);
          const wrapped = el.closest('label');
          return !label && !labelled && !wrapped;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed, `unnamed controls in ${view}`).toEqual([]);
  }
});
