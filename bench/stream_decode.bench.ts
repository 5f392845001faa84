/**
 * Issue #34: decoding a model's stream. The same bytes — a 5 MB answer streamed the way the Responses API frames it
 * (word-group deltas, then the `.done` events that repeat the whole text), cut into 64 KB network chunks — go through
 * Otto's SSE decoder and through the openai SDK's (`_iterSSEMessages`, what `Stream` iterates), alternating so drift
 * hits both alike. Reported: each one's MB/s, the time ratio Otto/SDK (≤ 1 = at least as fast), and the whole
 * Responses client (decode + JSON + mapper, through an injected fetch) for scale.
 */
import { _iterSSEMessages } from 'openai/core/streaming';
import { OpenAIResponsesClient } from '../src/models/OpenAIResponsesClient.ts';
import { readSseMessages } from '../src/models/sse.ts';
import { buildResponseEvents } from '../test/support/fake-api/responseEvents.ts';
import type { Turn, FakeRequestBody } from '../test/support/fake-api/turns.ts';
import type { BenchMetric } from './types.ts';

export const name = 'stream_decode';
export const rounds = 2;

const ANSWER_CHARS = process.env.BENCH_QUICK ? 1_000_000 : 5_000_000;
const CHUNK = 65_536;

function wireBytes(): Uint8Array {
  const deltas: string[] = [];
  for (let n = 0, i = 0; n < ANSWER_CHARS; i++) {
    const delta = `${i % 9 === 0 ? '\n\n' : ' '}Lorem ipsum dolor sit amet, consectetur adipiscing elit — ${i} ✓`;
    deltas.push(delta);
    n += delta.length;
  }
  const { events } = buildResponseEvents({ text: deltas } as Turn, { model: 'bench' } as FakeRequestBody);
  return new TextEncoder().encode(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}

const BYTES = wireBytes();
const CHUNKS: Uint8Array[] = [];
for (let i = 0; i < BYTES.length; i += CHUNK) CHUNKS.push(BYTES.subarray(i, i + CHUNK));

const body = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of CHUNKS) controller.enqueue(chunk);
      controller.close();
    },
  });

async function otto(): Promise<number> {
  let count = 0;
  for await (const message of readSseMessages(body())) count += message.data.length > 0 ? 1 : 0;
  return count;
}

async function sdk(): Promise<number> {
  let count = 0;
  for await (const message of _iterSSEMessages(new Response(body()), new AbortController()))
    count += message.data.length > 0 ? 1 : 0;
  return count;
}

async function client(): Promise<void> {
  const model = new OpenAIResponsesClient({
    baseURL: 'http://bench.invalid/v1',
    apiKey: 'sk-bench-0000',
    model: 'bench',
    maxRetries: 0,
    fetch: (async () => new Response(body(), { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch,
  });
  for await (const event of model.stream({ input: [], tools: [] }))
    if (event.type === 'failed') throw new Error(event.error.message);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function run(): Promise<BenchMetric[]> {
  // The SDK's decoder takes seconds here (it re-scans a growing buffer on every chunk of a long line), so it runs
  // once per round; Otto's runs three times after a warm-up.
  let ottoCount = await otto();
  const o: number[] = [];
  for (let i = 0; i < 3; i++) o.push(await timed(async () => (ottoCount = await otto())));
  let sdkCount = 0;
  const s = [await timed(async () => (sdkCount = await sdk()))];
  if (ottoCount !== sdkCount) throw new Error(`the decoders disagree: Otto ${ottoCount} messages, SDK ${sdkCount}`);
  const c = await timed(client);
  const mb = BYTES.length / 1e6;
  const [om, sm] = [median(o), median(s)];
  return [
    { name: 'stream_mb', value: round2(mb), unit: 'MB' },
    { name: 'otto_ms', value: round2(om), unit: 'ms' },
    { name: 'sdk_ms', value: round2(sm), unit: 'ms' },
    { name: 'otto_mb_per_s', value: round2(mb / (om / 1000)), unit: 'MB/s' },
    { name: 'sdk_mb_per_s', value: round2(mb / (sm / 1000)), unit: 'MB/s' },
    { name: 'time_ratio_otto_over_sdk', value: round2(om / sm), unit: '×', budget: 1 },
    { name: 'client_turn_ms', value: round2(c), unit: 'ms' },
    { name: 'client_mb_per_s', value: round2(mb / (c / 1000)), unit: 'MB/s' },
  ];
}
