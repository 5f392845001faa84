/**
 * #43 part 2: what the snapshot's facts line says when the page's listeners are not all known. It points at what
 * works on the page as it is (dom.find gives a text's element a ref) and never at loading the page again, which
 * would lose what the user did on it.
 */
import { describe, expect, it, vi } from 'vitest';
import { formatSnapshot, type PageSnapshot } from '../../src/page/pageSnapshot.ts';

// The router bundles the content scripts through Vite-only `?iife` imports; the note needs none of them.
vi.mock('../../src/content/index.iife.ts?iife', () => ({ default: 'src/content/index.iife.js' }));
vi.mock('../../src/content/reader.iife.ts?iife', () => ({ default: 'src/content/reader.iife.js' }));
vi.mock('../../src/content/devCapture.iife.ts?iife', () => ({ default: 'src/content/devCapture.iife.js' }));

const base: PageSnapshot = {
  url: 'https://shop.example/cart',
  title: 'Cart',
  text: '- text: Count: 3',
  refs: 0,
  newRefs: 0,
  frames: 0,
  truncated: false,
  scroll: { y: 0, height: 600, viewport: 600 },
  ms: 5,
};

describe('the listeners note', () => {
  it('says what Otto could not see and where to turn, for a registry that came late', () => {
    const first = formatSnapshot({ ...base, listeners: 'late' }).split('\n')[0];
    expect(first).toBe(
      'Page snapshot — 0 refs; scrolled to 0 of 600px; listeners the page added before Otto came are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element.',
    );
  });

  it('and for a page with no registry', () => {
    const first = formatSnapshot({ ...base, listeners: 'none' }).split('\n')[0];
    expect(first).toBe(
      "Page snapshot — 0 refs; scrolled to 0 of 600px; the page's script listeners are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element.",
    );
  });

  it('never tells the model to load the page again', () => {
    for (const listeners of ['late', 'none', 'load'] as const)
      expect(formatSnapshot({ ...base, listeners })).not.toMatch(/navigate|reload|this URL|again/i);
  });
});
