// @vitest-environment happy-dom
/**
 * The listener registry and the rule for which listener-bearing elements get a ref (#14 item 4). happy-dom has one
 * world, so the page-world registry and the isolated-world reader run side by side here; the two-world path is in
 * e2e/listeners.spec.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setPage, snap } from './helpers.ts';
import { LISTENER_REQUEST, listenerRegistry } from '../../src/content/listenerRegistry.ts';
import { readListeners } from '../../src/content/listeners.ts';

describe('listener registry', () => {
  it('answers nothing before it is installed', () => {
    setPage('<span id="a">Like</span>');
    document.getElementById('a')!.addEventListener('click', () => undefined);
    expect(readListeners().mode).toBe('none');
    expect(snap()).toBe('- text: Like');
  });

  describe('installed', () => {
    beforeAll(() => {
      expect(listenerRegistry('late', LISTENER_REQUEST)).toBe(true);
      // Idempotent: a second injection into the same page does nothing.
      expect(listenerRegistry('late', LISTENER_REQUEST)).toBe(false);
    });

    it('gives a ref to spans with click, pointerdown or onclick-property listeners, and says it came late', () => {
      setPage(
        '<p><span id="like">Like</span> · <span id="comment">Comment</span> · <span id="share">Share</span> · <span id="plain">Plain</span></p>',
      );
      document.getElementById('like')!.addEventListener('click', () => undefined);
      document.getElementById('comment')!.addEventListener('pointerdown', () => undefined);
      (document.getElementById('share') as HTMLElement).onclick = () => undefined;
      expect(readListeners().mode).toBe('late');
      expect(snap().replace(/\[ref=[a-z]{2}e\d+\]/g, '[ref]')).toBe(
        '- clickable "Like" [ref]\n- text: ·\n- clickable "Comment" [ref]\n- text: ·\n- clickable "Share" [ref]\n- text: · Plain',
      );
    });

    it('forgets a listener that was removed, and an onclick set back to null', () => {
      setPage('<span id="a">Once</span> <span id="b">Twice</span>');
      const f = (): void => undefined;
      document.getElementById('a')!.addEventListener('click', f);
      document.getElementById('a')!.removeEventListener('click', f);
      const b = document.getElementById('b') as HTMLElement;
      b.onclick = f;
      b.onclick = null;
      expect(snap()).toBe('- text: Once Twice');
    });

    it('does not count listeners for other events (input, scroll) or on document and window', () => {
      setPage('<span id="a">Typing</span>');
      document.getElementById('a')!.addEventListener('input', () => undefined);
      document.addEventListener('click', () => undefined);
      window.addEventListener('click', () => undefined);
      expect(snap()).toBe('- text: Typing');
    });

    it('a delegated listener on a menu or a feed gives neither the container nor its children a ref', () => {
      setPage(`<div id="menu"><span>Save</span> <span>Hide</span> <span>Report</span></div>
        <div id="feed"><p>Ada: the engine works, and here is a longer post about it that runs past eighty characters.</p></div>`);
      document.getElementById('menu')!.addEventListener('click', () => undefined);
      document.getElementById('feed')!.addEventListener('click', () => undefined);
      expect(snap()).not.toContain('ref=');
    });

    it('a button made of an icon glyph and a count is one control', () => {
      setPage('<div id="fav"><span class="material-icons">favorite</span><span>12</span></div>');
      document.getElementById('fav')!.addEventListener('click', () => undefined);
      expect(snap()).toMatch(/^- clickable "favorite12" \[ref=[a-z]{2}e\d+\]$/);
    });

    it('a page forging the answer only gives a ref to its own element', () => {
      setPage('<span id="fake">Not a button</span>');
      const el = document.getElementById('fake')!;
      document.addEventListener(LISTENER_REQUEST, (e) => {
        el.dispatchEvent(new Event((e as CustomEvent).detail as string, { composed: true }));
      });
      expect(snap()).toMatch(/^- clickable "Not a button" \[ref=[a-z]{2}e\d+\]$/);
    });
  });
});
