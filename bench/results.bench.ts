/**
 * The large-result store (`ot.result`) on a stored output of 1,000,000 lines (~60 MB):
 *   store_1m_lines            storing it (chunking + IndexedDB writes), and the longest event-loop stall meanwhile
 *   store_max_stall           (a 1 ms ticker runs during the store: a stall is what a streaming panel would feel)
 *   page_100_median / p95     a page of 100 lines at 50 random offsets
 *   regex_search              a case-insensitive regex over every line, first page of matches
 *   regex_search_tail         the last 20 matches
 *   context_search            a regex search with 2 lines of context around each of 100 matches
 *   fuzzy_search              fuse.js, bounded by FUZZY_MAX_LINES lines / FUZZY_TIME_BUDGET_MS (src/results/query.ts)
 * Runs in node on fake-indexeddb (in-memory, structured clone like the browser); numbers in Chromium's IndexedDB
 * come from the e2e bench later.
 */
import 'fake-indexeddb/auto';
import '../src/shared/zod.ts';
import { FUZZY_TIME_BUDGET_MS } from '../src/results/query.ts';
import { openOttoDB } from '../src/storage/db.ts';
import type { ResultReference } from '../src/results/reference.ts';
import { ResultStore } from '../src/storage/results.ts';
import type { BenchMetric } from './types.ts';

export const name = 'results';

const LINES = 1_000_000;
const LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'];
const PATHS = ['/api/users', '/api/orders', '/static/app.js', '/api/search?q=shoes', '/health'];

function bigOutput(): string {
  const parts: string[] = new Array<string>(LINES);
  for (let i = 0; i < LINES; i++) {
    const level = i % 97 === 0 ? 'ERROR' : LEVELS[i % LEVELS.length]!;
    const path = PATHS[(i * 7) % PATHS.length]!;
    parts[i] =
      `2025-06-01T12:${String(((i / 60) % 60) | 0).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z ${level} req=${i} ${path} status=${level === 'ERROR' ? 500 : 200} took=${(i * 13) % 900}ms`;
  }
  return parts.join('\n');
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

let fixture: Promise<{ store: ResultStore; text: string; ref: ResultReference }> | undefined;

function setup(): Promise<{ store: ResultStore; text: string; ref: ResultReference }> {
  fixture ??= (async () => {
    const db = await openOttoDB(`bench-results-${Date.now()}`);
    const store = new ResultStore(db);
    const text = bigOutput();
    const ref = await store.store(text, { result_ttl: 0, tool: 'bench.big' });
    return { store, text, ref };
  })();
  return fixture;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

export async function run(): Promise<BenchMetric[]> {
  const { store, text, ref } = await setup();
  if (ref.total_lines !== LINES) throw new Error(`expected ${LINES} lines, stored ${ref.total_lines}`);

  // Store another copy while a 1 ms ticker measures the longest stall.
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  const [storeMs, copy] = await time(() => store.store(text, { result_ttl: 0 }));
  clearInterval(ticker);
  maxGap = Math.max(maxGap, performance.now() - last);
  await store.delete(copy.handle);

  const pages: number[] = [];
  for (let i = 0; i < 50; i++) {
    const offset = 1 + Math.floor(Math.random() * (LINES - 100));
    const [ms, page] = await time(() => store.queryResult(ref.handle, { offset, limit: 100 }));
    if (page.returned !== 100) throw new Error('short page');
    pages.push(ms);
  }
  const [regexMs, found] = await time(() => store.queryResult(ref.handle, { search: 'error.*status=500', limit: 100 }));
  if (found.matches !== Math.ceil(LINES / 97)) throw new Error(`regex found ${found.matches}`);
  const [tailMs] = await time(() => store.queryResult(ref.handle, { search: 'ERROR', tail: 20 }));
  const [contextMs] = await time(() => store.queryResult(ref.handle, { search: 'error', context: 2, limit: 100 }));
  const [fuzzyMs, fuzzy] = await time(() =>
    store.queryResult(ref.handle, { search: 'eror 500', fuzzy: true, limit: 20 }),
  );

  return [
    { name: 'store_1m_lines', value: round2(storeMs), unit: 'ms' },
    { name: 'store_max_stall', value: round2(maxGap), unit: 'ms', budget: 100 },
    { name: 'page_100_median', value: round2(percentile(pages, 50)), unit: 'ms', budget: 50 },
    { name: 'page_100_p95', value: round2(percentile(pages, 95)), unit: 'ms' },
    { name: 'regex_search', value: round2(regexMs), unit: 'ms', budget: 1000 },
    { name: 'regex_search_tail', value: round2(tailMs), unit: 'ms', budget: 1000 },
    { name: 'context_search', value: round2(contextMs), unit: 'ms', budget: 1000 },
    { name: 'fuzzy_search', value: round2(fuzzyMs), unit: 'ms', budget: FUZZY_TIME_BUDGET_MS * 1.5 },
    { name: 'fuzzy_scanned_lines', value: fuzzy.fuzzy_scanned_lines ?? 0, unit: 'lines' },
  ];
}
