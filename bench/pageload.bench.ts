/**
 * What an installed, idle Otto costs the pages the user browses (issue #26), and what on-demand injection costs the
 * first call on a tab.
 *
 * Two headless Chromiums side by side: one with the built extension (dist/), one without. Each page is loaded in
 * both, alternating which goes first, and timed in the page (navigation start → load event end, from the
 * Navigation Timing entry). Pages:
 *   - `frames30`: a page with 30 cross-site iframes (site1.test … site30.test, mapped to loopback), the worst case
 *     for anything injected into every frame;
 *   - the saved pages of the readability corpus (../shared/corpora/readability/<case>/source.html; skipped with a
 *     message when absent), with every other host unresolvable so nothing leaves the machine.
 * Overhead = median(with Otto) / median(without) − 1, in percent (goal ≤ 2 %).
 *
 * First call: in the Otto browser, a fresh tab of `frames30` (31 frames) and of one corpus page; the first
 * `dom.snapshot` (finds no content script, injects it into every frame, snapshots) beside the next one (warm), and
 * the injection alone on another fresh tab (corpus: the median over its first five pages).
 *
 * PAGELOAD_AA=1 runs the same comparison with Otto in neither browser (an A/A control for the bias between two
 * browsers on a busy machine); OTTO_BENCH_DIST=<dir> measures another build (a before/after).
 */
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { DIST, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'pageload';
/** It alternates many loads per round; a few rounds are enough. */
export const rounds = 3;

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS =
  [
    process.env.OTTO_READABILITY_CORPUS,
    path.resolve(ROOT, '../shared/corpora/readability'),
    '/work/shared/corpora/readability',
  ].find((p): p is string => !!p && existsSync(p)) ?? '';
const FRAME_LOADS = Number(process.env.PAGELOAD_FRAME_LOADS ?? (process.env.BENCH_QUICK ? 2 : 6));
const CORPUS_PAGES = Number(process.env.PAGELOAD_CORPUS_PAGES ?? (process.env.BENCH_QUICK ? 10 : 1000));
const FRAMES = 30;

function framesPage(port: number): string {
  const frames = Array.from(
    { length: FRAMES },
    (_, i) =>
      `<iframe title="frame ${i + 1}" src="http://site${i + 1}.test:${port}/child.html?n=${i + 1}" width="160" height="90"></iframe>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>30 frames</title></head><body><h1>30 cross-site frames</h1>${frames}</body></html>`;
}

const CHILD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>child</title></head><body><p>A child frame with a <button>button</button> and <a href="#x">a link</a>.</p><script>document.body.dataset.ready = '1';</script></body></html>`;

async function startServer(): Promise<{ port: number; close(): Promise<void> }> {
  let port = 0;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (body: string | Buffer, type = 'text/html; charset=utf-8') => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/frames30.html') return send(framesPage(port));
    if (url.pathname === '/child.html') return send(CHILD);
    const m = /^\/corpus\/([\w.-]+)\/source\.html$/.exec(url.pathname);
    if (m && CORPUS) {
      try {
        return send(await readFile(path.join(CORPUS, m[1]!, 'source.html')));
      } catch {
        // fall through
      }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const HOST_RULES = '--host-resolver-rules=MAP *.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';
const COMMON = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  HOST_RULES,
];

interface Browsers {
  otto: BrowserContext;
  plain: BrowserContext;
  sw: Worker;
  close(): Promise<void>;
}

/** The extension to measure: dist/, or another build (OTTO_BENCH_DIST) to compare, e.g. an older commit's. */
const EXT_DIST = process.env.OTTO_BENCH_DIST ?? DIST;
/** A/A control (PAGELOAD_AA=1): both browsers without Otto, to see the bias between two browsers on this machine. */
const AA = process.env.PAGELOAD_AA === '1';

async function openBrowsers(): Promise<Browsers> {
  if (!existsSync(path.join(EXT_DIST, 'manifest.json')))
    throw new Error(`pageload bench needs ${EXT_DIST}: run \`npm run build\` first`);
  // The same kind of browser on both sides (a persistent profile each), differing only in Otto being loaded.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'otto-bench-pageload-'));
  const plainProfile = mkdtempSync(path.join(os.tmpdir(), 'otto-bench-pageload-plain-'));
  const otto = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: AA ? COMMON : [...extensionArgs(EXT_DIST), HOST_RULES],
  });
  const sw = AA
    ? (undefined as unknown as Worker)
    : (otto.serviceWorkers()[0] ?? (await otto.waitForEvent('serviceworker')));
  const plain = await chromium.launchPersistentContext(plainProfile, {
    executablePath: chromiumPath(),
    headless: true,
    args: COMMON,
  });
  return {
    otto,
    plain,
    sw,
    close: async () => {
      await Promise.all([otto.close(), plain.close()]);
      rmSync(profile, { recursive: true, force: true });
      rmSync(plainProfile, { recursive: true, force: true });
    },
  };
}

let loadCounter = 0;

/** One load in a fresh tab: navigation start → load event end, measured by the page's Navigation Timing entry. */
async function timeLoad(newPage: () => Promise<Page>, url: string): Promise<number> {
  const page = await newPage();
  try {
    await page.goto(`${url}${url.includes('?') ? '&' : '?'}load=${++loadCounter}`, {
      waitUntil: 'load',
      timeout: 60_000,
    });
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return nav ? nav.loadEventEnd - nav.startTime : NaN;
    });
  } finally {
    await page.close();
  }
}

function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

