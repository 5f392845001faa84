/**
 * Big pages (#24): the built extension on generated pages (e2e/fixtures/pages/bigpage.html) — tables of 1k, 10k
 * and 50k rows (a link, a button, a checkbox, a text box and a sentence each), a 5,000-message virtualised list and
 * a 2,000-level nesting. Every walking call returns within its timeout with budgeted output and an honest note, and
 * a requestAnimationFrame probe in the page sees no long gap while it runs. (200k rows: see bench/bigpages.bench.ts;
 * generating and laying out that page takes minutes here.)
 */
import type { Page, Worker } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { call, callError, openTab, refIn, tool, type ActionResult, type Snap } from './page-tools.helpers.ts';
import { tracingOtto, tracingPageCall, type OttoTasks } from './bigpages.tasks.ts';

/**
 * How much longer than the page's own longest gap a call's longest gap may be. The goal is no gap over
 * 100 ms; this machine is shared (load average 20-30 on 2 cores) and the probe alone, with nothing running, sees
 * gaps of 150-400 ms now and then, so an absolute bound is either flaky or loose. Instead the probe also watches the
 * page idle right after each call, for as long as the call took (up to IDLE_MAX_MS), and the call may add at most
 * this much to that; the best of TRIES counts. A walk that did not yield fails every try by far (before #24: 3.7 s
 * at 5,000 rows; a synchronous Tab search 3 s at 10,000). The absolute 100 ms goal is in the bench
 * (`npx tsx bench/run.ts bigpages`). The allowance is wide because CI runs on other machines: a full CI run here saw
 * gaps within 35 ms of a 250 ms allowance (Tab at 10,000 rows: 233 over an idle 17), and CI failed once on such a bound.
 */
const OVER_IDLE_MS = 600;
/**
 * On the 50k-row page (500,000 elements) the page's own garbage collection and re-render pauses grow with its heap
 * and come when they come, not in the idle window: the allowance is larger there.
 */
const OVER_IDLE_HUGE_MS = 1_500;
const IDLE_MAX_MS = 2_000;
const TRIES = 3;
/** Every walking call must answer well within the worker's 30 s request timeout. */
const CALL_LIMIT_MS = 25_000;

/**
 * The absolute bound, on what is Otto's own: no main-thread task running Otto's content script may take more
 * than this much CPU time (see bigpages.tasks.ts for why CPU time and how a task is known to be Otto's).
 */
const OTTO_TASK_MS = 100;

interface Probed<T> {
  value: T;
  ms: number;
  /** Longest gap between animation frames while the call ran. */
  gap: number;
  /** Longest gap with the page left alone right after, for as long as the call took. */
  idle: number;
  /** Otto's longest tasks in the page while the call ran. */
  otto: OttoTasks;
}

const probe = (page: Page, op: 'start' | 'stop'): Promise<number> =>
  page.evaluate((o) => (window as unknown as { __probe: Record<string, () => number> }).__probe[o]!(), op);

/**
 * How far a try is from passing (0: it passes): its gap beyond the allowance, and Otto's task beyond its bound (plus
 * `native`: Chrome's own work in a call that the page's same call costs as much, see `nativeFocusCpu`).
 */
const excess = (p: Probed<unknown>, over: number, native = 0): number =>
  Math.max(0, p.gap - p.idle - over) / over + Math.max(0, p.otto.cpu - OTTO_TASK_MS - native) / OTTO_TASK_MS;

/**
 * Runs a worker call while the page's rAF probe watches the main thread and a trace records Otto's tasks, then
 * watches the idle page as long; up to TRIES times while the try is over either bound (the try nearest to both
 * counts).
 */
async function probed<T>(page: Page, run: () => Promise<T>, over = OVER_IDLE_MS, native = 0): Promise<Probed<T>> {
  let best: Probed<T> | undefined;
  for (let i = 0; i < TRIES && (!best || excess(best, over, native) > 0); i++) {
    await probe(page, 'start');
    const t0 = Date.now();
    const { value, tasks: otto } = await tracingOtto(page.context(), page, run);
    const ms = Date.now() - t0;
    const gap = await probe(page, 'stop');
    await probe(page, 'start');
    await new Promise((r) => setTimeout(r, Math.max(300, Math.min(ms, IDLE_MAX_MS))));
    const idle = await probe(page, 'stop');
    const p = { value, ms, gap, idle, otto };
    if (!best || excess(p, over, native) < excess(best, over, native)) best = p;
  }
  return best!;
}

