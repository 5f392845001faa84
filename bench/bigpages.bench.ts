/**
 * Big pages (#24): the walking calls through the real worker and content script on generated tables
 * (e2e/fixtures/pages/bigpage.html: a link, a button, a checkbox, a text box and a sentence per row) of 1k, 10k and
 * 50k rows (`--quick`: 1k and 10k only, one call of each kind, Playwright capped at 20 s; 200k with BIGPAGES_200K=1,
 * in content-visibility sections as in the e2e: its 2.4 million nodes cost ~15 s of CPU to build), with a
 * requestAnimationFrame probe in the page, a renderer trace for Otto's own tasks (e2e/bigpages.tasks.ts), and
 * Playwright's `ariaSnapshot()` on the same pages in the same run as the reference (capped at BIGPAGES_PW_TIMEOUT_MS;
 * a page it cannot finish in that time reports the cap).
 *
 * The calls, each BIGPAGES_REPS times per size (3; `--quick` 1): dom.snapshot, dom.find (a button by role and name,
 * which stops soon after its 20 matches) and `find_none` (a text found nowhere: the search walks its whole budget),
 * dom.text (5,000 characters), the dom.read tool (2,000; its Readability runs in the offscreen document past 1,000
 * elements), dom.query (a CSS selector that matches every row), a click's change
 * report (dom.click on a row's button, whose handler adds a line) and a Tab press (dom.press from a row's checkbox).
 * Per size and call: the median round trip from the worker (`_ms`), the longest gap between animation frames seen
 * while it ran (`_gap_ms`; the goal: 100 ms), the longest main-thread task of Otto's content script in CPU
 * time (`_otto_cpu_ms`, budget 100 ms as in the e2e, which adds to it for Tab the page's own focus of a text field:
 * Chrome's scan of the form controls runs inside Otto's focusing task) and the CPU time of all its tasks in the call
 * (`_otto_cpu_total_ms`, median). CPU time, because on this shared machine a task's wall time, and so the probe's gap
 * and the round trip, stretch with the load while CPU time does not. Per size also: the snapshot's output size and
 * refs, the probe's longest gap on the page left alone for 2 s (`idle_gap_ms`), the noise floor under the gaps,
 * around a click by the page itself (`native_click_gap_ms`): the browser's own re-layout of the table after the
 * page's handler adds a line, which the click's gap includes; and around a person's Tab from the same row's checkbox
 * (`native_tab_gap_ms`: real key input through CDP, so Chrome's own focus navigation runs, with its focus of a text
 * field outside a form and the rendering pass that paints it), beside Otto's Tab: what the page's main thread spends
 * in each, all tasks whoever's (`native_tab_cpu_ms`, `tab_renderer_cpu_ms`, medians), and what Otto's Tab adds over
 * the person's, in gap (`tab_gap_over_native_ms`, median against median, budget 100 ms) and in CPU
 * (`tab_cpu_over_native_ms`).
 *
 * Ratios of the largest size up to 50k to 1k (`--quick`: 10k/1k), of the round trip (`<call>_ratio_…`) and of
 * Otto's total CPU (`<call>_cpu_ratio_…`, the one the load does not blur), for the calls whose output a budget bounds
 * and which so should cost about the same on any page (the goal: under 2): snapshot, both finds, text, click and Tab. Not
 * for dom.query, which counts every match on the page by design, nor dom.read, which takes the article reader below
 * 25,000 elements and the visible text above.
 *
 * The times are taken while the trace records (BIGPAGES_TRACE=0 turns it off to see what it adds; the CPU figures
 * are then left out).
 */
import type { Page, Worker } from 'playwright-core';
import path from 'node:path';
import { openExtension } from './extensionBrowser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { call, refIn, tool, type ActionResult, type Snap } from '../e2e/page-tools.helpers.ts';
import { tracingOtto, type OttoTasks } from '../e2e/bigpages.tasks.ts';
import type { BenchMetric } from './types.ts';

export const name = 'bigpages';
export const rounds = 1;

