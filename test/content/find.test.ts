// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { find, query } from '../../src/content/find.ts';
import { refOf, setPage, snap } from './helpers.ts';
import { registry } from '../../src/content/refs.ts';

const PAGE = `
  <nav><a href="/">Home</a><a href="/cart">Cart</a></nav>
  <main>
    <h2>Blue shoes</h2><p>Comfortable running shoes.</p><button>Add to cart</button>
    <h2>Red hat</h2><p>Warm wool hat.</p><button>Add to cart</button>
    <input aria-label="Search products">
  </main>`;

describe('find', () => {
  it('finds by role and name and gives context', () => {
    setPage(PAGE);
    const r = find({ role: 'button', name: 'add to cart' });
    expect(r.total).toBe(2);
    expect(r.matches[0]!.ref).toMatch(/^[a-df-z]{2}e\d+$/);
    expect(r.matches[0]!.line).toContain('button "Add to cart"');
    expect(r.matches[0]!.context).toContain('heading "Blue shoes"');
    expect(r.matches[1]!.context).toContain('heading "Red hat"');
  });

  it('a text match with no control of its own points at no neighbour: its own element gets a ref (#43)', () => {
    setPage(PAGE);
    const r = find({ text: 'wool' });
    expect(r.total).toBe(1);
    expect(r.matches[0]!.ref).toBeUndefined();
    expect(r.matches[0]!.line).toBe('text: Warm wool hat.');
    expect(r.matches[0]!.inside).toBeUndefined();
    expect(r.matches[0]!.row).toBeUndefined();
    const [ref, tag] = r.matches[0]!.holder!.split(' ');
    expect(tag).toBe('<p>');
    expect(registry.resolve(ref!).textContent).toBe('Warm wool hat.');
  });

  it('a match in a merged text line names the element that holds the words, a structure line its own element', () => {
    setPage(
      `<article><div class="actions"><span class="like">Like</span> · <span>Comment</span> · <span id="share">Share</span></div><p>Some <b>bold</b> words here</p></article><ul id="l"><li>Dulci</li><li>Bravo</li></ul>`,
    );
    const share = find({ text: 'share' }).matches[0]!;
    expect(share.line).toBe('text: Like · Comment · Share');
    expect(registry.resolve(share.holder!.split(' ')[0]!)).toBe(document.getElementById('share'));
    const across = find({ text: 'some bold words' }).matches[0]!;
    expect(across.holder).toMatch(/ <p>$/);
    // By role, each item reads with its text and comes with its element's ref.
    const items = find({ role: 'listitem' }).matches;
    expect(items.map((m) => m.line)).toEqual(['listitem: Dulci', 'listitem: Bravo']);
    expect(items.map((m) => m.holder?.split(' ')[1])).toEqual(['<li>', '<li>']);
    const item = find({ text: 'Dulci' }).matches[0]!;
    expect(item.holder).toMatch(/ <li>$/);
    expect(registry.resolve(item.holder!.split(' ')[0]!).textContent).toBe('Dulci');
  });

  it("text inside a control points at that control; text in a row lists the row's controls", () => {
    setPage(
      `<ul><li><input type="checkbox"><span>Walk dog</span><button>x</button></li><li><input type="checkbox"><span>Buy milk</span><button>x</button></li></ul><button><span>Save draft</span></button>`,
    );
    const inside = find({ text: 'Save draft' });
    expect(inside.matches[0]!.ref).toMatch(/^[a-df-z]{2}e\d+$/);
    const s = snap();
    const r = find({ text: 'Buy milk' });
    const m = r.matches.find((x) => !x.ref);
    if (m) {
      expect(m.row?.join(' ')).toContain('checkbox');
      expect(m.row?.join(' ')).not.toContain(refOf(s, 'Walk dog'));
    }
  });

  it('counts text matches in hidden elements and says why they are hidden', () => {
    setPage(
      `<div role="tabpanel" id="billing" aria-label="Billing" style="display:none"><p>Card ending 4242</p></div><p>Profile</p>`,
    );
    const r = find({ text: 'card ending' });
    expect(r.total).toBe(0);
    expect(r.hidden?.count).toBe(1);
    expect(r.hidden?.where[0]).toContain('display:none');
  });

  it('uses the same refs as the snapshot', () => {
    setPage(PAGE);
    const s = snap();
    const r = find({ role: 'textbox' });
    expect(r.matches).toHaveLength(1);
    expect(r.matches[0]!.ref).toBe(refOf(s, 'Search products'));
  });

  it('respects the limit but counts all matches', () => {
    setPage(PAGE);
    const r = find({ role: 'link', limit: 1 });
    expect(r.matches).toHaveLength(1);
    expect(r.total).toBe(2);
  });
});

