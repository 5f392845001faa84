/**
 * Issue #26: installed and idle, Otto does no harm. A page's alert/confirm/prompt are the user's native dialogs
 * (Playwright's `dialog` event fires and the user's answer reaches the page) whenever no Otto action is in flight in
 * that frame — with no run ever started, after a run on the tab, and while a run acts on another tab. During
 * Otto's own click the page's question is answered Cancel and quoted to the model; accepting it needs the model to
 * name the question and, under the `ask` policy, the user's approval on a card that quotes it. And an idle page
 * cannot tell Otto is installed.
 */
import { chromium, type Dialog, type Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { chromiumPath } from './support/browser.ts';
import { collectEvents, connectToFakeApi, events, send, waitForStatus, connectedTest } from './support/agent.ts';
import { call, tabIdOf } from './page-tools.helpers.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest } from '../test/support/fake-api/turns.ts';

const dialogsUrl = (origin: string): string => `${origin}/apps/dialogs.html`;

/** The user answers each native dialog: Cancel for confirm, "Grace" for prompt, OK for alert. */
function userAnswers(page: Page): { seen: string[] } {
  const seen: string[] = [];
  page.on('dialog', (d: Dialog) => {
    seen.push(`${d.type()}:${d.message()}`);
    if (d.type() === 'confirm') void d.dismiss();
    else if (d.type() === 'prompt') void d.accept('Grace');
    else void d.accept();
  });
  return { seen };
}

/** Clicks the three buttons as the user would, and checks each native dialog appeared and its answer landed. */
async function userClicksAll(page: Page, seen: string[]): Promise<void> {
  const from = seen.length;
  await page.click('#delete');
  await expect(page.locator('#status')).toHaveText('Kept');
  await page.click('#greet');
  await expect(page.locator('#status')).toHaveText('Hello Grace');
  await page.click('#warn');
  await expect(page.locator('#status')).toHaveText('Warned');
  expect(seen.slice(from)).toEqual(['confirm:Delete this item?', 'prompt:Your name?', 'alert:Careful!']);
}

function lastOutput(api: FakeApi): string {
  const input = (api.responsesRequests().at(-1)!.body?.input ?? []) as { type: string; output?: unknown }[];
  const out = input.filter((i) => i.type === 'function_call_output').at(-1)?.output;
  return typeof out === 'string' ? out : JSON.stringify(out);
}

test('with no run ever started, the page’s confirm, prompt and alert are the user’s native dialogs', async ({
  context,
  pages,
}) => {
  const page = await context.newPage();
  const { seen } = userAnswers(page);
  await page.goto(dialogsUrl(pages.origin));
  await userClicksAll(page, seen);
  await page.close();
});

connectedTest(
  'a model-driven click: the page’s confirm gets Cancel and is quoted; then the user’s own dialogs work again on that tab',
  async ({ context, panel, fakeApi, pages }) => {
    const page = await context.newPage();
    const { seen } = userAnswers(page);
    await page.goto(dialogsUrl(pages.origin));
    const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, page.url());
    fakeApi.script([
      { match: 'delete the item', calls: [{ name: 'dom__click', arguments: { selector: '#delete' } }] },
      { match: /^dom__click ok/, text: 'The page asked to confirm; Otto answered Cancel.' },
    ]);
    const id = await send(panel, 'delete the item', { tabId });
    await waitForStatus(panel, id, 'completed');
    await expect(page.locator('#status')).toHaveText('Kept');
    const report = lastOutput(fakeApi);
    expect(report).toMatch(/^dom__click ok — the page asked 1 question \(confirm\/prompt\) and Otto answered Cancel/);
    expect(report).toMatch(
      /<external-content-[0-9a-f]{8}>[\s\S]*confirm\("Delete this item\?"\) → answered Cancel[\s\S]*<\/external-content-/,
    );
    expect(seen).toEqual([]);
    expect((await events(panel, id)).some((e) => e.type === 'approval.required')).toBe(false);

    // The run is over: the page's dialogs are the user's again.
    await userClicksAll(page, seen);
    await page.close();
  },
);

connectedTest(
  'while a run acts on another tab, this tab’s dialogs are the user’s',
  async ({ context, panel, fakeApi, pages }) => {
    const busy = await context.newPage();
    await busy.goto(`${dialogsUrl(pages.origin)}?busy`);
    const busyTab = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, busy.url());
    const page = await context.newPage();
    const { seen } = userAnswers(page);
    await page.goto(dialogsUrl(pages.origin));
    // The run clicks the busy page's button, then waits there until it is done (~5 s).
    fakeApi.script([
      { match: 'press busy', calls: [{ name: 'dom__click', arguments: { selector: '#busy', tab_id: busyTab } }] },
      {
        match: /^dom__click ok/,
        calls: [{ name: 'dom__wait_for', arguments: { text: 'done', tab_id: busyTab, timeout_ms: 20000 } }],
      },
      { match: /^Condition met/, text: 'Done.' },
    ]);
    const id = await send(panel, 'press busy', { tabId: busyTab });
    await expect(busy.locator('#status')).toHaveText('busy');
    await userClicksAll(page, seen);
    // All of that happened while the run was still working on the other tab.
    expect(await busy.locator('#status').textContent()).toBe('busy');
    expect((await events(panel, id)).some((e) => e.type === 'run.status' && e.status === 'completed')).toBe(false);
    await waitForStatus(panel, id, 'completed');
    await expect(busy.locator('#status')).toHaveText('done');
    await Promise.all([busy.close(), page.close()]);
  },
);