/**
 * The call kept the page responsive: none of Otto's tasks took over OTTO_TASK_MS of CPU (plus `native`, Chrome's own
 * work inside it, see nativeFocusCpu), and its longest frame gap is at most `over` (plus `extra`) beyond the idle
 * page's.
 */
function expectResponsive(p: Probed<unknown>, over = OVER_IDLE_MS, extra = 0, native = 0): void {
  expect(p.otto.cpu).toBeLessThanOrEqual(OTTO_TASK_MS + native);
  expect(p.gap).toBeLessThanOrEqual(p.idle + over + extra);
}

const fmt = (p: Probed<unknown>): string =>
  `${p.ms} ms (gap ${p.gap}, idle ${p.idle}; Otto's longest task ${p.otto.cpu} ms CPU, ${p.otto.wall} ms wall, of ${p.otto.count}; ${p.otto.total} ms CPU in all)`;

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
  timeout = 120_000,
): Promise<{ page: Page; tabId: number }> {
  const opened = await openTab(context, sw, url, timeout);
  await opened.page.waitForFunction(
    () => (window as unknown as { __built?: number }).__built !== undefined,
    undefined,
    { timeout },
  );
  await settled(opened.page);
  return opened;
}

/**
 * Chrome's own CPU for the page focusing one of its text fields (they sit outside any form): Chrome then scans the
 * page's form controls, in the focusing task, ~100 ms on the 50k table, and as much when Otto focuses one (Tab,
 * fill_form). Otto cannot shorten that work, so those calls' bound adds it.
 * The median of three, on fields Otto does not touch.
 */
async function nativeFocusCpu(page: Page): Promise<number> {
  const cpu: number[] = [];
  for (const row of [20, 21, 22])
    cpu.push(
      await tracingPageCall(page.context(), page, () =>
        page.evaluate((r) => {
          const box = document.querySelector(`input[aria-label="Note ${r}"]`) as HTMLInputElement;
          box.focus({ preventScroll: true });
          box.blur();
        }, row),
      ),
    );
  return cpu.sort((a, b) => a - b)[1]!;
}

/**
 * The other walks an action may do (#24): Tab's search for the next stop, a combobox's options shown elsewhere, a
 * wait for text at the end of the page, and dom.read on a page too big for the article reader.
 */