const ROOT = path.resolve(import.meta.dirname, '..');
const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = [1_000, 10_000, ...(QUICK ? [] : [50_000]), ...(process.env.BIGPAGES_200K === '1' ? [200_000] : [])];
/** Calls of each kind per size (median time reported; the longest gap and task of all). */
const REPS = Number(process.env.BIGPAGES_REPS ?? (QUICK ? 1 : 3));
/** `--quick` caps Playwright lower: its 10k-row page alone can take the full minute on a loaded machine. */
const PW_TIMEOUT_MS = Number(process.env.BIGPAGES_PW_TIMEOUT_MS ?? (QUICK ? 20_000 : 60_000));
const TRACE = process.env.BIGPAGES_TRACE !== '0';
/** How long the probe watches the page left alone, per size. */
const IDLE_MS = 2_000;
/** The bound on a frame gap, and the e2e's on Otto's own task CPU (e2e/bigpages.spec.ts). */
const GAP_BUDGET_MS = 100;
const OTTO_TASK_BUDGET_MS = 100;
/** The calls whose output a budget bounds: their time should not grow with the page. */
const BOUNDED = ['snapshot', 'find', 'find_none', 'text', 'click', 'tab'] as const;

type CallName = 'snapshot' | 'find' | 'find_none' | 'text' | 'read' | 'query' | 'click' | 'tab';

interface Measured {
  ms: number[];
  gaps: number[];
  tasks: OttoTasks[];
  /** The CPU of all the page's main-thread tasks in each run (ms): Otto's, the page's and the browser's rendering. */
  renderer: number[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) : 0;
}

const probe = (page: Page, op: 'start' | 'stop'): Promise<number> =>
  page.evaluate((o) => (window as unknown as { __probe: Record<string, () => number> }).__probe[o]!(), op);

async function settle(page: Page): Promise<void> {
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

const NO_TASKS: OttoTasks = { count: 0, cpu: 0, wall: 0, total: 0 };

/**
 * Runs `run` REPS times (the i-th run gets i), each with the probe watching and, unless BIGPAGES_TRACE=0, the page's
 * renderer traced; the time is the worker round trip alone, not the trace's start and end. `prepare` runs before
 * each, unwatched (the native Tab's focus on the checkbox it starts from).
 */
async function measure<T>(
  page: Page,
  run: (i: number) => Promise<T>,
  check: (value: T) => void,
  prepare?: () => Promise<void>,
): Promise<Measured & { last: T }> {
  const m: Measured = { ms: [], gaps: [], tasks: [], renderer: [] };
  let last: T | undefined;
  for (let i = 0; i < REPS; i++) {
    if (prepare) await prepare();
    await settle(page);
    await probe(page, 'start');
    let ms = 0;
    const timed = async (): Promise<T> => {
      const t0 = performance.now();
      const v = await run(i);
      ms = performance.now() - t0;
      return v;
    };
    const { value, tasks, renderer } = TRACE
      ? await tracingOtto(page.context(), page, timed)
      : { value: await timed(), tasks: NO_TASKS, renderer: 0 };
    m.gaps.push(await probe(page, 'stop'));
    m.ms.push(ms);
    m.tasks.push(tasks);
    m.renderer.push(renderer);
    check(value);
    last = value;
  }
  return { ...m, last: last as T };
}

function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bigpages bench: ${what}`);
}

/** The calls of one size, in an order where each leaves the page as the next expects it. */
async function callsOn(
  page: Page,
  sw: Worker,
  tabId: number,
  rows: number,
): Promise<{ calls: Map<CallName, Measured>; nativeTab: Measured; chars: number; refs: number }> {
  const out = new Map<CallName, Measured>();
  const snap = await measure(
    page,
    () => call<Snap>(sw, 'snapshot', tabId),
    (s) => expectThat(s.text.includes('- button "Open 1" [ref='), `no button "Open 1" in the snapshot:\n${s.text}`),
  );
  out.set('snapshot', snap);
  const outline = snap.last.text;
  out.set(
    'find',
    await measure(
      page,
      () => call<{ matches: { line: string }[] }>(sw, 'find', tabId, { role: 'button', name: 'Open 7' }),
      (f) => expectThat(!!f.matches[0]?.line.startsWith('button "Open 7"'), `find: ${JSON.stringify(f)}`),
    ),
  );
  // A search that matches nothing walks its whole budget (find above stops soon after its 20 matches): its worst case.
  out.set(
    'find_none',
    await measure(
      page,
      () => call<{ total: number }>(sw, 'find', tabId, { text: 'No such order' }),
      (f) => expectThat(f.total === 0, `find_none: ${JSON.stringify(f)}`),
    ),
  );
  out.set(
    'text',
    await measure(
      page,
      () => call<{ text: string }>(sw, 'text', tabId, { maxChars: 5000 }),
      (t) => expectThat(t.text.includes('Row 1 holds a short sentence about order 1.'), 'text lacks row 1'),
    ),
  );
  out.set(
    'read',
    await measure(
      page,
      // The tool as the model runs it: past 1,000 elements its Readability runs in the offscreen document.
      () => tool(sw, 'dom.read', { tab_id: tabId, max_chars: 2000 }),
      (r) => expectThat(r.includes('Row 1 holds a short sentence'), 'read lacks row 1'),
    ),
  );
  out.set(
    'query',
    await measure(
      page,
      () => call<{ matches: { line: string }[] }>(sw, 'query', tabId, 'tr input[type=checkbox]', { limit: 5 }),
      (q) => expectThat(!!q.matches[0]?.line.startsWith('checkbox "Pick 1"'), `query: ${JSON.stringify(q)}`),
    ),
  );
  // A different row's button each time: its handler adds "Opened order N", which the change report must carry.
  out.set(
    'click',
    await measure(
      page,
      (i) => call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: refIn(outline, `button "Open ${3 + i}"`) }),
      (c) =>
        expectThat(
          c.changes.added.join(' ').includes('Opened order'),
          `the click's change report lacks the line the page added: ${JSON.stringify(c)}`,
        ),
    ),
  );
  out.set(
    'tab',
    await measure(
      page,
      () =>
        call<ActionResult>(sw, 'act', tabId, {
          type: 'dom.press',
          ref: refIn(outline, 'checkbox "Pick 2"'),
          key: 'Tab',
        }),
      (t) => expectThat(t.summary.includes('focus moved to textbox "Note 2"'), `Tab: ${t.summary}`),
    ),
  );
  // A person pressing Tab on the same checkbox: real key input (CDP's Input.dispatchKeyEvent, through Playwright's
  // keyboard), so Chrome's own focus navigation runs, until two frames later, when the new focus is painted.
  const nativeTab = await measure(
    page,
    async () => {
      await page.keyboard.press('Tab');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    },
    (label) => expectThat(label === 'Note 2', `the native Tab focused ${label}`),
    () =>
      page.evaluate(() =>
        (document.querySelector('input[aria-label="Pick 2"]') as HTMLElement).focus({ preventScroll: true }),
      ),
  );
  console.error(
    `[bigpages] ${rows} rows: ${snap.last.text.length} chars, ${snap.last.refs} refs; ` +
      [...out]
        .map(
          ([k, m]) =>
            `${k} ${m.ms.map(Math.round).join('/')} ms (gaps ${m.gaps.join('/')}; Otto's longest task CPU ` +
            `${m.tasks.map((t) => t.cpu).join('/')}, wall ${m.tasks.map((t) => t.wall).join('/')}, of ` +
            `${m.tasks.map((t) => t.count).join('/')} tasks, ${m.tasks.map((t) => t.total).join('/')} ms CPU in all; ` +
            `renderer ${m.renderer.join('/')} ms CPU)`,
        )
        .join(', ') +
      `; native Tab gaps ${nativeTab.gaps.join('/')}, renderer ${nativeTab.renderer.join('/')} ms CPU`,
  );
  return { calls: out, nativeTab, chars: snap.last.text.length, refs: snap.last.refs };
}

