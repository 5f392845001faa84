// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeepQuery } from '../../src/content/deepQuery.ts';
import { setPage } from './helpers.ts';

/** What the sliced selector walk answers, look by look, and the deadline each look was given. */
const looks: DeepQuery[] = [];
const deadlines: number[] = [];
vi.mock('../../src/content/deepQuery.ts', () => ({
  checkSelector: () => undefined,
  SEARCH_ELEMENTS: 200_000,
  deepQuerySliced: async (_selector: string, opts: { deadline: number }) => {
    deadlines.push(opts.deadline);
    return looks.shift() ?? { found: [], total: 0, complete: true, searched: 1 };
  },
}));
const { waitFor } = await import('../../src/content/actions/wait.ts');

afterEach(() => {
  looks.length = 0;
  deadlines.length = 0;
});

describe('wait_for a selector on a page too big for one look (#24)', () => {
  it('gives its first look the whole wait, so an element that was there is "already present"', async () => {
    setPage('<p id="end">The end</p>');
    looks.push({ found: [document.getElementById('end')!], total: 1, complete: false, searched: 1 });
    const t0 = performance.now();
    const r = await waitFor({ selector: 'p#end', timeoutMs: 20_000 });
    expect(r.summary).toMatch(/^selector "p#end" was already present/);
    // Before, the first look stopped after 2 s and a later look said "appeared after 4390 ms".
    expect(deadlines[0]).toBeGreaterThanOrEqual(t0 + 19_000);
  });

  it('does not call a look cut short before the end of the page an absence', async () => {
    setPage('<p id="end">The end</p>');
    looks.push(
      { found: [], total: 0, complete: false, searched: 1 },
      { found: [], total: 0, complete: true, searched: 1 },
    );
    const r = await waitFor({ selector: 'p#end', state: 'disappear', timeoutMs: 2_000 });
    expect(r.summary).toMatch(/^selector "p#end" disappeared after \d+ ms$/);
    expect(r.already).toBeUndefined();
  });
});
