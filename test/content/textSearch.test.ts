// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { findTextSliced } from '../../src/content/textSearch.ts';
import { isElementVisible } from '../../src/content/visibility.ts';
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

  it('finds what visiting every text node finds: the same element, in the same order (#24: leaves are read whole)', async () => {
    /** Every text node in page order (a host's shadow content right after it), as the walk did before. */
    const reference = (text: string, scope: Node = document): Element | undefined => {
      const walkers = [document.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT)];
      while (walkers.length) {
        const node = walkers[walkers.length - 1]!.nextNode();
        if (!node) {
          walkers.pop();
          continue;
        }
        if (node.nodeType === 3) {
          const p = node.parentElement;
          if (p && node.nodeValue!.includes(text) && isElementVisible(p)) return p;
        } else if ((node as Element).shadowRoot)
          walkers.push(
            document.createTreeWalker((node as Element).shadowRoot!, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT),
          );
      }
      return undefined;
    };
    setPage(
      '<p id="mixed"><b id="b">foo</b> bar o</p>' +
        '<span id="split">Ro</span>' +
        '<p id="hid" style="display:none">zeta</p><p id="zeta">zeta</p>' +
        '<x-host id="host">light qq</x-host><div id="after"><i>qq tail</i></div>' +
        '<td-like id="empty"></td-like><em id="last">omega</em>',
    );
    document.getElementById('split')!.appendChild(document.createTextNode('w 5'));
    document.getElementById('host')!.attachShadow({ mode: 'open' }).innerHTML = '<u id="inner">qq inside</u>';
    for (const q of ['o', 'foo', 'bar', 'Row 5', 'Ro', 'zeta', 'qq', 'light', 'tail', 'omega', 'nowhere']) {
      const r = await findTextSliced(q);
      expect([q, r.el]).toEqual([q, reference(q)]);
      expect(r.complete).toBe(true);
    }
    expect((await findTextSliced('o')).el?.id).toBe('b');
    expect((await findTextSliced('qq')).el?.id).toBe('inner');
    expect((await findTextSliced('Row 5')).el).toBeUndefined();
    expect((await findTextSliced('zeta')).el?.id).toBe('zeta');
  });
});
