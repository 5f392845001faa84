// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fieldSettle } from '../../src/content/actions/fieldSettle.ts';
import { setPage } from './helpers.ts';

/** Counts the frames a settle asked for (each one a rendering step of the whole page on a huge table, #24). */
function countFrames(): { frames: () => number } {
  const spy = vi.spyOn(window, 'requestAnimationFrame');
  return { frames: () => spy.mock.calls.length };
}

afterEach(() => vi.restoreAllMocks());

describe('fill_form: the wait between fields', () => {
  it('a checkbox click that changed nothing else goes on to the next field without waiting for a frame', async () => {
    setPage('<input type="checkbox" id="c"><input id="t">');
    const settle = fieldSettle();
    const { frames } = countFrames();
    (document.getElementById('c') as HTMLInputElement).click();
    await settle.next(true);
    settle.stop();
    expect(frames()).toBe(0);
  });

  it('waits for a frame when the page answered the click by changing its DOM, also in a microtask', async () => {
    setPage('<input type="checkbox" id="c"><div id="more"></div>');
    const box = document.getElementById('c') as HTMLInputElement;
    box.addEventListener('click', () => queueMicrotask(() => (document.getElementById('more')!.hidden = true)));
    const settle = fieldSettle();
    const { frames } = countFrames();
    box.click();
    await settle.next(true);
    expect(frames()).toBe(1);
    // What that frame waited for is not counted again before the field after.
    await settle.next(true);
    settle.stop();
    expect(frames()).toBe(1);
  });

  it('always waits for a frame after typed text or a chosen option', async () => {
    setPage('<input id="t">');
    const settle = fieldSettle();
    const { frames } = countFrames();
    (document.getElementById('t') as HTMLInputElement).value = 'typed';
    await settle.next(false);
    settle.stop();
    expect(frames()).toBe(1);
  });
});
