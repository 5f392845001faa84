/**
 * The large-result store (issue 6, "Large results"): a tool output over `output.max_inline_size` UTF-8 bytes is kept
 * in IndexedDB under a 12-hex handle for `output.result_ttl` seconds, and the model gets the reference's summary
 * `{handle, total_lines, size_bytes, summary, preview, query}` instead (written by src/results/reference.ts);
 * `ot.result` pages and searches it.
 *
 * Layout: `results` holds one meta record per handle (line count, chunk starts, expiry); `resultChunks` holds the
 * text as chunks of ≤ 1,000 lines / ~256 KB keyed (handle, chunk index) — a page of 100 lines reads one or two small
 * records, a search reads the chunks in batches (src/results/lines.ts). A store writes the chunks in batches of
 * separate transactions, yielding to the event loop between them so a 50 MB output does not stall the worker; the
 * meta record is written first as `writing` (invisible to queries, with a safety expiry so an interrupted store is
 * swept) and flipped to `ready` with the real expiry last.
 *
 * Expiry: checked when a handle is queried (`Result expired: <h>`, and the result is removed), plus a sweep every
 * 10th store and `sweepExpired(now)` for the worker's start-up; a sweep removes only what has expired.
 */
import type { IDBPDatabase } from 'idb';
import { redactSecrets } from '../config/redact.ts';
import { exceedsBytes, LineChunker, utf8Length, type ChunkerOptions } from '../results/lines.ts';
import {
  normalizeQuery,
  ResultQueryError,
  runQuery,
  type QueryParams,
  type ResultPage,
  type RunQueryOptions,
} from '../results/query.ts';
import type { LineSource } from '../results/lineSource.ts';
import { previewLine, resultReference, type ResultReference } from '../results/reference.ts';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { ResultChunkRecord, ResultMetaRecord } from './resultRecords.ts';
import { statsStore } from './statsStore.ts';
import { errorMessage } from '../shared/errorMessage.ts';

type Db = IDBPDatabase<OttoDB>;

/** Options of storeIfLarge: config `output` can be passed as is (`{...config.output, tool}`). */
export interface StoreOptions {
  /** Bytes (UTF-8) above which output is stored; 0 disables. Default 50,000. */
  max_inline_size?: number;
  /** Seconds until a stored result expires; 0 = never. Default 3600. */
  result_ttl?: number;
  /** Lines of preview in the reference. Default 10. */
  preview_lines?: number;
  /** The tool that produced the output (named in the summary and the savings record). */
  tool?: string;
  /** Record the characters kept out of context for `ot.stats` (config `stats.enabled`). Default true. */
  statsEnabled?: boolean;
}

/** Receives the characters a stored result kept out of the model's context (the stats store plugs in here). */
export type SavingsSink = (saving: { tool: string; charsKeptOut: number; ts: number }) => void | Promise<void>;

export interface ResultSummary {
  handle: string;
  tool?: string;
  createdAt: number;
  expiresAt: number | null;
  totalLines: number;
  sizeBytes: number;
}

/** The reference sweeps expired results on every 10th store. */
export const SWEEP_EVERY = 10;
/** Chunks written per transaction while storing (then the store yields to the event loop). */
export const WRITE_BATCH_CHUNKS = 32;
/** Split chunks kept per query for `read` (context groups, pages straddling chunks). */
const READ_CACHE_CHUNKS = 4;
/** Chunks read per request while scanning. */
export const SCAN_BATCH_CHUNKS = 32;
/** Expiry of a result still being written, so a store interrupted by the worker's death is swept. */
const WRITING_GRACE_MS = 3_600_000;

const HANDLE_RE = /^[0-9a-f]{12}$/;

