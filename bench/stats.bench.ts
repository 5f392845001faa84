/**
 * `ot.stats` over 100,000 recorded tool calls (plus 30,000 model requests and 2,000 savings) spread over 40 days:
 *   compute_<period>      computeStats for day, week, month and all (target < 200 ms each)
 *   compute_month_tool    the month, filtered to one tool
 *   compute_html_report   all time with output="bench.html" (report built and saved)
 *   record_one            recording one tool call (raw record + hourly and daily rollups, one transaction)
 * Runs in node on fake-indexeddb; Chromium numbers come from the e2e bench later.
 */
import 'fake-indexeddb/auto';
import '../src/shared/zod.ts';
import { openOttoDB } from '../src/storage/db.ts';
import { StatsStore, type ModelRequestInput, type SavingInput, type ToolCallInput } from '../src/storage/statsStore.ts';
import type { BenchMetric } from './types.ts';

export const name = 'stats';

const CALLS = 100_000;
const MODEL_REQUESTS = 30_000;
const SAVINGS = 2_000;
const SPAN_MS = 40 * 86_400_000;
const NOW = Date.UTC(2025, 5, 15, 13, 37, 0);
const TOOLS = Array.from({ length: 24 }, (_, i) => `${['dom', 'tabs', 'web', 'llm', 'ot', 'page'][i % 6]}.tool${i}`);

const round2 = (x: number): number => Math.round(x * 100) / 100;

let fixture: Promise<StatsStore> | undefined;

function setup(): Promise<StatsStore> {
  fixture ??= (async () => {
    const db = await openOttoDB(`bench-stats-${Date.now()}`);
    const store = new StatsStore(db, { now: () => NOW });
    const BATCH = 5_000;
    for (let i = 0; i < CALLS; i += BATCH) {
      const toolCalls: ToolCallInput[] = [];
      for (let k = i; k < Math.min(CALLS, i + BATCH); k++) {
        const ok = k % 17 !== 0;
        toolCalls.push({
          tool: TOOLS[(k * 7) % TOOLS.length]!,
          ts: NOW - SPAN_MS + Math.floor((k / CALLS) * SPAN_MS),
          durationMs: (k * 31) % 2000,
          success: ok,
          ...(ok ? {} : { errorType: 'TypeError' }),
          charsIn: 80 + (k % 300),
          charsOut: 500 + ((k * 13) % 20_000),
        });
      }
      const modelRequests: ModelRequestInput[] = [];
      for (
        let k = Math.floor((i * MODEL_REQUESTS) / CALLS);
        k < Math.floor(((i + BATCH) * MODEL_REQUESTS) / CALLS);
        k++
      ) {
        modelRequests.push({
          model: k % 5 ? 'gpt-5-mini' : 'gpt-4.1',
          ts: NOW - SPAN_MS + Math.floor((k / MODEL_REQUESTS) * SPAN_MS),
          inputTokens: 2000 + (k % 5000),
          outputTokens: 100 + (k % 700),
          latencyMs: 600 + ((k * 37) % 4000),
        });
      }
      const savings: SavingInput[] = [];
      for (let k = Math.floor((i * SAVINGS) / CALLS); k < Math.floor(((i + BATCH) * SAVINGS) / CALLS); k++) {
        savings.push({
          source: k % 4 ? 'result_store' : 'code_mode',
          tool: TOOLS[k % TOOLS.length]!,
          charsKeptOut: 60_000 + k * 10,
          roundTripsAvoided: k % 4 ? 0 : 3,
          ts: NOW - SPAN_MS + Math.floor((k / SAVINGS) * SPAN_MS),
        });
      }
      await store.recordBatch({ toolCalls, modelRequests, savings });
    }
    return store;
  })();
  return fixture;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function run(): Promise<BenchMetric[]> {
  const store = await setup();
  const all = await store.computeStats({ period: 'all', now: NOW });
  // record_one adds a few calls per round.
  if (all.total_calls < CALLS) throw new Error(`expected ${CALLS} calls, got ${all.total_calls}`);
  const out: BenchMetric[] = [];
  for (const period of ['day', 'week', 'month', 'all']) {
    out.push({
      name: `compute_${period}`,
      value: round2(await time(() => store.computeStats({ period, now: NOW }))),
      unit: 'ms',
      budget: 200,
    });
  }
  out.push({
    name: 'compute_month_tool',
    value: round2(await time(() => store.computeStats({ period: 'month', tool: TOOLS[3], now: NOW }))),
    unit: 'ms',
    budget: 200,
  });
  out.push({
    name: 'compute_html_report',
    value: round2(await time(() => store.computeStats({ period: 'all', output: 'bench.html', now: NOW }))),
    unit: 'ms',
    budget: 200,
  });
  const rec: number[] = [];
  for (let i = 0; i < 20; i++) {
    rec.push(
      await time(() =>
        store.recordToolCall({ tool: 'bench.one', ts: NOW, durationMs: 1, success: true, charsIn: 1, charsOut: 1 }),
      ),
    );
  }
  rec.sort((a, b) => a - b);
  out.push({ name: 'record_one_median', value: round2(rec[rec.length >> 1]!), unit: 'ms' });
  return out;
}
