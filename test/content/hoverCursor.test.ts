// @vitest-environment happy-dom
/**
 * #43 part 2: controls a page styles with a pointer or drag cursor only under the pointer (`:hover` rules) get refs,
 * like the ones with a computed `cursor: pointer`; so do inline pointer handler attributes.
 */
import { describe, expect, it } from 'vitest';
import { setPage, snap } from './helpers.ts';
import { scanHoverCursors, splitSelectors, withoutHover } from '../../src/content/hoverCursor.ts';
import { SelectorBuckets, subjectKey } from '../../src/content/selectorBuckets.ts';

describe('hover cursor rules', () => {
  it('takes :hover out of a selector, and refuses what it cannot say', () => {
    expect(withoutHover('.feed .like:hover')).toBe('.feed .like');
    expect(withoutHover('.post:hover .reply')).toBe('.post .reply');
    expect(withoutHover('.menu > :hover')).toBe('.menu > *');
    expect(withoutHover(':hover')).toBeUndefined();
    expect(withoutHover('.a:not(:hover)')).toBeUndefined();
    expect(withoutHover('.a:hover::after')).toBeUndefined();
    expect(withoutHover('.a')).toBeUndefined();
    expect(splitSelectors('.a:hover, :is(.b, .c):hover, [x="1,2"]:hover')).toEqual([
      '.a:hover',
      ':is(.b, .c):hover',
      '[x="1,2"]:hover',
    ]);
  });

  it("buckets selectors by their subject's id, class or tag, and matches an element against its buckets only", () => {
    expect(subjectKey('.post .actions > span.like')).toBe('.like');
    expect(subjectKey('#tasks li')).toBe('li');
    expect(subjectKey('ul#tasks')).toBe('#tasks');
    expect(subjectKey('.menu > *')).toBeUndefined();
    expect(subjectKey('[data-act="a b"]')).toBeUndefined();
    expect(subjectKey(':is(.a, .b)')).toBeUndefined();
    expect(subjectKey('.md\\:x')).toBeUndefined();
    setPage('<ul id="tasks"><li class="a b">One</li></ul><p data-act="x">P</p>');
    const b = new SelectorBuckets<string>();
    for (const s of ['#tasks li', '.b', '.zzz', 'p[data-act]', '[data-act]', 'span']) b.add(s, s);
    expect(b.matching(document.querySelector('li')!)).toEqual(['.b', '#tasks li']);
    expect(b.matching(document.querySelector('p')!)).toEqual(['[data-act]', 'p[data-act]']);
  });

  it('reads pointer and drag cursors from :hover rules, nested in @media too', () => {
    setPage(`<style>
      .like:hover, .plain:focus { cursor: pointer }
      @media screen { .reply:hover { cursor: url(hand.cur), pointer } }
      #tasks li:hover { cursor: grab }
      .quiet:hover { color: red }
    </style>`);
    expect(scanHoverCursors()).toEqual({ pointer: ['.like', '.reply'], drag: ['#tasks li'] });
  });

  it('gives refs to spans with a pointer cursor only on hover, and to list items with a grab cursor only on hover', () => {
    setPage(`<style>
      .like:hover { cursor: pointer }
      .post:hover .reply { cursor: pointer }
      #tasks li:hover { cursor: grab }
    </style>
    <article class="post"><p>Ada: Hello</p><span class="like">Like</span> <span class="reply">Reply</span> <span class="count">3</span></article>
    <ul id="tasks"><li>Dulci</li><li>Bravo</li></ul>`);
    expect(snap().replace(/\[ref=[a-z]+\d+\]/g, '[ref]')).toBe(
      `- article:
  - text: Ada: Hello
  - clickable "Like" [ref]
  - clickable "Reply" [ref]
  - text: 3
- draggable "Dulci" [ref]
- draggable "Bravo" [ref]`,
    );
  });

  it('gives a ref where the hover cursor starts, not to the parts inside it', () => {
    setPage(`<style>.card:hover { cursor: pointer } .card span:hover { cursor: pointer }</style>
      <div class="card"><span>Open</span> <span>the card</span></div>`);
    expect(snap().replace(/\[ref=[a-z]+\d+\]/g, '[ref]')).toBe('- clickable "Open the card" [ref]');
  });

  it('gives refs to elements with inline pointer handler attributes', () => {
    setPage(
      `<span onmousedown="void 0">Down</span> <span onpointerdown="void 0">Press</span> <span ondblclick="void 0">Twice</span> <span onmouseover="void 0">Over</span>`,
    );
    expect(snap().replace(/\[ref=[a-z]+\d+\]/g, '[ref]')).toBe(
      '- clickable "Down" [ref]\n- clickable "Press" [ref]\n- clickable "Twice" [ref]\n- text: Over',
    );
  });
});
