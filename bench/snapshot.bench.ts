/**
 * dom.snapshot against Playwright's aria snapshots on real saved pages (../shared/corpora/readability/<case>/
 * source.html), served from a loopback server to headless Chromium with JavaScript off and every other host
 * unresolvable. Per page, in the same browser:
 *   - ours: the content script's snapshot builder (bundled from src/content/contentSnapshot.ts, evaluated in the page);
 *     timed in the page and as a round trip from Node;
 *   - Playwright `locator('body').ariaSnapshot()` (default mode, no refs) and `ariaSnapshot({ mode: 'ai' })` (refs);
 *   - characters of each output;
 *   - addressable: of the page's visible interactive elements (an independent in-page census: links, buttons,
 *     form fields, contenteditable, ARIA widget roles, tabindex ≥ 0), how many got a ref — from us, and from
 *     Playwright's AI mode (its refs resolved back to elements with `aria-ref=`).
 * Skips with a message when the corpora are absent. Writes a per-page table to bench/snapshot.results.md.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'vite';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { chromiumPath } from '../e2e/support/browser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'snapshot';
/** It repeats internally (per page / per sample); a few rounds are enough for min/max. */
export const rounds = 2;

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = process.env.OTTO_READABILITY_CORPUS ?? path.resolve(ROOT, '../shared/corpora/readability');
/** Timings per page per round (the runner repeats rounds and reports median/min/max across them). */
const REPS = Number(process.env.SNAPSHOT_BENCH_REPS ?? 2);
/** Addressability does not change between rounds: computed once per page per process. */
const addressCache = new Map<
  string,
  { interactive: number; oursAddressable: number; pwAiAddressable: number; clickable: number; oursClickable: number }
>();

/**
 * Census of clickable non-semantic elements (#14): what a person can click that the semantic census above misses.
 * Rule: a visible element with a box, not <html>/<body>/<label>, not matching CENSUS_SELECTOR nor inside an element
 * that does, and one of: an `onclick` attribute; an <a> without href that has text; a computed `cursor: pointer`
 * that its parent does not have (where the pointer starts — children inheriting it are the same target). The pages
 * load with JavaScript off, so listener-only clickables (addEventListener) cannot be counted here; the e2e fixtures
 * cover those.
 */
function clickCensus(sel: string): number {
  const w = window as unknown as { __clickCensus: Element[] };
  w.__clickCensus = Array.from(document.body?.querySelectorAll('*') ?? []).filter((el) => {
    const tag = el.localName;
    if (tag === 'html' || tag === 'body' || tag === 'label') return false;
    if (el.matches(sel) || el.closest(sel)) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !el.checkVisibility({ visibilityProperty: true })) return false;
    if (el.hasAttribute('onclick')) return true;
    if (tag === 'a' && !el.hasAttribute('href') && (el.textContent ?? '').trim()) return true;
    const cursor = getComputedStyle(el).cursor;
    const parent = el.parentElement;
    return cursor === 'pointer' && (!parent || getComputedStyle(parent).cursor !== 'pointer');
  });
  return w.__clickCensus.length;
}

/** Interactive elements a person could act on, counted independently of either snapshot implementation. */
const CENSUS_SELECTOR = [
  'a[href]',
  'area[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  '[contenteditable=""]',
  '[contenteditable="true"]',
  '[role=button]',
  '[role=link]',
  '[role=checkbox]',
  '[role=radio]',
  '[role=switch]',
  '[role=tab]',
  '[role=menuitem]',
  '[role=option]',
  '[role=textbox]',
  '[role=combobox]',
  '[role=slider]',
  '[tabindex]:not([tabindex^="-"])',
].join(',');

let bundle: string | undefined;

