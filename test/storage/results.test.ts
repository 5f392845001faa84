// docs/specs/002-ot-tools.md "Query Stored Results" and the reference's large-result facts, through the IndexedDB
// store.
import { describe, expect, it } from 'vitest';
import { CHUNK_LINES } from '../../src/results/lines.ts';
import { ResultQueryError } from '../../src/results/query.ts';
import { openOttoDB } from '../../src/storage/db.ts';
import { isResultReference, type ResultReference } from '../../src/results/reference.ts';
import { ResultStore, SWEEP_EVERY, type SavingsSink } from '../../src/storage/results.ts';

const numbered = (n: number, f = (i: number) => `line ${i}`): string =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n');

let seq = 0;
async function fixture(opts: { now?: () => number; onSaving?: SavingsSink } = {}) {
  const db = await openOttoDB(`results-${++seq}-${Math.random()}`);
  let handles = 0;
  const store = new ResultStore(db, {
    now: opts.now,
    onSaving: opts.onSaving,
    newHandle: () => (++handles).toString(16).padStart(12, 'a'),
  });
  return { db, store };
}

async function stored(
  store: ResultStore,
  text: string,
  opts: Parameters<ResultStore['store']>[1] = {},
): Promise<ResultReference> {
  return store.store(text, opts);
}

async function rejection(p: Promise<unknown>): Promise<ResultQueryError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ResultQueryError);
  return e as ResultQueryError;
}

describe('storeIfLarge', () => {
  it('returns output within max_inline_size unchanged and stores nothing', async () => {
    const { store } = await fixture();
    const text = 'x'.repeat(50_000);
    expect(await store.storeIfLarge(text, { max_inline_size: 50_000 })).toBe(text);
    expect(await store.list()).toEqual([]);
  });

  it('measures the limit in UTF-8 bytes, not characters', async () => {
    const { store } = await fixture();
    const text = 'é'.repeat(30_000); // 30,000 characters, 60,000 bytes
    const out = await store.storeIfLarge(text, { max_inline_size: 50_000 });
    expect(isResultReference(out)).toBe(true);
    expect((out as ResultReference).size_bytes).toBe(60_000);
  });

  it('max_inline_size 0 disables the store', async () => {
    const { store } = await fixture();
    const text = 'y'.repeat(200_000);
    expect(await store.storeIfLarge(text, { max_inline_size: 0 })).toBe(text);
  });

  it("returns the reference's summary: handle, total_lines, size_bytes, summary, preview, query", async () => {
    const { store } = await fixture();
    const text = numbered(5000, (i) => `row ${i} ${'z'.repeat(20)}`);
    const ref = (await store.storeIfLarge(text, { max_inline_size: 1000, tool: 'web.fetch' })) as ResultReference;
    expect(Object.keys(ref)).toEqual(['handle', 'total_lines', 'size_bytes', 'summary', 'preview', 'query']);
    expect(ref.handle).toMatch(/^[0-9a-f]{12}$/);
    expect(ref.total_lines).toBe(5000);
    expect(ref.size_bytes).toBe(new TextEncoder().encode(text).length);
    expect(ref.preview).toEqual(text.split('\n').slice(0, 10));
    expect(ref.query).toBe(`ot.result(handle='${ref.handle}', offset=1, limit=50)`);
    expect(ref.summary).toContain('web.fetch');
    expect(ref.summary).toContain(ref.handle);
  });

  it('uses preview_lines and cuts very long preview lines', async () => {
    const { store } = await fixture();
    const ref = (await store.storeIfLarge(`${'a'.repeat(1000)}\nb\nc\nd`, {
      max_inline_size: 10,
      preview_lines: 2,
    })) as ResultReference;
    expect(ref.preview).toHaveLength(2);
    expect(ref.preview[0]).toBe(`${'a'.repeat(300)}… (+700 chars)`);
    expect(ref.preview[1]).toBe('b');
  });

  it('makes 12-hex handles from crypto.getRandomValues by default, distinct per store', async () => {
    const db = await openOttoDB(`results-random-${Math.random()}`);
    const store = new ResultStore(db);
    const a = await store.store('a\nb');
    const b = await store.store('a\nb');
    expect(a.handle).toMatch(/^[0-9a-f]{12}$/);
    expect(b.handle).toMatch(/^[0-9a-f]{12}$/);
    expect(a.handle).not.toBe(b.handle);
  });

  it('reports the characters kept out of context to the stats sink, unless stats are disabled', async () => {
    const savings: { tool: string; charsKeptOut: number }[] = [];
    const { store } = await fixture({ onSaving: (s) => void savings.push(s) });
    const text = 'q'.repeat(100_000);
    const ref = await store.storeIfLarge(text, { max_inline_size: 50_000, tool: 'web.fetch' });
    expect(savings).toEqual([
      { tool: 'web.fetch', charsKeptOut: text.length - JSON.stringify(ref).length, ts: expect.any(Number) },
    ]);
    await store.storeIfLarge(text, { max_inline_size: 50_000, statsEnabled: false });
    expect(savings).toHaveLength(1);
  });

  it('wraps lines longer than 2000 characters so every page stays bounded, and says so', async () => {
    const { store } = await fixture();
    const ref = await stored(store, `head\n${'j'.repeat(4500)}\ntail`);
    expect(ref.total_lines).toBe(5);
    expect(ref.summary).toMatch(/1 line\(s\) longer than 2000 characters were wrapped/);
    const page = await store.queryResult(ref.handle);
    expect(page.lines.map((l) => l.length)).toEqual([4, 2000, 2000, 500, 4]);
    expect(page.lines.slice(1, 4).join('')).toBe('j'.repeat(4500));
  });
});

