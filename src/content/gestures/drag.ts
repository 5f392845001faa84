/**
 * dom.drag: grab an element (its centre, a point, or its resize corner) and move it to another element (its centre
 * or a point inside it) or by an offset. `auto` does what Chrome does after the button goes down: when the page
 * did not cancel mousedown and the element under the pointer is draggable (draggable="true", which SortableJS sets
 * on pointerdown; links and images), an HTML5 drag follows (html5.ts); otherwise the mouse moves with the button
 * held (mouse.ts). The report says how it was done and what moved (moved.ts).
 */
import { describeElement, named } from '../describe.ts';
import { parentOf } from '../flatTree.ts';
import { ActionError, resolveTarget } from '../targets.ts';
import { html5Drag } from './html5.ts';
import { mouseDrag, pressAt } from './mouse.ts';
import { placement, whatMoved, containerName } from './moved.ts';
import { fmtPoint, hitInside, pointIn, resizeCorner, type Point } from './points.ts';
import { nativelyResizable, resizeNatively, sizeOf } from './resize.ts';
import { wrapUntrustedInline } from '../../shared/untrusted.ts';

export interface DragRequest {
  ref?: string;
  selector?: string;
  toRef?: string;
  toSelector?: string;
  dx?: number;
  dy?: number;
  toX?: number;
  toY?: number;
  resize?: boolean;
  method?: 'auto' | 'html5' | 'mouse';
  steps?: number;
}

export interface DragResult {
  target: string;
  summary: string;
  details: Record<string, unknown>;
}

/** The draggable element a drag starting on `hit` would carry, as Chrome picks it. */
function draggableFrom(hit: Element): Element | undefined {
  for (let n: Element | null = hit, i = 0; n && i < 12; n = parentOf(n), i++)
    if ((n as HTMLElement).draggable === true) return n;
  return undefined;
}

export async function drag(req: DragRequest): Promise<DragResult> {
  const el = resolveTarget(req);
  const target = describeElement(el);
  const hasTo = !!(req.toRef || req.toSelector);
  const hasOffset = req.dx !== undefined || req.dy !== undefined;
  if (hasTo === hasOffset)
    throw new ActionError(
      'dom.drag needs one destination: to_ref/to_selector (another element), or dx/dy (an offset in pixels).',
    );
  if (!hasTo && (req.toX !== undefined || req.toY !== undefined))
    throw new ActionError(
      'to_x/to_y are a point inside the destination element: give to_ref (or to_selector) with them.',
    );

  const dest = hasTo
    ? resolveTarget({
        ...(req.toRef ? { ref: req.toRef } : {}),
        ...(req.toSelector ? { selector: req.toSelector } : {}),
      })
    : undefined;
  if (dest === el)
    throw new ActionError('The drag starts and ends on the same element: give another destination or an offset.');
  if (dest) bothInView(el, dest);
  const from = req.resize ? resizeCorner(el) : pointIn(el);
  const hit = hitInside(el, from);
  // The destination is measured only now: bringing the source into view may have scrolled the page.
  let to: Point;
  if (dest) {
    const r = dest.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0)
      throw new ActionError(`The destination ${named(dest)} has no box on screen (hidden?). Take a new snapshot.`);
    to = req.toX !== undefined || req.toY !== undefined ? pointInBox(dest, r, req.toX, req.toY) : pastCentre(r, from);
    if (to.y < 0 || to.y >= innerHeight || to.x < 0 || to.x >= innerWidth)
      throw new ActionError(
        `${named(dest)} is off screen while ${wrapUntrustedInline(target)} is in view, and a drag cannot scroll the page. Scroll so both show (dom.scroll), or drag in steps with dx/dy.`,
      );
  } else to = { x: from.x + (req.dx ?? 0), y: from.y + (req.dy ?? 0) };
  const steps = req.steps ?? 10;
  const before = placement(el);
  const sizeBefore = sizeOf(el);

  let method: 'html5' | 'mouse' = req.method === 'html5' ? 'html5' : 'mouse';
  let note = '';
  let dropLine = '';
  if (req.method === 'html5') {
    const r = await html5Drag(draggableFrom(hit) ?? el, from, to, steps);
    dropLine = dropReport(r);
  } else {
    const press = pressAt(hit, from);
    const carried = req.method === 'mouse' || press.cancelled || req.resize ? undefined : draggableFrom(hit);
    if (carried) {
      method = 'html5';
      const r = await html5Drag(carried, from, to, steps);
      dropLine = dropReport(r);
    } else await mouseDrag(hit, from, to, steps, press);
  }

  let resized = '';
  if (req.resize) {
    const now = sizeOf(el);
    const axis = nativelyResizable(el);
    if (now.width === sizeBefore.width && now.height === sizeBefore.height && axis && el instanceof HTMLElement) {
      resizeNatively(el, to.x - from.x, to.y - from.y, axis);
      note =
        ' (the browser’s own resize grip ignores scripted mouse events, so Otto set the new size as the grip would)';
    }
    const after = sizeOf(el);
    resized =
      after.width === sizeBefore.width && after.height === sizeBefore.height
        ? `the size stayed ${sizeBefore.width}×${sizeBefore.height} px (no resize grip answered at that corner)`
        : `resized from ${sizeBefore.width}×${sizeBefore.height} to ${after.width}×${after.height} px${note}`;
  }

  const moved = req.resize ? undefined : whatMoved(before, el);
  const destText = dest
    ? ` onto ${describeElement(dest)}`
    : ` by (${Math.round(to.x - from.x)}, ${Math.round(to.y - from.y)}) px`;
  const how = method === 'html5' ? 'HTML5 drag and drop' : 'mouse drag';
  const lines = [
    `dragged ${target}${req.resize ? ' by its resize corner' : ''}${destText} (${how}, ${fmtPoint(from)} → ${fmtPoint(to)})`,
  ];
  if (dropLine) lines.push(dropLine);
  if (resized) lines.push(resized);
  if (moved) lines.push(...moved.lines);
  const details: Record<string, unknown> = { method, moved: moved?.moved ?? resized.startsWith('resized') };
  if (moved?.container) details.container = moved.container;
  if (dest) details.destination = containerName(dest);
  return { target, summary: lines.join('\n'), details };
}

