/**
 * Agent-loop overhead per turn: Otto's AgentRunner (persisting every item, through the interceptor-backed host,
 * emitting UI events) vs a minimal reference loop written directly on the `openai` SDK, both against the same
 * fake Responses API answering at once, with the same trivial tool. The model and tool time is the same for both,
 * so the ratio of time per turn measures what Otto's loop adds. Target: within 1.2×.
 *
 * Runs in node: IndexedDB is fake-indexeddb (in-memory), the fetches are real HTTP over loopback.
 */
import 'fake-indexeddb/auto';
import '../src/shared/zod.ts';
import OpenAI from 'openai';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest } from '../test/support/fake-api/turns.ts';
import { OpenAIResponsesClient } from '../src/models/OpenAIResponsesClient.ts';
import { AgentRunner } from '../src/agent/runner.ts';
import type { AgentToolHost } from '../src/agent/toolHost.ts';
import { ConversationStore } from '../src/storage/conversations.ts';
import { SitePermissions } from '../src/storage/sitePermissions.ts';
import { openOttoDB } from '../src/storage/db.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { defineTool } from '../src/tools/defineTool.ts';
import { z } from '../src/shared/zod.ts';
import { Logger } from '../src/shared/log.ts';
import type { BenchMetric } from './types.ts';

export const name = 'loop';

const QUICK = process.env.BENCH_QUICK === '1';
const TURNS = 3; // two tool turns and the answer
const RUNS = QUICK ? 10 : 40;

const echo = defineTool({
  pack: 'bench',
  name: 'echo',
  description: 'Echo the text.',
  parameters: z.object({ text: z.string() }),
  readOnly: true,
  execute: (a) => ({ echo: a.text }),
});
const definition = { type: 'function', name: 'bench__echo', description: 'Echo the text.', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

/** The same three-turn script for every run: call, call, answer. */
function script(api: FakeApi, runs: number) {
  const callCount = (r: RecordedRequest) => (Array.isArray(r.body?.input) ? r.body.input.filter((i) => i.type === 'function_call_output').length : 0);
  api.script([
    { match: (r) => callCount(r) === 0, calls: [{ name: 'bench__echo', arguments: { text: 'one' } }], times: runs },
    { match: (r) => callCount(r) === 1, calls: [{ name: 'bench__echo', arguments: { text: 'two' } }], times: runs },
    { match: (r) => callCount(r) === 2, text: 'Done with both echoes.', times: runs },
  ]);
}

/** A minimal loop on the SDK: stream, collect function calls, run them, replay everything, until plain text. */
async function referenceRun(client: OpenAI): Promise<void> {
  const input: Record<string, unknown>[] = [{ role: 'user', content: 'echo twice' }];
  for (;;) {
    const stream = await client.responses.create({ model: 'gpt-bench', input: input as never, tools: [definition as never], stream: true, store: false });
    const calls: { call_id: string; arguments: string; name: string }[] = [];
    for await (const event of stream) {
      if (event.type === 'response.output_item.done') {
        input.push(event.item as unknown as Record<string, unknown>);
        if (event.item.type === 'function_call') calls.push(event.item);
      }
    }
    if (!calls.length) return;
    for (const c of calls) input.push({ type: 'function_call_output', call_id: c.call_id, output: JSON.stringify(echo.execute(JSON.parse(c.arguments), {} as never)) });
  }
}

function ottoRunner(api: FakeApi): { runner: AgentRunner; store: ConversationStore } {
  const db = openOttoDB(`bench-loop-${Math.random()}`);
  const store = new ConversationStore(db);
  const interceptor = new ToolInterceptor({ logger: new Logger({ console: false }) });
  const host: AgentToolHost = {
    definitions: () => [echo].map(() => ({ type: 'function', function: { name: 'bench__echo', description: echo.description, parameters: definition.parameters } })),
    lookup: (n) => (n === 'bench__echo' ? { qualifiedName: 'bench.echo', readOnly: true } : undefined),
    closest: () => [],
    isDestructive: () => false,
    run: (_q, args, ctx) =>
      interceptor.execute(echo, args, { signal: ctx.signal, config: DEFAULT_CONFIG, getSecret: () => undefined, logger: new Logger({ console: false }), callTool: async () => undefined }),
  };
  const model = new OpenAIResponsesClient({ baseURL: api.url, apiKey: 'sk-bench-000000', model: 'gpt-bench', maxRetries: 0 });
  const runner = new AgentRunner({ model, tools: host, store, sites: new SitePermissions(db), config: () => DEFAULT_CONFIG, keepAlive: () => undefined });
  return { runner, store };
}

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  try {
    const sdk = new OpenAI({ apiKey: 'sk-bench-000000', baseURL: api.url, maxRetries: 0 });
    const { runner, store } = ottoRunner(api);
    // Warm both paths (JIT, connection pool), then alternate so machine noise hits both alike.
    script(api, 4);
    await referenceRun(sdk);
    await runner.send((await store.create()).id, 'echo twice');
    let refMs = 0;
    let ottoMs = 0;
    script(api, RUNS * 2);
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await referenceRun(sdk);
      refMs += performance.now() - t;
      const id = (await store.create()).id;
      t = performance.now();
      const state = await runner.send(id, 'echo twice');
      ottoMs += performance.now() - t;
      if (state.status !== 'completed') throw new Error(`bench run ended ${state.status}: ${state.lastError?.message}`);
    }
    const perTurn = (ms: number) => ms / RUNS / TURNS;
    return [
      { name: 'reference_ms_per_turn', value: perTurn(refMs), unit: 'ms' },
      { name: 'otto_ms_per_turn', value: perTurn(ottoMs), unit: 'ms' },
      { name: 'otto_overhead_ms_per_turn', value: perTurn(ottoMs - refMs), unit: 'ms' },
      { name: 'ratio_otto_vs_reference', value: ottoMs / refMs, unit: '×', budget: 1.2 },
    ];
  } finally {
    await api.close();
  }
}
