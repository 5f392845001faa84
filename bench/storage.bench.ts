/**
 * Storage in real Chromium (issue 6): `ot.result` on a stored result of 1,000,000 lines (a page of 100, a regex
 * search), `ot.stats` over 100,000 recorded calls, and the largest gap between streamed events in the panel while the
 * worker stores a 50 MB result — against the largest gap of the same stream with nothing stored (ratio).
 * Runs the built extension (dist/) against the fake Responses API; IndexedDB is Chromium's own.
 */
import { chromium, type Page, type Worker } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { DIST, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'storage';
export const rounds = 2;
const QUICK = process.env.BENCH_QUICK === '1';
const LINES = QUICK ? 100_000 : 1_000_000;
const STATS = QUICK ? 10_000 : 100_000;
const BIG_MB = QUICK ? 10 : 50;
/** In the metric names: the quick run's figures are over a tenth of the lines, and say so. */
const SIZE = QUICK ? '100k' : '1m';
const STATS_SIZE = QUICK ? '10k' : '100k';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

type OttoHandle = {
  otto: {
    results: {
      store(t: string, o: object): Promise<{ handle: string }>;
      query(h: string, p: object): Promise<unknown>;
    };
    stats(): { recordBatch(b: object): Promise<void>; computeStats(o: object): Promise<unknown> };
  };
};

async function resultTimings(sw: Worker): Promise<{ page: number; regex: number; store: number }> {
  return sw.evaluate(async (n) => {
    const o = (globalThis as unknown as OttoHandle).otto;
    const lines: string[] = [];
    for (let i = 0; i < n; i++)
      lines.push(`line ${i}: the quick brown fox ${i % 97 === 0 ? 'jumps' : 'walks'} over item-${i * 7}`);
    let t = performance.now();
    const ref = await o.results.store(lines.join('\n'), { max_inline_size: 1000, result_ttl: 600 });
    const store = performance.now() - t;
    const pages: number[] = [];
    for (let k = 0; k < 15; k++) {
      const offset = 1 + Math.floor(Math.random() * (n - 100));
      t = performance.now();
      await o.results.query(ref.handle, { offset, limit: 100 });
      pages.push(performance.now() - t);
    }
    pages.sort((a, b) => a - b);
    t = performance.now();
    await o.results.query(ref.handle, { search: 'jumps over item-7\\d+$', limit: 100 });
    const regex = performance.now() - t;
    return { page: pages[pages.length >> 1]!, regex, store };
  }, LINES);
}

async function statsTiming(sw: Worker): Promise<number> {
  return sw.evaluate(async (n) => {
    const s = (globalThis as unknown as OttoHandle).otto.stats();
    const now = Date.now();
    const tools = ['dom.click', 'dom.snapshot', 'tabs.list', 'llm.transform', 'web.fetch'];
    for (let done = 0; done < n; done += 5000) {
      const toolCalls = Array.from({ length: Math.min(5000, n - done) }, (_, i) => ({
        tool: tools[(done + i) % tools.length]!,
        durationMs: 1 + ((done + i) % 50),
        success: (done + i) % 13 !== 0,
        charsIn: 40,
        charsOut: 900,
        ts: now - ((done + i) % (30 * 24 * 3600)) * 1000,
      }));
      await s.recordBatch({ toolCalls });
    }
    const times: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      await s.computeStats({ period: 'all', enabled: true });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return times[2]!;
  }, STATS);
}

/** Largest gap (ms) between text deltas the panel receives for one streamed reply, optionally storing a big result meanwhile. */
async function streamGap(panel: Page, sw: Worker, storeMb: number): Promise<number> {
  // The big output exists before the stream starts (as a tool's output would): only storing it is measured.
  if (storeMb) {
    await sw.evaluate((mb) => {
      const line = 'x'.repeat(99);
      (globalThis as unknown as { __big?: string }).__big = Array.from(
        { length: (mb * 1024 * 1024) / 100 },
        () => line,
      ).join('\n');
    }, storeMb);
  }
  const gaps = panel.evaluate(
    ([tag]) =>
      new Promise<number>((resolve) => {
        const port = chrome.runtime.connect({ name: 'otto-panel' });
        let last = 0;
        let max = 0;
        port.onMessage.addListener((m: { type: string; event?: { type: string; status?: string } }) => {
          if (m.type !== 'agent' || !m.event) return;
          if (m.event.type === 'text.delta') {
            const now = performance.now();
            if (last) max = Math.max(max, now - last);
            last = now;
          }
          if (m.event.type === 'run.status' && m.event.status === 'completed') {
            port.disconnect();
            resolve(max);
          }
        });
        port.postMessage({ type: 'chat.send', id: `gap-${tag}`, text: `stream ${tag}` });
      }),
    [String(storeMb)],
  );
  if (storeMb) {
    await panel.waitForTimeout(300); // the stream is under way
    await sw.evaluate(async () => {
      const g = globalThis as unknown as OttoHandle & { __big?: string };
      await g.otto.results.store(g.__big!, { max_inline_size: 1000, result_ttl: 600 });
      delete g.__big;
    });
  }
  return gaps;
}

export async function run(): Promise<BenchMetric[]> {
  if (!existsSync(path.join(DIST, 'manifest.json')))
    throw new Error('storage bench needs dist/: run `npm run build` first');
  const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
  const api = await startFakeApi({ turns: [{ text: words, delayMs: 10, times: Infinity }] });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'otto-bench-storage-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: extensionArgs(),
  });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const panel = await context.newPage();
    await panel.addInitScript('globalThis.__name = (f) => f;'); // tsx keepNames helper, see coldstart.bench.ts
    await panel.goto(`chrome-extension://${new URL(sw.url()).host}/src/sidepanel/index.html`);
    await panel.locator('[data-testid="worker-status"][data-state="ready"]').waitFor();
    await panel.evaluate(async (url) => {
      const ask = (body: object) =>
        new Promise((resolve) => {
          const port = chrome.runtime.connect({ name: 'otto-panel' });
          port.onMessage.addListener((m: { type: string }) => m.type === 'result' && resolve(m));
          port.postMessage({ ...body, id: String(Math.random()) });
        });
      await ask({ type: 'config.save', yaml: `agent:\n  base_url: ${url}\n  model: gpt-bench\n` });
      await ask({ type: 'secrets.save', yaml: 'OPENAI_API_KEY: sk-bench-0000000000\n' });
    }, api.url);
    const r = await resultTimings(sw);
    const statsMs = await statsTiming(sw);
    // Several samples each: a single stream's largest gap is at the mercy of whatever else the machine does.
    const samples = QUICK ? 1 : 3;
    const base: number[] = [];
    const busy: number[] = [];
    for (let k = 0; k < samples; k++) {
      base.push(await streamGap(panel, sw, 0));
      busy.push(await streamGap(panel, sw, BIG_MB));
    }
    const baseline = median(base);
    const storing = median(busy);
    return [
      { name: `store_${SIZE}_lines_ms`, value: r.store, unit: 'ms' },
      { name: `page_100_of_${SIZE}_ms`, value: r.page, unit: 'ms', budget: 50 },
      { name: `regex_search_${SIZE}_ms`, value: r.regex, unit: 'ms', budget: 1000 },
      { name: `stats_${STATS_SIZE}_ms`, value: statsMs, unit: 'ms', budget: 200 },
      { name: 'stream_max_gap_ms', value: baseline, unit: 'ms' },
      { name: `stream_max_gap_while_storing_${BIG_MB}mb_ms`, value: storing, unit: 'ms' },
      { name: 'ratio_gap_storing_vs_not', value: storing / baseline, unit: '×' },
    ];
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await api.close();
  }
}
