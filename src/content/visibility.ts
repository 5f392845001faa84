/**
 * What a person can see. The snapshot walk checks styles top-down (a `display:none` subtree is skipped whole);
 * actions check one element at a time with `isElementVisible`.
 *
 * Without a layout engine (happy-dom in unit tests) boxes are all zero: `layoutAvailable()` turns size checks off.
 */
import { parentOf } from './flatTree.ts';

let layoutOverride: boolean | undefined;

/** Tests without a layout engine call `setLayoutAvailable(false)`; by default it is detected. */
export function setLayoutAvailable(value: boolean | undefined): void {
  layoutOverride = value;
}

/** The user agent's answer, read once: the walk asks per element, and the test cost ~5% of a search's CPU (#24). */
let layoutDetected: boolean | undefined;

export function layoutAvailable(): boolean {
  if (layoutOverride !== undefined) return layoutOverride;
  return (layoutDetected ??= !/HappyDOM|jsdom/i.test(typeof navigator === 'undefined' ? '' : navigator.userAgent));
}

let styleCache: Map<Element, CSSStyleDeclaration> | undefined;
let memo: Map<unknown, unknown> | undefined;
let cacheDepth = 0;

/** Opens a walk cache (computed styles, per-root indexes); nestable, and safe across awaits (depth-counted). */
export function openWalkCache(): void {
  if (cacheDepth++ === 0) {
    styleCache = new Map();
    memo = new Map();
  }
}

export function closeWalkCache(): void {
  if (--cacheDepth === 0) {
    styleCache = undefined;
    memo = undefined;
  }
}

/** Caches computed styles for the duration of one walk (nestable). */
export function withStyleCache<T>(fn: () => T): T {
  openWalkCache();
  try {
    return fn();
  } finally {
    closeWalkCache();
  }
}

/**
 * A value computed once per walk (e.g. a root's label index) instead of once per element; computed fresh when no
 * walk is open.
 */
export function walkMemo<T>(key: unknown, make: () => T): T {
  if (!memo) return make();
  if (memo.has(key)) return memo.get(key) as T;
  const v = make();
  memo.set(key, v);
  return v;
}

export function styleOf(el: Element): CSSStyleDeclaration | undefined {
  const cached = styleCache?.get(el);
  if (cached) return cached;
  const view = el.ownerDocument.defaultView;
  if (!view) return undefined;
  let style: CSSStyleDeclaration;
  try {
    style = view.getComputedStyle(el);
  } catch {
    return undefined;
  }
  styleCache?.set(el, style);
  return style;
}

/** A box a person could see: non-empty and not parked off the top/left of the document. */
export function hasVisibleBox(el: Element): boolean {
  if (!layoutAvailable()) return true;
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) {
    // Inline elements wrapping blocks can report an empty box while their fragments show.
    const rects = el.getClientRects();
    let any = false;
    for (let i = 0; i < rects.length; i++) if (rects[i]!.width > 0 && rects[i]!.height > 0) any = true;
    if (!any) return false;
  }
  const view = el.ownerDocument.defaultView;
  const sx = view?.scrollX ?? 0;
  const sy = view?.scrollY ?? 0;
  return r.right + sx > 0 && r.bottom + sy > 0;
}

/** Why an element is not visible, or undefined when it is (checks ancestors, so it suits single elements). */
export function hiddenReason(el: Element): string | undefined {
  if (!el.isConnected) return 'it is no longer in the page';
  for (let n: Element | null = el; n; n = parentOf(n)) {
    const s = styleOf(n);
    if (!s) continue;
    if (s.display === 'none') return n === el ? 'it has display:none' : 'an ancestor has display:none';
    if (n.localName === 'details' && n !== el && !(n as HTMLDetailsElement).open) {
      const summary = n.querySelector(':scope > summary');
      if (!summary || !summary.contains(el)) return 'it is inside a closed <details>';
    }
  }
  const s = styleOf(el);
  if (s && (s.visibility === 'hidden' || s.visibility === 'collapse')) return 'it has visibility:hidden';
  if (!hasVisibleBox(el)) return 'it has no size on screen (zero width/height or positioned off-page)';
  return undefined;
}

export function isElementVisible(el: Element): boolean {
  return hiddenReason(el) === undefined;
}
