// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { buildSnapshot, buildSnapshotSliced } from '../../src/content/contentSnapshot.ts';
import { findSliced } from '../../src/content/find.ts';
import { visibleTextSliced } from '../../src/content/text.ts';
import { runSliced, Slicer, Superseded } from '../../src/content/slices.ts';
import { renderOutline } from '../../src/shared/outline.ts';
import { truncateOutline } from '../../src/shared/outlineBudget.ts';
import { setPage } from './helpers.ts';

function table(rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, i) =>
      `<tr><td><a href="#o${i + 1}">Order ${i + 1}</a></td><td><button>Open ${i + 1}</button></td><td><input type="checkbox" aria-label="Pick ${i + 1}"></td><td><input aria-label="Note ${i + 1}"></td><td>Row ${i + 1} holds a sentence.</td></tr>`,
  ).join('');
  return `<h1>Orders</h1><table><tbody>${body}</tbody></table>`;
}

describe('budget-bounded snapshot', () => {
  it('stops per-element work once the budget is full and says how much was left out and where it starts', () => {
    setPage(table(400));
    const s = buildSnapshot({ maxChars: 3000 });
    expect(s.stopped).toBe('budget');
    // Gathered: about twice the budget at most (text lines may still be dropped by the worker's truncation).
    expect(s.text.length).toBeLessThan(2 * 3000 + 400);
    expect(s.text).toContain('link "Order 1"');
    expect(s.text).not.toContain('Order 400');
    expect(s.notes).toHaveLength(1);
    expect(s.notes[0]).toMatch(
      /^The walk stopped because the 3,000-character budget was full: it covered about \d+% of this frame's elements; about [\d,]+ elements \(roughly [\d,]+ interactive, estimated\) were not walked, starting at /,
    );
    expect(s.notes[0]).toContain('Search them with dom.find');
    // The estimate is in the right range: 400 rows of ~10 elements, most not walked.
    const left = Number(/about ([\d,]+) elements \(/.exec(s.notes[0]!)![1]!.replace(/,/g, ''));
    expect(left).toBeGreaterThan(2500);
    expect(left).toBeLessThan(6000);
  });

  it('without a budget walks everything (the reference path) and has no notes', () => {
    setPage(table(50));
    const s = buildSnapshot();
    expect(s.stopped).toBeUndefined();
    expect(s.notes).toEqual([]);
    expect(s.text).toContain('link "Order 50"');
  });

  it('the sliced walk gives the same outline as the one-go walk', async () => {
    setPage(table(60));
    const one = buildSnapshot({ commit: false }).text;
    const sliced = (await buildSnapshotSliced({ commit: false })).text;
    expect(sliced).toBe(one);
  });

  it('past its deadline a walk returns what it has, with a note', async () => {
    setPage(table(200));
    const s = await buildSnapshotSliced({ deadline: performance.now() - 1, commit: false });
    expect(s.stopped).toBe('time');
    expect(s.notes[0]).toMatch(/^The walk stopped because it ran out of time after/);
    const f = await findSliced({ text: 'Order 150', deadline: performance.now() - 1 });
    expect(f.note).toMatch(/^Searched part of the page only/);
    const t = await visibleTextSliced(document.body, 100_000, performance.now() - 1);
    expect(t.truncated).toBe(true);
    expect(t.note).toMatch(/^the read stopped after/);
  });

  it('a newer walk in the same lane abandons the older one', async () => {
    function* slow(slicer: Slicer): Generator<void, string, void> {
      for (let i = 0; i < 50; i++) {
        slicer.due();
        yield; // one step per slice
      }
      return 'done';
    }
    const a = new Slicer();
    const b = new Slicer();
    const first = runSliced(slow(a), a, { lane: 'test', what: 'snapshot', sliceMs: 0 });
    const second = runSliced(slow(b), b, { lane: 'test', what: 'snapshot', sliceMs: 0 });
    await expect(first).rejects.toBeInstanceOf(Superseded);
    await expect(first).rejects.toThrow('This snapshot was superseded by a newer one and abandoned.');
    await expect(second).resolves.toBe('done');
  });

  it('truncation keeps room for the notes the caller appends', () => {
    const tree = Array.from({ length: 200 }, (_, i) => ({
      kind: 'element' as const,
      role: 'button',
      name: `B${i}`,
      ref: `e${i}`,
      children: [],
    }));
    const t = truncateOutline(renderOutline(tree), 2000, 300);
    expect(t.text.length).toBeLessThanOrEqual(2000 - 300);
    expect(t.note).toMatch(/^\[outline truncated to 2000 chars/);
  });
});

describe('a search bounded by what it shows (#24)', () => {
  it('stops soon after `limit` matches, says where, and its total is the part searched', async () => {
    setPage(table(120));
    const r = await findSliced({ role: 'button', name: 'open', limit: 5, lookahead: 5000 });
    expect(r.matches.map((m) => m.line.replace(/ \[ref=.*/, ''))).toEqual([
      'button "Open 1"',
      'button "Open 2"',
      'button "Open 3"',
      'button "Open 4"',
      'button "Open 5"',
    ]);
    // The look-ahead (5,000 characters of outline here, ~25 rows) counted more, but far from all 120.
    expect(r.total).toBeGreaterThan(15);
    expect(r.total).toBeLessThan(60);
    expect(r.note).toMatch(
      /^Stopped soon after the first 5 matches, at (row|cell) "[^"]+", so more matches may follow \(the total counts the part searched\)\. Raise limit \(up to 200\) to see more, or narrow the search\.$/,
    );
  });

  it('a match told twice (a list item folds into its one button) is counted once: `limit` matches are shown', async () => {
    setPage(`<ul>${Array.from({ length: 30 }, (_, i) => `<li><button>Item ${i + 1}</button></li>`).join('')}</ul>`);
    const r = await findSliced({ role: 'button', name: 'item', limit: 5, lookahead: 1 });
    expect(r.matches.map((m) => m.line.replace(/ \[ref=.*/, ''))).toEqual([
      'button "Item 1"',
      'button "Item 2"',
      'button "Item 3"',
      'button "Item 4"',
      'button "Item 5"',
    ]);
    expect(r.note).toMatch(/^Stopped soon after the first 5 matches, at /);
  });

  it('a page the look-ahead covers is searched whole: exact total, no note', async () => {
    setPage(table(20));
    const r = await findSliced({ role: 'button', name: 'open', limit: 5, lookahead: 5000 });
    expect(r.matches).toHaveLength(5);
    expect(r.total).toBe(20);
    expect(r.note).toBeUndefined();
  });

  it('hidden text is counted only in the part searched (its walk stops where the outline stopped)', async () => {
    setPage(`${table(120)}<div style="display:none"><p>Open sesame</p></div>`);
    const early = await findSliced({ text: 'open', limit: 5, lookahead: 5000 });
    expect(early.note).toMatch(/^Stopped soon after the first 5 matches/);
    expect(early.hidden).toBeUndefined();
    const whole = await findSliced({ text: 'open sesame' });
    expect(whole.note).toBeUndefined();
    expect(whole.hidden?.count).toBe(1);
  });

  it('a search that finds little walks its budget and says how to look past it', async () => {
    setPage(table(300));
    const r = await findSliced({ text: 'no such words', maxChars: 5000 });
    expect(r.total).toBe(0);
    expect(r.note).toMatch(/^Searched part of the page only, so more matches may exist/);
    expect(r.note).toMatch(
      /To search past it, snapshot that part with dom\.snapshot\(root=<ref or CSS selector>\), or match it by CSS with dom\.query\.$/,
    );
  });
});
