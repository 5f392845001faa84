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
    if (!this.buffer.includes('\r')) {
      // The usual case (\n only): scan with indexOf and cut the buffer once.
      const buffer = this.buffer;
      let start = 0;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
        const message = this.line(buffer.slice(start, end));
        if (message) out.push(message);
        start = end + 1;
      }
      if (start) this.buffer = buffer.slice(start);
      return out;
    }
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

export interface ReadSseOptions {
  /**
   * Asked when the consumer stops before the body ended: true = the response is complete (its final event was
   * read), so the rest of the body — normally nothing but its end — is read in the background instead of cancelling
   * the request. A cancel costs an abort of the fetch; reading to the end lets the connection be reused at no cost.
   */
  drain?: () => boolean;
  /** How long a background drain may take before the body is cancelled after all. Default 5 s. */
  drainTimeoutMs?: number;
}

/** Iterates the SSE messages of a fetch body. Errors of the underlying read (cut socket, abort) propagate. */
export async function* readSseMessages(
  body: ReadableStream<Uint8Array>,
  options: ReadSseOptions = {},
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const decoder = new SseDecoder();
  let finished = false;
  let failed = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        failed = true;
        throw err;
      }
      if (chunk.done) break;
      yield* decoder.push(text.decode(chunk.value, { stream: true }));
    }
    finished = true;
    yield* decoder.push(text.decode());
    yield* decoder.end();
  } finally {
    if (finished || failed) reader.releaseLock();
    else if (options.drain?.()) void drain(reader, options.drainTimeoutMs ?? 5_000);
    else {
      // Stopping early (consumer broke out, or an error) must release the connection.
      await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
}

/** Reads a body to its end, discarding it; cancels it when that takes longer than `timeoutMs`. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, timeoutMs: number): Promise<void> {
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), timeoutMs);
  try {
    for (;;) if ((await reader.read()).done) break;
  } catch {
    // Cut or cancelled: nothing to keep.
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
