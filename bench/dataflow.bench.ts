/**
 * The data-flow guard's cost per call (issue 13), measured where it runs:
 *   - at the interceptor: a sink call (web.fetch-like, URL sink) with the guard vs the same interceptor without it,
 *     alternating so drift hits both alike; the overhead is the difference (check + labelling);
 *   - a read call (page source) with the guard, whose labelling asks the resolver for the tab's origins;
 *   - the loop's transcript facts (what the user wrote, URLs the model read but did not write) over a transcript of
 *     100 tool outputs of 5,000 characters, built once per call, plus one URL lookup.
 * The resolver is in memory here: in the worker it is a chrome.webNavigation / tabs call the page tools make anyway.
 */
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { Logger } from '../src/shared/log.ts';
import { z } from '../src/shared/zod.ts';
import type { ToolContext } from '../src/tools/Tool.ts';
import { defineTool } from '../src/tools/defineTool.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { FLOW } from '../src/tools/guard/flow.ts';
import { FlowGuard, type FlowPolicy } from '../src/tools/guard/guard.ts';
import type { OriginResolver } from '../src/tools/guard/resolver.ts';
import { transcriptFacts } from '../src/agent/flowFacts.ts';
import type { ItemRecord } from '../src/storage/records.ts';
import { toolContext } from '../test/support/toolContext.ts';
import type { BenchMetric } from './types.ts';

export const name = 'dataflow';

const WARMUP = 3_000;
const CALLS = 20_000;

const send = defineTool({
  pack: 'web',
  name: 'fetch',
  description: 'fetch',
  parameters: z.object({ url: z.string() }),
  effect: 'reads',
  flow: FLOW.requestsUrl,
  execute: ({ url }) => ({ ok: true, url }),
});
const read = defineTool({
  pack: 'dom',
  name: 'text',
  description: 'read',
  parameters: z.object({ tab_id: z.number().optional() }),
  effect: 'reads',
  flow: FLOW.readsPage,
  execute: () => 'text',
});

const resolver: OriginResolver = {
  tabOrigins: async () => ['https://a.example', 'https://frame.example'],
  targetOrigins: async () => ['https://a.example'],
  allTabOrigins: async () => ['https://a.example'],
};

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

function transcript(): ItemRecord[] {
  const out: ItemRecord[] = [];
  const page = 'lorem ipsum dolor sit amet '.repeat(185);
  out.push({
    conversationId: 'c',
    seq: 0,
    createdAt: 0,
    item: {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'search the shop for blue widgets' }],
    },
  });
  for (let i = 0; i < 100; i++) {
    out.push({
      conversationId: 'c',
      seq: out.length,
      createdAt: 0,
      item: { type: 'function_call', call_id: `c${i}`, name: 'dom__text', arguments: '{"tab_id":3}' },
    });
    out.push({
      conversationId: 'c',
      seq: out.length,
      createdAt: 0,
      item: { type: 'function_call_output', call_id: `c${i}`, output: `${page} https://b.example/link${i} ${page}` },
    });
  }
  return out;
}

export async function run(): Promise<BenchMetric[]> {
  const logger = new Logger({ capacity: 1000, console: false });
  const interceptor = new ToolInterceptor({ logger, config: DEFAULT_CONFIG.tool_execution });
  const base = toolContext({ logger, tabId: 1 });
  // The run has read a.example and b.example; the call goes to a.example with b.example's data allowed for good.
  const policy: FlowPolicy = {
    origins: ['https://a.example', 'https://b.example'],
    pairAllowed: () => true,
    userWrote: () => false,
    seenUrl: () => false,
    grants: [],
  };
  const guardedCtx = (): ToolContext => ({ ...base, flow: new FlowGuard(policy, resolver) });
  const args = Array.from({ length: 64 }, (_, i) => ({ url: `https://a.example/p${i}` }));

  for (let i = 0; i < WARMUP; i++) {
    await interceptor.execute(send, args[i & 63]!, base);
    await interceptor.execute(send, args[i & 63]!, guardedCtx());
    await interceptor.execute(read, {}, guardedCtx());
  }
  const plain = new Float64Array(CALLS);
  const guarded = new Float64Array(CALLS);
  const reads = new Float64Array(CALLS);
  for (let i = 0; i < CALLS; i++) {
    const a = args[i & 63]!;
    const order = i & 1;
    let t = performance.now();
    if (order) await interceptor.execute(send, a, base);
    else await interceptor.execute(send, a, guardedCtx());
    const first = performance.now() - t;
    t = performance.now();
    if (order) await interceptor.execute(send, a, guardedCtx());
    else await interceptor.execute(send, a, base);
    const second = performance.now() - t;
    plain[i] = order ? first : second;
    guarded[i] = order ? second : first;
    t = performance.now();
    await interceptor.execute(read, {}, guardedCtx());
    reads[i] = performance.now() - t;
  }
  const mean = (xs: Float64Array): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const meanOverhead = mean(guarded) - mean(plain);
  plain.sort();
  guarded.sort();
  reads.sort();

  const records = transcript();
  const facts = new Float64Array(2_000);
  for (let i = 0; i < 200; i++) transcriptFacts(records, 'x').seenUrl('https://b.example/link99');
  for (let i = 0; i < facts.length; i++) {
    const t = performance.now();
    const f = transcriptFacts(records, 'x');
    f.seenUrl(`https://b.example/link${i % 100}`);
    f.userWrote('blue widgets');
    facts[i] = performance.now() - t;
  }
  facts.sort();

  return [
    {
      name: 'sink_call_overhead_p50',
      value: round4(percentile(guarded, 50) - percentile(plain, 50)),
      unit: 'ms',
      budget: 0.1,
    },
    {
      name: 'sink_call_overhead_p99',
      value: round4(percentile(guarded, 99) - percentile(plain, 99)),
      unit: 'ms',
      budget: 0.1,
    },
    { name: 'sink_call_overhead_mean', value: round4(meanOverhead), unit: 'ms', budget: 0.1 },
    { name: 'guarded_read_p50', value: round4(percentile(reads, 50)), unit: 'ms' },
    { name: 'guarded_read_p99', value: round4(percentile(reads, 99)), unit: 'ms' },
    { name: 'transcript_facts_p50', value: round4(percentile(facts, 50)), unit: 'ms', budget: 0.5 },
    { name: 'transcript_facts_p99', value: round4(percentile(facts, 99)), unit: 'ms', budget: 0.5 },
  ];
}