/**
 * Where a person lets go over an element: a quarter past its centre in the direction of travel. List libraries swap
 * an item once the pointer crosses the target's middle moving that way (jQuery UI sortable); exactly on the middle
 * is a coin toss after rounding.
 */
function pastCentre(r: DOMRect, from: Point): Point {
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const nudge = (d: number, size: number): number => (d > 2 ? size / 4 : d < -2 ? -size / 4 : 0);
  return { x: cx + nudge(cx - from.x, r.width), y: cy + nudge(cy - from.y, r.height) };
}

/** Scrolls the page so both ends of a drag show, when they fit in the viewport together (a person scrolls first too). */
function bothInView(a: Element, b: Element): void {
  const ra = a.getBoundingClientRect();
  const rb = b.getBoundingClientRect();
  const top = Math.min(ra.top, rb.top);
  const bottom = Math.max(ra.bottom, rb.bottom);
  const left = Math.min(ra.left, rb.left);
  const right = Math.max(ra.right, rb.right);
  const dy =
    top < 0 || bottom > innerHeight ? (bottom - top <= innerHeight ? (top + bottom - innerHeight) / 2 : top) : 0;
  const dx = left < 0 || right > innerWidth ? (right - left <= innerWidth ? (left + right - innerWidth) / 2 : left) : 0;
  if (dx || dy) window.scrollBy({ left: dx, top: dy, behavior: 'instant' as ScrollBehavior });
}

function pointInBox(el: Element, r: DOMRect, x?: number, y?: number): Point {
  const ox = x ?? r.width / 2;
  const oy = y ?? r.height / 2;
  if (ox < 0 || oy < 0 || ox > r.width || oy > r.height)
    throw new ActionError(
      `to_x/to_y (${ox}, ${oy}) fall outside ${named(el)}, whose box is ${Math.round(r.width)}×${Math.round(r.height)} px.`,
    );
  return { x: r.left + ox, y: r.top + oy };
}

function dropReport(r: { started: boolean; dropped: boolean; over?: Element; dropEffect: string }): string {
  if (!r.started) return 'the page cancelled dragstart: nothing was dragged';
  if (r.dropped) return `dropped on ${r.over ? describeElement(r.over) : 'the page'} (drop effect ${r.dropEffect})`;
  return `not dropped: ${r.over ? describeElement(r.over) : 'the point'} does not accept drops (the page did not cancel dragover there)`;
}
