// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { findTextSliced } from '../../src/content/textSearch.ts';
import { setPage } from './helpers.ts';

describe('text found in slices', () => {
  it('returns the first visible element holding the text, in page order, shadow roots included', async () => {
    setPage(
      '<p id="h" style="display:none">Order 7 shipped</p><x-card id="host"></x-card><p id="v">Order 7 shipped</p>',
    );
    const root = document.getElementById('host')!.attachShadow({ mode: 'open' });
    root.innerHTML = '<span id="s">Order 7 shipped, says the card</span>';
    const r = await findTextSliced('Order 7 shipped');
    expect(r).toEqual({ el: root.getElementById('s'), complete: true });
    expect(await findTextSliced('Order 8')).toEqual({ complete: true });
  });

  it('says when the time limit stopped it before the end', async () => {
    const rows: string[] = [];
    for (let i = 0; i < 200; i++) rows.push(`<p>row ${i}</p>`);
    setPage(rows.join(''));
    expect(await findTextSliced('row 199', document, performance.now() - 1)).toEqual({ complete: false });
  });
});
