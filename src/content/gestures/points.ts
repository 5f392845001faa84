/**
 * Points a gesture aims at, in viewport CSS pixels of this frame: a point inside an element (from its top-left
 * corner, default its centre), its resize corner, or a viewport point — each checked to be on screen and to reach
 * the element (elementFromPoint through shadow roots), with errors that say what to do instead.
 */
import { composedContains, deepElementFromPoint } from '../flatTree.ts';
import { named } from '../describe.ts';
import { withRef } from './moved.ts';
import { ActionError } from '../targets.ts';
import { describeCover, ensureClickable, hits } from '../actions/pointer.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import { round1 } from '../../shared/round.ts';
import { wrapUntrustedInline } from '../../shared/untrusted.ts';

export interface Point {
  x: number;
  y: number;
}

/** The viewport point at (x, y) from `el`'s top-left corner (default its centre), after bringing it into view. */
export function pointIn(el: Element, x?: number, y?: number): Point {
  // Scrolls into view and refuses hidden or disabled-looking targets the way a click does (the centre must reach
  // it unless a point was given: a canvas under a transparent overlay is still hit where the overlay has a hole).
  if (x === undefined && y === undefined) {
    const p = ensureClickable(el, false);
    return { x: p.x, y: p.y };
  }
  try {
    ensureClickable(el, false);
  } catch (e) {
    // A covered centre does not mean the asked-for point is covered: that is checked at the point itself below.
    if (!/is covered by|does not receive clicks/.test(errorMessage(e))) throw e;
  }
  const r = el.getBoundingClientRect();
  const ox = x ?? r.width / 2;
  const oy = y ?? r.height / 2;
  if (ox < 0 || oy < 0 || ox > r.width || oy > r.height)
    throw new ActionError(
      `The point (${round1(ox)}, ${round1(oy)}) is outside ${named(el)}, whose box is ${round1(r.width)}×${round1(r.height)} px: x and y count from its top-left corner.`,
    );
  return { x: r.left + ox, y: r.top + oy };
}

/** The element's bottom-right corner, a few pixels inside (where a resize grip sits). */
export function resizeCorner(el: Element): Point {
  ensureClickable(el, false);
  const r = el.getBoundingClientRect();
  const inset = Math.min(4, r.width / 4, r.height / 4);
  return { x: r.right - inset, y: r.bottom - inset };
}

/** What is at a viewport point; refuses points off screen and points inside a child frame. */
export function elementAt(p: Point): Element {
  if (p.x < 0 || p.y < 0 || p.x >= innerWidth || p.y >= innerHeight)
    throw new ActionError(
      `The point (${round1(p.x)}, ${round1(p.y)}) is outside the viewport (${innerWidth}×${innerHeight} px). Scroll first (dom.scroll), or aim relative to an element (ref with x/y).`,
    );
  const hit = deepElementFromPoint(p.x, p.y);
  if (!hit) throw new ActionError(`Nothing is at (${round1(p.x)}, ${round1(p.y)}). Take a screenshot or a snapshot.`);
  if (hit.localName === 'iframe' || hit.localName === 'frame')
    throw new ActionError(
      `The point (${round1(p.x)}, ${round1(p.y)}) is inside a frame (${withRef(hit)}): aim at an element inside it instead (its refs start with f, from dom.snapshot), with x/y relative to that element.`,
    );
  return hit;
}

/** What is at a point inside `el`, which must be `el` or inside it (or its label); otherwise what covers it. */
export function hitInside(el: Element, p: Point): Element {
  const hit = elementAt(p);
  if (hits(el, hit) || composedContains(el, hit)) return hit;
  throw new ActionError(
    `At (${round1(p.x)}, ${round1(p.y)}) ${named(el)} is covered by ${wrapUntrustedInline(describeCover(hit))}. Pick another point, or close what covers it first.`,
  );
}

export const fmtPoint = (p: Point): string => `(${Math.round(p.x)}, ${Math.round(p.y)})`;