describe('ot.result scenarios (seed 002)', () => {
  it('Basic query with defaults: lines 1-100 (offset=1, limit=100)', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(500));
    const page = await store.queryResult(ref.handle);
    expect(page.offset).toBe(1);
    expect(page.limit).toBe(100);
    expect(page.returned).toBe(100);
    expect(page.lines[0]).toBe('line 1');
    expect(page.lines[99]).toBe('line 100');
  });

  it('Query with offset and limit: offset=101, limit=50 returns lines 101-150', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(500));
    const page = await store.queryResult(ref.handle, { offset: 101, limit: 50 });
    expect(page.lines).toEqual(Array.from({ length: 50 }, (_, i) => `line ${101 + i}`));
    expect(page.offset).toBe(101);
    expect(page.has_more).toBe(true);
  });

  it('Query with search filter: only lines matching the regex, offset/limit over the matches', async () => {
    const { store } = await fixture();
    const text = numbered(300, (i) => (i % 3 === 0 ? `${i} ERROR disk full` : `${i} ok`));
    const ref = await stored(store, text);
    const all = await store.queryResult(ref.handle, { search: 'error' });
    expect(all.matches).toBe(100);
    expect(all.total_lines).toBe(300); // docs/specs/002-ot-tools.md, "Query response format", also when searching
    expect(all.lines.every((l) => /error/i.test(l))).toBe(true);
    const page = await store.queryResult(ref.handle, { search: 'error', offset: 11, limit: 5 });
    expect(page.lines).toEqual([33, 36, 39, 42, 45].map((i) => `${i} ERROR disk full`));
    expect(page.line_numbers).toEqual([33, 36, 39, 42, 45]);
    expect(page.next_query).toBe(`ot.result(handle='${ref.handle}', offset=16, limit=5, search='error')`);
  });

  it('Query with fuzzy matching: similar content found, sorted by match score', async () => {
    const { store } = await fixture();
    const ref = await stored(
      store,
      ['unrelated stuff', 'the conifg file', 'configuration loaded', 'zzz', 'config'].join('\n'),
    );
    const page = await store.queryResult(ref.handle, { search: 'config', fuzzy: true });
    expect(page.lines[0]).toBe('config');
    expect(page.lines).toContain('configuration loaded');
    expect(page.lines).toContain('the conifg file');
    expect(page.lines).not.toContain('zzz');
    expect(page.lines.indexOf('configuration loaded')).toBeLessThan(page.lines.indexOf('the conifg file'));
    expect(page.scores).toEqual([...page.scores!].sort((a, b) => a - b));
    expect(page.fuzzy).toBe(true);
  });

  it('Invalid handle: Result not found: <h>', async () => {
    const { store } = await fixture();
    expect((await rejection(store.queryResult('nonexistent'))).message).toBe('Result not found: nonexistent');
    expect((await rejection(store.queryResult('0123456789ab'))).message).toBe('Result not found: 0123456789ab');
  });

  it('Expired handle: Result expired: <h>, and the result is removed', async () => {
    let now = 1_000_000;
    const { store } = await fixture({ now: () => now });
    const ref = await stored(store, numbered(10), { result_ttl: 60 });
    now += 60_000; // exactly at the TTL: still readable
    expect((await store.queryResult(ref.handle)).returned).toBe(10);
    now += 1;
    expect((await rejection(store.queryResult(ref.handle))).message).toBe(`Result expired: ${ref.handle}`);
    expect(await store.list()).toEqual([]);
  });

  it('Query response format: lines, total_lines, returned, offset, has_more (+ limit, progress, next_query)', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(250));
    const page = await store.queryResult(ref.handle, { offset: 201, limit: 100 });
    expect(page).toEqual({
      handle: ref.handle,
      total_lines: 250,
      returned: 50,
      offset: 201,
      limit: 100,
      has_more: false,
      progress: 'lines 201-250 of 250 (100%)',
      next_query: null,
      lines: Array.from({ length: 50 }, (_, i) => `line ${201 + i}`),
    });
  });

  it('1-indexed offset: offset=1 starts at the first line', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(3));
    const page = await store.queryResult(ref.handle, { offset: 1, limit: 1 });
    expect(page.lines).toEqual(['line 1']);
    const last = await store.queryResult(ref.handle, { offset: 3, limit: 1 });
    expect(last.lines).toEqual(['line 3']);
    expect(last.has_more).toBe(false);
    const past = await store.queryResult(ref.handle, { offset: 4 });
    expect(past.lines).toEqual([]);
    expect(past.progress).toBe('no lines at offset 4: 3 in total');
  });

  it('Offset validation: offset must be >= 1 (1-indexed), got 0', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(3));
    const e = await rejection(store.queryResult(ref.handle, { offset: 0 }));
    expect(e.message).toBe('offset must be >= 1 (1-indexed), got 0');
    expect(e.name).toBe('ValueError');
    // Validation comes before the lookup.
    expect((await rejection(store.queryResult('nonexistent', { offset: 0 }))).message).toBe(
      'offset must be >= 1 (1-indexed), got 0',
    );
  });

  it('Limit validation: limit must be >= 1, got 0', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(3));
    expect((await rejection(store.queryResult(ref.handle, { limit: 0 }))).message).toBe('limit must be >= 1, got 0');
  });

  it('Invalid search pattern: <reason>', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(3));
    expect((await rejection(store.queryResult(ref.handle, { search: '(' }))).message).toBe(
      'Invalid search pattern: Unterminated group',
    );
  });
});

