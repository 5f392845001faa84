/**
 * `web.fetch` in the real extension (#15): the saved pages of ../shared/corpora/readability/<case>/source.html,
 * served from loopback, each fetched with `web.fetch(url=..., max_chars=2000000)` through the panel's `command.run`
 * into the built worker. The time is the worker's own (`durationMs` of the reply: the HTTP request, the article
 * extraction and the formatting), so the panel's port is not in it.
 *
 *   first_fetch_ms   the first call in a fresh browser: everything that is opened on demand is opened here
 *   page_ms_median   per page, later calls (median over pages and repetitions); page_ms_p90 likewise
 *   pages_total_ms   one pass over every page, the median pass
 *   output_chars_total  characters the model would receive over one pass (markdown)
 *
 * WEBFETCH_DUMP=<dir> also writes each page's output (markdown and text) to <dir>/<case>.md / .txt, with the random
 * boundary tag replaced by a fixed one, to compare two builds' outputs. Skips when the corpora are absent.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openExtension } from './extensionBrowser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import type { BenchMetric } from './types.ts';

export const name = 'webfetch';
/** It repeats internally (every page, REPS passes). */
export const rounds = 1;

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = process.env.OTTO_READABILITY_CORPUS ?? path.resolve(ROOT, '../shared/corpora/readability');
const REPS = Number(process.env.WEBFETCH_REPS ?? 3);
const DUMP = process.env.WEBFETCH_DUMP;

interface RunReply {
  ok: boolean;
  output?: string;
  durationMs?: number;
  error?: { message: string };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
}

const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<BenchMetric[]> {
  if (!existsSync(CORPUS)) {
    console.error(`webfetch bench: ${CORPUS} is absent; skipped`);
    return [];
  }
  const cases = readdirSync(CORPUS)
    .filter((d) => existsSync(path.join(CORPUS, d, 'source.html')))
    .sort();
  const server = await startStaticServer(CORPUS);
  // The fake API is never called here; the helper only needs a URL to configure.
  const ext = await openExtension('webfetch', 'http://127.0.0.1:9/v1');
  try {
    // Whole outputs inline: storing long ones in the result store is not what is measured here.
    await ext.ask({
      type: 'config.save',
      yaml: 'agent:\n  base_url: http://127.0.0.1:9/v1\n  model: gpt-bench\noutput:\n  max_inline_size: 100000000\n',
    });
    const fetchPage = async (c: string, format = 'markdown'): Promise<RunReply> => {
      const text = `web.fetch(url="${server.origin}/${c}/source.html", format="${format}", max_chars=2000000)`;
      const reply = (await ext.panel.evaluate(
        (b) => (globalThis as unknown as { ottoPanel: { request(x: unknown): Promise<unknown> } }).ottoPanel.request(b),
        { type: 'command.run', text },
      )) as RunReply;
      if (!reply.ok) throw new Error(`web.fetch ${c}: ${reply.error?.message ?? 'failed'}`);
      return reply;
    };
    const first = await fetchPage(cases[0]!);
    const times: number[] = [];
    const passes: number[] = [];
    let chars = 0;
    for (let rep = 0; rep < REPS; rep++) {
      let pass = 0;
      for (const c of cases) {
        const reply = await fetchPage(c);
        times.push(reply.durationMs!);
        pass += reply.durationMs!;
        if (rep === 0) chars += reply.output!.length;
      }
      passes.push(pass);
    }
    if (DUMP) {
      mkdirSync(DUMP, { recursive: true });
      const fixed = (s: string) => s.replace(/(<\/?external-content-)[0-9a-f]+>/g, '$1x>');
      for (const c of cases) {
        writeFileSync(path.join(DUMP, `${c}.md`), fixed((await fetchPage(c)).output!));
        writeFileSync(path.join(DUMP, `${c}.txt`), fixed((await fetchPage(c, 'text')).output!));
      }
    }
    return [
      { name: 'pages', value: cases.length, unit: 'pages' },
      { name: 'first_fetch_ms', value: r2(first.durationMs!), unit: 'ms' },
      { name: 'page_ms_median', value: r2(quantile(times, 0.5)), unit: 'ms' },
      { name: 'page_ms_p90', value: r2(quantile(times, 0.9)), unit: 'ms' },
      { name: 'pages_total_ms', value: r2(quantile(passes, 0.5)), unit: 'ms' },
      { name: 'output_chars_total', value: chars, unit: 'chars' },
    ];
  } finally {
    await ext.close();
    await server.close();
  }
}