/** The snapshot builder as one script that defines `globalThis.__ottoBench`. */
async function builderScript(): Promise<string> {
  if (bundle) return bundle;
  const entry = 'virtual:otto-bench-entry';
  const resolved = '\0otto-bench-entry';
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'otto-bench-entry',
        enforce: 'pre',
        resolveId: (id) => (id.includes(entry) ? resolved : null),
        load: (id) =>
          id === resolved
            ? `import { buildSnapshot } from ${JSON.stringify(path.join(ROOT, 'src/content/contentSnapshot.ts'))};
               import { registry } from ${JSON.stringify(path.join(ROOT, 'src/content/refs.ts'))};
               globalThis.__ottoBench = { buildSnapshot, registry };`
            : null,
      },
    ],
    build: {
      write: false,
      minify: true,
      target: 'chrome116',
      lib: { entry, formats: ['iife'], name: 'OttoBench', fileName: () => 'bench.js' },
    },
  });
  const output = (Array.isArray(out) ? out[0] : out) as { output: { type: string; code?: string }[] };
  bundle = output.output.find((o) => o.type === 'chunk')!.code!;
  return bundle;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) : 0;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

interface PageRow {
  page: string;
  oursMs: number;
  oursRoundTripMs: number;
  pwMs: number;
  pwAiMs: number;
  oursChars: number;
  pwChars: number;
  pwAiChars: number;
  interactive: number;
  oursAddressable: number;
  pwAiAddressable: number;
  clickable: number;
  oursClickable: number;
}

