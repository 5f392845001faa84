/**
 * Text → lines → chunks, for the large-result store. Pure functions, no storage.
 *
 * Lines: the text split on `\n`, a trailing `\r` removed from each (CRLF output reads like LF output), and no empty
 * last line for text ending in a newline. A line longer than `LINE_WRAP` characters is wrapped into several stored
 * lines (never inside a surrogate pair), so that one page of `ot.result` stays bounded even for minified JSON or a
 * base64 blob on one line, and every character stays reachable; the summary says how many lines were wrapped.
 *
 * Chunks: consecutive lines joined by `\n`, at most `CHUNK_LINES` lines and about `CHUNK_CHARS` characters each, so a
 * page of 100 lines reads one or two records and a search reads a few hundred, never one 50 MB value.
 */

/** Longest stored line, in UTF-16 code units. */
export const LINE_WRAP = 2000;
/** Most lines per chunk record. */
export const CHUNK_LINES = 1000;
/** A chunk is closed once it holds this many characters (a single wrapped line is at most LINE_WRAP). */
export const CHUNK_CHARS = 256 * 1024;

/** Bytes of `text` in UTF-8, without allocating an encoded copy. Lone surrogates count 3 bytes (as U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2; // 4 bytes for 2 code units
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * True when `text` is more than `limit` bytes in UTF-8 (limit 0 = never). Decides without a full scan when the
 * character count settles it: UTF-8 needs at least 1 byte per UTF-16 code unit and at most 3.
 */
export function exceedsBytes(text: string, limit: number): boolean {
  if (limit <= 0) return false;
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return utf8Length(text) > limit;
}

/** Splits one long line into pieces of at most `width` code units, never between the halves of a surrogate pair. */
export function wrapLine(line: string, width = LINE_WRAP): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    let end = Math.min(i + width, line.length);
    const last = line.charCodeAt(end - 1);
    if (end < line.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(line.slice(i, end));
    i = end;
  }
  return out;
}

export interface Chunk {
  /** Lines joined by `\n`. */
  text: string;
  /** 0-based index of the chunk's first line in the whole result. */
  start: number;
  /** Number of lines in the chunk (≥ 1). */
  count: number;
}

export interface ChunkerOptions {
  chunkLines?: number;
  chunkChars?: number;
  lineWrap?: number;
}

/**
 * Cuts `text` into chunks incrementally: each `next(max)` call returns up to `max` further chunks (empty when done),
 * so a caller can yield to the event loop between batches. Clean runs of lines are cut straight out of the text
 * (one slice per chunk); only lines needing a `\r` removed or a wrap are rebuilt.
 */
export class LineChunker {
  readonly #text: string;
  readonly #chunkLines: number;
  readonly #chunkChars: number;
  readonly #wrap: number;
  /** End of the usable text (a final newline excluded). */
  readonly #end: number;
  #pos = 0;
  #line = 0;
  #wrapped = 0;

  constructor(text: string, opts: ChunkerOptions = {}) {
    this.#text = text;
    this.#chunkLines = opts.chunkLines ?? CHUNK_LINES;
    this.#chunkChars = opts.chunkChars ?? CHUNK_CHARS;
    this.#wrap = opts.lineWrap ?? LINE_WRAP;
    this.#end = text.endsWith('\n') ? text.length - 1 : text.length;
    // Empty text: one empty line, as for any text without a newline.
  }

  /** Characters of the source text consumed so far (always at a line boundary). */
  get position(): number {
    return Math.min(this.#pos, this.#text.length);
  }

  /** Lines produced so far (after wrapping). */
  get lines(): number {
    return this.#line;
  }

  /** Source lines that were longer than the wrap width. */
  get wrappedLines(): number {
    return this.#wrapped;
  }

  get done(): boolean {
    return this.#pos > this.#end;
  }

  next(max = Infinity): Chunk[] {
    const out: Chunk[] = [];
    while (out.length < max && !this.done) out.push(this.#one());
    return out;
  }

  #one(): Chunk {
    const text = this.#text;
    const start = this.#line;
    const from = this.#pos;
    let count = 0;
    let chars = 0;
    let clean = true;
    let parts: string[] | undefined;
    let cleanUpTo = from; // end (exclusive) of the clean run still to copy into `parts`
    while (count < this.#chunkLines && chars < this.#chunkChars && this.#pos <= this.#end) {
      const lineStart = this.#pos;
      let nl = text.indexOf('\n', lineStart);
      if (nl < 0 || nl > this.#end) nl = this.#end;
      let lineEnd = nl;
      if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
      const len = lineEnd - lineStart;
      if (lineEnd === nl && len <= this.#wrap) {
        // Clean line: stays in the current run.
        this.#pos = nl + 1;
        count++;
        chars += len + 1;
        continue;
      }
      // A line to rebuild: flush the clean run before it, then add its processed form.
      if (clean) {
        parts = [];
        clean = false;
      }
      if (lineStart > cleanUpTo) parts!.push(text.slice(cleanUpTo, lineStart - 1));
      const line = text.slice(lineStart, lineEnd);
      let pieces = [line];
      if (len > this.#wrap) {
        this.#wrapped++;
        pieces = wrapLine(line, this.#wrap);
        // Never overshoot the line budget by more than one wrapped line's pieces: acceptable, chunks are soft-capped.
      }
      for (const p of pieces) parts!.push(p);
      count += pieces.length;
      chars += len + pieces.length;
      this.#pos = nl + 1;
      cleanUpTo = this.#pos;
    }
    this.#line += count;
    if (clean) return { text: text.slice(from, Math.min(this.#pos - 1, this.#end)), start, count };
    const tailEnd = Math.min(this.#pos - 1, this.#end);
    if (tailEnd >= cleanUpTo && this.#pos > cleanUpTo) parts!.push(text.slice(cleanUpTo, tailEnd));
    return { text: parts!.join('\n'), start, count };
  }
}

/** All lines of `text` as the store would keep them (for tests and small inputs). */
export function splitLines(text: string, lineWrap = LINE_WRAP): string[] {
  const chunker = new LineChunker(text, { lineWrap, chunkLines: Infinity, chunkChars: Infinity });
  const out: string[] = [];
  for (const c of chunker.next()) out.push(...c.text.split('\n'));
  return out;
}
