/**
 * Otto's tab group (#27), with the built extension and a scripted model: a run reaches the tab the user asked from,
 * the tabs it opened and the tabs the user shared — its tab group — and asks before it touches any other. The bank
 * tab is on another origin; nothing of it may reach the model unless the user shares it.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, currentServiceWorker, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import {
  type AgentEventLike,
  connectToFakeApi,
  conversation,
  events,
  expectSchemaValidRequests,
  send,
  waitForEvent,
  waitForStatus,
} from './support/agent.ts';
import { lastOutputs } from './support/modelTurns.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest, Turn } from '../test/support/fake-api/turns.ts';
import { tabIdFor, openTab } from './support/tabs.ts';

const BANK_TITLE = 'Accounts — Example Bank';
const BANK_SECRET = 'BANKSECRET-7731';

interface GroupView {
  groupId: number;
  title: string;
  color: string;
}

/** The tab's group (title and colour), or null when it is in none. */
/** The page opens `url` in a new tab (window.open, as a link with target=_blank would): that tab and its id. */
async function openPopup(
  context: BrowserContext,
  panel: Page,
  opener: Page,
  url: string,
): Promise<{ page: Page; tabId: number }> {
  const popup = context.waitForEvent('page');
  await opener.evaluate((u) => void window.open(u, '_blank'), url);
  const page = await popup;
  await page.waitForLoadState();
  const tabId = await tabIdFor(panel, page.url());
  return { page, tabId };
}

function groupOf(panel: Page, tabId: number): Promise<GroupView | null> {
  return panel.evaluate(async (id) => {
    const tab = await chrome.tabs.get(id);
    if (tab.groupId === -1) return null;
    const g = await chrome.tabGroups.get(tab.groupId);
    return { groupId: g.id, title: g.title ?? '', color: g.color };
  }, tabId);
}

/** Starts recording every title Otto's groups take, in order (chrome.tabGroups.onUpdated). */
async function recordGroupTitles(panel: Page): Promise<() => Promise<string[]>> {
  await panel.evaluate(() => {
    const g = globalThis as unknown as { __titles?: string[] };
    g.__titles = [];
    chrome.tabGroups.onUpdated.addListener((group) => {
      if (g.__titles!.at(-1) !== group.title) g.__titles!.push(group.title ?? '');
    });
  });
  return () => panel.evaluate(() => (globalThis as unknown as { __titles: string[] }).__titles);
}

function bodies(api: FakeApi): string {
  return api
    .responsesRequests()
    .map((r: RecordedRequest) => r.rawBody)
    .join('\n');
}

function approvalsOf(
  evs: AgentEventLike[],
): { callId: string; name: string; share?: { tabId: number; title: string; host: string } }[] {
  return evs.filter((e) => e.type === 'approval.required').map((e) => e.approval as never);
}

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test.afterEach(({ fakeApi }) => expectSchemaValidRequests(fakeApi));

