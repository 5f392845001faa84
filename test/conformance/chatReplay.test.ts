// Issue #18 conformance: real Chat Completions streams recorded from three different servers (Azure OpenAI, OpenAI,
// Mistral; see chat-recordings/SOURCE.md) replayed byte for byte through the real ChatCompletionsClient (the openai
// SDK's HTTP layer, our SSE parsing and the chunk mapper). The expected values are what each recording says: its
// text deltas, its reasoning, its tool call and its usage chunk. Each is replayed whole and cut into small network
// chunks, and the result must not depend on where the cuts fall.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../../src/models/ChatCompletionsClient.ts';
import type { ModelEvent } from '../../src/models/events.ts';
import { doneItems } from '../support/modelEvents.ts';

const DIR = fileURLToPath(new URL('./chat-recordings/', import.meta.url));

function recording(name: string): string {
  const lines = readFileSync(DIR + name, 'utf8')
    .split('\n')
    .filter(Boolean);
  return lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** A fetch that answers every request with `body`, delivered in pieces of `chunk` bytes. */
function replayFetch(body: string, chunk: number): typeof fetch {
  const bytes = new TextEncoder().encode(body);
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
          controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

async function replay(name: string, chunk: number): Promise<ModelEvent[]> {
  const client = new ChatCompletionsClient({
    baseURL: 'https://recorded.invalid/v1',
    apiKey: 'sk-replay-0000',
    model: 'recorded-model',
    fetch: replayFetch(recording(name), chunk),
    maxRetries: 0,
  });
  const out: ModelEvent[] = [];
  for await (const e of client.stream({ input: [{ type: 'message', role: 'user', content: 'hi' }], tools: [] }))
    out.push(e);
  return out;
}

const deltas = (events: ModelEvent[], type: 'text.delta' | 'reasoning.delta') =>
  events.flatMap((e) => (e.type === type ? [e.delta] : [])).join('');
const terminal = (events: ModelEvent[]) => events.filter((e) => e.type === 'completed' || e.type === 'failed');

// Whole, split mid-line, and one byte at a time (where a decoder that assumes whole lines or whole UTF-8 breaks).
const CHUNKS = [1 << 16, 37, 1];

describe.each(CHUNKS)('recorded Chat Completions streams, network chunks of %i bytes', (chunk) => {
  it('Azure OpenAI (gpt-4): filter-only chunks are skipped; text, model and usage as recorded', async () => {
    const events = await replay('azure-openai-gpt-4-text.chunks.txt', chunk);
    expect(terminal(events)).toEqual([
      expect.objectContaining({
        type: 'completed',
        model: 'gpt-4',
        usage: expect.objectContaining({ inputTokens: 15, outputTokens: 5 }),
      }),
    ]);
    expect(deltas(events, 'text.delta')).toBe('Hello World');
    expect(doneItems(events)).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Hello World' })] }),
    ]);
  });

  it('OpenAI (gpt-4o): text before a tool call, arguments in a later chunk, usage after finish_reason', async () => {
    const events = await replay('openai-gpt-4o-tool-call.chunks.txt', chunk);
    expect(terminal(events)).toEqual([
      expect.objectContaining({
        type: 'completed',
        model: 'gpt-4o-2024-08-06',
        usage: expect.objectContaining({ inputTokens: 58, outputTokens: 12, cachedTokens: 0 }),
      }),
    ]);
    expect(doneItems(events)).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'PRE_TOOL' })] }),
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_NZa7xqfefoaMI2YYHowVXVlU',
        name: 'weather',
        arguments: '{}',
      }),
    ]);
  });

  it('Mistral (thinking): content as an array of parts — thinking becomes reasoning, text parts the answer', async () => {
    const events = await replay('mistral-small-thinking.chunks.txt', chunk);
    expect(terminal(events)).toEqual([
      expect.objectContaining({
        type: 'completed',
        model: 'mistral-small-latest',
        usage: expect.objectContaining({ inputTokens: 28, outputTokens: 139 }),
      }),
    ]);
    const reasoning = deltas(events, 'reasoning.delta');
    expect(reasoning.startsWith('Okay, the user is asking for the product of 17 and 23. I need to calculate')).toBe(
      true,
    );
    expect(reasoning.endsWith('So, 17 * 23 = 391.')).toBe(true);
    // The answer's first digit arrives as a text part inside the array, the rest as a plain string.
    expect(deltas(events, 'text.delta')).toBe('391');
    const [reasoningItem, message] = doneItems(events);
    expect(reasoningItem).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning }] });
    expect(message).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: '391' }] });
  });
});
