/**
 * Big pages (#24): the built extension on generated pages (e2e/fixtures/pages/bigpage.html) — tables of 1k, 10k
 * and 50k rows (a link, a button, a checkbox, a text box and a sentence each), a 5,000-message virtualised list and
 * a 2,000-level nesting. Every walking call returns within its timeout with budgeted output and an honest note, and
 * a requestAnimationFrame probe in the page sees no long gap while it runs. (200k rows: see bench/bigpages.bench.ts;
 * generating and laying out that page takes minutes here.)
 */
import type { Page, Worker } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { call, openTab, refIn, type ActionResult, type Snap } from './page-tools.helpers.ts';

/**
 * Longest main-thread gap the probe may see during a call. The goal is 100 ms; this machine is shared (load
 * average near 30 on 2 cores) and the probe alone, with no call running, sees gaps of 150-400 ms now and then, so
 * the bound is generous and a call gets three tries (the best one counts). `npm run bench -- bigpages` reports the
 * raw gaps (17-67 ms at 10k and 50k rows in a quieter moment). A walk that did not yield fails every
 * try by far (before #24: 3.7 s at 5,000 rows, 60 s at 20,000).
 */
const MAX_GAP_MS = 500;
/**
 * On the 50k-row page (500,000 elements) the browser's own pauses grow with its heap: the same bounded search,
 * measured without the extension, saw 31-250 ms gaps run to run. Still a small fraction of the call (the old walk held
 * the page for the whole call, tens of seconds at this size).
 */
const MAX_GAP_HUGE_MS = 2000;
const TRIES = 3;
/** Every walking call must answer well within the worker's 30 s request timeout. */
const CALL_LIMIT_MS = 25_000;

interface Probed<T> {
  value: T;
  ms: number;
  gap: number;
}

/** Runs a worker call while the page's rAF probe watches the main thread (up to TRIES times while the gap is long). */
async function probed<T>(page: Page, run: () => Promise<T>, bound = MAX_GAP_MS): Promise<Probed<T>> {
  let best: Probed<T> | undefined;
  for (let i = 0; i < TRIES && (!best || best.gap >= bound); i++) {
    await page.evaluate(() => (window as unknown as { __probe: { start(): void } }).__probe.start());
    const t0 = Date.now();
    const value = await run();
    const ms = Date.now() - t0;
    const gap = await page.evaluate(() => (window as unknown as { __probe: { stop(): number } }).__probe.stop());
    if (!best || gap < best.gap) best = { value, ms, gap };
  }
  return best!;
}