/** Alternating loads of each URL with and without Otto; returns the medians. */
async function compare(
  b: Browsers,
  urls: string[],
  reps: number,
): Promise<{ otto: number; plain: number; perUrlRatio: number }> {
  const ottoTimes: number[] = [];
  const plainTimes: number[] = [];
  const ratios: number[] = [];
  const ottoPage = () => b.otto.newPage();
  const plainPage = () => b.plain.newPage();
  let flip = false;
  for (let r = 0; r < reps; r++) {
    for (const url of urls) {
      flip = !flip;
      let o: number;
      let p: number;
      if (flip) {
        o = await timeLoad(ottoPage, url);
        p = await timeLoad(plainPage, url);
      } else {
        p = await timeLoad(plainPage, url);
        o = await timeLoad(ottoPage, url);
      }
      ottoTimes.push(o);
      plainTimes.push(p);
      if (Number.isFinite(o) && Number.isFinite(p) && p > 0) ratios.push(o / p);
    }
  }
  return { otto: median(ottoTimes), plain: median(plainTimes), perUrlRatio: median(ratios) };
}

async function tabIdOf(sw: Worker, url: string): Promise<number> {
  return sw.evaluate(
    `(async () => (await chrome.tabs.query({})).find((t) => t.url === ${JSON.stringify(url)}).id)()`,
  ) as Promise<number>;
}

/** ms of one call of `otto.page.<fn>(tabId)` in the worker. */
async function timeInWorker(sw: Worker, fn: 'snapshot' | 'injectContentScripts', tabId: number): Promise<number> {
  return sw.evaluate(
    `(async () => { const t0 = performance.now(); await globalThis.otto.page.${fn}(${tabId}); return performance.now() - t0; })()`,
  ) as Promise<number>;
}

/** First dom.snapshot on a fresh tab (injects into every frame) vs the next one, and injection alone. */
async function firstCall(b: Browsers, url: string): Promise<{ first: number; warm: number; inject: number }> {
  const page = await b.otto.newPage();
  const u = `${url}${url.includes('?') ? '&' : '?'}first=${++loadCounter}`;
  await page.goto(u, { waitUntil: 'load' });
  const tabId = await tabIdOf(b.sw, page.url());
  const first = await timeInWorker(b.sw, 'snapshot', tabId);
  const warm = await timeInWorker(b.sw, 'snapshot', tabId);
  await page.close();
  const fresh = await b.otto.newPage();
  const u2 = `${url}${url.includes('?') ? '&' : '?'}inject=${++loadCounter}`;
  await fresh.goto(u2, { waitUntil: 'load' });
  const inject = await timeInWorker(b.sw, 'injectContentScripts', await tabIdOf(b.sw, fresh.url()));
  await fresh.close();
  return { first, warm, inject };
}

export async function run(): Promise<BenchMetric[]> {
  const server = await startServer();
  const b = await openBrowsers();
  const metrics: BenchMetric[] = [];
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const frames = await compare(b, [`${origin}/frames30.html`], FRAME_LOADS);
    metrics.push(
      { name: 'frames30_load_idle_otto', value: r2(frames.otto), unit: 'ms' },
      { name: 'frames30_load_no_otto', value: r2(frames.plain), unit: 'ms' },
      { name: 'frames30_overhead', value: r2((frames.otto / frames.plain - 1) * 100), unit: '%', budget: 2 },
    );
    const fc = AA ? { first: NaN, warm: NaN, inject: NaN } : await firstCall(b, `${origin}/frames30.html`);
    if (!AA)
      metrics.push(
        { name: 'frames30_first_snapshot', value: r2(fc.first), unit: 'ms' },
        { name: 'frames30_warm_snapshot', value: r2(fc.warm), unit: 'ms' },
        { name: 'frames30_inject_all_frames', value: r2(fc.inject), unit: 'ms' },
      );

    if (!CORPUS) {
      console.error(
        '[pageload bench] corpus pages skipped: ../shared/corpora/readability not found (set OTTO_READABILITY_CORPUS).',
      );
    } else {
      const cases = readdirSync(CORPUS, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(path.join(CORPUS, d.name, 'source.html')))
        .map((d) => d.name)
        .sort()
        .slice(0, CORPUS_PAGES);
      const urls = cases.map((c) => `${origin}/corpus/${c}/source.html`);
      const corpus = await compare(b, urls, 1);
      metrics.push(
        { name: 'corpus_load_idle_otto', value: r2(corpus.otto), unit: 'ms' },
        { name: 'corpus_load_no_otto', value: r2(corpus.plain), unit: 'ms' },
        { name: 'corpus_overhead', value: r2((corpus.otto / corpus.plain - 1) * 100), unit: '%', budget: 2 },
        { name: 'corpus_overhead_per_page_median', value: r2((corpus.perUrlRatio - 1) * 100), unit: '%', budget: 2 },
        { name: 'corpus_pages', value: urls.length, unit: 'pages' },
      );
      const firsts: { first: number; warm: number; inject: number }[] = [];
      for (const url of AA ? [] : urls.slice(0, 5)) firsts.push(await firstCall(b, url));
      if (firsts.length)
        metrics.push(
          { name: 'corpus_first_snapshot', value: r2(median(firsts.map((f) => f.first))), unit: 'ms' },
          { name: 'corpus_warm_snapshot', value: r2(median(firsts.map((f) => f.warm))), unit: 'ms' },
          { name: 'corpus_inject', value: r2(median(firsts.map((f) => f.inject))), unit: 'ms' },
        );
    }
  } finally {
    await b.close();
    await server.close();
  }
  return metrics;
}
