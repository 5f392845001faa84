/**
 * Clicking and hovering like a mouse: scroll the element into view, check that it is visible, enabled and not
 * covered (elementFromPoint at the point we would click; the covering element is named), then dispatch the full
 * pointer/mouse sequence on the topmost element at that point — pointerover/enter, mouseover/enter, pointermove,
 * mousemove, pointerdown, mousedown, (focus), pointerup, mouseup, click — with double and right clicks.
 */
import { labelsOf } from '../names.ts';
import { composedContains, deepElementFromPoint, parentOf } from '../flatTree.ts';
import { describeElement, isDisabled, tagHint, named } from '../describe.ts';
import { hiddenReason, layoutAvailable } from '../visibility.ts';
import { ActionError } from '../targets.ts';
import { wrapUntrustedInline } from '../../shared/untrusted.ts';

export type Button = 'left' | 'right' | 'middle';
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

export interface ClickOptions {
  button?: Button;
  clickCount?: number;
  modifiers?: Modifier[];
}

const BUTTON_CODE: Record<Button, number> = { left: 0, middle: 1, right: 2 };
export const BUTTONS_MASK: Record<Button, number> = { left: 1, middle: 4, right: 2 };

let lastHover: Element | null = null;
/** Where Otto's pointer last was in this frame (viewport px): where the next dom.hover's path starts. */
let lastPoint: { x: number; y: number } | undefined;

export const pointerPosition = (): { x: number; y: number } | undefined => lastPoint;
/** The element Otto's pointer last entered in this frame. */
export const hoveredElement = (): Element | null => lastHover;

