/**
 * Otto's content script is injected on demand: into every frame of a tab when a run first reads or acts on it, and
 * into frames that appear afterwards (here opaque-origin ones: a sandboxed srcdoc and a data: URL) the first time
 * a request reaches them. Injecting again changes nothing.
 */
import { test, expect } from './support/fixtures.ts';
import { call, refIn, tabIdOf, type ActionResult, type Snap } from './page-tools.helpers.ts';

test('the router injects the content script into frames that lack it, then acts there', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  const page = await context.newPage();
  await page.goto(`${pages.origin}/apps/login.html`);
  const tabId = await tabIdOf(sw, page);
  // An untouched tab: nothing of Otto in it. The first call injects into the top frame.
  expect(await call<unknown[]>(sw, 'pingFrames', tabId)).toEqual([]);
  await call<Snap>(sw, 'snapshot', tabId);
  expect((await call<unknown[]>(sw, 'pingFrames', tabId)).length).toBe(1);
  await page.evaluate(() => {
    const sandboxed = document.createElement('iframe');
    sandboxed.title = 'Sandboxed';
    sandboxed.setAttribute('sandbox', 'allow-scripts');
    sandboxed.srcdoc = `<p id="p">sandboxed</p><button onclick="document.getElementById('p').textContent='clicked in sandbox'">Sandbox button</button>`;
    const data = document.createElement('iframe');
    data.title = 'Data frame';
    data.src = 'data:text/html,<label>Data field <input id="d"></label>';
    document.body.append(sandboxed, data);
  });
  await expect(page.frameLocator('iframe[title="Data frame"]').locator('#d')).toBeVisible();
  // The frames added since have none yet.
  expect((await call<unknown[]>(sw, 'pingFrames', tabId)).length).toBe(1);

  const s = await call<Snap>(sw, 'snapshot', tabId);
  expect(s.frames).toBe(2);
  expect(s.text).toMatch(
    /- iframe "Sandboxed" \[ref=[a-df-z]{2}e\d+\] \[new\]:\n {2}- text: sandboxed\n {2}- button "Sandbox button" \[ref=f\d+[a-df-z]{2}e1\]/,
  );
  expect((await call<unknown[]>(sw, 'pingFrames', tabId)).length).toBe(3);

  await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'Sandbox button') });
  await expect(page.frameLocator('iframe[title="Sandboxed"]').locator('#p')).toHaveText('clicked in sandbox');
  const typed = await call<ActionResult>(sw, 'act', tabId, {
    type: 'dom.type',
    ref: refIn(s.text, 'textbox "Data field"'),
    text: 'injected',
  });
  expect(typed.details.verified).toBe(true);
  await expect(page.frameLocator('iframe[title="Data frame"]').locator('#d')).toHaveValue('injected');

  // Injecting again where the script already runs changes nothing (one listener per frame).
  await call(sw, 'injectContentScripts', tabId);
  const again = await call<Snap>(sw, 'snapshot', tabId);
  expect(refIn(again.text, 'Sandbox button')).toBe(refIn(s.text, 'Sandbox button'));
  await page.close();
});
