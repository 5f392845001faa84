/**
 * A small Server-Sent Events decoder for response bodies.
 *
 * We parse the stream ourselves instead of iterating the SDK's `Stream`, because the SDK throws on the first data
 * line that is not JSON and turns an `error` event into an exception (losing the `response.failed` that follows).
 * Here each message is handed over raw; the client decides what to tolerate.
 */

export interface SseMessage {
  /** The `event:` field, or null when absent. */
  event: string | null;
  /** The `data:` lines joined with "\n". */
  data: string;
}

/** Incremental decoder: feed text chunks, get complete messages. Handles \n, \r\n and \r line endings. */
export class SseDecoder {
  private buffer = '';
  private event: string | null = null;
  private data: string[] = [];

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone "\r" at the end of a chunk may be the first half of "\r\n": wait for more text.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  /** End of stream: a final message without its blank line still counts (some servers omit it). */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.buffer.length > 0) {
      const message = this.line(this.buffer);
      this.buffer = '';
      if (message) out.push(message);
    }
    const last = this.dispatch();
    if (last) out.push(last);
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    // `id:` and `retry:` are irrelevant to a one-shot POST stream.
    return null;
  }

  private dispatch(): SseMessage | null {
    const message = this.data.length > 0 ? { event: this.event, data: this.data.join('\n') } : null;
    this.event = null;
    this.data = [];
    return message;
  }
}

/** Iterates the SSE messages of a fetch body. Errors of the underlying read (cut socket, abort) propagate. */
export async function* readSseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const decoder = new SseDecoder();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* decoder.push(text.decode(value, { stream: true }));
    }
    finished = true;
    yield* decoder.push(text.decode());
    yield* decoder.end();
  } finally {
    // Stopping early (consumer broke out, or an error) must release the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
