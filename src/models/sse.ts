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
  /**
   * Set when the body is not an event stream at all (a server that ignored `stream: true`, a web page): `data` is
   * then the whole JSON body, or the first few KB of a page or text. Always the only message of its body.
   */
  document?: 'json' | 'html' | 'text';
}

/** How much of a page or text body is kept to say what it was. */
const SAMPLE_CHARS = 4096;

/** What a body is, from its first non-blank character: an event stream starts with a field name or a comment. */
function sniff(text: string): 'sse' | 'json' | 'html' | undefined {
  const first = /\S/.exec(text)?.[0];
  if (first === undefined) return undefined;
  return first === '{' || first === '[' ? 'json' : first === '<' ? 'html' : 'sse';
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
  // Until the first non-blank character, nobody knows what the body is; a JSON body is kept whole (it may be a
  // complete response to use), a page or text only its start (to name it).
  let kind: 'sse' | 'json' | 'html' | undefined;
  const kept: string[] = [];
  let keptChars = 0;
  let messages = 0;
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
      const piece = text.decode(chunk.value, { stream: true });
      kind ??= sniff(piece);
      if (kind === 'json' || (messages === 0 && keptChars < SAMPLE_CHARS)) {
        kept.push(piece);
        keptChars += piece.length;
      }
      if (kind === 'html') {
        if (keptChars < SAMPLE_CHARS) continue;
        yield { event: null, data: kept.join('').slice(0, SAMPLE_CHARS), document: 'html' };
        return;
      }
      if (kind === 'json') continue;
      for (const message of decoder.push(piece)) {
        messages++;
        yield message;
      }
    }
    finished = true;
    const rest = text.decode();
    kept.push(rest);
    if (kind === 'json' || kind === 'html') {
      const whole = kept.join('');
      yield { event: null, data: kind === 'json' ? whole : whole.slice(0, SAMPLE_CHARS), document: kind };
      return;
    }
    for (const message of [...decoder.push(rest), ...decoder.end()]) {
      messages++;
      yield message;
    }
    // Text that held no event at all ("Not Found", a proxy's notice) is named, not taken for an empty stream.
    const sample = messages === 0 ? kept.join('').slice(0, SAMPLE_CHARS) : '';
    if (sample.trim() && !looksLikeSse(sample)) yield { event: null, data: sample, document: 'text' };
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

/** Only comments and SSE fields (a stream that happened to carry no event): not something else. */
function looksLikeSse(sample: string): boolean {
  return sample.split(/\r\n|\r|\n/).every((line) => line === '' || /^(:|(data|event|id|retry)(:|$))/.test(line));
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
