/**
 * Agent-loop overhead per turn: Otto's AgentRunner (persisting every item, through the interceptor-backed host,
 * emitting UI events) vs a minimal reference loop written directly on the `openai` SDK, both against the same
 * fake Responses API answering at once, with the same trivial tool. The model and tool time is the same for both,
 * so the ratio of time per turn measures what Otto's loop adds. Target: within 1.2×.
 *
 * Runs in node: IndexedDB is fake-indexeddb (in-memory), the fetches are real HTTP over loopback.
 *
 * To show where Otto's extra time goes, the same runner also runs over a plain in-memory store (no IndexedDB): the
 * difference is what persisting every step costs; the rest is the loop's own bookkeeping. Only the first figure is
 * the product (a run that survives a dead worker needs the writes).
 *
 * Each side's time is also taken as CPU time (`*_cpu_*`): the process's, fake server included (the same work for both
 * sides), so a core shared with other jobs stretches the wall-time figures but not these.
 *
 * A server that answers at once is the harshest case, not the usual one: the last pair of figures runs the same
 * script with a model that takes its time (MODEL_LATENCY: a first byte after 300 ms, then 10 ms between events, about
 * what a hosted model streams a short reply at), which is what a user waits on in practice.
 */
import 'fake-indexeddb/auto';
import '../src/shared/zod.ts';
import OpenAI from 'openai';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest, Turn } from '../test/support/fake-api/turns.ts';
import { OpenAIResponsesClient } from '../src/models/OpenAIResponsesClient.ts';
import { AgentRunner } from '../src/agent/runner.ts';
import type { AgentToolHost } from '../src/agent/toolHost.ts';
import { ConversationStore, ConversationNotFoundError } from '../src/storage/conversations.ts';
import type { ItemRecord } from '../src/storage/records.ts';
import type { RunState } from '../src/storage/runRecords.ts';
import { SitePermissions } from '../src/storage/sitePermissions.ts';
import { openOttoDB } from '../src/storage/db.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { defineTool } from '../src/tools/defineTool.ts';
import { z } from '../src/shared/zod.ts';
import { Logger } from '../src/shared/log.ts';
import { toolContext } from '../test/support/toolContext.ts';
import type { BenchMetric } from './types.ts';

export const name = 'loop';

const QUICK = process.env.BENCH_QUICK === '1';
const TURNS = 3; // two tool turns and the answer
const RUNS = QUICK ? 10 : 40;
/** Runs at model latency: each costs ~1 s a side, and the writes either hide behind it or they do not. */
const LATENT_RUNS = QUICK ? 2 : 4;
const MODEL_LATENCY = { headersDelayMs: 300, delayMs: 10 };

const echo = defineTool({
  pack: 'bench',
  name: 'echo',
  description: 'Echo the text.',
  parameters: z.object({ text: z.string() }),
  effect: 'reads',
  execute: (a) => ({ echo: a.text }),
});
const definition = {
  type: 'function',
  name: 'bench__echo',
  description: 'Echo the text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** Wall and CPU time spent by one side, summed over its runs (ms). */
interface Spent {
  ms: number;
  cpu: number;
}
const spent = (): Spent => ({ ms: 0, cpu: 0 });

/** Runs `fn`, adding its wall time and the process's CPU time (user + system) to `into`. */
async function timed<T>(fn: () => Promise<T>, into: Spent): Promise<T> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const out = await fn();
  into.ms += performance.now() - t;
  const used = process.cpuUsage(cpu);
  into.cpu += (used.user + used.system) / 1000;
  return out;
}

/** The same three-turn script for every run: call, call, answer (each turn after `latency`, if given). */
export function script(api: FakeApi, runs: number, latency: Pick<Turn, 'delayMs' | 'headersDelayMs'> = {}) {
  const callCount = (r: RecordedRequest) =>
    Array.isArray(r.body?.input) ? r.body.input.filter((i) => i.type === 'function_call_output').length : 0;
  api.script([
    {
      match: (r) => callCount(r) === 0,
      calls: [{ name: 'bench__echo', arguments: { text: 'one' } }],
      times: runs,
      ...latency,
    },
    {
      match: (r) => callCount(r) === 1,
      calls: [{ name: 'bench__echo', arguments: { text: 'two' } }],
      times: runs,
      ...latency,
    },
    { match: (r) => callCount(r) === 2, text: 'Done with both echoes.', times: runs, ...latency },
  ]);
}

