/**
 * What the model-stream fuzz properties share: recorded streams as wire bytes, an injected fetch that delivers a body
 * in chosen pieces, the clients built around it, and a run that collects every event (and fails the property on a
 * throw, a hang or a second terminal event).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ChatCompletionsClient } from '../../src/models/ChatCompletionsClient.ts';
import { OpenAIResponsesClient } from '../../src/models/OpenAIResponsesClient.ts';
import type { ModelClient, ModelEvent } from '../../src/models/events.ts';
import { chunkFiles, loadRecording } from '../conformance/corpora.ts';

export const KEY = 'sk-fuzz-0123456789abcdefSECRET';
export const BASE_URL = 'https://fuzz.invalid/v1';

/** A recorded Responses stream (../shared/corpora, read at test time) as the bytes a server sends. */
export interface WireRecording {
  name: string;
  wire: 'responses' | 'chat';
  text: string;
}

function responsesWire(events: Record<string, unknown>[]): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** Every Responses recording in the shared corpora (none when they are absent), and the chat ones in the repo. */
export function recordings(): WireRecording[] {
  const out: WireRecording[] = chunkFiles().map((path) => {
    const recording = loadRecording(path);
    return { name: recording.name, wire: 'responses', text: responsesWire(recording.events) };
  });
  const chatDir = fileURLToPath(new URL('../conformance/chat-recordings/', import.meta.url));
  for (const file of readdirSync(chatDir).filter((f) => f.endsWith('.chunks.txt'))) {
    const lines = readFileSync(chatDir + file, 'utf8')
      .split('\n')
      .filter(Boolean);
    out.push({
      name: `chat/${file}`,
      wire: 'chat',
      text: lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n',
    });
  }
  return out;
}

/** Non-streamed Responses bodies recorded beside the streams (`*.json`). */
export function recordedJsonBodies(): { name: string; body: Record<string, unknown> }[] {
  return chunkFiles().flatMap((path) => {
    const recording = loadRecording(path);
    return recording.json ? [{ name: recording.name.replace(/\.chunks\.txt$/, '.json'), body: recording.json }] : [];
  });
}

export interface Reply {
  status?: number;
  contentType?: string | null;
  /** The body's bytes in the pieces the network delivers. */
  pieces: Uint8Array[];
  /** Error the body's stream raises after its pieces (a cut connection) instead of closing. */
  cut?: boolean;
}

/** Cuts `bytes` at the given positions (sorted, deduplicated, inside the range). */
export function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(bytes.length, c))))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) out.push(bytes.slice(from, point));
    from = point;
  }
  return out;
}

/** A fetch answering each request with the next reply (the last one repeats); counts the requests. */
export function scriptedFetch(replies: Reply[]): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fetchImpl = (async () => {
    const reply = replies[Math.min(calls, replies.length - 1)]!;
    calls++;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of reply.pieces) controller.enqueue(piece);
        if (reply.cut) controller.error(new TypeError('network error'));
        else controller.close();
      },
    });
    const headers: Record<string, string> = {};
    if (reply.contentType !== null) headers['content-type'] = reply.contentType ?? 'text/event-stream';
    return new Response(body, { status: reply.status ?? 200, headers });
  }) as typeof fetch;
  return { fetch: fetchImpl, calls: () => calls };
}

export function client(wire: 'responses' | 'chat', fetchImpl: typeof fetch, apiKey = KEY): ModelClient {
  const options = {
    baseURL: BASE_URL,
    apiKey,
    model: 'fuzz-model',
    maxRetries: 2,
    backoff: { baseMs: 1, maxMs: 2 },
    timeoutMs: 5_000,
    now: () => 0,
    fetch: fetchImpl,
  };
  return wire === 'chat' ? new ChatCompletionsClient(options) : new OpenAIResponsesClient(options);
}

/** Runs one turn to its end; throws when the client throws, yields after its terminal event, or never ends. */
export async function runTurn(model: ModelClient): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream({ input: [], tools: [] })) {
    if (events.some((e) => e.type === 'completed' || e.type === 'failed'))
      throw new Error(`an event after the terminal one: ${JSON.stringify(event).slice(0, 200)}`);
    events.push(event);
  }
  const last = events.at(-1);
  if (last?.type !== 'completed' && last?.type !== 'failed')
    throw new Error(`the turn ended without completed/failed: ${JSON.stringify(last)}`);
  return events;
}

/** The text the user sees of a turn. */
export const shownText = (events: ModelEvent[]): string =>
  events.map((e) => (e.type === 'text.delta' ? e.delta : '')).join('');