function inViewport(r: DOMRect): boolean {
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** The part of `r` not clipped by the viewport or by any ancestor that clips its overflow (nested scrollers). */
function visibleRect(
  el: Element,
  r: DOMRect,
): { left: number; top: number; right: number; bottom: number } | undefined {
  let left = Math.max(r.left, 0);
  let top = Math.max(r.top, 0);
  let right = Math.min(r.right, innerWidth);
  let bottom = Math.min(r.bottom, innerHeight);
  for (let n = parentOf(el); n && n !== document.documentElement && n !== document.body; n = parentOf(n)) {
    const s = getComputedStyle(n);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const c = n.getBoundingClientRect();
    if (s.overflowX !== 'visible') {
      left = Math.max(left, c.left);
      right = Math.min(right, c.right);
    }
    if (s.overflowY !== 'visible') {
      top = Math.max(top, c.top);
      bottom = Math.min(bottom, c.bottom);
    }
    if (s.position === 'fixed') break;
  }
  return right > left && bottom > top ? { left, top, right, bottom } : undefined;
}

/** The point we would click: the centre of the element's first box that shows in the viewport and its scrollers. */
function clickPoint(el: Element): { x: number; y: number } | undefined {
  const rects = Array.from(el.getClientRects());
  const boxes = rects.length ? rects : [el.getBoundingClientRect()];
  for (const r of boxes) {
    if (r.width <= 0 || r.height <= 0 || !inViewport(r)) continue;
    const v = visibleRect(el, r);
    if (v) return { x: (v.left + v.right) / 2, y: (v.top + v.bottom) / 2 };
  }
  return undefined;
}

/**
 * Scrolls every scroller between the element and the window (not just the window) until the element shows: an
 * element below the fold of a scrolled list is inside the viewport yet clipped by its container.
 */
export function scrollIntoViewIfNeeded(el: Element): void {
  if (!layoutAvailable()) return;
  const r = el.getBoundingClientRect();
  const v = visibleRect(el, r);
  const fully =
    !!v && v.left <= r.left + 0.5 && v.top <= r.top + 0.5 && v.right >= r.right - 0.5 && v.bottom >= r.bottom - 0.5;
  if (!fully) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
}

/** Whether `hit` (what is at the point) counts as hitting `el`. */
export function hits(el: Element, hit: Element): boolean {
  if (composedContains(el, hit)) return true;
  // A label forwards its clicks to its control, and the control to... itself.
  if (hit.localName === 'label' && (hit as HTMLLabelElement).control === el) return true;
  if (el.localName === 'label' && (el as HTMLLabelElement).control === hit) return true;
  for (const l of labelsOf(el)) if (composedContains(l, hit)) return true;
  return false;
}

/** The covering element, described by its nearest meaningful ancestor, and the dialog it belongs to if any. */
export function describeCover(hit: Element): string {
  let cover: Element = hit;
  let n: Element | null = hit;
  for (let i = 0; n && i < 4; i++, n = parentOf(n)) {
    if (
      n.id ||
      n.getAttribute('role') ||
      n.getAttribute('aria-label') ||
      /modal|overlay|backdrop|dialog|cookie|banner|popup|consent/i.test(String(n.className))
    ) {
      cover = n;
      break;
    }
  }
  const dialog =
    cover.closest('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]') ??
    cover.querySelector('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]');
  const inDialog = dialog && dialog !== cover ? ` (part of the open ${describeElement(dialog)})` : '';
  return `${describeElement(cover)} ${tagHint(cover)}${inDialog}`;
}

export interface Actionable {
  x: number;
  y: number;
  hit: Element;
}

/** Scrolls `el` into view and checks it can be clicked; returns the point and the element there. */
export function ensureClickable(el: Element, needEnabled = true): Actionable {
  const hidden = hiddenReason(el);
  if (hidden)
    throw new ActionError(
      `${named(el)} is not visible: ${hidden}. It may appear after another step (open its menu, tab or dialog); take a new snapshot to see what is visible.`,
    );
  if (needEnabled && isDisabled(el))
    throw new ActionError(
      `${named(el)} is disabled. Complete what enables it first (e.g. fill required fields), then take a new snapshot.`,
    );
  scrollIntoViewIfNeeded(el);
  if (!layoutAvailable()) return { x: 0, y: 0, hit: el };
  const p = clickPoint(el);
  if (!p)
    throw new ActionError(
      `${named(el)} could not be scrolled into view (it lies outside the visible area). Scroll its container with dom.scroll, then retry.`,
    );
  const hit = deepElementFromPoint(p.x, p.y);
  if (!hit) throw new ActionError(`Nothing is at ${named(el)}'s position on screen. Take a new snapshot.`);
  // The page's root or body at the point means nothing is drawn there (the element is clipped, off its scroller or
  // transparent to hits), never that <html> "covers" it.
  if ((hit === document.documentElement || hit === document.body) && !hits(el, hit))
    throw new ActionError(
      `${named(el)} could not be brought into view at a clickable spot (it is clipped by its container). Scroll to it with dom.scroll(ref=...), then retry.`,
    );
  if (!hits(el, hit)) {
    const style = getComputedStyle(el);
    if (style.pointerEvents === 'none')
      throw new ActionError(
        `${named(el)} does not receive clicks (pointer-events: none); ${wrapUntrustedInline(describeCover(hit))} is what a click there would reach.`,
      );
    throw new ActionError(
      `${named(el)} is covered by ${wrapUntrustedInline(describeCover(hit))}. Close or dismiss that first (for example its close or accept button), or scroll, then retry.`,
    );
  }
  return { x: p.x, y: p.y, hit };
}

export function mouseInit(
  x: number,
  y: number,
  button: Button,
  buttons: number,
  detail: number,
  mods: Modifier[],
): MouseEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    detail,
    clientX: x,
    clientY: y,
    screenX: x + (window.screenX || 0),
    screenY: y + (window.screenY || 0),
    button: BUTTON_CODE[button],
    buttons,
    ctrlKey: mods.includes('Control'),
    shiftKey: mods.includes('Shift'),
    altKey: mods.includes('Alt'),
    metaKey: mods.includes('Meta'),
  };
}