describe('query', () => {
  it('gives matches refs, including hidden ones marked hidden, and across open shadow roots', async () => {
    setPage(`<div class="item">A</div><div class="item" style="display:none">B</div><x-host></x-host>`);
    document.querySelector('x-host')!.attachShadow({ mode: 'open' }).innerHTML = '<div class="item">C</div>';
    const r = await query('.item');
    expect(r.total).toBe(3);
    expect(r.matches.map((m) => m.visible)).toEqual([true, false, true]);
    expect(r.matches[1]!.line).toContain('[hidden]');
    expect(new Set(r.matches.map((m) => m.ref)).size).toBe(3);
  });

  it('rejects an invalid selector with advice', async () => {
    setPage('<p>x</p>');
    await expect(query('div[')).rejects.toThrow(/Invalid CSS selector/);
  });

  it('lists matches in tree order, a shadow root content right after its host (#24: one sliced walk)', async () => {
    setPage(`<div class="i">A</div><x-host></x-host><div class="i">D</div>`);
    document.querySelector('x-host')!.attachShadow({ mode: 'open' }).innerHTML = '<p class="i">B</p><p class="i">C</p>';
    const r = await query('.i', 3);
    expect(r.total).toBe(4);
    expect(r.partial).toBeUndefined();
    expect(r.matches.map((m) => m.line.match(/"(\w)"/)?.[1])).toEqual(['A', 'B', 'C']);
  });

  it('once it holds its matches it counts on for a budget of elements, then stops and names the last one counted (#24)', async () => {
    setPage(Array.from({ length: 30 }, (_, i) => `<input type="checkbox" aria-label="Pick ${i + 1}">`).join(''));
    // 5 kept by Pick 5, then 10 more elements visited: Pick 6 to Pick 15.
    const r = await query('input', 5, { countAfter: 10 });
    expect(r.partial).toBe(true);
    expect(r.total).toBe(15);
    expect(r.countedUpTo).toBe('checkbox "Pick 15"');
    expect(r.matches.map((m) => m.line.match(/"(Pick \d+)"/)?.[1])).toEqual([
      'Pick 1',
      'Pick 2',
      'Pick 3',
      'Pick 4',
      'Pick 5',
    ]);
  });

  it('counts exactly when the page ends within the budget, and an ordinary page within the default one', async () => {
    setPage(Array.from({ length: 15 }, (_, i) => `<input type="checkbox" aria-label="Pick ${i + 1}">`).join(''));
    expect(await query('input', 5, { countAfter: 10 })).toMatchObject({ total: 15 });
    expect((await query('input', 5, { countAfter: 10 })).partial).toBeUndefined();
    // A 1,000-row table of ten elements a row: counted whole under QUERY_COUNT_AFTER.
    setPage(
      `<table>${Array.from({ length: 1000 }, (_, i) => `<tr><td><b><i><u><s><em><small><mark><input type="checkbox" aria-label="Pick ${i + 1}"></mark></small></em></s></u></i></b></td></tr>`).join('')}</table>`,
    );
    expect(document.querySelectorAll('*').length).toBeGreaterThan(10_000);
    const r = await query('tr input[type=checkbox]', 5);
    expect(r).toMatchObject({ total: 1000 });
    expect(r.partial).toBeUndefined();
    expect(r.countedUpTo).toBeUndefined();
  });

  it('past its deadline it stops counting and says the total is a lower bound', async () => {
    setPage(Array.from({ length: 400 }, (_, i) => `<span class="n">${i}</span>`).join(''));
    const r = await query('.n', 5, { deadline: performance.now() - 1 });
    expect(r.partial).toBe(true);
    expect(r.matches.length).toBeGreaterThan(0);
    expect(r.total).toBeLessThan(400);
  });
});