describe('paging across chunks', () => {
  it('reads pages that straddle chunk boundaries, and the last partial page', async () => {
    const { store } = await fixture();
    const n = CHUNK_LINES * 3 + 17;
    const ref = await stored(store, numbered(n));
    for (const offset of [CHUNK_LINES - 49, CHUNK_LINES, CHUNK_LINES + 1, 2 * CHUNK_LINES - 1, n - 16]) {
      const page = await store.queryResult(ref.handle, { offset, limit: 100 });
      const expected = Array.from({ length: Math.min(100, n - offset + 1) }, (_, i) => `line ${offset + i}`);
      expect(page.lines).toEqual(expected);
    }
  });

  it('a page bigger than a chunk spans three chunks', async () => {
    const db = await openOttoDB(`small-chunks-${Math.random()}`);
    const small = new ResultStore(db, { chunker: { chunkLines: 7 } });
    const ref = await small.store(numbered(100));
    const page = await small.queryResult(ref.handle, { offset: 5, limit: 20 });
    expect(page.lines).toEqual(Array.from({ length: 20 }, (_, i) => `line ${5 + i}`));
    const wide = await small.queryResult(ref.handle, { offset: 3, limit: 95 }); // 15 chunks, more than the read cache
    expect(wide.lines).toEqual(Array.from({ length: 95 }, (_, i) => `line ${3 + i}`));
    const ctx = await small.queryResult(ref.handle, { search: '^line \\d*0$', context: 3, limit: 5 });
    expect(ctx.lines.slice(0, 8)).toEqual([
      '7-line 7',
      '8-line 8',
      '9-line 9',
      '10:line 10',
      '11-line 11',
      '12-line 12',
      '13-line 13',
      '--',
    ]);
    const found = await small.queryResult(ref.handle, { search: '^line \\d*7$' });
    expect(found.line_numbers).toEqual([7, 17, 27, 37, 47, 57, 67, 77, 87, 97]);
  });

  it('keeps CRLF output readable (no \\r in lines) and the full text downloadable', async () => {
    const { store } = await fixture();
    const ref = await stored(store, 'a\r\nb\r\nc\r\n');
    expect((await store.queryResult(ref.handle)).lines).toEqual(['a', 'b', 'c']);
    expect(await store.text(ref.handle)).toBe('a\nb\nc');
  });
});

