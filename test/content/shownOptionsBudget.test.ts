// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { setPage } from './helpers.ts';

/** A budget of 20 elements stands in for SEARCH_ELEMENTS (200,000): the same walk, on a page a test can build. */
vi.mock('../../src/content/deepQuery.ts', async (original) => ({
  ...(await original<typeof import('../../src/content/deepQuery.ts')>()),
  SEARCH_ELEMENTS: 20,
}));
const { selectOptions } = await import('../../src/content/actions/forms.ts');
const { watchShownOptions } = await import('../../src/content/actions/shownOptions.ts');

/** `n` checkboxes named Pick 1..n: elements that are not options. */
const rows = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<input type="checkbox" aria-label="Pick ${i + 1}">`).join('');

describe("a combobox's options shown elsewhere, on a page past the search budget (#24 the locator before each action)", () => {
  it('looks for them anywhere only as far as the budget, and says where it stopped', async () => {
    setPage(`<div id="status" role="combobox" tabindex="0">Any</div>${rows(30)}<ul><li role="option">Closed</li></ul>`);
    await expect(selectOptions(document.getElementById('status')!, ['Closed'])).rejects.toThrow(
      // The page's words (the combobox, the element where the search stopped) each in their own boundary.
      /^<(external-content-[0-9a-f]{8})>combobox "Any" <div#status><\/\1> \(combobox\) shows no options to select in the first 20 elements of this big page \(up to <(external-content-[0-9a-f]{8})>checkbox "Pick 16" <input><\/\2>\); the rest of the page was NOT searched, so they may be there: take dom\.snapshot and click one by ref\. If it is a text combobox, type into it with dom\.type and pick from what appears\.$/,
    );
  });

  it('finds them when the page ends within the budget, with no note', async () => {
    setPage(`<div id="status" role="combobox" tabindex="0">Any</div>${rows(5)}<ul><li role="option">Closed</li></ul>`);
    const r = await selectOptions(document.getElementById('status')!, ['Closed']);
    expect(r.summary).toBe('clicked option "Closed"');
  });

  it('searches what a click changed only up to the budget in all', async () => {
    setPage('<div id="status" role="combobox" tabindex="0">Any</div>');
    const watch = watchShownOptions();
    // The click adds a block of 30 elements with the options at its end: past the budget.
    document.body.insertAdjacentHTML('beforeend', `<div>${rows(30)}<li role="option">Closed</li></div>`);
    expect(await watch.check(performance.now() + 5_000)).toEqual([]);
    watch.stop();
    // Within the budget, the same options are found.
    setPage('<div id="status" role="combobox" tabindex="0">Any</div>');
    const again = watchShownOptions();
    document.body.insertAdjacentHTML('beforeend', `<div>${rows(5)}<li role="option">Closed</li></div>`);
    expect((await again.check(performance.now() + 5_000)).map((o) => o.textContent)).toEqual(['Closed']);
    again.stop();
  });
});
