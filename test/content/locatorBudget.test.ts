// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locate, locatorFor } from '../../src/content/locator.ts';
import { setPage } from './helpers.ts';

/** `n` table rows of four elements each (tr, two cells, a button): 12,500 rows are 50,000 elements. */
const table = (n: number): string =>
  `<table><tbody id="t">${Array.from(
    { length: n },
    (_, i) => `<tr><td><button>Open ${i}</button></td><td>Row ${i} holds a sentence about order ${i}.</td></tr>`,
  ).join('')}</tbody></table>`;

describe('the locator before each action on a page past its element budget (#24 the locator before each action)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('gives the CSS path without walking the outline when the page has more than 50,000 elements', async () => {
    // 12,600 rows: 50,400 elements in the table alone.
    setPage(table(12_600));
    const styles = vi.spyOn(window, 'getComputedStyle');
    const target = document.querySelectorAll('button')[3]!;
    expect(await locatorFor(target)).toEqual({ selector: '#t > tr:nth-of-type(4) > td:nth-of-type(1) > button' });
    // The uniqueness walk reads each element's style for its visibility; skipped, it reads none.
    expect(styles).not.toHaveBeenCalled();
    const late = document.querySelectorAll('button')[12_598]!;
    expect(await locatorFor(late)).toEqual({ selector: '#t > tr:nth-last-of-type(2) > td:nth-of-type(1) > button' });
    expect(styles).not.toHaveBeenCalled();
    // The path still names the element it was made for.
    expect(await locate({ selector: '#t > tr:nth-last-of-type(2) > td:nth-of-type(1) > button' })).toBe(late);
  }, 60_000); // building 50,000 elements in happy-dom takes 5-10 s on a loaded machine

  it('still walks, and gives the readable locator, on a page under the element budget', async () => {
    // 10 rows of the same table: the outline fits, so the check finishes and the name is shown to be unique.
    setPage(table(10));
    const styles = vi.spyOn(window, 'getComputedStyle');
    expect(await locatorFor(document.querySelectorAll('button')[3]!)).toEqual({ role: 'button', name: 'Open 3' });
    expect(styles).toHaveBeenCalled();
  });

  it('after a walk that ran out of its budget, skips the next while the page has only grown', async () => {
    // 8,000 rows: 32,000 elements, under the element budget, but far more outline than describing may walk.
    setPage(table(8_000));
    // happy-dom walks slowly: with the clock held, the walk stops at its character budget, never at its deadline.
    vi.useFakeTimers({ toFake: ['performance'] });
    const styles = vi.spyOn(window, 'getComputedStyle');
    expect(await locatorFor(document.querySelectorAll('button')[3]!)).toEqual({
      selector: '#t > tr:nth-of-type(4) > td:nth-of-type(1) > button',
    });
    expect(styles).toHaveBeenCalled();
    styles.mockClear();
    // The page adds a line (as the table's own click handler does): the outline only grew, so no walk.
    document.body.insertAdjacentHTML('beforeend', '<p role="status">Opened order 3</p>');
    expect(await locatorFor(document.querySelectorAll('button')[4]!)).toEqual({
      selector: '#t > tr:nth-of-type(5) > td:nth-of-type(1) > button',
    });
    expect(styles).not.toHaveBeenCalled();
    // What ends the skip (a removal, an attribute, a text edit, a style sheet): test/content/pageGrowth.test.ts.
  }, 90_000); // one whole walk of the budget in happy-dom: 20-40 s on a loaded machine
});