describe('TTL sweep', () => {
  it('sweepExpired removes only expired results, with their chunks', async () => {
    let now = 5_000_000;
    const { store, db } = await fixture({ now: () => now });
    const short = await stored(store, numbered(2000), { result_ttl: 10 });
    const long = await stored(store, numbered(2000), { result_ttl: 3600 });
    const never = await stored(store, numbered(2000), { result_ttl: 0 });
    now += 11_000;
    expect(await store.sweepExpired()).toEqual([short.handle]);
    expect((await store.list()).map((r) => r.handle).sort()).toEqual([long.handle, never.handle].sort());
    expect(await db.count('resultChunks', IDBKeyRange.bound([short.handle, 0], [short.handle, Infinity]))).toBe(0);
    expect(await db.count('resultChunks', IDBKeyRange.bound([long.handle, 0], [long.handle, Infinity]))).toBe(2);
    now += 10 * 365 * 86_400_000;
    expect(await store.sweepExpired()).toEqual([long.handle]);
    expect((await store.queryResult(never.handle)).returned).toBe(100);
  });

  it("renew (#23) moves an unexpired result's expiry later; expired, never-expiring and unknown handles stay as they are", async () => {
    let now = 1_000_000;
    const { store } = await fixture({ now: () => now });
    const a = await stored(store, numbered(10), { result_ttl: 60 });
    const gone = await stored(store, numbered(10), { result_ttl: 10 });
    const never = await stored(store, numbered(10), { result_ttl: 0 });
    now += 30_000;
    expect(await store.renew([a.handle, gone.handle, never.handle, '0123456789ab', a.handle], 120)).toEqual([a.handle]);
    const expiry = async () => Object.fromEntries((await store.list()).map((r) => [r.handle, r.expiresAt]));
    expect(await expiry()).toEqual({ [a.handle]: now + 120_000, [gone.handle]: 1_010_000, [never.handle]: null });
    // A shorter renewal never shortens it.
    expect(await store.renew([a.handle], 10)).toEqual([]);
    now += 119_000; // 149 s after storing with a TTL of 60: still readable
    expect((await store.queryResult(a.handle)).returned).toBe(10);
    expect((await rejection(store.queryResult(gone.handle))).message).toBe(`Result expired: ${gone.handle}`);
    now += 1_001;
    expect((await rejection(store.queryResult(a.handle))).message).toBe(`Result expired: ${a.handle}`);
  });

  it('sweeps expired results on every 10th store', async () => {
    let now = 1_000;
    const { store } = await fixture({ now: () => now });
    const first = await stored(store, 'x', { result_ttl: 1 }); // store #1 sweeps (nothing yet)
    now += 5_000;
    for (let i = 2; i <= SWEEP_EVERY; i++) await stored(store, 'y', { result_ttl: 1000 });
    expect((await store.list()).some((r) => r.handle === first.handle)).toBe(true);
    await stored(store, 'z', { result_ttl: 1000 }); // store #11 sweeps
    expect((await store.list()).some((r) => r.handle === first.handle)).toBe(false);
  });

  it('a result still being written is not visible to queries', async () => {
    const { store, db } = await fixture();
    await db.put('results', {
      handle: 'abcdefabcdef',
      state: 'writing',
      createdAt: 0,
      expiresAt: null,
      totalLines: 0,
      sizeBytes: 0,
      wrappedLines: 0,
      chunkStarts: [],
    });
    expect((await rejection(store.queryResult('abcdefabcdef'))).message).toBe('Result not found: abcdefabcdef');
  });
});