test('another tab stays private: tabs.list shows a count, reading it asks naming it, denied reads nothing', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const bank = await openTab(context, panel, `${otherOrigin.origin}/bank.html`);
  const titles = await recordGroupTitles(panel);
  fakeApi.script([
    { match: 'Summarize this page', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /not shared/, calls: [{ name: 'dom__text', arguments: { tab_id: bank.tabId } }] },
    { match: /did not share/, text: 'I can only see the blog.' },
  ]);
  const id = await send(panel, 'Summarize this page', { tabId: blog.tabId });

  const asked = await waitForEvent(panel, id, 'approval.required');
  const host = new URL(otherOrigin.origin).host;
  expect(asked.approval).toMatchObject({ name: 'dom.text', share: { tabId: bank.tabId, title: BANK_TITLE, host } });
  expect((await groupOf(panel, blog.tabId))?.title).toBe('Otto · waiting for you');
  // The tab strip showed Otto working, then waiting for the user.
  const seen = await titles();
  expect(seen.slice(-2)).toEqual(['Otto · working', 'Otto · waiting for you']);
  // The card names the tab in the user's words.
  await panel.evaluate((cid) => localStorage.setItem('otto.panel.current', cid), id);
  await panel.reload();
  await expect(panel.getByTestId('approval')).toContainText(`Share '${BANK_TITLE}' (${host}) with Otto?`);
  await panel.getByTestId('approval-deny').click();
  await expect.poll(async () => (await conversation(panel, id)).state?.status).toBe('completed');

  // tabs.list gave the blog and a count: not the bank's title or address.
  const outputs = lastOutputs(fakeApi);
  expect(outputs[0]).toContain(`${pages.origin}/blog.html`);
  expect(outputs[0]).toMatch(/and \d+ other tabs, not shared/);
  expect(outputs[0]).not.toContain(BANK_TITLE);
  expect(outputs[0]).not.toContain(otherOrigin.origin);
  expect(outputs[1]).toBe(
    `Error: the user did not share tab ${bank.tabId} with Otto, so nothing was read from it or done to it. Work with the tabs in Otto's group (tabs__list), or ask the user to share the tab.`,
  );
  // Nothing of the bank tab in any request the model provider received.
  const sent = bodies(fakeApi);
  for (const secret of [BANK_SECRET, BANK_TITLE, 'Example Bank', otherOrigin.origin, host])
    expect(sent).not.toContain(secret);

  // Otto's group: the tab the user asked from, titled by the run's state; the bank tab is in none.
  expect(await groupOf(panel, blog.tabId)).toMatchObject({ title: 'Otto', color: 'cyan' });
  expect(await groupOf(panel, bank.tabId)).toBeNull();
  await blog.page.close();
  await bank.page.close();
});

test('approved, the tab joins Otto’s group and is readable; tabs.list then shows it', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const bank = await openTab(context, panel, `${otherOrigin.origin}/bank.html`);
  fakeApi.script([
    { match: 'compare with my bank', calls: [{ name: 'dom__text', arguments: { tab_id: bank.tabId } }] },
    { match: BANK_SECRET, calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: 'Both tabs are in view.' },
  ]);
  const id = await send(panel, 'compare with my bank', { tabId: blog.tabId });
  const asked = await waitForEvent(panel, id, 'approval.required');
  await panelRequest(panel, {
    type: 'chat.approve',
    conversationId: id,
    callId: (asked.approval as { callId: string }).callId,
    scope: 'once',
  });
  await waitForStatus(panel, id, 'completed');

  const group = await groupOf(panel, blog.tabId);
  expect(await groupOf(panel, bank.tabId)).toEqual(group);
  const [text, list] = lastOutputs(fakeApi);
  expect(text).toContain(BANK_SECRET);
  expect(list).toContain(`${otherOrigin.origin}/bank.html`);
  expect(list).toContain(BANK_TITLE);
  expect(approvalsOf(await events(panel, id))).toHaveLength(1);
  await blog.page.close();
  await bank.page.close();
});

test('a tab moved into the group becomes visible to tabs.list; moved out, it disappears', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const other = await openTab(context, panel, `${otherOrigin.origin}/child.html?moved`);
  const openedAt = Date.now();
  const otherUrl = `${otherOrigin.origin}/child.html?moved`;
  fakeApi.script([
    { match: /^list/, calls: [{ name: 'tabs__list', arguments: {} }], times: 3 },
    { match: /"tabs"/, text: 'Listed.', times: 3 },
  ]);

  const id = await send(panel, 'list my tabs', { tabId: blog.tabId });
  await waitForStatus(panel, id, 'completed');
  expect(lastOutputs(fakeApi).at(-1)).not.toContain(otherUrl);

  // The user drags the tab into Otto's group. A tab with an opener that lands in the group within 1.25 s of being
  // created is taken back out (tabScope.onCreated: a page's window.open must not share tabs), and a tab Playwright
  // opens may carry one: the user's drag comes after that window, as it would in a person's hands.
  await other.page.waitForTimeout(Math.max(0, 1_500 - (Date.now() - openedAt)));
  const { groupId } = (await groupOf(panel, blog.tabId))!;
  await panel.evaluate(([g, t]) => chrome.tabs.group({ groupId: g, tabIds: [t] }), [groupId, other.tabId] as const);
  await send(panel, 'list again', { conversationId: id, tabId: blog.tabId });
  await expect.poll(() => lastOutputs(fakeApi).at(-1) ?? '').toContain(otherUrl);
  await waitForStatus(panel, id, 'completed');

  // ... and out again.
  await panel.evaluate((t) => chrome.tabs.ungroup([t]), other.tabId);
  const before = fakeApi.responsesRequests().length;
  await send(panel, 'list once more', { conversationId: id, tabId: blog.tabId });
  await expect.poll(() => fakeApi.responsesRequests().length).toBe(before + 2);
  expect(lastOutputs(fakeApi).at(-1)).not.toContain(otherUrl);
  expect(lastOutputs(fakeApi).at(-1)).toContain(`${pages.origin}/blog.html`);
  await waitForStatus(panel, id, 'completed');
  await blog.page.close();
  await other.page.close();
});

