// @vitest-environment happy-dom
/**
 * #43: the change report tells attribute changes a person would see (SVG fill and stroke, class, aria-*, hidden,
 * inline style, computed colour) in and around the element acted on, in words the model reads.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { attributeChange } from '../../src/content/attributeChanges.ts';
import { observeChanges } from '../../src/content/changes.ts';
import { setPage } from './helpers.ts';

beforeEach(() => setPage(''));

describe('attribute changes in words', () => {
  it('says what an attribute was and is, and nothing when it ends as it began', () => {
    expect(attributeChange('fill', '#9aa5b1', '#e4572e')).toBe('fill "#9aa5b1" → "#e4572e"');
    expect(attributeChange('stroke', null, 'black')).toBe('stroke "black" (added)');
    expect(attributeChange('aria-current', 'page', null)).toBe('aria-current "page" (removed)');
    expect(attributeChange('fill', 'red', 'red')).toBeUndefined();
  });

  it('tells class names added and removed, not the whole list', () => {
    expect(attributeChange('class', 'shape idle', 'shape hot')).toBe('class +hot -idle');
    expect(attributeChange('class', 'a b', 'b  a')).toBeUndefined();
  });

  it('tells the inline style declarations that differ', () => {
    expect(attributeChange('style', 'left: 10px; opacity: 1', 'left: 10px; opacity: 0.4; color: red')).toBe(
      'style opacity: "1" → "0.4", color: "red" (added)',
    );
    expect(attributeChange('style', 'display: none', '')).toBe('style display: "none" (removed)');
    expect(attributeChange('style', 'left:10px', 'left: 10px;')).toBeUndefined();
  });

  it('tells the hidden attribute as hidden or no longer hidden', () => {
    expect(attributeChange('hidden', '', null)).toBe('no longer hidden (hidden attribute removed)');
    expect(attributeChange('hidden', null, 'until-found')).toBe('now hidden (hidden attribute set)');
    expect(attributeChange('hidden', '', 'hidden')).toBeUndefined();
  });

  it('keeps a long page value short and quoted (it is page text)', () => {
    const line = attributeChange('aria-label', 'a', `x"\n${'y'.repeat(200)}`)!;
    expect(line.startsWith('aria-label "a" → "x\\"\\ny')).toBe(true);
    expect(line.length).toBeLessThan(90);
  });
});

describe('the change report tells attribute changes near the element acted on', () => {
  const svg = `<svg id="board" aria-label="Board" width="300" height="200">
      <circle id="target" cx="50" cy="50" r="20" fill="#9aa5b1" class="shape"><title>Target</title></circle>
      <rect id="other" x="200" y="10" width="20" height="20" fill="#333"></rect>
    </svg>
    <p id="far" class="idle">Far away</p>`;

  it('an SVG shape’s fill and class, and its sibling’s stroke; not an element elsewhere', async () => {
    setPage(svg);
    const target = document.getElementById('target')!;
    const { changes } = await observeChanges(
      () => {
        target.setAttribute('fill', '#e4572e');
        target.classList.add('hot');
        document.getElementById('other')!.setAttribute('stroke', 'black');
        document.getElementById('far')!.className = 'busy';
      },
      { subject: target },
    );
    expect(changes.changed).toEqual([
      'circle "Target": fill "#9aa5b1" → "#e4572e"; class +hot',
      'rect <rect#other>: stroke "black" (added)',
    ]);
  });

  it('without a subject (an action with no element), attribute changes are not reported', async () => {
    setPage(svg);
    const { changes } = await observeChanges(() => {
      document.getElementById('target')!.setAttribute('fill', '#e4572e');
    });
    expect(changes.changed).toEqual([]);
  });

  it('a change undone within the window is no change', async () => {
    setPage(svg);
    const target = document.getElementById('target')!;
    const { changes } = await observeChanges(
      async () => {
        target.setAttribute('fill', '#e4572e');
        await new Promise((r) => setTimeout(r, 20));
        target.setAttribute('fill', '#9aa5b1');
      },
      { subject: target },
    );
    expect(changes.changed).toEqual([]);
  });

  it('a control’s aria state is told once, by its state line', async () => {
    setPage('<div id="row"><button id="b" aria-pressed="false" class="tog">Bold</button></div>');
    const b = document.getElementById('b')!;
    const { changes } = await observeChanges(
      () => {
        b.setAttribute('aria-pressed', 'true');
        b.classList.add('on');
      },
      { subject: b },
    );
    expect(changes.changed).toEqual(['button "Bold": not pressed → pressed', 'button "Bold": class +on']);
  });

  it('a colour a parent’s class gave its children is told once, on the parent, as computed', async () => {
    setPage(`<style>.hot { color: rgb(228, 87, 46) }</style>
      <div id="card" aria-label="Card"><button id="b">Pick</button><span>Note</span></div>`);
    const b = document.getElementById('b')!;
    const { changes } = await observeChanges(() => document.getElementById('card')!.classList.add('hot'), {
      subject: b,
    });
    // (happy-dom gives no computed colour before the rule applies; Chrome says rgb(0, 0, 0).) Not repeated on the
    // button and the note, which only inherit it.
    expect(changes.changed).toEqual(['div "Card": class +hot; computed color (none) → rgb(228, 87, 46)']);
  });

  it('bounds the lines: past eight elements, the rest are counted', async () => {
    const items = Array.from({ length: 12 }, (_, i) => `<li id="i${i}">Item ${i}</li>`).join('');
    setPage(`<ul id="list">${items}</ul>`);
    const first = document.getElementById('i0')!;
    const { changes } = await observeChanges(
      () => {
        for (let i = 0; i < 12; i++) document.getElementById(`i${i}`)!.setAttribute('aria-current', 'true');
      },
      { subject: first },
    );
    expect(changes.changed).toHaveLength(9);
    expect(changes.changed[0]).toBe('listitem "Item 0" <li#i0>: aria-current "true" (added)');
    expect(changes.changed[8]).toBe('… 4 more elements nearby changed how they look');
  });
});
