/**
 * The element Tab (or Shift+Tab) moves focus to, found in slices and bounded by the distance to it (#24). The old
 * search listed every focusable element of the page, checked each one's visibility and then looked up the current
 * one: 3 s on a 10,000-row table, all of it holding the page's main thread. Sequential focus order is: elements with
 * a positive tabindex first (by value, then page order), then the others in page order. So from an ordinary
 * element the next stop is the next candidate in page order — usually a few elements away — and the positive ones
 * only matter from one of them, at either end of the page, or from nowhere; only then is the whole page searched
 * (for them, in slices, until the deadline).
 */
import { isDisabled } from '../describe.ts';
import { runSliced, Slicer } from '../slices.ts';
import { elementsAfter, elementsBefore } from '../treeOrder.ts';
import { isElementVisible } from '../visibility.ts';

const FOCUSABLE =
  'a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]';

/** The element's tabindex as focus order sees it; null when Tab never stops on it (not focusable, or negative). */
function tabStop(el: Element): number | null {
  if (!el.matches(FOCUSABLE)) return null;
  const raw = el.getAttribute('tabindex');
  const ti = raw === null ? 0 : Number.parseInt(raw, 10);
  if (Number.isNaN(ti)) return 0;
  if (ti < 0) return null;
  return isDisabled(el) || !isElementVisible(el) ? null : ti;
}

/** The first Tab stop of tabindex 0 in `order` (positive ones come earlier in focus order and are skipped). */
function* firstOrdinary(order: Generator<Element, void, void>, slicer: Slicer): Generator<void, Element | null, void> {
  for (const el of order) {
    if (tabStop(el) === 0) return el;
    if (slicer.due()) yield;
    if (slicer.overtime) return null;
  }
  return null;
}

/** Every Tab stop with a positive tabindex, sorted as focus visits them. A whole-page walk, so only when needed. */
function* positives(slicer: Slicer): Generator<void, HTMLElement[], void> {
  const found: { el: HTMLElement; ti: number; i: number }[] = [];
  for (const el of elementsAfter(null)) {
    if (el.hasAttribute('tabindex')) {
      const ti = tabStop(el);
      if (ti !== null && ti > 0) found.push({ el: el as HTMLElement, ti, i: found.length });
    }
    if (slicer.due()) yield;
    if (slicer.overtime) break;
  }
  return found.sort((a, b) => a.ti - b.ti || a.i - b.i).map((f) => f.el);
}

function* search(from: Element | null, backward: boolean, slicer: Slicer): Generator<void, Element | null, void> {
  const raw = from?.getAttribute('tabindex');
  const fromTi = raw ? Number.parseInt(raw, 10) : 0;
  // From an ordinary element the neighbour in page order wins if there is one: no census needed.
  if (from && !(fromTi > 0)) {
    const near = yield* firstOrdinary(backward ? elementsBefore(from) : elementsAfter(from), slicer);
    if (near) return near;
  }
  const pos = yield* positives(slicer);
  const at = from ? pos.indexOf(from as HTMLElement) : -1;
  const firstZero = (): Generator<void, Element | null, void> =>
    firstOrdinary(backward ? elementsBefore(null) : elementsAfter(null), slicer);
  if (!backward) {
    if (at >= 0 && at + 1 < pos.length) return pos[at + 1]!;
    // Past the last positive: the first ordinary stop. From nowhere, or wrapping from the end: the first stop.
    if (at >= 0) return (yield* firstZero()) ?? pos[0] ?? null;
    return pos[0] ?? (yield* firstZero());
  }
  if (at > 0) return pos[at - 1]!;
  // Before the first positive (or from nowhere): wrap to the last ordinary stop. From the first ordinary: the last positive.
  if (at === 0 || !from) return (yield* firstZero()) ?? pos[pos.length - 1] ?? null;
  return pos[pos.length - 1] ?? (yield* firstZero());
}

/**
 * The element Tab (Shift+Tab when `backward`) focuses next after `from` (null: nothing focused), or null when the
 * page has none or the deadline passed first.
 */
export function nextTabStop(from: Element | null, backward: boolean, deadline: number): Promise<Element | null> {
  const slicer = new Slicer(deadline);
  return runSliced(search(from, backward, slicer), slicer, { what: 'focus search' });
}