test('a one-tab task and a task on a tab the run opened need no approval; the opened tab joins the group', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const openedUrl = `${otherOrigin.origin}/child.html?opened`;
  let openedId = -1;
  // The third turn reads the tab the model just opened: its calls are computed from that output.
  const readOpened: Turn = {
    match: (r) => {
      const m = /"id":(\d+)/.exec(r.lastInput);
      if (!r.lastInput.includes('"opened"') || !m) return false;
      openedId = Number(m[1]);
      readOpened.calls = [{ name: 'dom__text', arguments: { tab_id: openedId } }];
      return true;
    },
  };
  fakeApi.script([
    { match: 'read this page', calls: [{ name: 'dom__text', arguments: {} }] },
    { match: /High water/, calls: [{ name: 'tabs__open', arguments: { url: openedUrl } }] },
    readOpened,
    { match: /I am a child frame/, text: 'Read both.' },
  ]);
  // The user names the page to open: opening it carries nothing of the blog (the data-flow guard, #13, agrees).
  const id = await send(panel, `read this page, then open ${openedUrl}`, { tabId: blog.tabId });
  await waitForStatus(panel, id, 'completed');
  expect(approvalsOf(await events(panel, id))).toEqual([]);
  expect(lastOutputs(fakeApi).at(-1)).toContain('I am a child frame');
  const group = await groupOf(panel, blog.tabId);
  expect(group?.title).toBe('Otto');
  expect(await groupOf(panel, openedId)).toEqual(group);
  await blog.page.close();
  await panel.evaluate((t) => chrome.tabs.remove(t), openedId);
});

test('code mode and screenshots ask the same question; a tab id known only while running is refused', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: '  mode: both\n' });
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const bank = await openTab(context, panel, `${otherOrigin.origin}/bank.html`);
  fakeApi.script([
    { match: 'peek', calls: [{ name: 'ot__run', arguments: { code: `dom.text(tab_id=${bank.tabId})` } }] },
    { match: /did not share/, calls: [{ name: 'tabs__screenshot', arguments: { tab_id: bank.tabId } }], times: 1 },
    {
      match: /did not share/,
      calls: [{ name: 'ot__run', arguments: { code: `t = ${bank.tabId}\ndom.text(tab_id=t)` } }],
    },
    { match: /not shared with Otto/, text: 'Nothing to see.' },
  ]);
  const id = await send(panel, 'peek at the bank', { tabId: blog.tabId });
  for (const name of ['ot.run', 'tabs.screenshot']) {
    await expect.poll(async () => approvalsOf(await events(panel, id)).map((a) => a.name)).toContain(name);
    const asked = approvalsOf(await events(panel, id)).find((a) => a.name === name)!;
    expect(asked.share).toMatchObject({ tabId: bank.tabId, title: BANK_TITLE });
    await panelRequest(panel, { type: 'chat.deny', conversationId: id, callId: asked.callId });
  }
  await waitForStatus(panel, id, 'completed');
  expect(lastOutputs(fakeApi).at(-1)).toContain(
    `Tab ${bank.tabId} is not shared with Otto, so nothing was read from it or done to it.`,
  );
  const sent = bodies(fakeApi);
  for (const secret of [BANK_SECRET, BANK_TITLE, `${otherOrigin.origin}/bank.html`]) expect(sent).not.toContain(secret);
  await blog.page.close();
  await bank.page.close();
});

