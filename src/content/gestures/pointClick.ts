/**
 * A click at a point — on a canvas, a chart, an SVG map, an image map — where no element has a ref of its own: x/y
 * from the target's top-left corner (default its centre), or in the viewport without a target. The full click
 * sequence goes to what is under the pointer at that point, with clientX/clientY/offsetX set from it, so a canvas
 * handler that hit-tests the coordinates finds the slice a person would have clicked.
 */
import { describeElement } from '../describe.ts';
import { withRef } from './moved.ts';
import { dispatchClick, type ClickOptions } from '../actions/pointer.ts';
import { ActionError } from '../targets.ts';
import { elementAt, fmtPoint, hitInside, pointIn } from './points.ts';

/** The submit control at a hit (a button of a form, or input type=submit/image), if any. */
function submitControlAt(hit: Element): HTMLButtonElement | HTMLInputElement | undefined {
  const c = hit.closest('button, input');
  if (!c) return undefined;
  if (c instanceof HTMLButtonElement) return c.type === 'submit' && c.form ? c : undefined;
  if (c instanceof HTMLInputElement) return (c.type === 'submit' || c.type === 'image') && c.form ? c : undefined;
  return undefined;
}

export interface PointClick {
  target: string;
  summary: string;
  hit: Element;
}

export function clickAt(
  el: Element | undefined,
  x: number | undefined,
  y: number | undefined,
  opts: ClickOptions,
): PointClick {
  const p = el ? pointIn(el, x, y) : { x: x ?? 0, y: y ?? 0 };
  const hit = el ? hitInside(el, p) : elementAt(p);
  // A point on a submit button is a click on it: that click asks the user first when it names the button, so a
  // point click may not reach one it does not name.
  const submit = (opts.button ?? 'left') === 'left' ? submitControlAt(hit) : undefined;
  if (submit && submit !== el)
    throw new ActionError(
      `That point is on ${withRef(submit)}, which submits a form: click it by its ref (dom.click(ref=…)), which asks the user first.`,
    );
  dispatchClick(hit, p.x, p.y, opts);
  const where = el
    ? `at (${Math.round(x ?? p.x - el.getBoundingClientRect().left)}, ${Math.round(y ?? p.y - el.getBoundingClientRect().top)}) in it, viewport ${fmtPoint(p)}`
    : `at viewport ${fmtPoint(p)}`;
  const target = describeElement(el ?? hit);
  const on =
    el && hit !== el
      ? `; the pointer was over ${describeElement(hit)}`
      : !el
        ? ` — ${describeElement(hit)} is there`
        : '';
  return { target, summary: `${target} ${where}${on}`, hit };
}