async function keysFormsAndWaits(
  page: Page,
  sw: Worker,
  tabId: number,
  outline: string,
  rows: number,
  over: number,
): Promise<void> {
  const focusCpu = await nativeFocusCpu(page);
  const tab = await probed(
    page,
    () =>
      call<ActionResult>(sw, 'act', tabId, { type: 'dom.press', ref: refIn(outline, 'checkbox "Pick 2"'), key: 'Tab' }),
    over,
    focusCpu,
  );
  expect(tab.value.summary).toMatch(
    /^pressed Tab on checkbox "Pick 2" \[ref=[a-z\d]+\]: focus moved to textbox "Note 2" \[ref=[a-z\d]+\]$/,
  );
  expectResponsive(tab, over, 0, focusCpu);
  // The page re-renders the whole table after its own select too (50k rows: a pre-paint walk of 250-450 ms CPU as the
  // list opens and again as it closes, whoever picks): the page picking an option itself is the baseline for that gap.
  const nativeSelect = await probed(
    page,
    () =>
      page.evaluate(async () => {
        (document.getElementById('status') as HTMLElement).click();
        await new Promise((r) => setTimeout(r, 50));
        const options = Array.from(document.querySelectorAll('[role="option"]'));
        (options.find((o) => o.textContent === 'Open') as HTMLElement).click();
      }),
    over,
  );
  await settled(page);
  const select = await probed(
    page,
    () =>
      call<ActionResult>(sw, 'act', tabId, {
        type: 'dom.select',
        ref: refIn(outline, 'combobox "Status"'),
        values: ['Closed'],
      }),
    over,
  );
  expect(select.value.summary).toBe('clicked option "Closed"');
  await expect(page.locator('#status')).toHaveText('Closed');
  expectResponsive(select, over, Math.max(0, nativeSelect.gap - nativeSelect.idle));
  await settled(page);
  // A form's fields each wait for the page to render the last one's change (not after a checkbox click that changed
  // nothing else, see src/content/actions/fieldSettle.ts): checking the next field's geometry right after a write
  // forced the whole table's layout inside Otto's task (10,000 rows: 0.6 s of 0.9 s CPU). The page still lays the
  // table out after each edit, as after a person's (50k rows: 0.4-0.9 s CPU per text field, whoever types): the page
  // making the same edits itself (focus, value, input and change; the checkboxes clicked) is the baseline for that
  // gap. Its second focus lays out the first field's edit inside its own task. Each try writes a new value.
  let edits = 0;
  const edited = await probed(
    page,
    () =>
      page.evaluate((n) => {
        for (const i of [10, 11]) {
          const box = document.querySelector(`input[aria-label="Note ${i}"]`) as HTMLInputElement;
          box.focus({ preventScroll: true });
          box.value = `typed by the page ${n}`;
          box.dispatchEvent(new Event('input', { bubbles: true }));
          box.dispatchEvent(new Event('change', { bubbles: true }));
          (document.querySelector(`input[aria-label="Pick ${i}"]`) as HTMLInputElement).click();
        }
      }, edits++),
    over,
  );
  await settled(page);
  const filled = await probed(
    page,
    () =>
      call<ActionResult>(sw, 'act', tabId, {
        type: 'dom.fill_form',
        fields: [8, 9].flatMap((i) => [
          { ref: refIn(outline, `textbox "Note ${i}"`), value: `note ${i}` },
          { ref: refIn(outline, `checkbox "Pick ${i}"`), value: true },
        ]),
      }),
    over,
    focusCpu,
  );
  expect(filled.value.summary).toBe('filled 4 of 4 fields');
  await expect(page.getByRole('textbox', { name: 'Note 9', exact: true })).toHaveValue('note 9');
  await expect(page.getByRole('checkbox', { name: 'Pick 9', exact: true })).toBeChecked();
  expectResponsive(filled, over, Math.max(0, edited.gap - edited.idle), focusCpu);
  await settled(page);
  const fillMs = `, native edit ${fmt(edited)}, fill_form ${fmt(filled)}`;
  const last = `Row ${rows} holds a short sentence`;
  const waited = await probed(
    page,
    () => call<{ summary: string }>(sw, 'waitFor', tabId, { text: last, timeoutMs: 20_000 }),
    over,
  );
  expect(waited.value.summary).toBe(
    `text "${last}" was already present — matched cell "Row ${rows} holds a short sentence about order ${rows}." <td> <td>: "Row ${rows} holds a short sentence about order ${rows}."`,
  );
  // #24: on the 50k page the walk's longest Otto task is a slice plus a V8 scavenge of the wrappers it made (30-45 ms).
  expectResponsive(waited, over);
  let readMs: string;
  if (rows >= 10_000) {
    const read = await probed(
      page,
      () => call<{ note?: string; markdown: string }>(sw, 'read', tabId, { maxChars: 2000 }),
      over,
    );
    expect(read.value.note).toBe(
      'the page has more than 25,000 elements, too many for the article reader without freezing it, so this is its visible text',
    );
    expect(read.value.markdown).toContain('Row 1 holds a short sentence about order 1.');
    expectResponsive(read, over);
    readMs = `, read ${fmt(read)}`;
  } else {
    // #24: Readability on the 1k table (~8,000 elements) was one task of 186-325 ms CPU in the page; its HTML is
    // read in the offscreen document now. The tool as the model runs it (the worker gives it the offscreen reader).
    const read = await probed(page, () => tool(sw, 'dom.read', { tab_id: tabId, max_chars: 2000 }), over);
    expect(read.value).toContain('Row 1 holds a short sentence about order 1.');
    expectResponsive(read, over);
    readMs = `, read ${fmt(read)}`;
  }
  console.log(
    `[bigpages] ${rows} rows: a text field's native focus ${focusCpu} ms CPU; Tab ${fmt(tab)}, native select ${fmt(nativeSelect)}, select ${fmt(select)}${fillMs}, wait_for text at the end ${fmt(waited)}${readMs}`,
  );
}

