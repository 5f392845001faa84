/**
 * #26: installed and idle, Otto runs nothing for the pages a user browses — not even in its own worker. A stopped
 * worker (Chrome stops it after 30 s without events) stays stopped while a tab loads, reloads and navigates pages
 * with same- and cross-origin frames: no listener of Otto's is woken by a navigation it is not working on
 * (src/background/navigationListeners.ts). Before, every frame's navigation started the whole worker again.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { test as shared, expect, currentServiceWorker, stopServiceWorker } from './support/fixtures.ts';

// A browser of its own (a worker option of this file only gives it its own Playwright worker, so a fresh profile):
// after the rest of the suite had run in the same browser, a stopped worker was started once while a page loaded
// (three CI rehearsals, never in this file alone or after a handful of specs). The cause was not found; it is an open
// item in docs/decisions/idle-worker.md. What this file checks is an idle Otto in a browser it has not worked in.
const test = shared.extend<object, { ownBrowser: boolean }>({ ownBrowser: [true, { scope: 'worker', option: true }] });

/** Counts starts of the extension's worker, as the DevTools protocol reports them. */
async function watchWorkerStarts(
  context: BrowserContext,
  page: Page,
): Promise<{ starts: () => number; cdp: CDPSession }> {
  const cdp = await context.newCDPSession(page);
  let starts = 0;
  let running = true;
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { runningStatus: string; scriptURL: string }[] }) => {
    for (const v of e.versions) {
      if (!v.scriptURL.startsWith('chrome-extension://')) continue;
      const now = v.runningStatus === 'starting' || v.runningStatus === 'running';
      if (now && !running) starts++;
      running = now;
    }
  });
  await cdp.send('ServiceWorker.enable');
  return { starts: () => starts, cdp };
}

/**
 * The watch does see a start (so a count of 0 before it means something): an extension page talking to the
 * worker starts it.
 */
async function expectWatchSeesAStart(
  context: BrowserContext,
  extensionId: string,
  startsSince: () => number,
): Promise<void> {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
  await expect.poll(startsSince).toBe(1);
  await panel.close();
}

/**
 * Brings Otto to idle as a user's browser would have it: no Otto group (one an earlier test in this browser left
 * keeps the popup rule's listeners on, and a group's end wakes the worker) and none of the listeners browsing could
 * fire still attached (navigations, tabs, a page's popup, a group's end); then the pause before a stop.
 */
async function quiesce(context: BrowserContext, extensionId: string, page: Page): Promise<void> {
  // A fresh worker first: one that served an earlier test's run keeps that run's listeners for a grace period, and a
  // stop just after they are let go could still find one registered with Chrome (two CI rehearsals met it). An
  // extension page starts the new worker, as a user's opening the panel would.
  await stopServiceWorker(context, page);
  const opener = await context.newPage();
  await opener.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  await opener.getByTestId('worker-status').and(opener.locator('[data-state="ready"]')).waitFor();
  await opener.close();
  const worker = async () => {
    const sw = await currentServiceWorker(context, extensionId);
    // Ungrouping ends the group, which the worker hears of; it then looks again and lets go.
    await sw.evaluate(async () => {
      const grouped = (await chrome.tabs.query({})).filter((t) => t.groupId !== -1 && t.id !== undefined);
      if (grouped.length) await chrome.tabs.ungroup(grouped.map((t) => t.id!) as [number, ...number[]]);
    });
    return sw;
  };
  await worker();
  await (await context.newPage()).close();
  const listening = async () =>
    (await worker()).evaluate(
      () =>
        chrome.webNavigation.onCommitted.hasListeners() ||
        chrome.tabs.onCreated.hasListeners() ||
        chrome.tabs.onRemoved.hasListeners() ||
        chrome.webNavigation.onCreatedNavigationTarget.hasListeners() ||
        chrome.tabGroups.onRemoved.hasListeners(),
    );
  // A fresh worker holds its listeners for a moment (an event that woke it is delivered), then lets go; after an
  // earlier test's run they stay for the grace (20 s).
  await expect.poll(listening, { timeout: 30_000 }).toBe(false);
  // A stop within milliseconds of the removal still found a listener registered with Chrome on a quiet machine (a new
  // tab then started the worker, 3 of 3 runs; 0 of 4 after this pause). Chrome stops an idle worker after 30 s, so a
  // user never meets that moment.
  await page.waitForTimeout(3000);
}

/**
 * Stops the worker, watching from before the stop (so the watch knows the worker's state rather than assuming it):
 * `since()` counts the starts after it; `expectNone()` waits long enough for a start to be reported (one is under 1 s
 * on this machine, even loaded) and asserts there was none.
 */
async function stoppedAndWatched(
  context: BrowserContext,
  page: Page,
): Promise<{ since: () => number; expectNone: () => Promise<void>; detach: () => Promise<void> }> {
  const { starts, cdp } = await watchWorkerStarts(context, page);
  await stopServiceWorker(context, page);
  const before = starts();
  const since = () => starts() - before;
  return {
    since,
    expectNone: async () => {
      await page.waitForTimeout(3000);
      expect(since()).toBe(0);
    },
    detach: () => cdp.detach().catch(() => undefined),
  };
}

