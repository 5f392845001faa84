// The pure ot.result logic (src/results/query.ts) over in-memory lines: validation, search, fuzzy bounds, tail,
// context, progress and next_query.
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../src/command/index.ts';
import {
  arraySource,
  fuzzySearch,
  MAX_LIMIT,
  normalizeQuery,
  progressText,
  quoteArg,
  resultCall,
  ResultQueryError,
  runQuery,
  type QueryParams,
} from '../../src/results/query.ts';

const numbered = (n: number, f = (i: number) => `line ${i}`): string[] => Array.from({ length: n }, (_, i) => f(i + 1));

function errorOf(fn: () => unknown): ResultQueryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ResultQueryError);
    return e as ResultQueryError;
  }
  throw new Error('expected a ResultQueryError');
}

async function asyncErrorOf(p: Promise<unknown>): Promise<ResultQueryError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ResultQueryError);
  return e as ResultQueryError;
}

/** Runs an `ot.result(...)` call through the command language and returns the arguments it decodes to. */
async function decodeCall(call: string): Promise<Record<string, unknown>> {
  let seen: Record<string, unknown> | undefined;
  await runProgram(call, {
    call: (name, args) => {
      expect(name).toBe('ot.result');
      seen = args;
      return Promise.resolve(null);
    },
  });
  return seen!;
}

describe('validation', () => {
  it('defaults: offset 1, limit 100, no search', () => {
    expect(normalizeQuery({})).toMatchObject({
      offset: 1,
      limit: 100,
      search: '',
      fuzzy: false,
      context: 0,
      tail: undefined,
    });
  });

  it.each<[QueryParams, string]>([
    [{ offset: 0 }, 'offset must be >= 1 (1-indexed), got 0'],
    [{ offset: -5 }, 'offset must be >= 1 (1-indexed), got -5'],
    [{ limit: 0 }, 'limit must be >= 1, got 0'],
    [{ offset: 0, limit: 0 }, 'offset must be >= 1 (1-indexed), got 0'],
    [{ offset: 1.5 }, 'offset must be an integer, got 1.5'],
    [{ tail: 0 }, 'tail must be >= 1, got 0'],
    [{ context: -1, search: 'x' }, 'context must be >= 0, got -1'],
    [{ context: 2 }, 'context needs a search pattern (it shows lines around each match)'],
    [{ search: '[a-' }, 'Invalid search pattern: Unterminated character class'],
    [{ search: 'a{2,1}' }, 'Invalid search pattern: numbers out of order in {} quantifier'],
  ])('%j → %s', (params, message) => {
    expect(errorOf(() => normalizeQuery(params)).message).toBe(message);
  });

  it('does not compile the pattern as a regex when fuzzy', () => {
    expect(normalizeQuery({ search: '(', fuzzy: true }).regex).toBeUndefined();
  });

  it(`clamps limit to ${MAX_LIMIT} and says so in the reply`, async () => {
    const page = await runQuery('h', arraySource(numbered(5000)), { limit: 1_000_000 });
    expect(page.limit).toBe(MAX_LIMIT);
    expect(page.returned).toBe(MAX_LIMIT);
    expect(page.next_query).toBe(`ot.result(handle='h', offset=${MAX_LIMIT + 1}, limit=${MAX_LIMIT})`);
  });
});

describe('paging', () => {
  it('has_more is true exactly when lines remain after the page', async () => {
    const src = arraySource(numbered(200));
    expect((await runQuery('h', src, { offset: 101, limit: 99 })).has_more).toBe(true);
    expect((await runQuery('h', src, { offset: 101, limit: 100 })).has_more).toBe(false);
    expect((await runQuery('h', src, { offset: 200, limit: 1 })).has_more).toBe(false);
  });

  it('an empty search result reports no lines', async () => {
    const page = await runQuery('h', arraySource(numbered(10)), { search: 'nothing' });
    expect(page).toMatchObject({
      total_lines: 10,
      matches: 0,
      returned: 0,
      has_more: false,
      next_query: null,
      progress: 'no lines',
    });
    expect(page.lines).toEqual([]);
  });
});

