/**
 * A pressed-button mouse movement as a person makes it: pointerdown/mousedown where the button goes down, moves in
 * small steps (pointermove/mousemove on whatever is under the pointer at each step, one frame apart, so libraries
 * that track the mouse — jQuery UI draggable/sortable/slider, dnd-kit, pointer-driven sliders — see a path, not a
 * jump), then pointerup/mouseup where it is released.
 */
import { deepElementFromPoint } from '../flatTree.ts';
import { BUTTONS_MASK, dispatchHover, mouseInit, pointer } from '../actions/pointer.ts';
import type { Point } from './points.ts';

export const nextFrame = (): Promise<void> =>
  new Promise((r) => {
    // rAF does not run in a background tab; the timeout keeps a drag moving there too.
    const t = setTimeout(r, 20);
    requestAnimationFrame(() => {
      clearTimeout(t);
      setTimeout(r, 0);
    });
  });

/** The points between `a` and `b` (excluding `a`, including `b`). */
export function path(a: Point, b: Point, steps: number): Point[] {
  const out: Point[] = [];
  for (let i = 1; i <= steps; i++) out.push({ x: a.x + ((b.x - a.x) * i) / steps, y: a.y + ((b.y - a.y) * i) / steps });
  return out;
}

export interface Press {
  /** Whether the page cancelled pointerdown or mousedown (a page that handles the drag itself does). */
  cancelled: boolean;
}

/** The button goes down on `target` at `p`. */
export function pressAt(target: Element, p: Point): Press {
  dispatchHover(target, p.x, p.y);
  const down = mouseInit(p.x, p.y, 'left', BUTTONS_MASK.left, 1, []);
  const pointerOk = target.dispatchEvent(pointer('pointerdown', down));
  let mouseOk = true;
  // A cancelled pointerdown suppresses the compatibility mouse events, as in the browser.
  if (pointerOk) mouseOk = target.dispatchEvent(new MouseEvent('mousedown', down));
  if (mouseOk) {
    const f = target.closest('a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]');
    (f as HTMLElement | null)?.focus?.({ preventScroll: true });
  }
  return { cancelled: !pointerOk || !mouseOk };
}

/** One move with the button held, dispatched on what is under the pointer. */
export function moveTo(p: Point, fallback: Element): Element {
  const at = deepElementFromPoint(p.x, p.y) ?? fallback;
  const init = mouseInit(p.x, p.y, 'left', BUTTONS_MASK.left, 0, []);
  at.dispatchEvent(pointer('pointermove', init));
  at.dispatchEvent(new MouseEvent('mousemove', init));
  return at;
}

/**
 * The button comes up at `p`. No click follows: a drag or a text selection is no click to the libraries that tell
 * them apart (jQuery UI swallows it), and a click here could press a submit button the drag ended on without the
 * approval a click on it asks for.
 */
export function releaseAt(p: Point, pressed: Element): Element {
  const at = deepElementFromPoint(p.x, p.y) ?? pressed;
  const up = mouseInit(p.x, p.y, 'left', 0, 1, []);
  at.dispatchEvent(pointer('pointerup', up));
  at.dispatchEvent(new MouseEvent('mouseup', up));
  return at;
}

/** A whole mouse drag from `from` to `to` in `steps` moves. */
export async function mouseDrag(
  source: Element,
  from: Point,
  to: Point,
  steps: number,
  pressed?: Press,
): Promise<Element> {
  if (!pressed) pressAt(source, from);
  await nextFrame();
  let last: Element = source;
  for (const p of path(from, to, steps)) {
    last = moveTo(p, last);
    await nextFrame();
  }
  // A last move on the spot: libraries that act on the move before the release (sortables) settle there.
  moveTo(to, last);
  await nextFrame();
  return releaseAt(to, source);
}
