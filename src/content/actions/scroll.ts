/**
 * Scrolling: an element into view, the page (or a container) by pages, or to the top/bottom. Pages whose document
 * does not scroll (app layouts that scroll an inner element) scroll their largest scrollable element in view instead.
 */
import { describeElement } from '../describe.ts';
import { deepElementFromPoint, parentOf } from '../flatTree.ts';
import { styleOf } from '../visibility.ts';

export interface ScrollRequest {
  target?: Element;
  to?: 'top' | 'bottom';
  direction?: 'up' | 'down' | 'left' | 'right';
  pages?: number;
}

export interface ScrollResult {
  scroller: string;
  before: { x: number; y: number };
  after: { x: number; y: number };
  atTop: boolean;
  atBottom: boolean;
  summary: string;
}

const INSTANT = 'instant' as ScrollBehavior;

function canScroll(el: Element, vertical = true): boolean {
  const s = styleOf(el);
  const overflow = vertical ? s?.overflowY : s?.overflowX;
  const size = vertical ? el.scrollHeight > el.clientHeight + 1 : el.scrollWidth > el.clientWidth + 1;
  return size && (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay');
}

function documentScrolls(): boolean {
  const se = document.scrollingElement ?? document.documentElement;
  return se.scrollHeight > innerHeight + 1;
}

/**
 * The largest scrollable element a person sees: the scroll containers under a grid of points across the viewport.
 * Testing every element of the page instead (as before #24) held a big page's main thread for the whole walk, and a
 * scroller nobody can see is not the one they mean.
 */
function largestScrollable(): Element | undefined {
  let best: Element | undefined;
  let area = 0;
  const seen = new Set<Element>();
  for (const fx of [0.2, 0.5, 0.8])
    for (const fy of [0.2, 0.5, 0.8]) {
      for (let el = deepElementFromPoint(innerWidth * fx, innerHeight * fy); el; el = parentOf(el)) {
        if (seen.has(el)) break;
        seen.add(el);
        if (el === document.body || el === document.documentElement || !canScroll(el)) continue;
        const a = el.clientWidth * el.clientHeight;
        if (a > area) {
          area = a;
          best = el;
        }
      }
    }
  return best;
}

function scrollableAncestor(el: Element, vertical: boolean): Element | undefined {
  for (let n: Element | null = el; n; n = parentOf(n))
    if (n !== document.body && n !== document.documentElement && canScroll(n, vertical)) return n;
  return undefined;
}

export function scrollPage(req: ScrollRequest): ScrollResult {
  const vertical = req.direction !== 'left' && req.direction !== 'right';
  // Scrolling an element into view.
  if (req.target && !req.to && !req.pages) {
    const before = { x: scrollX, y: scrollY };
    req.target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: INSTANT });
    const se = document.scrollingElement ?? document.documentElement;
    return {
      scroller: 'page',
      before,
      after: { x: scrollX, y: scrollY },
      atTop: scrollY <= 0,
      atBottom: scrollY + innerHeight >= se.scrollHeight - 2,
      summary: `scrolled ${describeElement(req.target)} into view`,
    };
  }
  let scroller: Element | undefined;
  if (req.target) scroller = canScroll(req.target, vertical) ? req.target : scrollableAncestor(req.target, vertical);
  if (!scroller && !documentScrolls()) scroller = largestScrollable();
  const se = document.scrollingElement ?? document.documentElement;
  const box = scroller ?? se;
  const isPage = !scroller;
  const pos = (): { x: number; y: number } =>
    isPage ? { x: scrollX, y: scrollY } : { x: box.scrollLeft, y: box.scrollTop };
  const before = pos();
  const viewH = isPage ? innerHeight : box.clientHeight;
  const viewW = isPage ? innerWidth : box.clientWidth;
  const by = (dx: number, dy: number): void =>
    isPage
      ? window.scrollBy({ left: dx, top: dy, behavior: INSTANT })
      : box.scrollBy({ left: dx, top: dy, behavior: INSTANT });
  const to = (x: number, y: number): void =>
    isPage
      ? window.scrollTo({ left: x, top: y, behavior: INSTANT })
      : box.scrollTo({ left: x, top: y, behavior: INSTANT });
  if (req.to === 'top') to(before.x, 0);
  else if (req.to === 'bottom') to(before.x, box.scrollHeight);
  else {
    const pages = req.pages ?? 1;
    const dir = req.direction ?? 'down';
    const sign = dir === 'up' || dir === 'left' ? -1 : 1;
    if (dir === 'left' || dir === 'right') by(sign * pages * viewW * 0.9, 0);
    else by(0, sign * pages * viewH * 0.9);
  }
  const after = pos();
  const atTop = after.y <= 0;
  const atBottom = after.y + viewH >= box.scrollHeight - 2;
  const name = isPage ? 'the page' : describeElement(box);
  const moved = after.y !== before.y || after.x !== before.x;
  const where = atBottom ? ' (reached the bottom)' : atTop ? ' (at the top)' : '';
  return {
    scroller: isPage ? 'page' : describeElement(box),
    before,
    after,
    atTop,
    atBottom,
    summary: moved
      ? `scrolled ${name} from y=${Math.round(before.y)} to y=${Math.round(after.y)} of ${box.scrollHeight}${where}`
      : `${name} did not move${where}`,
  };
}