const sizeKey = (rows: number): string => (rows >= 1000 ? `${rows / 1000}k` : String(rows));

/**
 * Otto's Tab beside a person's on the same page: the native Tab's longest gap, and what Otto's Tab adds to the gap,
 * which must fit the 100 ms (median against median: one stalled frame on either side, 9 s once on this
 * shared machine, must not decide it). Otto's own `tab_gap_ms` keeps the absolute 100 ms budget, so where the
 * browser's own Tab already misses it the miss shows, with the browser's share beside it. In CPU, which the load does
 * not blur: all the page's main-thread tasks in each (`renderer`: Otto's, the page's, the browser's focus and
 * rendering), medians.
 */
function tabBeside(k: string, tab: Measured, native: Measured): BenchMetric[] {
  return [
    { name: `rows_${k}_native_tab_gap_ms`, value: Math.max(...native.gaps), unit: 'ms' },
    {
      name: `rows_${k}_tab_gap_over_native_ms`,
      value: median(tab.gaps) - median(native.gaps),
      unit: 'ms',
      budget: GAP_BUDGET_MS,
    },
    ...(TRACE
      ? [
          { name: `rows_${k}_native_tab_cpu_ms`, value: median(native.renderer), unit: 'ms' },
          { name: `rows_${k}_tab_renderer_cpu_ms`, value: median(tab.renderer), unit: 'ms' },
          {
            name: `rows_${k}_tab_cpu_over_native_ms`,
            value: median(tab.renderer) - median(native.renderer),
            unit: 'ms',
          },
        ]
      : []),
  ];
}