test('after a worker restart the group and the shared tabs are kept, and a pending share resumes', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const bank = await openTab(context, panel, `${otherOrigin.origin}/bank.html`);
  const third = await openTab(context, panel, `${otherOrigin.origin}/child.html?third`);
  fakeApi.script([
    { match: 'first', calls: [{ name: 'dom__text', arguments: { tab_id: bank.tabId } }] },
    { match: BANK_SECRET, text: 'Read the bank.' },
    { match: 'second', calls: [{ name: 'dom__text', arguments: { tab_id: third.tabId } }] },
    { match: /I am a child frame/, calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: 'All three.' },
  ]);
  const id = await send(panel, 'first', { tabId: blog.tabId });
  const first = await waitForEvent(panel, id, 'approval.required');
  await panelRequest(panel, {
    type: 'chat.approve',
    conversationId: id,
    callId: (first.approval as { callId: string }).callId,
    scope: 'once',
  });
  await waitForStatus(panel, id, 'completed');
  const group = await groupOf(panel, blog.tabId);

  await send(panel, 'second', { conversationId: id, tabId: blog.tabId });
  await expect.poll(async () => (await conversation(panel, id)).state?.status).toBe('awaiting_approval');
  await stopServiceWorker(context, panel);

  const view = await conversation(panel, id); // a fresh worker
  expect(view.state?.status).toBe('awaiting_approval');
  const pending = view.state!.approval as { callId: string; share: { tabId: number; title: string } };
  expect(pending.share).toMatchObject({ tabId: third.tabId, title: 'Child frame' });
  expect(await groupOf(panel, bank.tabId)).toEqual({ ...group, title: 'Otto · waiting for you' });
  await panelRequest(panel, { type: 'chat.approve', conversationId: id, callId: pending.callId, scope: 'once' });
  await expect.poll(async () => (await conversation(panel, id)).state?.status, { timeout: 20_000 }).toBe('completed');
  const list = lastOutputs(fakeApi).at(-1)!;
  for (const url of [
    `${pages.origin}/blog.html`,
    `${otherOrigin.origin}/bank.html`,
    `${otherOrigin.origin}/child.html?third`,
  ]) {
    expect(list).toContain(url);
  }
  expect((await groupOf(panel, third.tabId))?.groupId).toBe(group!.groupId);
  for (const t of [blog, bank, third]) await t.page.close();
});

test('“Share this tab” in the panel puts the tab the user is looking at into the conversation’s group', async ({
  context,
  panel,
  fakeApi,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  await panel.evaluate(() => localStorage.removeItem('otto.panel.current'));
  await panel.reload();
  const shared = await openTab(context, panel, `${otherOrigin.origin}/child.html?shared`);
  await shared.page.bringToFront();
  await panel.getByTestId('share-tab').click();
  await expect(panel.getByTestId('share-tab-status')).toHaveText("Shared 'Child frame' with Otto.");
  expect(await groupOf(panel, shared.tabId)).toMatchObject({ title: 'Otto', color: 'cyan' });

  // The conversation the panel made for it sees the tab.
  const id = await panel.evaluate(() => localStorage.getItem('otto.panel.current')!);
  fakeApi.script([
    { match: 'what is shared', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: 'One tab.' },
  ]);
  await connectToFakeApi(panel, fakeApi);
  await send(panel, 'what is shared', { conversationId: id, tabId: shared.tabId });
  await waitForStatus(panel, id, 'completed');
  expect(lastOutputs(fakeApi).at(-1)).toContain(`${otherOrigin.origin}/child.html?shared`);
  await shared.page.close();
});

test('settings: a site shared “always” is listed and can be revoked; scope all warns and shows every tab', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
  extensionId,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  const bank = await openTab(context, panel, `${otherOrigin.origin}/bank.html`);
  fakeApi.script([
    { match: 'bank always', calls: [{ name: 'dom__text', arguments: { tab_id: bank.tabId } }] },
    { match: BANK_SECRET, text: 'Read.' },
    { match: 'everything', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /"tabs"/, text: 'All of them.' },
  ]);
  const id = await send(panel, 'bank always', { tabId: blog.tabId });
  const asked = await waitForEvent(panel, id, 'approval.required');
  await panelRequest(panel, {
    type: 'chat.approve',
    conversationId: id,
    callId: (asked.approval as { callId: string }).callId,
    scope: 'site',
  });
  await waitForStatus(panel, id, 'completed');

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await expect(options.getByTestId('settings-shared-sites')).toContainText(otherOrigin.origin);
  await options.getByTestId('settings-unshare-site').click();
  await expect(options.getByTestId('settings-shared-sites-empty')).toBeVisible();
  expect(await panelRequest(panel, { type: 'tabs.shared_sites' })).toEqual({ sites: [] });

  await options.getByTestId('settings-tabs-scope').selectOption('all');
  await expect(options.getByTestId('settings-tabs-warning')).toContainText('without asking');
  await options.getByTestId('settings-save-tabs').click();
  await expect(options.getByTestId('settings-tabs-result')).toHaveText('Saved.');
  const id2 = await send(panel, 'everything', { tabId: blog.tabId });
  await waitForStatus(panel, id2, 'completed');
  const list = lastOutputs(fakeApi).at(-1)!;
  expect(list).not.toContain('not shared');
  expect(list).toContain(`${otherOrigin.origin}/bank.html`);
  await options.close();
  await connectToFakeApi(panel, fakeApi); // back to the default scope for the specs after this one
  for (const t of [blog, bank]) await t.page.close();
});