/** A minimal loop on the SDK: stream, collect function calls, run them, replay everything, until plain text. */
export async function referenceRun(client: OpenAI): Promise<void> {
  const input: Record<string, unknown>[] = [{ role: 'user', content: 'echo twice' }];
  for (;;) {
    const stream = await client.responses.create({
      model: 'gpt-bench',
      input: input as never,
      tools: [definition as never],
      stream: true,
      store: false,
    });
    const calls: { call_id: string; arguments: string; name: string }[] = [];
    for await (const event of stream) {
      if (event.type === 'response.output_item.done') {
        input.push(event.item as unknown as Record<string, unknown>);
        if (event.item.type === 'function_call') calls.push(event.item);
      }
    }
    if (!calls.length) return;
    for (const c of calls)
      input.push({
        type: 'function_call_output',
        call_id: c.call_id,
        output: JSON.stringify(echo.execute(JSON.parse(c.arguments), {} as never)),
      });
  }
}

/** The part of ConversationStore the runner uses, kept in plain maps: what the loop costs without IndexedDB. */
class MemoryStore {
  #items = new Map<string, ItemRecord[]>();
  #runs = new Map<string, RunState>();
  #n = 0;
  async create() {
    const id = `mem-${++this.#n}`;
    this.#items.set(id, []);
    return { id, title: '', createdAt: 0, updatedAt: 0 };
  }
  async load(id: string) {
    const items = this.#items.get(id);
    return {
      ...(items ? { conversation: { id, title: '', createdAt: 0, updatedAt: 0 } } : {}),
      run: this.#runs.get(id),
      items: [...(items ?? [])],
    };
  }
  async append(id: string, items: readonly Record<string, unknown>[], opts: { run?: RunState } = {}) {
    const list = this.#items.get(id);
    if (!list) throw new ConversationNotFoundError(id);
    const recs = items.map(
      (item, k) => ({ conversationId: id, seq: list.length + k, createdAt: 0, item }) as ItemRecord,
    );
    list.push(...recs);
    if (opts.run) this.#runs.set(id, structuredClone(opts.run));
    return recs;
  }
  async truncate(id: string, fromSeq: number, run?: RunState) {
    const list = this.#items.get(id) ?? [];
    const n = list.length - fromSeq;
    list.length = Math.min(list.length, fromSeq);
    if (run) this.#runs.set(id, structuredClone(run));
    return Math.max(0, n);
  }
  async getRun(id: string) {
    return this.#runs.get(id);
  }
  async transcript(id: string, fromSeq = 0) {
    return (this.#items.get(id) ?? []).slice(fromSeq);
  }
  async listRuns() {
    return [...this.#runs.values()];
  }
}

export function ottoRunner(
  api: FakeApi,
  memory = false,
): { runner: AgentRunner; store: Pick<ConversationStore, 'create'> } {
  const db = openOttoDB(`bench-loop-${Math.random()}`);
  const store = memory ? (new MemoryStore() as unknown as ConversationStore) : new ConversationStore(db);
  const logger = new Logger({ console: false });
  const interceptor = new ToolInterceptor({ logger });
  const host: AgentToolHost = {
    definitions: () =>
      [echo].map(() => ({
        type: 'function',
        function: { name: 'bench__echo', description: echo.description, parameters: definition.parameters },
      })),
    lookup: (n) => (n === 'bench__echo' ? { qualifiedName: 'bench.echo', readOnly: true } : undefined),
    closest: () => [],
    isDestructive: () => false,
    // A context per call, as the worker's tool host builds one.
    run: (_q, args, ctx) => interceptor.execute(echo, args, toolContext({ signal: ctx.signal, logger })),
  };
  const model = new OpenAIResponsesClient({
    baseURL: api.url,
    apiKey: 'sk-bench-000000',
    model: 'gpt-bench',
    maxRetries: 0,
  });
  const runner = new AgentRunner({
    model,
    tools: host,
    store,
    sites: new SitePermissions(db),
    config: () => DEFAULT_CONFIG,
    keepAlive: () => undefined,
  });
  return { runner, store };
}

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  try {
    const sdk = new OpenAI({ apiKey: 'sk-bench-000000', baseURL: api.url, maxRetries: 0 });
    const otto = ottoRunner(api);
    const memory = ottoRunner(api, true);
    const ottoRun = async (o: typeof otto, into: Spent): Promise<void> => {
      const id = (await o.store.create()).id;
      const state = await timed(() => o.runner.send(id, 'echo twice'), into);
      if (state.status !== 'completed') throw new Error(`bench run ended ${state.status}: ${state.lastError?.message}`);
    };
    // Warm every path (JIT, connection pool), then alternate so machine noise hits them alike.
    script(api, 6);
    await referenceRun(sdk);
    await ottoRun(otto, spent());
    await ottoRun(memory, spent());
    const ref = spent();
    const ottoSpent = spent();
    const memorySpent = spent();
    script(api, RUNS * 3);
    for (let i = 0; i < RUNS; i++) {
      await timed(() => referenceRun(sdk), ref);
      await ottoRun(otto, ottoSpent);
      await ottoRun(memory, memorySpent);
    }
    // The same at model latency (alternated too; the in-memory store adds nothing to learn here).
    const latentRef = spent();
    const latentOtto = spent();
    script(api, LATENT_RUNS * 2, MODEL_LATENCY);
    for (let i = 0; i < LATENT_RUNS; i++) {
      await timed(() => referenceRun(sdk), latentRef);
      await ottoRun(otto, latentOtto);
    }
    const [refMs, ottoMs, memoryMs] = [ref.ms, ottoSpent.ms, memorySpent.ms];
    const [latentRefMs, latentOttoMs] = [latentRef.ms, latentOtto.ms];
    const perTurn = (ms: number) => ms / RUNS / TURNS;
    const latentPerTurn = (ms: number) => ms / LATENT_RUNS / TURNS;
    return [
      { name: 'reference_ms_per_turn', value: perTurn(refMs), unit: 'ms' },
      { name: 'otto_ms_per_turn', value: perTurn(ottoMs), unit: 'ms' },
      { name: 'otto_overhead_ms_per_turn', value: perTurn(ottoMs - refMs), unit: 'ms' },
      { name: 'ratio_otto_vs_reference', value: ottoMs / refMs, unit: '×', budget: 1.2 },
      // The decomposition: the same runner over an in-memory store; the difference is what the writes cost.
      { name: 'otto_without_indexeddb_ms_per_turn', value: perTurn(memoryMs), unit: 'ms' },
      { name: 'ratio_otto_without_indexeddb_vs_reference', value: memoryMs / refMs, unit: '×' },
      { name: 'persistence_ms_per_turn', value: perTurn(ottoMs - memoryMs), unit: 'ms' },
      // The same three runs in CPU time (the process's, fake server included: the same for every side). What a
      // loaded machine does to wall time (waiting for a core) does not count here, so these vary less between runs.
      { name: 'reference_cpu_ms_per_turn', value: perTurn(ref.cpu), unit: 'ms' },
      { name: 'otto_cpu_ms_per_turn', value: perTurn(ottoSpent.cpu), unit: 'ms' },
      { name: 'otto_without_indexeddb_cpu_ms_per_turn', value: perTurn(memorySpent.cpu), unit: 'ms' },
      { name: 'cpu_ratio_otto_vs_reference', value: ottoSpent.cpu / ref.cpu, unit: '×' },
      { name: 'cpu_ratio_otto_without_indexeddb_vs_reference', value: memorySpent.cpu / ref.cpu, unit: '×' },
      { name: 'latent_reference_ms_per_turn', value: latentPerTurn(latentRefMs), unit: 'ms' },
      { name: 'latent_otto_ms_per_turn', value: latentPerTurn(latentOttoMs), unit: 'ms' },
      { name: 'latent_otto_overhead_ms_per_turn', value: latentPerTurn(latentOttoMs - latentRefMs), unit: 'ms' },
      { name: 'ratio_otto_vs_reference_at_model_latency', value: latentOttoMs / latentRefMs, unit: '×' },
    ];
  } finally {
    await api.close();
  }
}