/**
 * Waits until the page renders steadily: five frames in a row less than 50 ms apart (its own first layout and paint
 * of a huge table, and the browser's warm-up after a tab opens, are not Otto's gaps to measure).
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const start = performance.now();
        let last = 0;
        let calm = 0;
        const tick = (t: number): void => {
          calm = last && t - last < 50 ? calm + 1 : 0;
          last = t;
          if (calm >= 5 || t - start > 10_000) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

async function openBig(
  context: Parameters<typeof openTab>[0],
  sw: Worker,
  url: string,
): Promise<{ page: Page; tabId: number }> {
  const opened = await openTab(context, sw, url);
  await opened.page.waitForFunction(
    () => (window as unknown as { __built?: number }).__built !== undefined,
    undefined,
    { timeout: 120_000 },
  );
  await settled(opened.page);
  return opened;
}

// Playwright's trace recorder snapshots the whole DOM on the page's main thread at each step: seconds on these pages,
// which the probe would blame on Otto.
test.use({ trace: 'off' });

test.describe('big pages', () => {
  for (const rows of [1_000, 10_000, 50_000]) {
    test(`a table of ${rows} rows: snapshot, find, text and a click's change report stay bounded and keep the page responsive`, async ({
      context,
      serviceWorker: sw,
      pages,
    }) => {
      test.setTimeout(rows >= 50_000 ? 240_000 : 90_000);
      const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?rows=${rows}`);
      const bound = rows >= 50_000 ? MAX_GAP_HUGE_MS : MAX_GAP_MS;

      const snap = await probed(page, () => call<Snap>(sw, 'snapshot', tabId), bound);
      expect(snap.ms).toBeLessThan(CALL_LIMIT_MS);
      expect(snap.gap).toBeLessThan(bound);
      expect(snap.value.text.length).toBeLessThanOrEqual(40_000);
      expect(snap.value.truncated).toBe(true);
      expect(snap.value.note).toContain('The walk stopped because the 40,000-character budget was full');
      expect(snap.value.note).toMatch(
        /about [\d,]+ elements \(roughly [\d,]+ interactive, estimated\) were not walked, starting at /,
      );
      expect(snap.value.text).toMatch(/- button "Open 1" \[ref=[a-df-z]{2}e\d+\]/);
      expect(snap.value.text).toMatch(/- checkbox "Pick 1" \[ref=[a-df-z]{2}e\d+\]/);
      expect(snap.value.text).toMatch(/- textbox "Note 1" \[ref=[a-df-z]{2}e\d+\]/);
      // The walk's note ends the text the model reads.
      expect(snap.value.text.trimEnd().endsWith('or scroll and snapshot again.]')).toBe(true);

      const found = await probed(
        page,
        () =>
          call<{ matches: { line: string; ref?: string }[]; total: number; notes?: string[] }>(sw, 'find', tabId, {
            role: 'button',
            name: 'Open 7',
          }),
        bound,
      );
      expect(found.ms).toBeLessThan(CALL_LIMIT_MS);
      expect(found.gap).toBeLessThan(bound);
      expect(found.value.matches[0]!.line).toMatch(/^button "Open 7" \[ref=[a-df-z]{2}e\d+\]/);
      // The search budget holds about 2,500 rows: past it the reply says it searched only part of the page.
      if (rows > 2_500) expect(found.value.notes?.join(' ')).toMatch(/^Searched part of the page only/);
      else expect(found.value.notes).toBeUndefined();

      const text = await probed(
        page,
        () => call<{ text: string; truncated: boolean }>(sw, 'text', tabId, { maxChars: 5000 }),
        bound,
      );
      expect(text.gap).toBeLessThan(bound);
      expect(text.value.truncated).toBe(true);
      expect(text.value.text).toContain('Row 1 holds a short sentence about order 1.');

      // The page re-renders after its own click handler changes the DOM: a native click is the baseline for that.
      const native = await probed(
        page,
        () => page.evaluate(() => (document.querySelector('button[data-row="4"]') as HTMLElement).click()),
        bound,
      );
      await settled(page);
      const button = refIn(snap.value.text, 'button "Open 3"');
      const clicked = await probed(
        page,
        () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: button }),
        bound,
      );
      expect(clicked.ms).toBeLessThan(CALL_LIMIT_MS);
      expect(clicked.gap).toBeLessThan(bound + native.gap);
      expect(clicked.value.summary).toContain('clicked button "Open 3"');
      expect(clicked.value.changes.added.join(' ')).toContain('Opened order 3');
      await settled(page);

      // CSS selectors (dom.query, an action's selector target) are matched in one sliced walk: before, the search
      // for shadow roots plus querySelectorAll held the 50k page for 1-2 s per call.
      const queried = await probed(
        page,
        () =>
          call<{ total: number; partial?: boolean; matches: { line: string }[] }>(
            sw,
            'query',
            tabId,
            'tr input[type=checkbox]',
            { limit: 5 },
          ),
        bound,
      );
      expect(queried.ms).toBeLessThan(CALL_LIMIT_MS);
      expect(queried.gap).toBeLessThan(bound);
      expect(queried.value.matches[0]!.line).toMatch(/^checkbox "Pick 1" \[ref=[a-df-z]{2}e\d+\]/);
      if (!queried.value.partial) expect(queried.value.total).toBe(rows);
      // A target resolves at its first visible match; the page's last element makes the walk cross the whole page
      // (dom.wait_for matches the same way and does not scroll, so its gap is the walk's own).
      const waited = await probed(
        page,
        () => call<{ met: boolean; summary: string }>(sw, 'waitFor', tabId, { selector: 'p#end', timeoutMs: 20_000 }),
        bound,
      );
      expect(waited.gap).toBeLessThan(bound);
      expect(waited.value.summary).toMatch(/^selector "p#end" was already present/);
      const bySelector = await probed(
        page,
        () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', selector: 'button[data-row="6"]' }),
        bound,
      );
      console.log(
        `[bigpages] ${rows} rows: dom.query ${queried.ms} ms (longest gap ${queried.gap} ms), wait_for a selector at the end ${waited.ms} ms (gap ${waited.gap} ms), click by selector ${bySelector.ms} ms (gap ${bySelector.gap} ms)`,
      );
      expect(bySelector.ms).toBeLessThan(CALL_LIMIT_MS);
      expect(bySelector.gap).toBeLessThan(bound + native.gap);
      expect(bySelector.value.summary).toContain('clicked button "Open 6"');
      await settled(page);
      await page.close();
    });
  }

  test('a scrolled big table: the outline starts near the viewport and says what it left out above', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?rows=10000`);
    await page.evaluate(() => document.querySelector('a[href="#o5000"]')!.scrollIntoView({ block: 'start' }));
    await settled(page);
    const snap = await probed(page, () => call<Snap>(sw, 'snapshot', tabId));
    expect(snap.gap).toBeLessThan(MAX_GAP_MS);
    expect(snap.value.note).toMatch(
      /The page is larger than the budget and is scrolled, so long lists start near the viewport: [\d,]+ items above it were left out/,
    );
    expect(snap.value.text).toMatch(/items above the viewport are not shown/);
    expect(snap.value.text).toMatch(/- link "Order 5000" \[ref=[a-df-z]{2}e\d+\]/);
    expect(snap.value.text).not.toMatch(/- link "Order 10" \[ref=/);
    // What sits outside the long list (the page's navigation) is still there.
    expect(snap.value.text).toMatch(/- navigation "Main"/);
    await page.close();
  });

  test('a virtualised list of 5,000 messages and a 2,000-level nesting', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?kind=virtual&messages=5000`);
    await page.evaluate(() => {
      const box = document.querySelector('.vlist')!;
      box.scrollTop = 2500 * 40;
      box.dispatchEvent(new Event('scroll'));
    });
    await settled(page);
    const snap = await probed(page, () => call<Snap>(sw, 'snapshot', tabId));
    expect(snap.gap).toBeLessThan(MAX_GAP_MS);
    expect(snap.value.truncated).toBe(false);
    expect(snap.value.text).toMatch(/- link "Message 2501" \[ref=[a-df-z]{2}e\d+\]/);
    const reply = refIn(snap.value.text, 'button "Reply 2501"');
    const clicked = await probed(page, () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: reply }));
    expect(clicked.gap).toBeLessThan(MAX_GAP_MS);
    expect(clicked.value.summary).toContain('clicked button "Reply 2501"');
    await page.close();

    const deep = await openBig(context, sw, `${pages.origin}/bigpage.html?kind=deep&depth=2000`);
    const d = await probed(deep.page, () => call<Snap>(sw, 'snapshot', deep.tabId));
    expect(d.gap).toBeLessThan(MAX_GAP_MS);
    expect(d.value.text).toContain('- text: Deepest text');
    const ref = refIn(d.value.text, 'button "Deep button"');
    const found = await call<{ matches: { ref?: string }[] }>(sw, 'find', deep.tabId, { text: 'Deep button' });
    expect(found.matches[0]!.ref).toBe(ref);
    await call<ActionResult>(sw, 'act', deep.tabId, { type: 'dom.click', ref });
    await expect(deep.page.locator('#deepest')).toHaveText('Deep clicked');
    await deep.page.close();
  });
});
