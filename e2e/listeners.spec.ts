/**
 * #14 item 4: controls whose only sign of being clickable is a listener the page added from script (a feed's
 * `<span>` buttons: `addEventListener('click')`, a `pointerdown` listener, the `onclick` property). The page-world
 * listener registry (content/listenerRegistry.ts) sees them; a page open before Otto came is said to be seen only
 * in part; a delegated listener on a container gives neither the container nor its children a ref. The tests assert
 * the exact text the model receives, and click by the refs it gives.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTab, tool } from './page-tools.helpers.ts';
import { connectToFakeApi, send, waitForStatus } from './support/agent.ts';
import { lastOutputs } from './support/modelTurns.ts';
import { tabIdFor } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

/** The text with what varies per run made constant: refs, boundary tags, the server's port. */
function stable(text: string): string {
  return text
    .replace(/\[ref=(?:f\d+)?[a-df-z]{2}e\d+\]/g, '[ref]')
    .replace(/(?<=refs: |, )[a-df-z]{2}e\d+ /g, 'REF ')
    .replace(/external-content-[0-9a-f]{8}/g, 'external-content')
    .replace(/127\.0\.0\.1:\d+/g, 'HOST');
}

/** The ref on the line after the line holding `after` that contains `needle`. */
function refAfter(text: string, after: string, needle: string): string {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.includes(after));
  const line = lines.slice(from).find((l) => l.includes(needle));
  const m = line && /\[ref=((?:f\d+)?[a-df-z]{2}e\d+)\]/.exec(line);
  if (from < 0 || !m) throw new Error(`no ref for ${needle} after ${after} in:\n${text}`);
  return m[1]!;
}

const LATE =
  'listeners the page added before Otto came are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom__find its text to get a ref for its element';
const NONE =
  "the page's script listeners are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element";

/** Whether anything of Otto's listener registry is in the page's world. */
function registry(page: Page): Promise<{ slot: boolean; native: boolean }> {
  return page.evaluate(() => ({
    slot: Symbol.for('otto.listeners') in window,
    native: Function.prototype.toString.call(EventTarget.prototype.addEventListener).includes('[native code]'),
  }));
}
const CLEAN = { slot: false, native: true };

const FIRST_TWO = `- heading "Listener feed" [level=1]
- article:
  - text: Ada: The engine works!
  - text: Like · Comment · Share
  - text: Save Hide Report
- article:
  - text: Charles: It needs more brass.
  - text: Like · Comment · Share
  - text: Save Hide Report`;

test('outside a run Otto puts nothing in the page: listener-only spans have no ref and the snapshot says why', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  const { page, tabId } = await openTab(context, sw, `${pages.origin}/apps/listeners.html`);
  const first = await tool(sw, 'dom.snapshot', { tab_id: tabId });
  expect(stable(first)).toBe(
    `Page snapshot — 1 refs; scrolled to 0 of 720px; ${NONE}.
<external-content>
title: listener feed
url: http://HOST/apps/listeners.html
${FIRST_TWO}
- button "Load more posts" [ref]
- text: Nothing yet
</external-content>`,
  );
  const loaded = await tool(sw, 'dom.click', { ref: refAfter(first, 'Load more posts', 'button'), tab_id: tabId });
  expect(stable(loaded)).toContain(
    'appeared: article "Mary: Loaded later. Like · Comment · Share Save Hide": "Mary: Loaded later. Like · Comment · Share Save Hide Report"\n',
  );
  expect(await registry(page)).toEqual(CLEAN);
  await page.close();
});

