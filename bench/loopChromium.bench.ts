/**
 * The agent loop in its real runtime: Otto's AgentRunner inside the extension's service worker in Chromium, with
 * Chromium's IndexedDB, against the fake Responses API answering at once — beside a bare loop in the same worker
 * that does only what a loop must (fetch, read the SSE stream, collect items, answer function calls, repeat), with
 * no persistence, validation or UI events. Same script, same tools array in the request, runs alternated. Not the
 * openai-SDK reference of bench/loop.bench.ts (the worker has no bare SDK to call): a stricter floor, fetch alone.
 */
import type { Worker } from 'playwright-core';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest } from '../test/support/fake-api/turns.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'loop_chromium';
/** It repeats internally; a few rounds are enough for min/max. */
export const rounds = 3;
const RUNS = process.env.BENCH_QUICK === '1' ? 5 : 20;
const TURNS = 3; // two tool turns and the answer

/** call, call, answer — on `ot.version`, a read-only tool with no side effects. */
function script(api: FakeApi, runs: number): void {
  const outputs = (r: RecordedRequest) =>
    Array.isArray(r.body?.input) ? r.body.input.filter((i) => i.type === 'function_call_output').length : 0;
  api.script([
    { match: (r) => outputs(r) === 0, calls: [{ name: 'ot__version', arguments: {} }], times: runs },
    { match: (r) => outputs(r) === 1, calls: [{ name: 'ot__version', arguments: {} }], times: runs },
    { match: (r) => outputs(r) === 2, text: 'Version checked twice.', times: runs },
  ]);
}

/** One Otto run in the worker, timed there: ms. */
function ottoRun(sw: Worker, conversationId: string): Promise<number> {
  return sw.evaluate(async (id) => {
    const runner = (
      globalThis as unknown as {
        otto: { runner: { send(c: string, t: string): Promise<{ status: string; lastError?: { message: string } }> } };
      }
    ).otto.runner;
    const t = performance.now();
    const state = await runner.send(id, 'check the version twice');
    const ms = performance.now() - t;
    if (state.status !== 'completed') throw new Error(`bench run ended ${state.status}: ${state.lastError?.message}`);
    return ms;
  }, conversationId);
}

/** The bare loop, in the same worker: ms. */
function bareRun(sw: Worker, url: string, tools: unknown[]): Promise<number> {
  return sw.evaluate(
    async ([base, defs]) => {
      const t = performance.now();
      const input: Record<string, unknown>[] = [{ role: 'user', content: 'check the version twice' }];
      for (;;) {
        const res = await fetch(`${base}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-0000000000' },
          body: JSON.stringify({ model: 'gpt-bench', input, tools: defs, stream: true, store: false }),
        });
        if (!res.ok || !res.body) throw new Error(`the bare loop got HTTP ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const calls: { call_id: string }[] = [];
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block.split('\n').find((l) => l.startsWith('data:'));
            if (!data) continue;
            const event = JSON.parse(data.slice(5)) as { type: string; item?: { type: string; call_id: string } };
            if (event.type === 'response.output_item.done' && event.item) {
              input.push(event.item);
              if (event.item.type === 'function_call') calls.push(event.item);
            }
          }
        }
        if (!calls.length) return performance.now() - t;
        for (const c of calls) input.push({ type: 'function_call_output', call_id: c.call_id, output: '0.1.0' });
      }
    },
    [url, tools] as const,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const browser = await openExtension(name, api.url).catch(async (err: unknown) => {
    await api.close();
    throw err;
  });
  try {
    const { sw, ask } = browser;
    const conversation = async () => {
      const r = await ask({ type: 'conversations.create' });
      if (!r.ok || !r.data?.id) throw new Error(`conversations.create failed: ${r.error}`);
      return r.data.id;
    };

    // Warm both (JIT, connections); the bare loop sends the very tools array Otto sent.
    script(api, 2 + RUNS * 2);
    await ottoRun(sw, await conversation());
    const tools = (api.responsesRequests()[0]!.body as { tools: unknown[] }).tools;
    await bareRun(sw, api.url, tools);
    const otto: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(await bareRun(sw, api.url, tools));
      otto.push(await ottoRun(sw, await conversation()));
    }
    const perTurn = (xs: number[]) => median(xs) / TURNS;
    return [
      { name: 'bare_fetch_ms_per_turn', value: perTurn(bare), unit: 'ms' },
      { name: 'otto_ms_per_turn', value: perTurn(otto), unit: 'ms' },
      { name: 'otto_overhead_ms_per_turn', value: perTurn(otto) - perTurn(bare), unit: 'ms' },
      { name: 'ratio_otto_vs_bare_fetch', value: median(otto) / median(bare), unit: '×' },
      { name: 'tools_sent', value: tools.length, unit: 'tools' },
    ];
  } finally {
    await browser.close();
    await api.close();
  }
}