export function pointer(type: string, init: MouseEventInit): PointerEvent | MouseEvent {
  const p = {
    ...init,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    width: 1,
    height: 1,
    pressure: init.buttons ? 0.5 : 0,
  };
  return typeof PointerEvent === 'function' ? new PointerEvent(type, p) : new MouseEvent(type, init);
}

function focusTarget(from: Element): void {
  for (let n: Element | null = from; n; n = parentOf(n)) {
    const h = n as HTMLElement;
    if (
      n.matches(
        'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]',
      ) &&
      !isDisabled(n)
    ) {
      h.focus({ preventScroll: true });
      return;
    }
  }
  // Clicking something unfocusable moves focus away from the focused field (and so commits it).
  const active = document.activeElement as HTMLElement | null;
  if (active && active !== document.body) active.blur();
}

/** Dispatches the hover part of the sequence (leaving the previously hovered element); `buttons`: those held. */
export function dispatchHover(target: Element, x: number, y: number, mods: Modifier[] = [], buttons = 0): void {
  const init = mouseInit(x, y, 'left', buttons, 0, mods);
  if (lastHover && lastHover !== target && lastHover.isConnected) {
    lastHover.dispatchEvent(pointer('pointerout', { ...init, relatedTarget: target }));
    lastHover.dispatchEvent(pointer('pointerleave', { ...init, bubbles: false, relatedTarget: target }));
    lastHover.dispatchEvent(new MouseEvent('mouseout', { ...init, relatedTarget: target }));
    lastHover.dispatchEvent(new MouseEvent('mouseleave', { ...init, bubbles: false, relatedTarget: target }));
  }
  if (lastHover !== target) {
    target.dispatchEvent(pointer('pointerover', init));
    target.dispatchEvent(pointer('pointerenter', { ...init, bubbles: false }));
    target.dispatchEvent(new MouseEvent('mouseover', init));
    target.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
  }
  target.dispatchEvent(pointer('pointermove', init));
  target.dispatchEvent(new MouseEvent('mousemove', init));
  lastHover = target;
  lastPoint = { x, y };
}

/** Dispatches a full click sequence at (x, y) on `target`. */
export function dispatchClick(target: Element, x: number, y: number, opts: ClickOptions = {}): void {
  const button = opts.button ?? 'left';
  const count = opts.clickCount ?? 1;
  const mods = opts.modifiers ?? [];
  dispatchHover(target, x, y, mods);
  for (let i = 1; i <= count; i++) {
    const down = mouseInit(x, y, button, BUTTONS_MASK[button], i, mods);
    const up = mouseInit(x, y, button, 0, i, mods);
    const pointerDownOk = target.dispatchEvent(pointer('pointerdown', down));
    let mouseDownOk = true;
    if (pointerDownOk) mouseDownOk = target.dispatchEvent(new MouseEvent('mousedown', down));
    if (mouseDownOk && i === 1) focusTarget(target);
    target.dispatchEvent(pointer('pointerup', up));
    if (pointerDownOk) target.dispatchEvent(new MouseEvent('mouseup', up));
    if (button === 'left') target.dispatchEvent(new MouseEvent('click', up));
    else if (button === 'middle') target.dispatchEvent(new MouseEvent('auxclick', up));
    else target.dispatchEvent(new MouseEvent('contextmenu', up));
  }
  if (count === 2 && button === 'left')
    target.dispatchEvent(new MouseEvent('dblclick', mouseInit(x, y, button, 0, 2, mods)));
}

/** Click an element the way a person would, or fail saying why not. */
export function clickElement(el: Element, opts: ClickOptions = {}): { hit: Element } {
  const { x, y, hit } = ensureClickable(el);
  dispatchClick(hit, x, y, opts);
  return { hit };
}

export function hoverElement(el: Element): { hit: Element } {
  const { x, y, hit } = ensureClickable(el, false);
  dispatchHover(hit, x, y);
  return { hit };
}