test('a tab a page opens from Otto’s group is not shared by that: Chrome groups it, Otto takes it back out', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  fakeApi.script([{ match: 'hello', text: 'Hi.' }]);
  const id = await send(panel, 'hello', { tabId: blog.tabId });
  await waitForStatus(panel, id, 'completed');
  const group = (await groupOf(panel, blog.tabId))!;

  // The page (hostile, or just a link with target=_blank) opens the user's bank.
  const { page: bankPage, tabId: bankId } = await openPopup(
    context,
    panel,
    blog.page,
    `${otherOrigin.origin}/bank.html`,
  );
  await expect.poll(async () => (await groupOf(panel, bankId))?.groupId ?? -1).not.toBe(group.groupId);

  fakeApi.script([
    { match: 'what tabs', calls: [{ name: 'dom__text', arguments: { tab_id: bankId } }] },
    { match: /did not share/, text: 'OK.' },
  ]);
  await send(panel, 'what tabs', { conversationId: id, tabId: blog.tabId });
  await expect.poll(async () => approvalsOf(await events(panel, id)).at(-1)?.share?.title).toBe(BANK_TITLE);
  const last = approvalsOf(await events(panel, id)).at(-1)!;
  await panelRequest(panel, { type: 'chat.deny', conversationId: id, callId: last.callId });
  await waitForStatus(panel, id, 'completed');
  expect(bodies(fakeApi)).not.toContain(BANK_SECRET);
  await bankPage.close();
  await blog.page.close();
});

test('between runs, a stopped worker is still woken by a popup of Otto’s group and takes it back out', async ({
  context,
  extensionId,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const blog = await openTab(context, panel, `${pages.origin}/blog.html`);
  fakeApi.script([{ match: 'hello', text: 'Hi.' }]);
  const id = await send(panel, 'hello', { tabId: blog.tabId });
  await waitForStatus(panel, id, 'completed');
  const group = (await groupOf(panel, blog.tabId))!;
  // No run goes, but Otto's group is there: its popups must still be judged, by a worker Chrome starts for them. It
  // listens for tabs a page opens only, not for every new tab (tabs.onCreated), which the user's own would start it.
  const listening = async () =>
    (await currentServiceWorker(context, extensionId)).evaluate(() => [
      chrome.tabs.onCreated.hasListeners(),
      chrome.webNavigation.onCreatedNavigationTarget.hasListeners(),
    ]);
  await expect.poll(listening, { timeout: 30_000 }).toEqual([false, true]);
  await stopServiceWorker(context, panel);

  const { page: bankPage, tabId: bankId } = await openPopup(
    context,
    panel,
    blog.page,
    `${otherOrigin.origin}/bank.html`,
  );
  await expect.poll(async () => (await groupOf(panel, bankId))?.groupId ?? -1).not.toBe(group.groupId);
  // Out for good, not only before Chrome grouped it.
  await panel.waitForTimeout(2000);
  expect((await groupOf(panel, bankId))?.groupId ?? -1).not.toBe(group.groupId);
  expect((await groupOf(panel, blog.tabId))?.groupId).toBe(group.groupId);
  await bankPage.close();
  await blog.page.close();
});
