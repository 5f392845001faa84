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

/**
 * Incremental decoder: feed text chunks, get complete messages. Handles \n, \r\n and \r line endings.
 *
 * Linear in the input: each chunk is searched once, and a line longer than a chunk (a 5 MB `output_text.done`) is
 * kept as a list of parts joined once at its end — searching or flattening a growing buffer on every chunk made a
 * 16 MB line take seconds (#34).
 */
export class SseDecoder {
  /** The unfinished line's parts (it began in an earlier chunk). */
  private parts: string[] = [];
  /** The previous chunk ended in "\r": a "\n" opening the next one is the rest of that line ending. */
  private afterCr = false;
  private event: string | null = null;
  private data: string[] = [];

  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    if (chunk === '') return out;
    let start = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.charCodeAt(0) === 10) start = 1;
    }
    if (chunk.indexOf('\r', start) === -1) {
      // The usual case (\n only): indexOf from line to line.
      for (let end = chunk.indexOf('\n', start); end !== -1; end = chunk.indexOf('\n', start)) {
        this.take(this.lineOf(chunk, start, end), out);
        start = end + 1;
      }
    } else {
      const eol = /\r\n|\r|\n/g;
      eol.lastIndex = start;
      for (let match = eol.exec(chunk); match; match = eol.exec(chunk)) {
        this.take(this.lineOf(chunk, start, match.index), out);
        start = match.index + match[0].length;
        if (match[0] === '\r' && start === chunk.length) this.afterCr = true;
      }
    }
    if (start < chunk.length) this.parts.push(start ? chunk.slice(start) : chunk);
    return out;
  }

  /** End of stream: a final message without its blank line still counts (some servers omit it). */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    this.afterCr = false;
    if (this.parts.length > 0) {
      const line = this.parts.join('');
      this.parts = [];
      this.take(line, out);
    }
    const last = this.dispatch();
    if (last) out.push(last);
    return out;
  }

  /** The line ending at `end` in `chunk`, with whatever of it came in earlier chunks. */
  private lineOf(chunk: string, start: number, end: number): string {
    const tail = chunk.slice(start, end);
    if (this.parts.length === 0) return tail;
    this.parts.push(tail);
    const line = this.parts.join('');
    this.parts = [];
    return line;
  }

  private take(line: string, out: SseMessage[]): void {
    const message = this.line(line);
    if (message) out.push(message);
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
