/**
 * dom.hover's pointer, one step per request (#43): it moves to an element (a point in it, default its centre) or a
 * viewport point along a path from where it last was (a move every few pixels, one frame apart, on whatever is under
 * it — so hover trails, tooltips that follow the mouse and drags see a path), may put the left button down or let it
 * up there, and may stay still for a while. While it stays, a page that moves things under it (a target that jumps
 * every two seconds) gets the boundary events Chrome sends when the element under a still mouse changes. The button
 * stays down across requests until released, so a drag with chosen intermediate points or a long press is possible.
 * No click follows a release: a click is dom.click's, which asks the user first on a submit button.
 */
import { deepElementFromPoint } from '../flatTree.ts';
import { describeElement } from '../describe.ts';
import { BUTTONS_MASK, dispatchHover, hoveredElement, pointerPosition } from '../actions/pointer.ts';
import { ActionError } from '../targets.ts';
import { nextFrame, path, pressAt, releaseAt } from './mouse.ts';
import { elementAt, fmtPoint, hitInside, pointIn, type Point } from './points.ts';

export interface PointerStep {
  el?: Element;
  x?: number;
  y?: number;
  holdMs?: number;
  press?: 'down' | 'up';
}

/** Pixels between two moves of a path, and the most moves one path makes. */
const STEP_PX = 12;
const MAX_STEPS = 25;
/** How often a still pointer looks at what is under it. */
const HOLD_POLL_MS = 50;

/** The element the left button went down on, while it is down (across requests, in this frame). */
let pressed: Element | undefined;

/** Where the step ends: in the element, at the viewport point, or where the pointer already is. */
function destination(step: PointerStep): Point {
  if (step.el) return pointIn(step.el, step.x, step.y);
  if (step.x !== undefined && step.y !== undefined) return { x: step.x, y: step.y };
  if (step.x !== undefined || step.y !== undefined)
    throw new ActionError('A viewport point needs both x and y (or give a ref to aim inside an element).');
  const at = pointerPosition();
  if (!at)
    throw new ActionError(
      'Otto’s pointer has not been on this page yet: give a ref, or x and y, for where to put it first.',
    );
  return at;
}

/** Moves from where the pointer was to `to` in steps, the last one on `hit`. */
async function travel(to: Point, hit: Element, buttons: number): Promise<number> {
  const from = pointerPosition();
  const far = from ? Math.hypot(to.x - from.x, to.y - from.y) : 0;
  const steps = from && far >= 1 ? Math.min(MAX_STEPS, Math.max(1, Math.ceil(far / STEP_PX))) : 1;
  const points = from && far >= 1 ? path(from, to, steps) : [to];
  for (let i = 0; i < points.length - 1; i++) {
    const p = points[i]!;
    const under = deepElementFromPoint(p.x, p.y);
    if (under) dispatchHover(under, p.x, p.y, [], buttons);
    await nextFrame();
  }
  dispatchHover(hit, to.x, to.y, [], buttons);
  return steps;
}

/** Stays at `at` for `ms`; returns the elements that came under the pointer meanwhile (each told it was entered). */
async function stay(at: Point, first: Element, ms: number, buttons: number): Promise<Element[]> {
  const end = performance.now() + ms;
  const came: Element[] = [];
  let under = first;
  for (let left = ms; left > 0; left = end - performance.now()) {
    await new Promise((r) => setTimeout(r, Math.min(HOLD_POLL_MS, left)));
    const now = deepElementFromPoint(at.x, at.y);
    if (!now || now === under) continue;
    dispatchHover(now, at.x, at.y, [], buttons);
    under = now;
    if (came.length < 8) came.push(now);
  }
  return came;
}

function checkPress(press: PointerStep['press']): void {
  if (press === 'down' && pressed?.isConnected)
    throw new ActionError(
      `The left button is already down (pressed on ${describeElement(pressed)}): release it first with press='up'.`,
    );
  if (press === 'up' && !pressed)
    throw new ActionError("The left button is not down in this frame: press it first with press='down'.");
}

/** Where the step went, in the words of the report. */
function place(step: PointerStep, p: Point, hit: Element): string {
  if (!step.el) return `viewport ${fmtPoint(p)} — ${describeElement(hit)} is there`;
  const target = describeElement(step.el);
  if (step.x === undefined && step.y === undefined) return target;
  const r = step.el.getBoundingClientRect();
  const inIt = `at (${Math.round(p.x - r.left)}, ${Math.round(p.y - r.top)}) in it, viewport ${fmtPoint(p)}`;
  return `${target} ${inIt}${hit !== step.el ? `; the pointer is over ${describeElement(hit)}` : ''}`;
}

export interface PointerStepResult {
  summary: string;
  hit: Element;
}

/** One step of the pointer: move (with the button as it is), then press or release, then stay. */
export async function pointerStep(step: PointerStep): Promise<PointerStepResult> {
  checkPress(step.press);
  if (pressed && !pressed.isConnected && step.press !== 'up') pressed = undefined;
  const p = destination(step);
  const hit = step.el ? hitInside(step.el, p) : elementAt(p);
  const held = pressed ? BUTTONS_MASK.left : 0;
  const steps = await travel(p, hit, held);
  let verb = held ? 'moved the pointer (left button held) to' : 'hovered';
  if (step.press === 'down') {
    pressed = hit;
    const press = pressAt(hit, p);
    verb = `pressed the left button${press.cancelled ? ' (the page cancelled pointerdown/mousedown)' : ''} on`;
  } else if (step.press === 'up') {
    releaseAt(p, pressed ?? hit);
    pressed = undefined;
    verb = 'released the left button on';
  }
  const parts = [`${verb} ${place(step, p, hit)}`];
  if (steps > 1) parts.push(`moved there in ${steps} steps`);
  if (step.holdMs) {
    const came = await stay(p, hit, step.holdMs, pressed ? BUTTONS_MASK.left : 0);
    parts.push(
      `stayed ${step.holdMs} ms${came.length ? `; meanwhile the pointer came over ${came.map(describeElement).join(', then ')}` : ''}`,
    );
  }
  return { summary: parts.join('; '), hit };
}

/**
 * Run before a step is watched: when the page moved things under the still pointer since Otto's last pointer event
 * (a target that jumped away), what is there now gets the boundary events Chrome would have sent at that moment, so
 * the step's report compares against the page as a person's pointer would have left it.
 */
export function catchUp(): void {
  const at = pointerPosition();
  const was = hoveredElement();
  if (!at || !was) return;
  const now = deepElementFromPoint(at.x, at.y);
  if (now && now !== was) dispatchHover(now, at.x, at.y, [], pressed ? BUTTONS_MASK.left : 0);
}

/** What the step will act on, found without side effects (the change report watches its neighbourhood). */
export function pointerSubject(step: PointerStep): Element | undefined {
  if (step.el) return step.el;
  const p = step.x !== undefined && step.y !== undefined ? { x: step.x, y: step.y } : pointerPosition();
  return p ? (deepElementFromPoint(p.x, p.y) ?? undefined) : undefined;
}
