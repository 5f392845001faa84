/**
 * Per-call overhead of the tool-execution interceptor with validation, logging (into the ring buffer, console echo
 * off) and metadata all on, against calling the same tool's execute directly. Calls alternate between the two paths
 * so drift (JIT, GC, CPU frequency) hits both alike; the overhead is the difference of the two distributions.
 */
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { Logger } from '../src/shared/log.ts';
import { z } from '../src/shared/zod.ts';
import { defineTool } from '../src/tools/defineTool.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { toolContext } from '../test/support/toolContext.ts';
import type { BenchMetric } from './types.ts';

export const name = 'interceptor';

const WARMUP = 5_000;
const CALLS = 20_000;

// A typical small page tool: a ref, two defaulted options, a small object result.
const tool = defineTool({
  pack: 'dom',
  name: 'click',
  description: 'Click an element by ref',
  parameters: z.object({
    ref: z.string(),
    button: z.enum(['left', 'middle', 'right']).default('left'),
    clicks: z.number().int().min(1).max(3).default(1),
  }),
  effect: 'changes',
  execute: ({ ref, button }) => ({ ok: true, ref, button }),
});

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export async function run(): Promise<BenchMetric[]> {
  const logger = new Logger({ capacity: 1000, console: false });
  const interceptor = new ToolInterceptor({ logger, config: DEFAULT_CONFIG.tool_execution });
  const ctx = toolContext({ logger });
  // Direct calls get already-parsed arguments, as the tool would see them after validation.
  const raw = Array.from({ length: 64 }, (_, i) => ({ ref: `e${i}` }));
  const parsed = raw.map((a) => ({ ...a, button: 'left' as const, clicks: 1 }));

  for (let i = 0; i < WARMUP; i++) {
    await tool.execute(parsed[i & 63]!, ctx);
    await interceptor.execute(tool, raw[i & 63]!, ctx);
  }

  const direct = new Float64Array(CALLS);
  const wrapped = new Float64Array(CALLS);
  for (let i = 0; i < CALLS; i++) {
    const a = raw[i & 63]!;
    const b = parsed[i & 63]!;
    if (i & 1) {
      let t = performance.now();
      await tool.execute(b, ctx);
      direct[i] = performance.now() - t;
      t = performance.now();
      await interceptor.execute(tool, a, ctx);
      wrapped[i] = performance.now() - t;
    } else {
      let t = performance.now();
      await interceptor.execute(tool, a, ctx);
      wrapped[i] = performance.now() - t;
      t = performance.now();
      await tool.execute(b, ctx);
      direct[i] = performance.now() - t;
    }
  }
  const mean = (xs: Float64Array): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const meanOverhead = mean(wrapped) - mean(direct);
  direct.sort();
  wrapped.sort();
  const d50 = percentile(direct, 50);
  const d99 = percentile(direct, 99);
  const w50 = percentile(wrapped, 50);
  const w99 = percentile(wrapped, 99);
  return [
    { name: 'direct_p50', value: round4(d50), unit: 'ms' },
    { name: 'direct_p99', value: round4(d99), unit: 'ms' },
    { name: 'intercepted_p50', value: round4(w50), unit: 'ms' },
    { name: 'intercepted_p99', value: round4(w99), unit: 'ms' },
    // Beyond p99 both paths show GC and JIT pauses of several ms; p99.9 is reported so a regression there shows.
    { name: 'intercepted_p999', value: round4(percentile(wrapped, 99.9)), unit: 'ms' },
    { name: 'overhead_p50', value: round4(w50 - d50), unit: 'ms', budget: 0.05 },
    { name: 'overhead_p99', value: round4(w99 - d99), unit: 'ms', budget: 0.05 },
    { name: 'overhead_mean', value: round4(meanOverhead), unit: 'ms', budget: 0.05 },
    { name: 'ratio_p50', value: Math.round((w50 / d50) * 10) / 10, unit: 'x' },
  ];
}
