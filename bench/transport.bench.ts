/**
 * Issue #18: one model turn over Chat Completions against the same over the Responses API — the same scripted turn
 * (a sentence and a tool call with arguments), the same instant fake server on loopback, the two clients alternating
 * so drift hits both alike. What differs is only the wire: the request conversion, the stream and its mapper.
 */
import { ChatCompletionsClient } from '../src/models/ChatCompletionsClient.ts';
import { OpenAIResponsesClient } from '../src/models/OpenAIResponsesClient.ts';
import type { ModelClient, ModelRequest, ResponseItem } from '../src/models/events.ts';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import type { BenchMetric } from './types.ts';

export const name = 'transport';

const TURNS = process.env.BENCH_QUICK ? 40 : 200;

const tool = {
  type: 'function',
  function: {
    name: 'dom__click',
    description: 'Click an element by ref',
    parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
  },
};
// A transcript of a few steps, as a run in progress replays it.
const input: ResponseItem[] = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add "milk" to the list and check it.' }] },
  { type: 'function_call', call_id: 'c1', name: 'dom__snapshot', arguments: '{}' },
  { type: 'function_call_output', call_id: 'c1', output: '- textbox "New todo" [ref=e3]\n'.repeat(40) },
];
const request = (): ModelRequest => ({ input, tools: [tool] });

async function turn(client: ModelClient): Promise<number> {
  const started = performance.now();
  for await (const event of client.stream(request())) if (event.type === 'failed') throw new Error(event.error.message);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const scripted = { text: 'Clicking the checkbox now.', calls: [{ name: 'dom__click', arguments: { ref: 'e7' } }] };
  api.script([{ ...scripted, times: Infinity }]);
  const options = { baseURL: api.url, apiKey: 'sk-bench-000000', model: 'bench', maxRetries: 0 };
  const responses = new OpenAIResponsesClient(options);
  const chat = new ChatCompletionsClient(options);
  const r: number[] = [];
  const c: number[] = [];
  try {
    for (let i = 0; i < 10; i++) await Promise.all([turn(responses), turn(chat)]); // warm-up
    for (let i = 0; i < TURNS; i++) {
      r.push(await turn(responses));
      c.push(await turn(chat));
    }
  } finally {
    await api.close();
  }
  const rm = median(r);
  const cm = median(c);
  return [
    { name: 'responses_turn_ms', value: round3(rm), unit: 'ms' },
    { name: 'chat_turn_ms', value: round3(cm), unit: 'ms' },
    { name: 'chat_vs_responses', value: round3(cm / rm), unit: 'ratio' },
  ];
}
