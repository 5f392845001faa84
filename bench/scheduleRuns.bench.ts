/**
 * #46's second figure: what one scheduled run costs as a snippet replay against the same task run by the (scripted)
 * model. Both are fired through the worker's test hook (`otto.schedules.runNow`, as e2e/schedules.spec.ts does) on
 * the fixture shop's order (e2e/support/shopOrder.ts: log in, fill the details and the order across two pages, read
 * the confirmation number), alternated, in the real extension: each in its own background window, recorded in the
 * schedule's history. Reported: wall time per run (the history's `durationMs`), model requests and the characters
 * those requests carried (whole JSON bodies: instructions, tool definitions, the conversation), with the task/snippet
 * ratio beside them. The fake API answers at once, so the model side is a floor: a real model adds seconds per turn.
 *
 * Idle cost in the real worker: `catchup_worker_ms` is the engine's work on a worker start (`engine.catchUp()`,
 * what every alarm wake of an idle schedule runs before anything else), timed inside the service worker with 10
 * schedules armed. It is wall time on the worker's thread, not process CPU: CDP's Performance domain cannot attach to
 * an extension service worker from Playwright (newCDPSession takes pages and frames only), and the whole browser's
 * /proc CPU over a few wakes is below its 10 ms tick.
 *
 *   npx vite build && npx tsx bench/run.ts schedule_runs
 */
import path from 'node:path';
import { ROOT } from '../e2e/support/browser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import type { Turn } from '../test/support/fake-api/turns.ts';
import { call } from '../e2e/support/modelTurns.ts';
import { shopSnippetYaml, shopTurns, shopUrl } from '../e2e/support/shopOrder.ts';
import { openExtension, type ExtensionBrowser } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'schedule_runs';
export const rounds = 1;
const ROWS = process.env.BENCH_QUICK === '1' ? 1 : 3;
const TASK = 'Place the usual order in the shop and tell me its confirmation number.';

interface RunRecord {
  outcome: string;
  output: string;
  durationMs?: number;
  reason?: string;
}

/** The model's side of the task: look, act by ref, look again (the replay bench's 8 responses). */
function turns(url: string, times: number): Turn[] {
  return [
    { match: 'Place the usual order', calls: [call('tabs__navigate', { url }), call('dom__snapshot')], times },
    shopTurns.signIn(times),
    { match: /^dom__click ok/, calls: [call('dom__snapshot')], times: times * 3 },
    shopTurns.details(times),
    shopTurns.order(times),
    { match: /^Page snapshot[\s\S]*Confirmation number/, text: 'Placed.', times },
  ];
}

function configYaml(apiUrl: string, url: string): string {
  const idle = Array.from(
    { length: 8 },
    (_, i) => `  idle-${i}:\n    when: every monday 09:00\n    snippet: shop\n    args: { password: hunter2 }\n`,
  ).join('');
  return [
    `agent:\n  base_url: ${apiUrl}\n  model: gpt-bench\napprovals:\n  policy: auto\n  local_hosts: [127.0.0.1, localhost]\n`,
    shopSnippetYaml(url),
    'schedules:\n',
    '  shop-snippet:\n    when: every monday 09:00\n    snippet: shop\n    args: { password: hunter2 }\n',
    `  shop-task:\n    when: every monday 09:00\n    task: ${TASK}\n    url: ${url}\n`,
    '    scope: { effects: [read, fill, send, buy], sites: [127.0.0.1] }\n',
    idle,
  ].join('');
}

/** Fires one schedule through the test hook and waits for its newest run to settle. */
async function fire(ext: ExtensionBrowser, id: string): Promise<RunRecord> {
  await ext.sw.evaluate(
    (s) =>
      (globalThis as unknown as { otto: { schedules: { runNow(i: string): Promise<string> } } }).otto.schedules.runNow(
        s,
      ),
    id,
  );
  for (;;) {
    const r = await ext.ask({ type: 'schedules.history', scheduleId: id });
    const last = (r.data as unknown as RunRecord[] | undefined)?.[0];
    if (last && last.outcome !== 'running') return last;
    await new Promise((res) => setTimeout(res, 20));
  }
}

async function catchUpInWorker(ext: ExtensionBrowser): Promise<number> {
  return ext.sw.evaluate(async () => {
    const engine = (globalThis as unknown as { otto: { schedules: { engine: { catchUp(): Promise<void> } } } }).otto
      .schedules.engine;
    await engine.catchUp();
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) await engine.catchUp();
    return (performance.now() - t0) / 20;
  });
}

const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const pages = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  const ext = await openExtension(name, api.url);
  try {
    const url = shopUrl(pages.origin);
    const saved = await ext.ask({ type: 'config.save', yaml: configYaml(api.url, url) });
    if (!saved.ok) throw new Error(`schedule_runs bench: config.save failed: ${saved.error}`);
    api.script(turns(url, ROWS));
    const sum = { snippetMs: 0, taskMs: 0, snippetRequests: 0, taskRequests: 0, taskChars: 0 };
    for (let i = 0; i < ROWS; i++) {
      let before = api.responsesRequests().length;
      const s = await fire(ext, 'shop-snippet');
      if (s.outcome !== 'done' || !/Confirmation number: ORD-\d{7}/.test(s.output))
        throw new Error(`schedule_runs bench: the snippet run ended ${s.outcome}: ${s.reason ?? s.output}`);
      sum.snippetMs += s.durationMs ?? NaN;
      sum.snippetRequests += api.responsesRequests().length - before;
      before = api.responsesRequests().length;
      const t = await fire(ext, 'shop-task');
      if (t.outcome !== 'done') throw new Error(`schedule_runs bench: the task run ended ${t.outcome}: ${t.reason}`);
      const sent = api.responsesRequests().slice(before);
      sum.taskMs += t.durationMs ?? NaN;
      sum.taskRequests += sent.length;
      sum.taskChars += sent.reduce((n, r) => n + JSON.stringify(r.body ?? {}).length, 0);
    }
    const snippetMs = sum.snippetMs / ROWS;
    const taskMs = sum.taskMs / ROWS;
    return [
      { name: 'snippet_run_ms', value: round(snippetMs), unit: 'ms' },
      { name: 'task_run_ms', value: round(taskMs), unit: 'ms' },
      { name: 'task_to_snippet_time_ratio', value: round(taskMs / snippetMs, 2), unit: 'x' },
      { name: 'snippet_model_requests', value: sum.snippetRequests / ROWS, unit: 'requests', budget: 0 },
      { name: 'task_model_requests', value: sum.taskRequests / ROWS, unit: 'requests' },
      { name: 'snippet_request_chars', value: 0, unit: 'chars' },
      { name: 'task_request_chars', value: round(sum.taskChars / ROWS), unit: 'chars' },
      { name: 'catchup_worker_ms', value: round(await catchUpInWorker(ext), 2), unit: 'ms', budget: 20 },
    ];
  } finally {
    await ext.close();
    await pages.close();
    await api.close();
  }
}
