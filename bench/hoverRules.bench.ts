/**
 * What the hover-cursor rules cost the snapshot (#43 part 2, src/content/hoverCursor.ts): the content script's
 * snapshot builder (bundled from src/content/contentSnapshot.ts, evaluated in the page, as bench/snapshot.bench.ts
 * does) walks the generated big table (e2e/fixtures/pages/bigpage.html, 1k and 10k rows: ~4 refs a row, no budget, so
 * every element is visited) without and then with 800 `:hover { cursor: pointer }` selectors in the page's CSS (400
 * kept: the cap), none of which matches the table — the per-element price of looking. Median of 7 walks each,
 * alternating (the rules' sheet disabled and enabled between walks), timed in the page (`performance.now()` around
 * `buildSnapshot`); the ratio is the one the load does not blur much.
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { chromiumPath } from '../e2e/support/browser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'hoverRules';
export const rounds = 1;

const ROOT = path.resolve(import.meta.dirname, '..');
const WALKS = 7;

async function builderScript(): Promise<string> {
  const entry = 'virtual:otto-hover-bench';
  const resolved = '\0otto-hover-bench';
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'otto-hover-bench',
        enforce: 'pre',
        resolveId: (id) => (id.includes(entry) ? resolved : null),
        load: (id) =>
          id === resolved
            ? `import { buildSnapshot } from ${JSON.stringify(path.join(ROOT, 'src/content/contentSnapshot.ts'))};
               globalThis.__ottoHoverBench = { buildSnapshot };`
            : null,
      },
    ],
    build: {
      write: false,
      minify: true,
      target: 'chrome116',
      lib: { entry, formats: ['iife'], name: 'OttoHoverBench', fileName: () => 'bench.js' },
    },
  });
  const output = (Array.isArray(out) ? out[0] : out) as { output: { type: string; code?: string }[] };
  return output.output.find((o) => o.type === 'chunk')!.code!;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<BenchMetric[]> {
  const code = await builderScript();
  const server = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  const metrics: BenchMetric[] = [];
  try {
    const page = await browser.newPage();
    for (const rows of [1_000, 10_000]) {
      await page.goto(`${server.origin}/bigpage.html?rows=${rows}`);
      await page.evaluate(code);
      // The rules go in once and are switched on and off between walks (a disabled sheet is not read), so the two
      // kinds of walk alternate and neither pays for the garbage the other left.
      await page.evaluate(() => {
        const s = document.createElement('style');
        s.id = 'otto-hover-bench';
        s.textContent = Array.from(
          { length: 400 },
          (_, i) => `.nav-${i} a.item-${i}:hover, .card-${i}:hover .cta { cursor: pointer }`,
        ).join('\n');
        document.head.append(s);
      });
      const walk = (on: boolean): Promise<{ ms: number; refs: number }> =>
        page.evaluate((rulesOn) => {
          const sheet = (document.getElementById('otto-hover-bench') as HTMLStyleElement).sheet!;
          sheet.disabled = !rulesOn;
          const b = (globalThis as unknown as { __ottoHoverBench: { buildSnapshot(): { refs: number } } })
            .__ottoHoverBench;
          const t = performance.now();
          const s = b.buildSnapshot();
          return { ms: performance.now() - t, refs: s.refs };
        }, on);
      const plainMs: number[] = [];
      const hoverMs: number[] = [];
      let refsPlain = 0;
      let refsHover = 0;
      for (let i = 0; i < WALKS; i++) {
        const a = await walk(false);
        const b = await walk(true);
        plainMs.push(a.ms);
        hoverMs.push(b.ms);
        refsPlain = a.refs;
        refsHover = b.refs;
      }
      const plain = { ms: median(plainMs), refs: refsPlain };
      const hover = { ms: median(hoverMs), refs: refsHover };
      const k = `${rows / 1000}k`;
      metrics.push(
        { name: `rows_${k}_snapshot_ms`, value: Math.round(plain.ms), unit: 'ms' },
        { name: `rows_${k}_snapshot_hover_rules_ms`, value: Math.round(hover.ms), unit: 'ms' },
        { name: `rows_${k}_hover_rules_ratio`, value: Math.round((100 * hover.ms) / plain.ms) / 100, unit: '×' },
        { name: `rows_${k}_refs_same`, value: plain.refs === hover.refs ? 1 : 0, unit: 'bool' },
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return metrics;
}
