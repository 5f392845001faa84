// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { PageGrowth } from '../../src/content/pageGrowth.ts';
import { setPage } from './helpers.ts';

describe('PageGrowth: whether the page has only grown since a mark (#24 the locator before each action)', () => {
  it('holds while elements and text are only added', () => {
    setPage('<main><p>One</p></main>');
    const g = new PageGrowth();
    expect(g.onlyGrown()).toBe(false);
    g.mark();
    document.querySelector('main')!.insertAdjacentHTML('beforeend', '<p role="status">Opened order 3</p>');
    document.querySelector('main')!.append('more text');
    expect(g.onlyGrown()).toBe(true);
    g.stop();
    expect(g.onlyGrown()).toBe(false);
  });

  it.each([
    ['a removal', () => document.querySelector('p')!.remove()],
    ['an attribute change', () => document.querySelector('main')!.setAttribute('hidden', '')],
    ['a text edit', () => (document.querySelector('p')!.firstChild!.nodeValue = 'Two')],
    ['an added style sheet', () => document.head.insertAdjacentHTML('beforeend', '<style>main{display:none}</style>')],
    [
      'an addition holding a style sheet',
      () => document.body.insertAdjacentHTML('beforeend', '<div><link rel="stylesheet" href="x.css"></div>'),
    ],
  ])('ends at %s, which could shorten the outline', (_, change) => {
    setPage('<main><p>One</p></main>');
    const g = new PageGrowth();
    g.mark();
    change();
    expect(g.onlyGrown()).toBe(false);
    // Until marked again.
    document.body.append('later');
    expect(g.onlyGrown()).toBe(false);
  });
});