describe('regex search', () => {
  it('is case-insensitive and a real regex', async () => {
    const src = arraySource(['Error: a', 'warning', 'ERROR b', 'err', 'no error here', 'e.r.r']);
    const page = await runQuery('h', src, { search: '^error' });
    expect(page.lines).toEqual(['Error: a', 'ERROR b']);
    expect(page.line_numbers).toEqual([1, 3]);
  });

  it('applies offset/limit to the matching lines: matches is their count, total_lines the stored lines (spec)', async () => {
    const src = arraySource(numbered(1000, (i) => (i % 10 === 0 ? `hit ${i}` : `miss ${i}`)));
    const page = await runQuery('h', src, { search: 'hit', offset: 95, limit: 10 });
    expect(page.matches).toBe(100);
    expect(page.total_lines).toBe(1000);
    expect(page.lines).toEqual(['hit 950', 'hit 960', 'hit 970', 'hit 980', 'hit 990', 'hit 1000']);
    expect(page.returned).toBe(6);
    expect(page.has_more).toBe(false);
    expect(page.progress).toBe('lines 95-100 of 100 (100%)');
  });

  it('tail with a search returns the last N matches', async () => {
    const src = arraySource(
      numbered(1000, (i) => (i % 10 === 0 ? `hit ${i}` : `miss ${i}`)),
      7,
    );
    const page = await runQuery('h', src, { search: 'hit', tail: 3 });
    expect(page.lines).toEqual(['hit 980', 'hit 990', 'hit 1000']);
    expect(page.line_numbers).toEqual([980, 990, 1000]);
    expect(page.offset).toBe(98);
    expect(page.next_query).toBeNull();
  });

  it('tail larger than the matches returns them all', async () => {
    const page = await runQuery('h', arraySource(['a', 'hit', 'b', 'hit']), { search: 'hit', tail: 10 });
    expect(page.line_numbers).toEqual([2, 4]);
    expect(page.offset).toBe(1);
  });
});

describe('tail', () => {
  it('returns the last N lines, overriding offset/limit', async () => {
    const page = await runQuery('h', arraySource(numbered(50)), { tail: 5, offset: 3, limit: 1 });
    expect(page.lines).toEqual(numbered(50).slice(45));
    expect(page.offset).toBe(46);
    expect(page.tail).toBe(5);
    expect(page.has_more).toBe(false);
    expect(page.progress).toBe('lines 46-50 of 50 (100%)');
  });

  it('tail beyond the length returns everything', async () => {
    const page = await runQuery('h', arraySource(numbered(3)), { tail: 100 });
    expect(page.lines).toEqual(numbered(3));
    expect(page.offset).toBe(1);
  });
});

describe('context', () => {
  const src = arraySource(
    numbered(30, (i) => (i === 5 || i === 7 || i === 20 ? `match ${i}` : `l${i}`)),
    4,
  );

  it('marks matches with ":" and context with "-", merges touching groups, separates others with "--"', async () => {
    const page = await runQuery('h', src, { search: 'match', context: 1 });
    expect(page.lines).toEqual([
      '4-l4',
      '5:match 5',
      '6-l6',
      '7:match 7',
      '8-l8',
      '--',
      '19-l19',
      '20:match 20',
      '21-l21',
    ]);
    expect(page.returned).toBe(3);
    expect(page.matches).toBe(3);
    expect(page.line_numbers).toBeUndefined();
    expect(page.progress).toBe('matches 1-3 of 3 (100%)');
  });

  it('pages over matches, keeping context in the next query (a matching context line is still marked ":")', async () => {
    const page = await runQuery('h', src, { search: 'match', context: 2, limit: 1, offset: 2 });
    expect(page.lines).toEqual(['5:match 5', '6-l6', '7:match 7', '8-l8', '9-l9']);
    expect(page.next_query).toBe("ot.result(handle='h', offset=3, limit=1, search='match', context=2)");
  });

  it('clips context at the start and end of the result', async () => {
    const page = await runQuery('h', arraySource(['match a', 'b', 'match c']), { search: 'match', context: 5 });
    expect(page.lines).toEqual(['1:match a', '2-b', '3:match c']);
  });
});

describe('fuzzy', () => {
  it('keeps lines above the threshold, best first', async () => {
    const lines = ['zebra crossing', 'configuration loaded', 'cnfig', 'config', 'qqqq', 'the conifg file'];
    const page = await runQuery('h', arraySource(lines), { search: 'config', fuzzy: true });
    expect(page.lines[0]).toBe('config');
    expect(page.lines).not.toContain('zebra crossing');
    expect(page.lines).not.toContain('qqqq');
    const scores = page.scores!;
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(page.line_numbers![0]).toBe(4);
    expect(page.fuzzy_scanned_lines).toBe(6);
    expect(page.truncated).toBeUndefined();
  });

  it('orders equal scores by line number and pages over the sorted matches', async () => {
    const lines = numbered(20, (i) => (i % 2 ? `config ${i % 10}` : 'nothing alike'));
    const first = await runQuery('h', arraySource(lines), { search: 'config', fuzzy: true, limit: 3 });
    const second = await runQuery('h', arraySource(lines), { search: 'config', fuzzy: true, limit: 3, offset: 4 });
    expect(first.line_numbers).toEqual([1, 3, 5]);
    expect(second.line_numbers).toEqual([7, 9, 11]);
    expect(first.next_query).toBe("ot.result(handle='h', offset=4, limit=3, search='config', fuzzy=True)");
  });

  it('stops at the line bound and says so', async () => {
    const lines = numbered(10_000, (i) => `config ${i}`);
    const out = await fuzzySearch(arraySource(lines, 333), 'config', { maxLines: 2500, batch: 1000 });
    expect(out.scanned).toBe(2500);
    expect(out.truncated).toBe(true);
    expect(out.hits).toHaveLength(2500);
  });

  it('stops at the time budget (checked between batches) and says so in the reply', async () => {
    let t = 0;
    const clock = (): number => (t += 400); // each read of the clock: +400 ms; the start is read once
    // After batch 1: 400 ms elapsed, batch 2: 800 ms, batch 3: 1200 ms ≥ 1000 → stop with 3000 lines scanned.
    const lines = numbered(10_000, (i) => `config ${i}`);
    const page = await runQuery(
      'h',
      arraySource(lines),
      { search: 'config', fuzzy: true },
      { fuzzy: { budgetMs: 1000, batch: 1000, clock } },
    );
    expect(page.truncated).toBe(true);
    expect(page.fuzzy_scanned_lines).toBe(3000);
    expect(page.matches).toBe(3000);
    expect(page.total_lines).toBe(10000);
    expect(page.note).toMatch(/^fuzzy search stopped after 3000 of 10000 lines/);
  });

  it('scans everything when within bounds', async () => {
    const out = await fuzzySearch(arraySource(numbered(3000), 100), 'line', { batch: 1000 });
    expect(out).toMatchObject({ scanned: 3000, truncated: false });
  });
});

