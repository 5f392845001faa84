/**
 * Otto's own main-thread tasks in a page (#24), from a Chrome trace of the page's renderer while a call runs.
 *
 * The requestAnimationFrame probe sees every gap, whoever caused it; on a shared, loaded machine the page left alone
 * sees 150-400 ms gaps, so it cannot carry the absolute 100 ms bound. Neither can the Long Animation Frames
 * API: its `scripts[]` attribution leaves out isolated-world scripts (measured in Chromium 156: long frames during a
 * snapshot, not one script entry), and 'longtask' entries say "unknown". A trace does attribute them: a task of the
 * renderer's main thread that calls into Otto's isolated world or runs a chrome-extension:// script is Otto's. Each task
 * has its wall time (`dur`) and the main thread's CPU time in it (`tdur`): under load the wall time of a 12 ms slice
 * stretches to 100 ms and more while its CPU time stays put, so the bound is on CPU time and the wall time is
 * reported beside it.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; worldName?: string; method_name?: string; data?: { url?: string } };
}

export interface OttoTasks {
  /** How many main-thread tasks ran Otto's content script code. */
  count: number;
  /** The longest of them, in CPU time of the main thread (ms). */
  cpu: number;
  /** The longest of them in wall time (ms): a loaded machine stretches it. */
  wall: number;
  /** All of them together, in CPU time (ms): what the call cost the page, whatever the load (the bench's ratios). */
  total: number;
}

const TASKS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);
/**
 * Otto's code running: a call into its isolated world (Chrome names the world after the extension; this is how a
 * runtime message to the content script shows, with no script URL), or a callback or script of its own URL.
 */
const isOtto = (e: TraceEvent): boolean =>
  (e.name === 'v8.callFunction' && e.args?.worldName === 'Otto') ||
  ((e.name === 'FunctionCall' || e.name === 'EvaluateScript') &&
    !!e.args?.data?.url?.startsWith('chrome-extension://'));

/**
 * Otto's tasks among a trace's events: on the renderer main thread that ran Otto's code, each task's time in Otto's
 * calls and in the microtasks that follow them (an `await` in the content script resumes there), forced style and
 * layout inside them included. The rest of such a task is not Otto's: its rAF callback, for one, runs inside the
 * browser's rendering task, whose layout and paint of a 10,000-row table take 300 ms of CPU after any change.
 */
export function ottoTasksIn(events: TraceEvent[]): OttoTasks {
  const ours = events.filter(isOtto);
  const key = (e: TraceEvent): string => `${e.pid}:${e.tid}`;
  const threads = new Set(ours.map(key));
  const onThreads = events.filter((e) => e.ph === 'X' && threads.has(key(e)));
  const tasks = onThreads.filter((e) => TASKS.has(e.name));
  const parts = onThreads.filter((e) => isOtto(e) || e.name === 'RunMicrotasks');
  const within = (e: TraceEvent, t: TraceEvent): boolean =>
    e !== t && key(e) === key(t) && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0);
  let count = 0;
  let cpu = 0;
  let wall = 0;
  let total = 0;
  for (const t of tasks) {
    const mine = parts.filter((p) => within(p, t));
    if (!mine.some(isOtto)) continue;
    const outer = mine.filter((p) => !mine.some((q) => within(p, q)));
    count++;
    const taskCpu = outer.reduce((s, p) => s + (p.tdur ?? 0), 0);
    total += taskCpu;
    cpu = Math.max(cpu, taskCpu);
    wall = Math.max(
      wall,
      outer.reduce((s, p) => s + (p.dur ?? 0), 0),
    );
  }
  return { count, cpu: Math.round(cpu / 1000), wall: Math.round(wall / 1000), total: Math.round(total / 1000) };
}

/**
 * The CPU time (ms) of every task on the page's main thread, whoever's work it is: Otto's, the page's, and the
 * browser's own rendering (the bench compares Otto's Tab with a person's by it, #24). The page's main thread is the
 * one that ran a script of the page's URL (the probe's frame callback, an inline script of the fixture).
 */
export function rendererCpuIn(events: TraceEvent[], url: string): number {
  const key = (e: TraceEvent): string => `${e.pid}:${e.tid}`;
  const page = events.find((e) => e.name === 'FunctionCall' && e.args?.data?.url === url);
  if (!page) return 0;
  const main = key(page);
  const tasks = events
    .filter((e) => e.ph === 'X' && TASKS.has(e.name) && key(e) === main)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  let cpu = 0;
  let end = -Infinity;
  // Outermost tasks only: a trace with more categories nests one task event in another.
  for (const t of tasks) {
    if (t.ts + (t.dur ?? 0) <= end) continue;
    cpu += t.tdur ?? 0;
    end = t.ts + (t.dur ?? 0);
  }
  return Math.round(cpu / 1000);
}

/**
 * Traces the page's renderer while `run` runs; returns its value, Otto's longest tasks and the CPU of all the page's
 * main-thread tasks (`renderer`, ms).
 */
export async function tracingOtto<T>(
  context: BrowserContext,
  page: Page,
  run: () => Promise<T>,
): Promise<{ value: T; tasks: OttoTasks; renderer: number }> {
  const { value, events } = await traced(context, page, 'toplevel,devtools.timeline,v8', run);
  return { value, tasks: ottoTasksIn(events), renderer: rendererCpuIn(events, page.url()) };
}

/** Runs `run` while a renderer trace of `categories` records; the trace's events with its value. */
async function traced<T>(
  context: BrowserContext,
  page: Page,
  categories: string,
  run: () => Promise<T>,
): Promise<{ value: T; events: TraceEvent[] }> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  let value: T;
  try {
    value = await run();
  } finally {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    // The page may be gone when a call failed: that failure is the one to report.
    await cdp
      .send('Tracing.end')
      .then(() => done)
      .catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }
  return { value, events };
}

/**
 * The longest main-thread CPU time (ms) of a task in which DevTools ran a function in the page's own world, while
 * `run` (a `page.evaluate`) runs: what the page's own call costs, Chrome's native work inside it included. The
 * baseline for work Chrome does on Otto's behalf and would do as much for the page (#24: focusing a text field that
 * is outside any form makes Chrome scan the page's form controls, ~100 ms of CPU on a 50,000-row table).
 */
export async function tracingPageCall(
  context: BrowserContext,
  page: Page,
  run: () => Promise<unknown>,
): Promise<number> {
  const { events } = await traced(context, page, 'toplevel,devtools', run);
  const key = (e: TraceEvent): string => `${e.pid}:${e.tid}`;
  const calls = events.filter((e) => e.name === 'api_call' && e.args?.method_name === 'Runtime.callFunctionOn');
  const tasks = events.filter((e) => e.ph === 'X' && TASKS.has(e.name));
  let cpu = 0;
  for (const t of tasks) {
    const holds = calls.some((c) => key(c) === key(t) && c.ts >= t.ts && c.ts <= t.ts + (t.dur ?? 0));
    if (holds) cpu = Math.max(cpu, t.tdur ?? 0);
  }
  return Math.round(cpu / 1000);
}
