/** docs/specs/004-tool-sdk.md "Batch Execution" and "Item Normalization". */
import { describe, expect, it } from 'vitest';
import { batchExecute, batchMap, normalizeItems } from '../../src/sdk/index.ts';
import { sleep } from '../../src/shared/sleep.ts';

/** A processor that tracks how many calls run at once. */
function tracker(delay: (v: string) => number = () => 10) {
  const state = { running: 0, peak: 0, started: [] as string[] };
  const fn = async (value: string) => {
    state.started.push(value);
    state.running++;
    state.peak = Math.max(state.peak, state.running);
    await sleep(delay(value));
    state.running--;
    return `processed ${value}`;
  };
  return { state, fn };
}

describe('Requirement: Batch Execution', () => {
  it('Scenario: Execute batch with default formatting — concurrent, sections with separators', async () => {
    const { state, fn } = tracker();
    const out = await batchExecute(['a', 'b', 'c'], fn);
    expect(out).toBe('=== a ===\nprocessed a\n\n=== b ===\nprocessed b\n\n=== c ===\nprocessed c');
    expect(state.peak).toBe(3); // all three at once (default min(items, 10))
  });

  it('Scenario: Execute batch with labels — labels in the output, original order kept', async () => {
    // url1 finishes last: order must still be the items' order.
    const { fn } = tracker((v) => (v === 'url1' ? 40 : 5));
    const out = await batchExecute(
      [
        ['url1', 'Site A'],
        ['url2', 'Site B'],
      ],
      fn,
    );
    expect(out).toBe('=== Site A ===\nprocessed url1\n\n=== Site B ===\nprocessed url2');
  });

  it('Scenario: Control concurrency — maxWorkers: 3 never runs more than 3 at once', async () => {
    const { state, fn } = tracker((v) => 5 + (Number(v) % 4) * 3);
    const items = Array.from({ length: 12 }, (_, i) => String(i));
    const results = await batchMap(items, fn, { maxWorkers: 3 });
    expect(state.peak).toBe(3);
    expect(results.map((r) => r.label)).toEqual(items);
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('defaults to min(items, 10) workers', async () => {
    const { state, fn } = tracker();
    await batchMap(
      Array.from({ length: 25 }, (_, i) => `i${i}`),
      fn,
    );
    expect(state.peak).toBe(10);
  });

  it('a failing item shows its error in its section; the others still run', async () => {
    const out = await batchExecute(['ok', 'bad', 'fine'], async (v) => {
      if (v === 'bad') throw new Error('no such page');
      return v.toUpperCase();
    });
    expect(out).toBe('=== ok ===\nOK\n\n=== bad ===\nError: no such page\n\n=== fine ===\nFINE');
  });

  it('non-string results are formatted as flow YAML; a custom formatter and separator apply', async () => {
    expect(await batchExecute(['x'], () => ({ n: 1, m: 'two' }))).toBe('=== x ===\n{n: 1, m: two}');
    expect(await batchExecute(['x'], () => 3, { separator: '##', format: (r, label) => `${label}=${String(r)}` })).toBe(
      '## x ##\nx=3',
    );
  });

  it('an empty list is an empty string; a bad maxWorkers is a RangeError', async () => {
    expect(await batchExecute([], () => 'x')).toBe('');
    await expect(batchExecute(['a'], () => 'x', { maxWorkers: 0 })).rejects.toThrow(RangeError);
    await expect(batchExecute(['a'], () => 'x', { maxWorkers: 1.5 })).rejects.toThrow(RangeError);
  });

  it('an aborted signal stops new items and rejects with the reason', async () => {
    const abort = new AbortController();
    const started: string[] = [];
    const run = batchExecute(
      ['a', 'b', 'c', 'd'],
      async (v) => {
        started.push(v);
        if (v === 'a') abort.abort(new Error('stopped by user'));
        await sleep(5);
        return v;
      },
      { maxWorkers: 1, signal: abort.signal },
    );
    await expect(run).rejects.toThrow('stopped by user');
    expect(started).toEqual(['a']);
  });

  it('many concurrent batches do not interfere', async () => {
    const outs = await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        batchExecute([`${k}a`, `${k}b`], async (v) => (await sleep(Math.random() * 5), v), { maxWorkers: 2 }),
      ),
    );
    outs.forEach((o, k) => expect(o).toBe(`=== ${k}a ===\n${k}a\n\n=== ${k}b ===\n${k}b`));
  });
});

describe('Requirement: Item Normalization', () => {
  it('Scenario: Normalize strings — ["a", "b"] → [["a","a"], ["b","b"]]', () => {
    expect(normalizeItems(['a', 'b'])).toEqual([
      ['a', 'a'],
      ['b', 'b'],
    ]);
  });

  it('Scenario: Preserve tuples — labelled pairs are kept', () => {
    expect(
      normalizeItems([
        ['a', 'Label A'],
        ['b', 'Label B'],
      ]),
    ).toEqual([
      ['a', 'Label A'],
      ['b', 'Label B'],
    ]);
  });

  it('mixed lists, and other values labelled by their text', () => {
    expect(normalizeItems(['a', ['b', 'Custom B']])).toEqual([
      ['a', 'a'],
      ['b', 'Custom B'],
    ]);
    expect(normalizeItems<number>([1, [2, 'two']])).toEqual([
      [1, '1'],
      [2, 'two'],
    ]);
  });
});
