// @vitest-environment happy-dom
/**
 * #43: dom.hover's pointer, one step per request — the events a page hears when Otto presses, moves with the button
 * held and releases at viewport points, and what a still pointer tells the page when the element under it changes.
 * happy-dom has no layout: what is under a point is stubbed (elementFromPoint); geometry is e2e/pointer.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catchUp, pointerStep } from '../../src/content/gestures/pointerSteps.ts';
import { setPage } from './helpers.ts';

let under: Element | null = null;
const heard: string[] = [];

function listen(el: Element, name: string): void {
  for (const type of ['pointerenter', 'pointerleave', 'pointerdown', 'pointermove', 'pointerup', 'click'])
    el.addEventListener(type, (e) => {
      const m = e as MouseEvent;
      heard.push(`${name} ${type} ${m.clientX},${m.clientY} buttons=${m.buttons}`);
    });
}

beforeEach(() => {
  setPage('<div id="pad">Pad</div><div id="other">Other</div>');
  heard.length = 0;
  under = document.getElementById('pad');
  vi.spyOn(document, 'elementFromPoint').mockImplementation(() => under);
  listen(document.getElementById('pad')!, 'pad');
  listen(document.getElementById('other')!, 'other');
});
afterEach(async () => {
  // Leave the button up for the next test (the pointer's state lives in the module, as in a frame).
  await pointerStep({ press: 'up' }).catch(() => undefined);
  vi.restoreAllMocks();
});

describe('press, move and release as separate steps', () => {
  it('the button stays down between requests: moves carry buttons=1 along the path, then one pointerup', async () => {
    const down = await pointerStep({ x: 10, y: 10, press: 'down' });
    expect(down.summary).toMatch(/^pressed the left button on viewport \(10, 10\) — div "Pad" is there/);
    heard.length = 0;
    const move = await pointerStep({ x: 34, y: 10 });
    expect(move.summary).toBe(
      'moved the pointer (left button held) to viewport (34, 10) — div "Pad" is there; moved there in 2 steps',
    );
    expect(heard).toEqual(['pad pointermove 22,10 buttons=1', 'pad pointermove 34,10 buttons=1']);
    heard.length = 0;
    const up = await pointerStep({ press: 'up' });
    expect(up.summary).toBe('released the left button on viewport (34, 10) — div "Pad" is there');
    // No click follows a release (a click is dom.click's, which asks first on a submit button).
    expect(heard).toEqual(['pad pointermove 34,10 buttons=1', 'pad pointerup 34,10 buttons=0']);
  });

  it('refuses a second press and a release with the button up, saying what to do', async () => {
    await pointerStep({ x: 5, y: 5, press: 'down' });
    await expect(pointerStep({ x: 6, y: 6, press: 'down' })).rejects.toThrow(
      'The left button is already down (pressed on div "Pad"): release it first with press=\'up\'.',
    );
    await pointerStep({ press: 'up' });
    await expect(pointerStep({ press: 'up' })).rejects.toThrow(
      "The left button is not down in this frame: press it first with press='down'.",
    );
    await expect(pointerStep({ x: 5 })).rejects.toThrow('A viewport point needs both x and y');
  });
});

describe('a still pointer', () => {
  it('hold: the page hears the pointer enter what comes under it meanwhile', async () => {
    await pointerStep({ x: 10, y: 10 });
    heard.length = 0;
    setTimeout(() => (under = document.getElementById('other')), 30);
    const r = await pointerStep({ holdMs: 150 });
    expect(r.summary).toBe(
      'hovered viewport (10, 10) — div "Pad" is there; stayed 150 ms; meanwhile the pointer came over div "Other"',
    );
    expect(heard).toContain('pad pointerleave 10,10 buttons=0');
    expect(heard).toContain('other pointerenter 10,10 buttons=0');
  });

  it('catchUp: what moved under the pointer between requests gets the boundary events before the next step', async () => {
    await pointerStep({ x: 10, y: 10 });
    heard.length = 0;
    catchUp();
    expect(heard).toEqual([]);
    under = document.getElementById('other');
    catchUp();
    expect(heard).toEqual([
      'pad pointerleave 10,10 buttons=0',
      'other pointerenter 10,10 buttons=0',
      'other pointermove 10,10 buttons=0',
    ]);
  });
});