test('an idle Otto’s stopped worker stays stopped while a tab loads, reloads and navigates framed pages', async ({
  context,
  extensionId,
  pages,
  otherOrigin,
}) => {
  const page = await context.newPage();
  const framed = (n: number) => `${pages.origin}/frames.html?cross=${otherOrigin.port}&n=${n}`;
  await page.goto(framed(1));
  test.setTimeout(120_000);
  await quiesce(context, extensionId, page);
  const watch = await stoppedAndWatched(context, page);

  await page.goto(framed(2));
  await expect(page.frameLocator('#cross').locator('p')).toHaveText('I am a child frame.');
  await page.reload();
  await expect(page.frameLocator('#cross').locator('p')).toHaveText('I am a child frame.');
  // A frame navigating on its own, and a same-document navigation.
  await page.evaluate(
    (url) => void ((document.getElementById('same') as HTMLIFrameElement).src = url),
    `${pages.origin}/child.html?name=moved`,
  );
  await expect(page.frameLocator('#same').locator('p')).toHaveText('I am a child frame.');
  await page.evaluate(() => history.pushState(null, '', '#next'));
  await watch.expectNone();

  await expectWatchSeesAStart(context, extensionId, watch.since);
  await watch.detach();
  await page.close();
});

test('an idle Otto’s stopped worker stays stopped while tabs open and close, a page’s popup included', async ({
  context,
  extensionId,
  pages,
}) => {
  test.setTimeout(120_000);
  const page = await context.newPage();
  await page.goto(`${pages.origin}/blog.html`);
  await quiesce(context, extensionId, page);
  const watch = await stoppedAndWatched(context, page);

  // The user opens a tab and loads a page in it; a page opens one (target=_blank); both are closed.
  const opened = await context.newPage();
  await opened.goto(`${pages.origin}/child.html?name=opened`);
  const popupSeen = context.waitForEvent('page');
  await page.evaluate((u) => void window.open(u, '_blank'), `${pages.origin}/child.html?name=popup`);
  const popup = await popupSeen;
  await popup.waitForLoadState();
  await opened.close();
  await popup.close();
  await watch.expectNone();

  await expectWatchSeesAStart(context, extensionId, watch.since);
  await watch.detach();
  await page.close();
});

test('with an Otto group and no run, the stopped worker stays stopped while the user opens a tab and adds it to the group', async ({
  context,
  extensionId,
  pages,
}) => {
  test.setTimeout(120_000);
  const page = await context.newPage();
  await page.goto(`${pages.origin}/blog.html`);
  // The tab the user asked from stays in Otto's group after the run (joined as a run's start does).
  const sw = await currentServiceWorker(context, extensionId);
  const blogId = await sw.evaluate(async (u) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === u)!;
    const o = (globalThis as unknown as { otto: { tabScope: { join(c: string, id: number): Promise<unknown> } } }).otto;
    await o.tabScope.join('idle-group', tab.id!);
    return tab.id!;
  }, page.url());
  const groupId = await sw.evaluate(async (id) => (await chrome.tabs.get(id)).groupId, blogId);
  expect(groupId).not.toBe(-1);
  // Between runs, with a group: only a tab a page opens (and the group's end) is listened for.
  const listening = () =>
    currentServiceWorker(context, extensionId).then((w) =>
      w.evaluate(() => ({
        created: chrome.tabs.onCreated.hasListeners(),
        removed: chrome.tabs.onRemoved.hasListeners(),
        opened: chrome.webNavigation.onCreatedNavigationTarget.hasListeners(),
        groupGone: chrome.tabGroups.onRemoved.hasListeners(),
      })),
    );
  await expect.poll(async () => (await listening()).removed, { timeout: 30_000 }).toBe(false);
  // The removal's pause before the stop, as in the test above.
  await page.waitForTimeout(3000);
  const watch = await stoppedAndWatched(context, page);

  // The user opens a tab, loads a page in it and puts it into Otto's group (as a drag does): theirs to share.
  const opened = await context.newPage();
  await opened.goto(`${pages.origin}/child.html?name=mine`);
  // Grouped from a static page of the extension (its tool reference), which talks to no worker, as a drag would.
  const helper = await context.newPage();
  await helper.goto(`chrome-extension://${extensionId}/docs/tools/tabs.html`);
  const openedId = await helper.evaluate(
    async ({ u, g }) => {
      const tab = (await chrome.tabs.query({})).find((t) => t.url === u)!;
      await chrome.tabs.group({ groupId: g, tabIds: [tab.id!] });
      return tab.id!;
    },
    { u: opened.url(), g: groupId },
  );
  await watch.expectNone();
  // The user's tab stays in the group: nothing took it out.
  expect(await helper.evaluate(async (id) => (await chrome.tabs.get(id)).groupId, openedId)).toBe(groupId);

  // Otto's group ends (its tabs leave it): that starts the worker (so the watch does see starts), which lets go of the
  // between-runs listeners rather than keeping them until the next popup.
  await helper.evaluate(async (ids) => chrome.tabs.ungroup(ids as [number, number]), [blogId, openedId]);
  await expect.poll(watch.since).toBe(1);
  await expect.poll(listening, { timeout: 30_000 }).toEqual({
    created: false,
    removed: false,
    opened: false,
    groupGone: false,
  });
  await watch.detach();
  await helper.close();
  await opened.close();
  await page.close();
});