describe('progress and next_query', () => {
  it('progress: "lines A-B of N (P%)", rounded down so 100% means the end', () => {
    expect(progressText(1, 100, 1000)).toBe('lines 1-100 of 1000 (10%)');
    expect(progressText(1, 999, 1000)).toBe('lines 1-999 of 1000 (99%)');
    expect(progressText(1, 1000, 1000)).toBe('lines 1-1000 of 1000 (100%)');
    expect(progressText(5, 0, 3)).toBe('no lines at offset 5: 3 in total');
  });

  it('quotes arguments as single-quoted literals the command language reads back', async () => {
    const nasty = 'it\'s a \\d+ "test"\nnew\tline \u0001';
    const call = resultCall('abc123abc123', { offset: 51, limit: 50, search: nasty, fuzzy: true, context: 2 });
    expect(call.startsWith("ot.result(handle='abc123abc123', offset=51, limit=50, search='it\\'s a \\\\d+")).toBe(true);
    expect(await decodeCall(call)).toEqual({
      handle: 'abc123abc123',
      offset: 51,
      limit: 50,
      search: nasty,
      fuzzy: true,
      context: 2,
    });
    expect(quoteArg('é😀')).toBe("'é😀'");
  });

  it('next_query of the reference query runs as written', async () => {
    expect(await decodeCall(resultCall('0123456789ab', { offset: 1, limit: 50 }))).toEqual({
      handle: '0123456789ab',
      offset: 1,
      limit: 50,
    });
  });
});

describe('errors through runQuery', () => {
  it('validates before reading', async () => {
    let reads = 0;
    const src = { ...arraySource(['a']), read: () => (reads++, Promise.resolve([])) };
    expect((await asyncErrorOf(runQuery('h', src, { limit: 0 }))).message).toBe('limit must be >= 1, got 0');
    expect(reads).toBe(0);
  });
});

describe('page character budget', () => {
  const wide = numbered(50, (i) => `${i} ${'w'.repeat(98)}`); // ~101 characters each

  it('cuts a page at the budget, and next_query continues after the last line returned', async () => {
    const page = await runQuery('h', arraySource(wide), { limit: 50 }, { maxChars: 1000 });
    expect(page.returned).toBe(9);
    expect(page.has_more).toBe(true);
    expect(page.next_query).toBe("ot.result(handle='h', offset=10, limit=50)");
    expect(page.note).toMatch(/^page cut to about 1000 characters/);
  });

  it('tail keeps the last lines that fit', async () => {
    const page = await runQuery('h', arraySource(wide), { tail: 50 }, { maxChars: 1000 });
    expect(page.returned).toBe(9);
    expect(page.lines.at(-1)).toBe(wide[49]);
    expect(page.offset).toBe(42);
    expect(page.progress).toBe('lines 42-50 of 50 (100%)');
  });

  it('search results are cut the same way', async () => {
    const page = await runQuery('h', arraySource(wide), { search: 'w+' }, { maxChars: 500 });
    expect(page.line_numbers).toEqual([1, 2, 3, 4]);
    expect(page.next_query).toBe("ot.result(handle='h', offset=5, limit=100, search='w+')");
  });

  it('context groups are cut to whole matches', async () => {
    const page = await runQuery('h', arraySource(wide), { search: '^\\d*5 ', context: 1 }, { maxChars: 1000 });
    expect(page.returned).toBeGreaterThanOrEqual(1);
    expect(page.returned).toBeLessThan(5);
    expect(page.lines.reduce((n, l) => n + l.length + 1, 0)).toBeLessThanOrEqual(1000);
    expect(page.has_more).toBe(true);
  });

  it('always returns at least one line, however long', async () => {
    const page = await runQuery('h', arraySource(['x'.repeat(5000), 'y']), {}, { maxChars: 100 });
    expect(page.lines).toEqual(['x'.repeat(5000)]);
    expect(page.next_query).toBe("ot.result(handle='h', offset=2, limit=100)");
  });
});