test('accepting the page’s question needs the model to name it and the user to approve a card quoting it', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await panel.setViewportSize({ width: 400, height: 640 });
  await connectToFakeApi(panel, fakeApi);
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
  await collectEvents(panel);
  const page = await context.newPage();
  await page.goto(dialogsUrl(pages.origin));
  await panel.bringToFront();
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, page.url());
  const click = {
    name: 'dom__click',
    arguments: { selector: '#delete', accept_dialog: 'Delete this item?', tab_id: tabId },
  };
  fakeApi.script([
    { match: 'really delete it', calls: [click] },
    // The output starts with "[The user approved this call.]" (#13), then the action's report.
    {
      match: (r: RecordedRequest) => /^(\[The user approved this call\.\]\n)?dom__click ok/.test(r.lastInput),
      text: 'Deleted.',
    },
  ]);
  // Approve on the card in the panel.
  await panel.getByTestId('chat-input').fill('really delete it');
  await panel.getByTestId('chat-input').press('Enter');
  // The dialogs page is not the tab the user asked from: Otto first asks to share it (#27), then about the click.
  const share = panel.locator('[data-testid="approval"][data-kind="share"]');
  await expect(share).toBeVisible();
  await share.getByTestId('approval-approve').click();
  const card = panel.locator('[data-testid="approval"]:not([data-kind="share"])');
  await expect(card).toBeVisible();
  await expect(panel.getByTestId('approval-dialog')).toHaveText(
    'The page asks: “Delete this item?” — Otto will answer OK for you.',
  );
  expect(await page.locator('#status').textContent()).toBe('nothing yet');
  await panel.getByTestId('approval-approve').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Deleted.');
  await expect(page.locator('#status')).toHaveText('Deleted');
  expect(lastOutput(fakeApi)).toContain('confirm("Delete this item?") → answered OK (as requested)');

  // Denied: the click never runs, the page keeps its state and the model is told.
  await page.evaluate(() => (document.getElementById('status')!.textContent = 'reset'));
  fakeApi.script([
    { match: 'delete it again', calls: [click] },
    { match: /denied/, text: 'Not deleted.' },
  ]);
  await panel.getByTestId('chat-input').fill('delete it again');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(panel.getByTestId('approval-dialog')).toBeVisible();
  await panel.getByTestId('approval-deny').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Not deleted.');
  await expect(page.locator('#status')).toHaveText('reset');
  expect(lastOutput(fakeApi)).toBe('Error: the user denied dom__click');
  await page.close();
});

test('an idle page cannot tell Otto is installed: natives stringify as native, and window’s own keys match a browser without Otto', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  const probe = () => {
    const fns = { alert, confirm, prompt, fetch, addEventListener: EventTarget.prototype.addEventListener };
    return {
      natives: Object.entries(fns).map(([k, f]) => `${k}: ${Function.prototype.toString.call(f)}`),
      // Playwright's own trace helper has a per-browser random name.
      names: Object.getOwnPropertyNames(window)
        .filter((n) => !n.startsWith('__playwright_'))
        .sort(),
      symbols: Object.getOwnPropertySymbols(window).map(String).sort(),
      docAttrs: [...document.documentElement.attributes].map((a) => a.name).sort(),
    };
  };
  const plainBrowser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const plain = await plainBrowser.newPage();
    await plain.goto(dialogsUrl(pages.origin));
    const without = await plain.evaluate(probe);

    const page = await context.newPage();
    await page.goto(dialogsUrl(pages.origin));
    const idle = await page.evaluate(probe);
    expect(idle.natives).toEqual([
      'alert: function alert() { [native code] }',
      'confirm: function confirm() { [native code] }',
      'prompt: function prompt() { [native code] }',
      'fetch: function fetch() { [native code] }',
      'addEventListener: function addEventListener() { [native code] }',
    ]);
    expect(idle.names).toEqual(without.names);
    expect(idle.symbols).toEqual(without.symbols);
    expect(idle.docAttrs).toEqual(without.docAttrs);

    // After Otto has read and acted on the page, it is just as clean (the content script lives in its own world).
    const tabId = await tabIdOf(sw, page);
    await call(sw, 'snapshot', tabId);
    await call(sw, 'act', tabId, { type: 'dom.click', selector: '#delete' });
    await expect(page.locator('#status')).toHaveText('Kept');
    expect(await page.evaluate(probe)).toEqual(idle);
    await page.close();
  } finally {
    await plainBrowser.close();
  }
});