describe('tail, context, progress, next_query through the store', () => {
  it('tail returns the last N lines with no next page', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(2500));
    const page = await store.queryResult(ref.handle, { tail: 3 });
    expect(page.lines).toEqual(['line 2498', 'line 2499', 'line 2500']);
    expect(page.offset).toBe(2498);
    expect(page.has_more).toBe(false);
    expect(page.next_query).toBeNull();
    expect(page.progress).toBe('lines 2498-2500 of 2500 (100%)');
  });

  it('next_query pages through a whole result and ends with null', async () => {
    const { store } = await fixture();
    const ref = await stored(store, numbered(230));
    const seen: string[] = [];
    let page = await store.queryResult(ref.handle, { limit: 100 });
    const progress = [page.progress];
    seen.push(...page.lines);
    while (page.next_query) {
      const m = /offset=(\d+), limit=(\d+)/.exec(page.next_query)!;
      page = await store.queryResult(ref.handle, { offset: Number(m[1]), limit: Number(m[2]) });
      seen.push(...page.lines);
      progress.push(page.progress);
    }
    expect(seen).toEqual(numbered(230).split('\n'));
    expect(progress).toEqual(['lines 1-100 of 230 (43%)', 'lines 101-200 of 230 (86%)', 'lines 201-230 of 230 (100%)']);
  });

  it('context shows lines around each match across a chunk boundary', async () => {
    const { store } = await fixture();
    const text = numbered(CHUNK_LINES + 10, (i) => (i === CHUNK_LINES ? 'NEEDLE here' : `line ${i}`));
    const ref = await stored(store, text);
    const page = await store.queryResult(ref.handle, { search: 'needle', context: 1 });
    expect(page.lines).toEqual([
      `${CHUNK_LINES - 1}-line ${CHUNK_LINES - 1}`,
      `${CHUNK_LINES}:NEEDLE here`,
      `${CHUNK_LINES + 1}-line ${CHUNK_LINES + 1}`,
    ]);
    expect(page.returned).toBe(1);
    expect(page.progress).toBe('matches 1-1 of 1 (100%)');
  });
});

describe('redaction', () => {
  it('stored results never hold a key-shaped secret (default redactor)', async () => {
    const { store, db } = await fixture();
    const ref = await stored(store, `token: sk-proj-ABCDEF123456\n${numbered(10)}`);
    expect(ref.preview[0]).toBe('token: [redacted]');
    const chunks = await db.getAll('resultChunks');
    expect(chunks.some((c) => c.text.includes('sk-proj'))).toBe(false);
  });

  it('uses the configured redactor; a secret spanning lines keeps the line numbering consistent', async () => {
    const db = await openOttoDB(`redact-${Math.random()}`);
    const secret = 'BEGIN\nsecret-body\nEND';
    const store = new ResultStore(db, {
      redact: (t) => t.split(secret).join('[redacted]'),
      chunker: { chunkLines: 4 },
    });
    const ref = await store.store(`a\n${secret}\nb\nc\nd\ne\nf`);
    expect(ref.total_lines).toBe(7);
    const page = await store.queryResult(ref.handle);
    expect(page.lines).toEqual(['a', '[redacted]', 'b', 'c', 'd', 'e', 'f']);
    expect((await store.queryResult(ref.handle, { offset: 5, limit: 2 })).lines).toEqual(['d', 'e']);
    expect((await store.queryResult(ref.handle, { search: '^[ef]$' })).line_numbers).toEqual([6, 7]);
  });
});