async function measurePage(page: Page, key: string, url: string, script: string): Promise<Omit<PageRow, 'page'>> {
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await page.evaluate(script);
  // The census, taken before either snapshot runs.
  const census = await page.evaluate((sel) => {
    const w = window as unknown as { __census: Element[] };
    w.__census = Array.from(document.querySelectorAll(sel)).filter((el) => {
      if (!el.checkVisibility({ visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.right + scrollX > 0 && r.bottom + scrollY > 0;
    });
    return w.__census.length;
  }, CENSUS_SELECTOR);
  const clickable = (await page.evaluate(
    `globalThis.__name ??= (f) => f; (${clickCensus.toString()})(${JSON.stringify(CENSUS_SELECTOR)})`,
  )) as number;

  const ours: number[] = [];
  const oursRt: number[] = [];
  const pw: number[] = [];
  const pwAi: number[] = [];
  let oursChars = 0;
  let pwChars = 0;
  let pwAiChars = 0;
  const body = page.locator('body');
  const oursOnce = async (): Promise<void> => {
    const t0 = performance.now();
    const r = await page.evaluate(() => {
      const b = (globalThis as unknown as { __ottoBench: { buildSnapshot(): { text: string } } }).__ottoBench;
      const s = performance.now();
      const snap = b.buildSnapshot();
      return { ms: performance.now() - s, chars: snap.text.length };
    });
    oursRt.push(performance.now() - t0);
    ours.push(r.ms);
    oursChars = r.chars;
  };
  const playwrightOnce = async (): Promise<void> => {
    let t = performance.now();
    pwChars = (await body.ariaSnapshot({ timeout: 60_000 })).length;
    pw.push(performance.now() - t);
    t = performance.now();
    pwAiChars = (await body.ariaSnapshot({ mode: 'ai', timeout: 60_000 })).length;
    pwAi.push(performance.now() - t);
  };
  // Ours first at least once (so refs exist for the addressability count), then alternating so drift hits both.
  for (let i = 0; i < REPS; i++) {
    if (i % 2 === 0) {
      await oursOnce();
      await playwrightOnce();
    } else {
      await playwrightOnce();
      await oursOnce();
    }
  }

  const addressing = addressCache.get(key) ?? (await addressability(page, census, clickable));
  addressCache.set(key, addressing);
  return {
    oursMs: median(ours),
    oursRoundTripMs: median(oursRt),
    pwMs: median(pw),
    pwAiMs: median(pwAi),
    oursChars,
    pwChars,
    pwAiChars,
    ...addressing,
  };
}

async function addressability(
  page: Page,
  interactive: number,
  clickable: number,
): Promise<{
  interactive: number;
  oursAddressable: number;
  pwAiAddressable: number;
  clickable: number;
  oursClickable: number;
}> {
  const body = page.locator('body');
  const oursClickable = await page.evaluate(() => {
    const w = window as unknown as {
      __clickCensus: Element[];
      __ottoBench: { registry: { peek(e: Element): string | undefined } };
    };
    return w.__clickCensus.filter((el) => w.__ottoBench.registry.peek(el)).length;
  });
  // Addressable: census elements that hold one of our refs.
  const oursAddressable = await page.evaluate(() => {
    const w = window as unknown as {
      __census: Element[];
      __ottoBench: { registry: { peek(e: Element): string | undefined } };
    };
    return w.__census.filter((el) => w.__ottoBench.registry.peek(el)).length;
  });
  // Playwright's AI refs resolved back to elements. Its `aria-ref=` engine lives in Playwright's own script world,
  // so the census is marked in the DOM (an attribute both worlds see) and the intersection counted there.
  const ai = await body.ariaSnapshot({ mode: 'ai', timeout: 60_000 });
  await page.evaluate(() =>
    (window as unknown as { __census: Element[] }).__census.forEach((el) => el.setAttribute('data-otto-census', '')),
  );
  const refs = [...new Set(Array.from(ai.matchAll(/\[ref=([a-z]*e\d+)\]/g), (m) => m[1]!))];
  let pwAiAddressable = 0;
  for (let i = 0; i < refs.length; i += 300) {
    const chunk = refs.slice(i, i + 300);
    let loc = page.locator(`aria-ref=${chunk[0]}`);
    for (const ref of chunk.slice(1)) loc = loc.or(page.locator(`aria-ref=${ref}`));
    pwAiAddressable += await loc.and(page.locator('[data-otto-census]')).count();
  }
  return { interactive, oursAddressable, pwAiAddressable, clickable, oursClickable };
}

export async function run(): Promise<BenchMetric[]> {
  if (!existsSync(CORPUS)) {
    console.error(
      `[snapshot bench] skipped: corpus not found at ${CORPUS} (the shared readability corpus lives beside the project).`,
    );
    return [];
  }
  const cases = readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(CORPUS, d.name, 'source.html')))
    .map((d) => d.name)
    .filter((n) => !process.env.OTTO_BENCH_ONLY || n.includes(process.env.OTTO_BENCH_ONLY))
    .sort()
    // Quick mode (CI): a handful of pages, enough to prove the path works end to end.
    .slice(0, process.env.BENCH_QUICK === '1' ? 5 : undefined);
  if (!cases.length) {
    console.error(`[snapshot bench] skipped: no <case>/source.html under ${CORPUS}.`);
    return [];
  }
  const script = await builderScript();
  const server = await startStaticServer(CORPUS);
  let browser: Browser | undefined;
  const rows: PageRow[] = [];
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
      ],
    });
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    for (const c of cases) {
      // A fresh page per case: Playwright's AI mode remembers the previous snapshot of a page.
      const page = await context.newPage();
      try {
        rows.push({
          page: c,
          ...(await measurePage(page, c, `${server.origin}/${encodeURIComponent(c)}/source.html`, script)),
        });
      } catch (e) {
        console.error(`[snapshot bench] ${c}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser?.close();
    await server.close();
  }

  const sum = (k: keyof Omit<PageRow, 'page'>): number => rows.reduce((n, r) => n + r[k], 0);
  const med = (k: keyof Omit<PageRow, 'page'>): number => r2(median(rows.map((r) => r[k])));
  writeTable(rows);
  const interactive = sum('interactive');
  return [
    { name: 'pages', value: rows.length, unit: 'pages' },
    { name: 'ours_ms_median', value: med('oursMs'), unit: 'ms' },
    { name: 'ours_roundtrip_ms_median', value: med('oursRoundTripMs'), unit: 'ms' },
    { name: 'playwright_ms_median', value: med('pwMs'), unit: 'ms' },
    { name: 'playwright_ai_ms_median', value: med('pwAiMs'), unit: 'ms' },
    { name: 'ours_chars_median', value: med('oursChars'), unit: 'chars' },
    { name: 'playwright_chars_median', value: med('pwChars'), unit: 'chars' },
    { name: 'playwright_ai_chars_median', value: med('pwAiChars'), unit: 'chars' },
    { name: 'ours_chars_total', value: sum('oursChars'), unit: 'chars' },
    { name: 'playwright_chars_total', value: sum('pwChars'), unit: 'chars' },
    { name: 'visible_interactive_total', value: interactive, unit: 'elements' },
    { name: 'ours_addressable_total', value: sum('oursAddressable'), unit: 'elements' },
    { name: 'playwright_ai_addressable_total', value: sum('pwAiAddressable'), unit: 'elements' },
    {
      name: 'ours_addressable_pct',
      value: interactive ? r2((100 * sum('oursAddressable')) / interactive) : 100,
      unit: '%',
    },
    {
      name: 'playwright_ai_addressable_pct',
      value: interactive ? r2((100 * sum('pwAiAddressable')) / interactive) : 100,
      unit: '%',
    },
    { name: 'clickable_nonsemantic_total', value: sum('clickable'), unit: 'elements' },
    { name: 'ours_clickable_nonsemantic_ref', value: sum('oursClickable'), unit: 'elements' },
    {
      name: 'ours_clickable_nonsemantic_pct',
      value: sum('clickable') ? r2((100 * sum('oursClickable')) / sum('clickable')) : 100,
      unit: '%',
    },
  ];
}

function writeTable(rows: PageRow[]): void {
  if (process.env.BENCH_QUICK === '1') return;
  const lines = [
    '# dom.snapshot vs Playwright aria snapshots',
    '',
    `Generated by \`npm run bench -- snapshot\` on ${new Date().toISOString().slice(0, 10)} (headless Chromium, JavaScript off, loopback only; median of ${REPS} runs per page).`,
    'ms = time to build the snapshot (ours: in the page; Playwright: round trip from Node, which is how it is called). chars = output size.',
    'addressable = visible interactive elements (independent census) that the output gives a ref to; Playwright default mode gives none.',
    'clickable = visible non-semantic elements a person can click (onclick, <a> without href, where cursor:pointer starts; rule in snapshot.bench.ts); ours = how many got a ref.',
    '',
    '| page | ours ms | ours ms (round trip) | PW ms | PW ai ms | ours chars | PW chars | PW ai chars | interactive | ours addr. | PW ai addr. | clickable | ours clickable |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.page} | ${r2(r.oursMs)} | ${r2(r.oursRoundTripMs)} | ${r2(r.pwMs)} | ${r2(r.pwAiMs)} | ${r.oursChars} | ${r.pwChars} | ${r.pwAiChars} | ${r.interactive} | ${r.oursAddressable} | ${r.pwAiAddressable} | ${r.clickable} | ${r.oursClickable} |`,
    ),
  ];
  const med = (f: (r: PageRow) => number): number => r2(median(rows.map(f)));
  const total = (f: (r: PageRow) => number): number => rows.reduce((n, r) => n + f(r), 0);
  lines.push(
    `| **median / total** | ${med((r) => r.oursMs)} | ${med((r) => r.oursRoundTripMs)} | ${med((r) => r.pwMs)} | ${med((r) => r.pwAiMs)} | ${total((r) => r.oursChars)} | ${total((r) => r.pwChars)} | ${total((r) => r.pwAiChars)} | ${total((r) => r.interactive)} | ${total((r) => r.oursAddressable)} | ${total((r) => r.pwAiAddressable)} | ${total((r) => r.clickable)} | ${total((r) => r.oursClickable)} |`,
    '',
  );
  writeFileSync(path.join(import.meta.dirname, 'snapshot.results.md'), lines.join('\n'));
}