export async function run(): Promise<BenchMetric[]> {
  const server = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  // The fake API is never called here; the helper only needs a URL to configure.
  const ext = await openExtension('bigpages', 'http://127.0.0.1:9/v1');
  const out: BenchMetric[] = [];
  /** Per call and size: its median time, and the median CPU of all of Otto's tasks in it. */
  const medians = new Map<string, { ms: number; cpu: number }>();
  try {
    for (const rows of SIZES) {
      const page = await ext.context.newPage();
      await page.addInitScript('globalThis.__name = (f) => f;');
      const t = Date.now();
      await page.goto(`${server.origin}/bigpage.html?rows=${rows}${rows > 50_000 ? '&chunk=1000' : ''}`, {
        timeout: 600_000,
      });
      await page.waitForFunction('window.__built !== undefined', undefined, { timeout: 600_000 });
      await settle(page);
      const loadMs = Date.now() - t;
      const tabId = await ext.sw.evaluate(
        async (u) => (await chrome.tabs.query({})).find((x) => x.url === u)?.id ?? -1,
        page.url(),
      );
      await probe(page, 'start');
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const idleGap = await probe(page, 'stop');
      // The page's own handler adds a line below the table and the browser lays the table out again: what any click
      // there costs, the baseline for the click's gap (until two frames later, when that layout is done).
      await probe(page, 'start');
      await page.evaluate(async () => {
        (document.querySelector('button[data-row="2"]') as HTMLElement).click();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
      const nativeClickGap = await probe(page, 'stop');
      const { calls, nativeTab, chars, refs } = await callsOn(page, ext.sw, tabId, rows);
      let pwMs: number;
      try {
        const t1 = performance.now();
        await page.locator('body').ariaSnapshot({ timeout: PW_TIMEOUT_MS });
        pwMs = performance.now() - t1;
      } catch {
        pwMs = PW_TIMEOUT_MS;
      }
      const k = sizeKey(rows);
      out.push(
        { name: `rows_${k}_page_load_ms`, value: loadMs, unit: 'ms' },
        { name: `rows_${k}_idle_gap_ms`, value: idleGap, unit: 'ms' },
        { name: `rows_${k}_native_click_gap_ms`, value: nativeClickGap, unit: 'ms' },
        { name: `rows_${k}_snapshot_chars`, value: chars, unit: 'chars', budget: 40_000 },
        { name: `rows_${k}_snapshot_refs`, value: refs, unit: 'refs' },
      );
      for (const [call, m] of calls) {
        medians.set(`${call}@${rows}`, { ms: median(m.ms), cpu: median(m.tasks.map((x) => x.total)) });
        out.push(
          { name: `rows_${k}_${call}_ms`, value: Math.round(median(m.ms)), unit: 'ms' },
          // The e2e bounds the gap relative to the idle page's own, which this shared machine makes long.
          { name: `rows_${k}_${call}_gap_ms`, value: Math.max(...m.gaps), unit: 'ms', budget: GAP_BUDGET_MS },
          ...(TRACE
            ? [
                {
                  name: `rows_${k}_${call}_otto_cpu_ms`,
                  value: Math.max(...m.tasks.map((x) => x.cpu)),
                  unit: 'ms',
                  budget: OTTO_TASK_BUDGET_MS,
                },
                {
                  name: `rows_${k}_${call}_otto_cpu_total_ms`,
                  value: median(m.tasks.map((x) => x.total)),
                  unit: 'ms',
                },
              ]
            : []),
        );
      }
      out.push(...tabBeside(k, calls.get('tab')!, nativeTab));
      out.push({ name: `rows_${k}_playwright_aria_ms`, value: Math.round(pwMs), unit: 'ms' });
      console.error(
        `[bigpages] ${rows} rows: load ${loadMs} ms, idle gap ${idleGap} ms, native click gap ${nativeClickGap} ms, Playwright ${Math.round(pwMs)} ms`,
      );
      await page.close();
    }
  } finally {
    await ext.close();
    await server.close();
  }
  const big = Math.max(...SIZES.filter((s) => s <= 50_000));
  for (const c of BOUNDED) {
    const small = medians.get(`${c}@1000`);
    const large = medians.get(`${c}@${big}`);
    if (!small || !large) continue;
    const ratio = (a: number, b: number): number => Math.round((100 * a) / b) / 100;
    out.push({ name: `${c}_ratio_${sizeKey(big)}_1k`, value: ratio(large.ms, small.ms), unit: '×', budget: 2 });
    if (TRACE && small.cpu > 0)
      out.push({ name: `${c}_cpu_ratio_${sizeKey(big)}_1k`, value: ratio(large.cpu, small.cpu), unit: '×', budget: 2 });
  }
  return out;
}