test("in a run: listeners added after Otto came, then after a reload all of them, give the feed's spans refs; delegated menus get none; the model clicks by the ref; bystanders and the tab after the run stay clean", async ({
  context,
  panel,
  fakeApi,
  pages,
  serviceWorker: sw,
}) => {
  await connectToFakeApi(panel, fakeApi);
  const url = `${pages.origin}/apps/listeners.html`;
  const page = await context.newPage();
  await page.goto(url);
  const bystander = await context.newPage();
  const tabId = await tabIdFor(panel, url);
  fakeApi.script([
    { match: 'like the post by Charles', calls: [{ name: 'dom__snapshot', arguments: {} }] },
    {
      respond: (req) => ({
        calls: [{ name: 'dom__click', arguments: { ref: refAfter(req.lastInput, 'Load more posts', 'button') } }],
      }),
    },
    { calls: [{ name: 'tabs__navigate', arguments: { url } }] },
    { calls: [{ name: 'dom__snapshot', arguments: {} }] },
    {
      // The model reads the ref of Charles's Like from the snapshot it just got.
      respond: (req) => ({
        calls: [{ name: 'dom__click', arguments: { ref: refAfter(req.lastInput, 'Charles', 'clickable "Like"') } }],
      }),
    },
    { text: "Liked Charles's post." },
  ]);
  const id = await send(panel, 'like the post by Charles', { tabId });
  // While the run goes: a page of the same site that no run touches gets nothing.
  await expect.poll(() => fakeApi.responsesRequests().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await bystander.goto(`${pages.origin}/apps/feed.html`);
  const bystanderDuringRun = await registry(bystander);
  await waitForStatus(panel, id, 'completed', 60_000);
  const all = lastOutputs(fakeApi);
  expect(all.length, all.join('\n=====\n')).toBe(5);
  const [before, loaded, , after, click] = all as [string, string, string, string, string];
  // Otto came after the page's scripts: their listeners are unseen, and the model is told so.
  expect(stable(before)).toBe(
    `Page snapshot — 1 refs; scrolled to 0 of 720px; ${LATE}.
<external-content>
title: listener feed
url: http://HOST/apps/listeners.html
${FIRST_TWO}
- button "Load more posts" [ref]
- text: Nothing yet
</external-content>`,
  );
  // A post rendered after Otto came: its listeners were seen.
  expect(stable(loaded)).toContain(
    'appeared: article "Mary: Loaded later. Like · Comment · Share Save Hide": "Mary: Loaded later. Like · Comment · Share Save Hide Report" — refs: REF clickable "Like", REF clickable "Comment", REF clickable "Share"\n',
  );
  // After the reload the registry came before the page's scripts: every post's actions, and no note. A new page
  // is all new to a fresh content script, so nothing is marked [new].
  expect(stable(after)).toBe(
    `Page snapshot — 7 refs; scrolled to 0 of 720px.
<external-content>
title: listener feed
url: http://HOST/apps/listeners.html
- heading "Listener feed" [level=1]
- article:
  - text: Ada: The engine works!
  - clickable "Like" [ref]
  - text: ·
  - clickable "Comment" [ref]
  - text: ·
  - clickable "Share" [ref]
  - text: Save Hide Report
- article:
  - text: Charles: It needs more brass.
  - clickable "Like" [ref]
  - text: ·
  - clickable "Comment" [ref]
  - text: ·
  - clickable "Share" [ref]
  - text: Save Hide Report
- button "Load more posts" [ref]
- text: Nothing yet
</external-content>`,
  );
  expect(click).toMatch(/^dom__click ok — /);
  expect(click).toContain('clicked clickable "Like"');
  expect(click).toMatch(/changed: text of .*"Nothing yet" → "Liked Charles's post"/);
  await expect(page.locator('#status')).toHaveText("Liked Charles's post");

  // Each kind of listener works through its ref: pointerdown, the onclick property.
  for (const [name, status] of [
    ['Comment', "Commenting on Ada's post"],
    ['Share', "Shared Ada's post"],
  ] as const) {
    const out = await tool(sw, 'dom.click', { ref: refAfter(after, 'Ada', `clickable "${name}"`), tab_id: tabId });
    expect(out, name).toContain(`clicked clickable "${name}"`);
    await expect(page.locator('#status')).toHaveText(status);
  }

  // #26: nothing in the bystander during the run; the run's tab is clean again once it is over.
  expect(bystanderDuringRun).toEqual(CLEAN);
  expect((await registry(page)).slot).toBe(true);
  await page.reload();
  expect(await registry(page)).toEqual(CLEAN);
  await bystander.close();
  await page.close();
});