/**
 * Selectors with fewer matches than their limit (#24 few-match walks): a dom.query that matches nothing, a wait_for
 * that never sees its selector, a click by selector on the last row. Past 200,000 elements (the 50k and 200k tables)
 * each walk stops at that budget and says how far it searched; smaller tables are searched whole.
 */
async function fewMatches(page: Page, sw: Worker, tabId: number, rows: number, over: number): Promise<void> {
  const cut = rows * 10 > 200_000;
  const none = await probed(
    page,
    () =>
      call<{ total: number; partial?: boolean; searched?: number; searchedUpTo?: string }>(
        sw,
        'query',
        tabId,
        'tr.nothing',
      ),
    over,
  );
  expect(none.ms).toBeLessThan(CALL_LIMIT_MS);
  expectResponsive(none, over);
  expect(none.value.total).toBe(0);
  if (cut) expect(none.value).toMatchObject({ partial: true, searched: 200_000 });
  else expect(none.value.partial).toBeUndefined();
  const unseen = await probed(
    page,
    () => callError(sw, 'waitFor', tabId, { selector: 'tr.nothing', timeoutMs: 3_000 }),
    over,
  );
  expect(unseen.ms).toBeLessThan(CALL_LIMIT_MS);
  expectResponsive(unseen, over);
  expect(unseen.value.message).toMatch(
    cut
      ? /^Timed out after 3000 ms waiting for selector "tr.nothing" to appear\. This page is too big to look through whole: each look searched the first 200,000 elements \(up to .+\) and not the rest of it/
      : /^Timed out after 3000 ms waiting for selector "tr.nothing" to appear\. Take a new snapshot/,
  );
  console.log(`[bigpages] ${rows} rows: dom.query with no match ${fmt(none)}; wait_for no match ${fmt(unseen)}`);
  if (!cut) return;
  const last = await probed(
    page,
    () => callError(sw, 'act', tabId, { type: 'dom.click', selector: `button[data-row="${rows}"]` }),
    over,
  );
  expect(last.ms).toBeLessThan(CALL_LIMIT_MS);
  expectResponsive(last, over);
  expect(last.value.message).toMatch(
    new RegExp(
      `^No element matching selector "button\\[data-row=\\\\"${rows}\\\\"\\]" in the first 200,000 elements of this big page \\(up to .+\\); the rest of the page was NOT searched\\.`,
    ),
  );
  console.log(
    `[bigpages] ${rows} rows: no match searched up to ${none.value.searchedUpTo}; click by selector on the last row ${fmt(last)}`,
  );
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
      // 50k: fill_form and its native edit lay the whole table out per text field, 1-3 s each under load, up to 3 tries.
      // 10k: every call with its tries took over 90 s in all at a load of 10.
      test.setTimeout(rows >= 50_000 ? 420_000 : rows >= 10_000 ? 180_000 : 90_000);
      const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?rows=${rows}`);
      const over = rows >= 50_000 ? OVER_IDLE_HUGE_MS : OVER_IDLE_MS;

      const snap = await probed(page, () => call<Snap>(sw, 'snapshot', tabId), over);
      expect(snap.ms).toBeLessThan(CALL_LIMIT_MS);
      expectResponsive(snap, over);
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
        over,
      );
      expect(found.ms).toBeLessThan(CALL_LIMIT_MS);
      expectResponsive(found, over);
      expect(found.value.matches[0]!.line).toMatch(/^button "Open 7" \[ref=[a-df-z]{2}e\d+\]/);
      // #24: a search stops soon after its limit (20 here: rows 7, 70-79 and 700-708) plus a look-ahead, so it costs
      // the same on every size and counts the same 111 (7, 70-79, 700-799); the reply says the total is partial.
      expect(found.value.notes?.join(' ')).toMatch(/^Stopped soon after the first 20 matches, at /);
      expect(found.value.total).toBe(111);
      // A search that finds nothing walks its whole budget (about 1,400 rows of this table), and says so past it.
      const none = await probed(
        page,
        () => call<{ total: number; notes?: string[] }>(sw, 'find', tabId, { text: 'No such order' }),
        over,
      );
      expectResponsive(none, over);
      expect(none.value.total).toBe(0);
      if (rows > 1_400) expect(none.value.notes?.join(' ')).toMatch(/^Searched part of the page only/);
      else expect(none.value.notes).toBeUndefined();
      console.log(`[bigpages] ${rows} rows: find with no match ${fmt(none)}`);

      const text = await probed(
        page,
        () => call<{ text: string; truncated: boolean }>(sw, 'text', tabId, { maxChars: 5000 }),
        over,
      );
      expectResponsive(text, over);
      expect(text.value.truncated).toBe(true);
      expect(text.value.text).toContain('Row 1 holds a short sentence about order 1.');

      // The page re-renders after its own click handler changes the DOM: a native click is the baseline for that.
      const native = await probed(
        page,
        () => page.evaluate(() => (document.querySelector('button[data-row="4"]') as HTMLElement).click()),
        over,
      );
      await settled(page);
      const button = refIn(snap.value.text, 'button "Open 3"');
      const clicked = await probed(
        page,
        () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: button }),
        over,
      );
      expect(clicked.ms).toBeLessThan(CALL_LIMIT_MS);
      expectResponsive(clicked, over, Math.max(0, native.gap - native.idle));
      expect(clicked.value.summary).toContain('clicked button "Open 3"');
      expect(clicked.value.changes.added.join(' ')).toContain('Opened order 3');
      if (rows >= 50_000) {
        // #24 (docs/decisions.md "#24 the locator before each action"): past 50,000 elements the target's locator is
        // its CSS path with no uniqueness walk first. With the walk, this click cost 175-260 ms of Otto's CPU in all
        // (bench, 3 reps); without it, 40-55.
        expect((clicked.value as { locator?: unknown }).locator).toEqual({
          selector: '#grid > tbody > tr:nth-of-type(3) > td:nth-of-type(2) > button',
        });
        expect(clicked.otto.total).toBeLessThan(120);
      }
      await settled(page);

      // CSS selectors (dom.query, an action's selector target) are matched in one sliced walk: before, the search
      // for shadow roots plus querySelectorAll held the 50k page for 1-2 s per call.
      const queried = await probed(
        page,
        () =>
          call<{ total: number; partial?: boolean; countedUpTo?: string; matches: { line: string }[] }>(
            sw,
            'query',
            tabId,
            'tr input[type=checkbox]',
            { limit: 5 },
          ),
        over,
      );
      expect(queried.ms).toBeLessThan(CALL_LIMIT_MS);
      expectResponsive(queried, over);
      expect(queried.value.matches[0]!.line).toMatch(/^checkbox "Pick 1" \[ref=[a-df-z]{2}e\d+\]/);
      // Past its 5 matches the count visits 50,000 more elements (~10 a row): the 1k table is counted whole, the
      // bigger ones up to a checkbox near row 5,000, and the reply names it (docs/decisions.md "#24 dom.query's budget").
      if (rows === 1_000) {
        expect(queried.value.partial).toBeUndefined();
        expect(queried.value.total).toBe(rows);
      } else {
        expect(queried.value.partial).toBe(true);
        expect(queried.value.countedUpTo).toMatch(/^checkbox "Pick \d+"$/);
        expect(queried.value.countedUpTo).toBe(`checkbox "Pick ${queried.value.total}"`);
        expect(queried.value.total).toBeLessThan(rows);
      }
      // A target resolves at its first visible match; the page's last element makes the walk cross the whole page
      // (dom.wait_for matches the same way and does not scroll, so its gap is the walk's own).
      const waited = await probed(
        page,
        () => call<{ met: boolean; summary: string }>(sw, 'waitFor', tabId, { selector: 'p#end', timeoutMs: 20_000 }),
        over,
      );
      expectResponsive(waited, over);
      expect(waited.value.summary).toMatch(/^selector "p#end" was already present/);
      const bySelector = await probed(
        page,
        () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', selector: 'button[data-row="6"]' }),
        over,
      );
      console.log(
        `[bigpages] ${rows} rows: snapshot ${fmt(snap)}, find ${fmt(found)}, text ${fmt(text)}, native click ${fmt(native)}, click ${fmt(clicked)}, dom.query ${fmt(queried)} counted ${queried.value.total} up to ${queried.value.countedUpTo ?? 'the end'}, wait_for a selector at the end ${fmt(waited)}, click by selector ${fmt(bySelector)}`,
      );
      expect(bySelector.ms).toBeLessThan(CALL_LIMIT_MS);
      expectResponsive(bySelector, over, Math.max(0, native.gap - native.idle));
      expect(bySelector.value.summary).toContain('clicked button "Open 6"');
      await settled(page);
      await fewMatches(page, sw, tabId, rows, over);
      await keysFormsAndWaits(page, sw, tabId, snap.value.text, rows, over);
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
    expectResponsive(snap);
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
    expectResponsive(snap);
    expect(snap.value.truncated).toBe(false);
    expect(snap.value.text).toMatch(/- link "Message 2501" \[ref=[a-df-z]{2}e\d+\]/);
    const reply = refIn(snap.value.text, 'button "Reply 2501"');
    const clicked = await probed(page, () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: reply }));
    expectResponsive(clicked);
    expect(clicked.value.summary).toContain('clicked button "Reply 2501"');
    await page.close();

    const deep = await openBig(context, sw, `${pages.origin}/bigpage.html?kind=deep&depth=2000`);
    const d = await probed(deep.page, () => call<Snap>(sw, 'snapshot', deep.tabId));
    expectResponsive(d);
    expect(d.value.text).toContain('- text: Deepest text');
    const ref = refIn(d.value.text, 'button "Deep button"');
    const found = await call<{ matches: { ref?: string }[] }>(sw, 'find', deep.tabId, { text: 'Deep button' });
    expect(found.matches[0]!.ref).toBe(ref);
    await call<ActionResult>(sw, 'act', deep.tabId, { type: 'dom.click', ref });
    await expect(deep.page.locator('#deepest')).toHaveText('Deep clicked');
    await deep.page.close();
  });
  test('200,000 rows (2.4 million nodes, in sections laid out as they near the viewport): the walks stay bounded', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    // Building 2.4 million nodes costs the page ~15 s of CPU; on this shared machine that is minutes of wall time.
    test.setTimeout(600_000);
    const rows = 200_000;
    const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?rows=${rows}&chunk=1000`, 540_000);
    const over = OVER_IDLE_HUGE_MS;
    const snap = await probed(page, () => call<Snap>(sw, 'snapshot', tabId), over);
    expect(snap.ms).toBeLessThan(CALL_LIMIT_MS);
    expectResponsive(snap, over);
    expect(snap.value.text.length).toBeLessThanOrEqual(40_000);
    expect(snap.value.note).toContain('The walk stopped because the 40,000-character budget was full');
    expect(snap.value.text).toMatch(/- button "Open 1" \[ref=[a-df-z]{2}e\d+\]/);
    const found = await probed(
      page,
      () =>
        call<{ matches: { line: string }[]; notes?: string[] }>(sw, 'find', tabId, { role: 'button', name: 'Open 7' }),
      over,
    );
    expect(found.ms).toBeLessThan(CALL_LIMIT_MS);
    expectResponsive(found, over);
    expect(found.value.matches[0]!.line).toMatch(/^button "Open 7" \[ref=[a-df-z]{2}e\d+\]/);
    expect(found.value.notes?.join(' ')).toMatch(/^Stopped soon after the first 20 matches, at /);
    const text = await probed(page, () => call<{ text: string }>(sw, 'text', tabId, { maxChars: 5000 }), over);
    expectResponsive(text, over);
    expect(text.value.text).toContain('Row 1 holds a short sentence about order 1.');
    const clicked = await probed(
      page,
      () => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: refIn(snap.value.text, 'button "Open 3"') }),
      over,
    );
    expect(clicked.ms).toBeLessThan(CALL_LIMIT_MS);
    expectResponsive(clicked, over);
    expect(clicked.value.changes.added.join(' ')).toContain('Opened order 3');
    const queried = await probed(
      page,
      () =>
        call<{ total: number; partial?: boolean; countedUpTo?: string; matches: { line: string }[] }>(
          sw,
          'query',
          tabId,
          'tr input[type=checkbox]',
          { limit: 5 },
        ),
      over,
    );
    expect(queried.ms).toBeLessThan(CALL_LIMIT_MS);
    // The count past the 5 matches stops after 50,000 more elements instead of walking 2.4 million nodes, whose
    // wrappers made Otto tasks of 63-326 ms CPU (docs/decisions.md, "#24 dom.query's budget").
    expectResponsive(queried, over);
    expect(queried.value.matches[0]!.line).toMatch(/^checkbox "Pick 1" \[ref=[a-df-z]{2}e\d+\]/);
    expect(queried.value.partial).toBe(true);
    expect(queried.value.countedUpTo).toBe(`checkbox "Pick ${queried.value.total}"`);
    expect(queried.value.total).toBeLessThan(rows);
    // The page's last element, keyed by its id, is found past the search budget (docs/decisions.md "#24 few-match walks").
    const waited = await probed(
      page,
      () => call<{ summary: string }>(sw, 'waitFor', tabId, { selector: 'p#end', timeoutMs: 20_000 }),
      over,
    );
    expect(waited.ms).toBeLessThan(CALL_LIMIT_MS);
    expectResponsive(waited, over);
    expect(waited.value.summary).toMatch(/^selector "p#end" was already present — matched paragraph "End of orders"/);
    await fewMatches(page, sw, tabId, rows, over);
    const focusCpu = await nativeFocusCpu(page);
    const tab = await probed(
      page,
      () =>
        call<ActionResult>(sw, 'act', tabId, {
          type: 'dom.press',
          ref: refIn(snap.value.text, 'checkbox "Pick 2"'),
          key: 'Tab',
        }),
      over,
      focusCpu,
    );
    expect(tab.value.summary).toMatch(
      /^pressed Tab on checkbox "Pick 2" \[ref=[a-z\d]+\]: focus moved to textbox "Note 2" \[ref=[a-z\d]+\]$/,
    );
    expectResponsive(tab, over, 0, focusCpu);
    console.log(
      `[bigpages] ${rows} rows: load ${await page.evaluate('window.__built')} ms to build; snapshot ${fmt(snap)}, find ${fmt(found)}, text ${fmt(text)}, click ${fmt(clicked)}, dom.query ${fmt(queried)} counted ${queried.value.total} up to ${queried.value.countedUpTo}, a text field's native focus ${focusCpu} ms CPU, Tab ${fmt(tab)}`,
    );
    await page.close();
  });

  test('an app layout whose main region scrolls: dom.scroll finds it without testing every element', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openBig(context, sw, `${pages.origin}/bigpage.html?rows=10000&chunk=1000&app=1`);
    const scrolled = await probed(page, () =>
      call<ActionResult>(sw, 'act', tabId, { type: 'dom.scroll', direction: 'down' }),
    );
    expect(scrolled.value.summary).toMatch(
      /^scrolled main "Orders Order Action Pick Note Summary Order 1 Open 1 Pick 1…" from y=0 to y=\d+ of \d+$/,
    );
    expect(await page.evaluate(() => document.querySelector('main')!.scrollTop)).toBeGreaterThan(0);
    expectResponsive(scrolled);
    console.log(`[bigpages] app layout, 10,000 rows: scroll ${fmt(scrolled)}`);
    await page.close();
  });
});
