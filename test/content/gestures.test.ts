// @vitest-environment happy-dom
/**
 * The layout-free parts of the content script's gestures (#21): Otto's clipboard events (copy prepared by the page
 * or taken from the selection, paste refused across origins), what a drag moved (order before/after, the container),
 * and selecting a phrase's n-th occurrence. Pointer paths and HTML5 drags need a layout engine: e2e/gestures.spec.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { clipboardAction, copyFrom, pasteInto } from '../../src/content/gestures/clipboard.ts';
import { placement, whatMoved } from '../../src/content/gestures/moved.ts';
import { selectText } from '../../src/content/gestures/selectText.ts';
import { setPage } from './helpers.ts';

beforeEach(() => setPage(''));

describe('clipboard keys', () => {
  it('maps Control/Meta + C, X, V and nothing else', () => {
    const combo = (key: string, mods: Partial<{ ctrl: boolean; meta: boolean; alt: boolean }> = {}) => ({
      ctrl: false,
      meta: false,
      alt: false,
      ...mods,
      key: { key },
    });
    expect(clipboardAction(combo('c', { ctrl: true }))).toBe('copy');
    expect(clipboardAction(combo('X', { meta: true }))).toBe('cut');
    expect(clipboardAction(combo('v', { ctrl: true }))).toBe('paste');
    expect(clipboardAction(combo('v'))).toBeUndefined();
    expect(clipboardAction(combo('c', { ctrl: true, alt: true }))).toBeUndefined();
    expect(clipboardAction(combo('a', { ctrl: true }))).toBeUndefined();
  });
});

describe('copy and paste', () => {
  it('copies the selected part of a field, or what the page prepared in its copy handler', () => {
    setPage('<input id="f" value="hello wide world"><div id="d">text</div>');
    const f = document.getElementById('f') as HTMLInputElement;
    f.setSelectionRange(6, 10);
    const r = copyFrom(f, false);
    expect(r.copied).toEqual({ origin: location.origin, text: 'wide' });
    expect(r.effect).toBe(`copied 4 characters to Otto's clipboard: "wide"`);

    const d = document.getElementById('d')!;
    d.addEventListener('copy', (e) => {
      (e as ClipboardEvent).clipboardData!.setData('text/plain', 'from the page');
      e.preventDefault();
    });
    const p = copyFrom(d, false);
    expect(p.copied?.text).toBe('from the page');
    expect(p.effect).toContain('(as the page prepared it)');
  });

  it('pastes into a field through the paste event, and refuses text copied on another origin', () => {
    setPage('<input id="f" value="">');
    const f = document.getElementById('f') as HTMLInputElement;
    const seen: string[] = [];
    f.addEventListener('paste', (e) => seen.push((e as ClipboardEvent).clipboardData!.getData('text/plain')));
    f.focus();
    expect(pasteInto(f, { origin: location.origin, text: 'lazy dog' })).toMatch(/^pasted 8 characters into textbox/);
    expect(f.value).toBe('lazy dog');
    expect(seen).toEqual(['lazy dog']);
    expect(() => pasteInto(f, { origin: 'https://bank.example', text: 'secret' })).toThrow(
      `Otto's clipboard holds text copied on https://bank.example; it is not pasted into ${location.origin}.`,
    );
    expect(f.value).toBe('lazy dog');
    expect(pasteInto(f, undefined)).toBe(
      "Otto's clipboard is empty: nothing was pasted (copy first: select text, then Control+C)",
    );
  });
});

describe('what a drag moved', () => {
  it('names the item, its old and new positions and the order before and after', () => {
    setPage('<ul aria-label="Fruits"><li>Apple</li><li>Banana</li><li>Cherry</li></ul>');
    const [apple, , cherry] = Array.from(document.querySelectorAll('li'));
    const before = placement(apple!);
    cherry!.after(apple!);
    const r = whatMoved(before, apple!);
    expect(r.moved).toBe(true);
    expect(r.lines[0]).toMatch(/^moved "Apple" from position 1 to 3 in list "Fruits"/);
    expect(r.lines[1]).toBe('order before: ["Apple", "Banana", "Cherry"]');
    expect(r.lines[2]).toBe('order after: ["Banana", "Cherry", "Apple"]');
  });

  it('names the container an item moved into (by its label or heading), and a handle moves its item', () => {
    setPage(
      '<section aria-label="To do"><ul><li><span class="h">⋮</span> Write tests</li></ul></section>' +
        '<section><h3>Done</h3><ul><li>Ship</li></ul></section>',
    );
    const handle = document.querySelector('.h')!;
    const item = handle.parentElement!;
    const before = placement(handle);
    document.querySelectorAll('ul')[1]!.append(item);
    const r = whatMoved(before, handle);
    expect(r.lines[0]).toMatch(
      /^moved "⋮ Write tests" from region "To do" .*\(position 1\) to <section> \[ref=[a-z]*e\d+\] headed "Done" \(position 2\)$/,
    );
    expect(r.lines[2]).toMatch(/now: \["Ship", "⋮ Write tests"\]$/);
  });

  it('says when nothing moved', () => {
    setPage('<ul><li>Apple</li></ul>');
    const li = document.querySelector('li')!;
    expect(whatMoved(placement(li), li)).toEqual({
      lines: ['the dragged element did not move (same place in the page, same position on screen)'],
      moved: false,
    });
  });
});

describe('selecting text', () => {
  it('selects the n-th occurrence in a field, and says how many there are when asked for more', () => {
    setPage('<textarea id="t">the fox and the fox</textarea>');
    const t = document.getElementById('t') as HTMLTextAreaElement;
    const r = selectText(t, 'fox', 2);
    expect(r.selected).toBe('fox');
    expect([t.selectionStart, t.selectionEnd]).toEqual([16, 19]);
    expect(() => selectText(t, 'fox', 3)).toThrow(/"fox" occurs 2 times in .*, not 3\./);
    expect(() => selectText(t, 'cat')).toThrow(/"cat" is not in the text of .*\. Read it with dom.text first\./);
  });

  it('selects a phrase across text nodes in page text', () => {
    setPage('<p id="p">The <b>quick</b> brown fox</p>');
    const r = selectText(document.getElementById('p')!, 'quick brown');
    expect(r.selected).toBe('quick brown');
    expect(document.getSelection()!.toString()).toBe('quick brown');
  });
});
