// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { setPage } from './helpers.ts';

/** A budget of 20 elements stands in for SEARCH_ELEMENTS (200,000): the same walk, on a page a test can build. */
vi.mock('../../src/content/deepQuery.ts', async (original) => ({
  ...(await original<typeof import('../../src/content/deepQuery.ts')>()),
  SEARCH_ELEMENTS: 20,
}));
const { deepQuerySliced, idKeyed } = await import('../../src/content/deepQuery.ts');
const { query } = await import('../../src/content/find.ts');
const { selectorToRef } = await import('../../src/content/targets.ts');
const { waitFor } = await import('../../src/content/actions/wait.ts');

/** `n` checkboxes named Pick 1..n, then the page's last element, `<p id="end">`. */
const rows = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<input type="checkbox" aria-label="Pick ${i + 1}">`).join('') +
  '<p id="end">End of orders</p>';

describe('a selector with fewer matches than its limit on a page past the search budget (#24 few-match walks)', () => {
  it('dom.query stops after the budget, says how far it searched and where, and does not call it the whole page', async () => {
    setPage(rows(30));
    const r = await query('tr.nothing', 50);
    expect(r).toEqual({
      matches: [],
      total: 0,
      partial: true,
      searched: 20,
      searchedUpTo: 'checkbox "Pick 17"',
    });
    // One match in the part searched: a lower bound, with the same note.
    const one = await query('input[aria-label="Pick 3"]', 50);
    expect(one).toMatchObject({ total: 1, partial: true, searched: 20, searchedUpTo: 'checkbox "Pick 17"' });
  });

  it('is exact, with no note, when the page ends within the budget', async () => {
    // html, head, body, 10 inputs and the p: 14 elements, within the 20.
    setPage(rows(10));
    const r = await query('tr.nothing', 50);
    expect(r).toEqual({ matches: [], total: 0 });
    const end = await query('p#end', 50);
    expect(end.total).toBe(1);
    expect(end.partial).toBeUndefined();
  });

  it('matches a selector keyed by an id past the budget natively, in the main document only', async () => {
    setPage(rows(30));
    const r = await query('p#end', 50);
    expect(r.matches.map((m) => m.line.replace(/ref=\w+/, 'ref=…'))).toEqual([
      'paragraph "End of orders" [ref=…] <p#end>',
    ]);
    expect(r).toMatchObject({ total: 1, partial: true, byId: true, searched: 20, searchedUpTo: 'checkbox "Pick 17"' });
    // A match inside a shadow root past the stop is not found that way, and the reply keeps saying so.
    setPage(rows(30) + '<div id="host"></div>');
    const root = document.getElementById('host')!.attachShadow({ mode: 'open' });
    root.innerHTML = '<b id="deep">Deep</b>';
    const deep = await query('b#deep', 50);
    expect(deep).toMatchObject({ total: 0, partial: true, byId: true });
  });

  it("keys on an id only in the selector's last part, and never with lists, attributes or functions", () => {
    expect(['p#end', '#end', 'main > #save.primary', 'table #x']).toEqual(
      ['p#end', '#end', 'main > #save.primary', 'table #x'].filter(idKeyed),
    );
    for (const s of ['#grid tr.nothing', 'p#end, p', 'p#end[hidden]', ':not(#end)', 'button[data-row="5"]'])
      expect(idKeyed(s), s).toBe(false);
  });

  it('the budget counts only while looking: once `limit` matches are held, the count budget rules', async () => {
    setPage(rows(30));
    const r = await deepQuerySliced('input', { limit: 5, searchBudget: 10, countAfter: 100 });
    expect(r).toMatchObject({ total: 30, complete: true });
  });

  it('a selector target past the budget fails with where the search stopped, not "no element matches"', async () => {
    setPage(rows(30));
    // The element's name is the page's words: inside an inline boundary (docs/decisions.md).
    await expect(selectorToRef('input[aria-label="Pick 25"]', performance.now() + 5000)).rejects.toThrow(
      /^No element matching selector "input\[aria-label=\\"Pick 25\\"\]" in the first 20 elements of this big page \(up to <(external-content-[0-9a-f]{8})>checkbox "Pick 17" <input><\/\1>\); the rest of the page was NOT searched\. A selector whose last part has an #id is looked up in the whole page; or scroll to the element, take dom\.snapshot and act by ref\.$/,
    );
    // Keyed by id, the last element is reached.
    expect(await selectorToRef('p#end', performance.now() + 5000)).toMatch(/^[a-df-z]{2}e\d+$/);
  });

  it('wait_for a selector past the budget times out saying its looks did not see the rest of the page', async () => {
    setPage(rows(30));
    await expect(waitFor({ selector: 'tr.nothing', timeoutMs: 300 })).rejects.toThrow(
      /^Timed out after 300 ms waiting for selector "tr\.nothing" to appear\. This page is too big to look through whole: each look searched the first 20 elements \(up to <(external-content-[0-9a-f]{8})>checkbox "Pick 17" <input><\/\1>\) and not the rest of it, so it may be there unseen\. Give the wait a root \(a ref or selector of the part to watch\), or use a selector whose last part has an #id\.$/,
    );
    // "disappear" does not read a look that stopped at the budget as absence.
    await expect(waitFor({ selector: 'tr.nothing', state: 'disappear', timeoutMs: 300 })).rejects.toThrow(
      /^Timed out after 300 ms waiting for selector "tr.nothing" to disappear\. This page is too big to look through whole/,
    );
    const at = await waitFor({ selector: 'p#end', timeoutMs: 300 });
    expect(at.summary).toMatch(/^selector "p#end" was already present — matched paragraph "End of orders"/);
    // An id selector absent from the main document: gone, and the summary says which part was not searched.
    const gone = await waitFor({ selector: 'p#nothing', state: 'disappear', timeoutMs: 300 });
    expect(gone.summary).toBe(
      'selector "p#nothing" was already absent from the main document (looked up by id; shadow roots past the first 20 elements, up to checkbox "Pick 17" <input>, were not searched)',
    );
  });
});
