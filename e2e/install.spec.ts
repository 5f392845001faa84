/**
 * A tab that was open before Otto was installed is like any other: Otto has no manifest content scripts, so every
 * tab gets its content script on demand. This launches Chromium without Otto, opens a page, then installs the built
 * extension at runtime (CDP `Extensions.loadUnpacked`), and drives that tab: the router injects the content
 * script on the first call and the page tools work there like anywhere else.
 */
import { chromium, expect, type Worker } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from './support/fixtures.ts';
import { DIST, chromiumPath, extensionArgs } from './support/browser.ts';
import { call, refIn, tabIdOf, type ActionResult, type Snap } from './page-tools.helpers.ts';

test('a tab opened before Otto was installed gets the content script on the first call: snapshot, then typing into React', async ({
  pages,
}) => {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-install-'));
  // The usual flags minus the two that load Otto at startup; CDP may install extensions only with this switch.
  const args = [
    ...extensionArgs().filter((a) => !a.startsWith('--load-extension') && !a.startsWith('--disable-extensions-except')),
    '--enable-unsafe-extension-debugging',
  ];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args,
    ignoreDefaultArgs: ['--disable-extensions'],
  });
  try {
    const page = await context.newPage();
    await page.goto(`${pages.origin}/apps/react.html`);
    await expect(page.getByLabel('Name')).toBeVisible();

    const cdp = await context.browser()!.newBrowserCDPSession();
    const { id } = (await cdp.send('Extensions.loadUnpacked' as never, { path: DIST } as never)) as { id: string };
    // Opening one of Otto's pages starts its service worker.
    const options = await context.newPage();
    await options.goto(`chrome-extension://${id}/src/options/index.html`);
    const sw: Worker =
      context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${id}/`)) ??
      (await context.waitForEvent('serviceworker'));
    await expect.poll(() => sw.evaluate(() => typeof (globalThis as { otto?: unknown }).otto)).toBe('object');

    const tabId = await tabIdOf(sw, page);
    // The premise: nothing of Otto runs in the old tab yet.
    expect(await call<unknown[]>(sw, 'pingFrames', tabId)).toEqual([]);

    const snap = await call<Snap>(sw, 'snapshot', tabId);
    expect(snap.text).toMatch(/textbox "Name" \[ref=[a-df-z]{2}e\d+\]/);
    expect((await call<unknown[]>(sw, 'pingFrames', tabId)).length).toBe(1);

    const typed = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(snap.text, 'textbox "Name"'),
      text: 'Ada',
    });
    expect(typed.details.verified).toBe(true);
    await expect(page.getByTestId('echo')).toHaveText('Hello, Ada!');
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
