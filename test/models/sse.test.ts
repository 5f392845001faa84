// The SSE decoder: framing edge cases the fake API and real servers produce.
import { describe, expect, it } from 'vitest';
import { SseDecoder, readSseMessages } from '../../src/models/sse.ts';

function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const out = [];
  for await (const message of readSseMessages(bodyOf(chunks))) out.push(message);
  return out;
}

describe('SSE decoding', () => {
  it('parses event and data lines, split anywhere across chunks', async () => {
    const text = 'event: response.created\ndata: {"a":1}\n\nevent: response.completed\ndata: {"b":2}\n\n';
    for (let cut = 1; cut < text.length; cut += 7) {
      expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'response.created', data: '{"a":1}' },
        { event: 'response.completed', data: '{"b":2}' },
      ]);
    }
  });

  it('handles CRLF, comments, multi-line data, missing event names and a final message without a blank line', async () => {
    expect(await collect([': keep-alive\r\n\r\ndata: {"x":\r\ndata: 1}\r\n\r\n', 'data: [DONE]'])).toEqual([
      { event: null, data: '{"x":\n1}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('keeps multi-byte characters intact across chunk boundaries', async () => {
    const bytes = new TextEncoder().encode('data: "héllo ✓"\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const out = [];
    for await (const message of readSseMessages(body)) out.push(message.data);
    expect(out).toEqual(['"héllo ✓"']);
  });

  it('treats a lone CR at a chunk end as possibly half of CRLF', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: 1\r')).toEqual([]);
    expect(decoder.push('\n\r\n')).toEqual([{ event: null, data: '1' }]);
  });

  it('a consumer that stops early cancels the body, unless the response is complete: then the rest is read', async () => {
    const track = () => {
      const state = { cancelled: false, pulled: 0 };
      const parts = ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const part = parts[state.pulled++];
          if (part === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(part));
        },
        cancel() {
          state.cancelled = true;
        },
      });
      return { state, body };
    };
    const cut = track();
    for await (const message of readSseMessages(cut.body)) if (message.data === '1') break;
    expect(cut.state.cancelled).toBe(true);

    const complete = track();
    for await (const message of readSseMessages(complete.body, { drain: () => true })) if (message.data === '1') break;
    await new Promise((r) => setTimeout(r, 10));
    expect(complete.state.cancelled).toBe(false);
    expect(complete.state.pulled).toBe(4); // every part, then the end

    // A body that never ends is cancelled after the drain's time limit.
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _ of readSseMessages(endless, { drain: () => true, drainTimeoutMs: 20 })) break;
    expect(cancelled).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(cancelled).toBe(true);
  });
});