function randomHandle(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Chunk index holding 0-based `line` (binary search over ascending starts). */
function chunkOf(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const chunkRange = (handle: string, from = 0, to = Infinity): IDBKeyRange =>
  IDBKeyRange.bound([handle, from], [handle, to]);

export interface ResultStoreOptions {
  now?: () => number;
  newHandle?: () => string;
  /** Called with the characters kept out of context on every store (when statsEnabled). */
  onSaving?: SavingsSink;
  chunker?: ChunkerOptions;
  /** Query options (fuzzy bounds), for tests. */
  query?: RunQueryOptions;
  /**
   * Redaction applied to the text before it is stored (chunk by chunk). Default: OpenAI-key-shaped strings; the
   * composition root passes one that also knows the configured secret values (`redactSecrets(text, values)`).
   */
  redact?: (text: string) => string;
}

export class ResultStore {
  readonly #db: Promise<Db>;
  readonly #now: () => number;
  readonly #newHandle: () => string;
  readonly #onSaving: SavingsSink | undefined;
  readonly #chunker: ChunkerOptions | undefined;
  readonly #query: RunQueryOptions | undefined;
  readonly #redact: (text: string) => string;
  #stores = 0;

  constructor(database: Db | Promise<Db> = sharedDb(), opts: ResultStoreOptions = {}) {
    this.#db = Promise.resolve(database);
    this.#now = opts.now ?? Date.now;
    this.#newHandle = opts.newHandle ?? randomHandle;
    this.#onSaving = opts.onSaving;
    this.#chunker = opts.chunker;
    this.#query = opts.query;
    this.#redact = opts.redact ?? ((text) => redactSecrets(text, []));
  }

  /**
   * The output itself when it is within `max_inline_size` bytes (or the limit is 0), else stores it and returns the
   * reference for the model. Should storing fail (quota), returns the output cut to the limit with a note instead
   * of throwing: the model still gets something.
   */
  async storeIfLarge(output: string, opts: StoreOptions = {}): Promise<string | ResultReference> {
    const limit = opts.max_inline_size ?? 50_000;
    if (!exceedsBytes(output, limit)) return output;
    try {
      const ref = await this.store(output, opts);
      if (opts.statsEnabled !== false && this.#onSaving) {
        const kept = output.length - JSON.stringify(ref).length;
        try {
          await this.#onSaving({ tool: opts.tool ?? '', charsKeptOut: Math.max(0, kept), ts: this.#now() });
        } catch {
          // Statistics never break a tool call.
        }
      }
      return ref;
    } catch (error) {
      const reason = errorMessage(error);
      let cut = output.slice(0, limit);
      while (utf8Length(cut) > limit) cut = cut.slice(0, Math.floor(cut.length * 0.9));
      return `${cut}\n… [output cut at ${limit} bytes of ${utf8Length(output)}: it could not be stored for ot.result (${reason})]`;
    }
  }

  /** Stores `output` unconditionally and returns its reference. */
  async store(output: string, opts: StoreOptions = {}): Promise<ResultReference> {
    const db = await this.#db;
    if (this.#stores++ % SWEEP_EVERY === 0) await this.sweepExpired();
    const ttl = opts.result_ttl ?? 3600;
    const previewCount = opts.preview_lines ?? 10;
    const createdAt = this.#now();
    const meta: ResultMetaRecord = {
      handle: '',
      state: 'writing',
      createdAt,
      expiresAt: createdAt + Math.max(ttl * 1000, WRITING_GRACE_MS),
      totalLines: 0,
      sizeBytes: 0, // counted batch by batch below, so no single pass over a 50 MB text blocks the worker
      wrappedLines: 0,
      chunkStarts: [],
    };
    if (opts.tool) meta.tool = opts.tool;
    // Claim a fresh handle (add fails on a collision: try another).
    for (let attempt = 0; ; attempt++) {
      meta.handle = this.#newHandle();
      try {
        await db.add('results', meta);
        break;
      } catch (error) {
        if (attempt >= 5 || !(error instanceof DOMException && error.name === 'ConstraintError')) throw error;
      }
    }
    const handle = meta.handle;
    const chunker = new LineChunker(output, this.#chunker);
    const preview: string[] = [];
    try {
      let index = 0;
      let line = 0;
      let counted = 0;
      while (!chunker.done) {
        const batch = chunker.next(WRITE_BATCH_CHUNKS);
        meta.sizeBytes += utf8Length(output.slice(counted, chunker.position));
        counted = chunker.position;
        const tx = db.transaction('resultChunks', 'readwrite');
        const puts: Promise<unknown>[] = [];
        for (const c of batch) {
          // Redaction may change a chunk's line count (a secret value spanning lines): starts follow the stored text.
          const text = this.#redact(c.text);
          const count = text === c.text ? c.count : countLines(text);
          const rec: ResultChunkRecord = { handle, index: index++, start: line, text };
          puts.push(tx.store.put(rec));
          meta.chunkStarts.push(line);
          line += count;
          if (preview.length < previewCount) {
            for (const l of text.split('\n', previewCount - preview.length)) preview.push(previewLine(l));
          }
        }
        await Promise.all([...puts, tx.done]);
        if (!chunker.done) await yieldToEventLoop();
      }
      meta.totalLines = line;
      meta.wrappedLines = chunker.wrappedLines;
      meta.state = 'ready';
      meta.expiresAt = ttl > 0 ? createdAt + ttl * 1000 : null;
      await db.put('results', meta);
    } catch (error) {
      await this.delete(handle).catch(() => undefined);
      throw error;
    }

    return resultReference({
      handle,
      totalLines: meta.totalLines,
      sizeBytes: meta.sizeBytes,
      wrappedLines: meta.wrappedLines,
      ttl,
      ...(opts.tool ? { tool: opts.tool } : {}),
      preview,
    });
  }

  /**
   * One `ot.result` query. Throws ResultQueryError with the exact messages: the offset/limit/argument/pattern errors
   * before any lookup, then `Result not found: <h>` or `Result expired: <h>` (the expired result is removed).
   */
  async queryResult(handle: string, params: QueryParams = {}, opts: { maxChars?: number } = {}): Promise<ResultPage> {
    const q = normalizeQuery(params);
    const meta = await this.#meta(handle);
    return runQuery(handle, this.#source(meta), q, { ...this.#query, ...opts });
  }

  async #meta(handle: string): Promise<ResultMetaRecord> {
    const db = await this.#db;
    const meta = HANDLE_RE.test(handle) ? await db.get('results', handle) : undefined;
    if (!meta || meta.state !== 'ready') throw new ResultQueryError('not_found', `Result not found: ${handle}`);
    if (meta.expiresAt !== null && this.#now() > meta.expiresAt) {
      await this.delete(handle);
      throw new ResultQueryError('expired', `Result expired: ${handle}`);
    }
    return meta;
  }

  #source(meta: ResultMetaRecord): LineSource {
    const dbp = this.#db;
    const { handle, chunkStarts, totalLines } = meta;
    // The split lines of the chunks read last (one query reads around the same place: context groups, a page
    // straddling two chunks), so a chunk is fetched and split once per query.
    const cache = new Map<number, string[]>();
    const remember = (index: number, lines: string[]): string[] => {
      cache.set(index, lines);
      if (cache.size > READ_CACHE_CHUNKS) cache.delete(cache.keys().next().value!);
      return lines;
    };
    // The next batch is asked for before this one is visited, so reading and searching overlap. Each batch is its
    // own transaction, as before: a store running meanwhile is not held up for a whole scan.
    const scanChunks = async (visit: (chunk: ResultChunkRecord) => boolean | void): Promise<void> => {
      const db = await dbp;
      const batch = (i: number) =>
        i < chunkStarts.length
          ? db.getAll('resultChunks', chunkRange(handle, i, i + SCAN_BATCH_CHUNKS - 1))
          : undefined;
      let next = batch(0);
      try {
        for (let i = 0; next; i += SCAN_BATCH_CHUNKS) {
          const chunks = await next;
          next = batch(i + SCAN_BATCH_CHUNKS);
          for (const c of chunks) if (visit(c) === false) return;
        }
      } finally {
        next?.catch(() => undefined); // a batch asked for but no longer wanted (the visit stopped or threw)
      }
    };
    return {
      totalLines,
      async read(from, to) {
        from = Math.max(0, from);
        to = Math.min(to, totalLines);
        if (to <= from) return [];
        const first = chunkOf(chunkStarts, from);
        const last = chunkOf(chunkStarts, to - 1);
        const got = new Map<number, string[]>();
        const missing: number[] = [];
        for (let i = first; i <= last; i++) {
          const hit = cache.get(i);
          if (hit) got.set(i, hit);
          else missing.push(i);
        }
        if (missing.length) {
          const db = await dbp;
          const lo = missing[0]!;
          const hi = missing[missing.length - 1]!;
          const chunks =
            lo === hi
              ? [await db.get('resultChunks', [handle, lo])]
              : await db.getAll('resultChunks', chunkRange(handle, lo, hi));
          for (const c of chunks) if (c && !got.has(c.index)) got.set(c.index, remember(c.index, c.text.split('\n')));
        }
        const out: string[] = [];
        for (let i = first; i <= last; i++) {
          const lines = got.get(i);
          if (!lines) throw new Error(`Result ${handle} is missing chunk ${i}`);
          const start = chunkStarts[i]!;
          const a = Math.max(0, from - start);
          const b = Math.min(lines.length, to - start);
          for (let k = a; k < b; k++) out.push(lines[k]!);
        }
        return out;
      },
      scan: (visit) => scanChunks((c) => visit(c.start, c.text.split('\n'))),
      scanText: (visit) => scanChunks((c) => visit(c.start, c.text)),
    };
  }

  /** Removes one result and its chunks. Returns false when it did not exist. */
  async delete(handle: string): Promise<boolean> {
    const tx = (await this.#db).transaction(['results', 'resultChunks'], 'readwrite');
    const existed = (await tx.objectStore('results').getKey(handle)) !== undefined;
    await Promise.all([
      tx.objectStore('results').delete(handle),
      tx.objectStore('resultChunks').delete(chunkRange(handle)),
    ]);
    await tx.done;
    return existed;
  }

  /**
   * Moves the expiry of these results to at least `ttlSeconds` from now (#23: the outputs behind a conversation's
   * stubs live on while its runs do). Results already expired, missing, still being written or kept forever are left
   * as they are: an expired result is not brought back. Returns the handles renewed.
   */
  async renew(handles: readonly string[], ttlSeconds: number): Promise<string[]> {
    if (!handles.length || !(ttlSeconds > 0)) return [];
    const now = this.#now();
    const until = now + ttlSeconds * 1000;
    const tx = (await this.#db).transaction('results', 'readwrite');
    const renewed: string[] = [];
    for (const handle of new Set(handles)) {
      const meta = await tx.store.get(handle);
      if (!meta || meta.state !== 'ready' || meta.expiresAt === null || meta.expiresAt < now) continue;
      if (meta.expiresAt >= until) continue;
      await tx.store.put({ ...meta, expiresAt: until });
      renewed.push(handle);
    }
    await tx.done;
    return renewed;
  }

  /** Removes every result that expired before `now` (and only those). Returns the handles removed. */
  async sweepExpired(now = this.#now()): Promise<string[]> {
    const tx = (await this.#db).transaction(['results', 'resultChunks'], 'readwrite');
    const handles = await tx.objectStore('results').index('byExpires').getAllKeys(IDBKeyRange.upperBound(now, true));
    await Promise.all(
      handles.flatMap((h) => [
        tx.objectStore('results').delete(h),
        tx.objectStore('resultChunks').delete(chunkRange(h)),
      ]),
    );
    await tx.done;
    return handles;
  }

  /** Stored results, newest first (for the panel). */
  async list(): Promise<ResultSummary[]> {
    const all = await (await this.#db).getAll('results');
    return all
      .filter((m) => m.state === 'ready')
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((m) => ({
        handle: m.handle,
        ...(m.tool ? { tool: m.tool } : {}),
        createdAt: m.createdAt,
        expiresAt: m.expiresAt,
        totalLines: m.totalLines,
        sizeBytes: m.sizeBytes,
      }));
  }

  /** The whole stored text (lines joined by `\n`), e.g. for a download from the panel. */
  async text(handle: string): Promise<string> {
    const meta = await this.#meta(handle);
    const chunks = await (await this.#db).getAll('resultChunks', chunkRange(meta.handle));
    return chunks.map((c) => c.text).join('\n');
  }
}

let defaultStore: ResultStore | undefined;
/** The store of this context (shared database), reporting what it keeps out of context to the default stats store. */
export function resultStore(): ResultStore {
  defaultStore ??= new ResultStore(undefined, {
    onSaving: (s) =>
      statsStore().recordSaving({ source: 'result_store', tool: s.tool, charsKeptOut: s.charsKeptOut, ts: s.ts }),
  });
  return defaultStore;
}

export function storeIfLarge(output: string, opts?: StoreOptions): Promise<string | ResultReference> {
  return resultStore().storeIfLarge(output, opts);
}

export function queryResult(handle: string, params?: QueryParams, opts?: { maxChars?: number }): Promise<ResultPage> {
  return resultStore().queryResult(handle, params, opts);
}

export function sweepExpired(now?: number): Promise<string[]> {
  return resultStore().sweepExpired(now);
}
