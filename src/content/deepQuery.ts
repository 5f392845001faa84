/**
 * CSS selector matching over the document and every shadow root, in slices (#24). `querySelectorAll` is one native
 * call per root, but finding the shadow roots means visiting every element, and on a page of half a million
 * elements the two together held the page's main thread for one to two seconds. Here one walk in tree order does
 * both (each shadow root's content right after its host), yields to the page between slices, keeps the first
 * `limit` matches and counts the rest until its deadline.
 */
import { shadowRootOf } from './env.ts';
import { runSliced, runSync, Slicer } from './slices.ts';

export interface DeepQuery {
  /** The first `limit` matches, in tree order. */
  found: Element[];
  /** Matches counted; a lower bound when `complete` is false. */
  total: number;
  /** False when the deadline (or the count's element budget) stopped the count before the end of the page. */
  complete: boolean;
  /** Set when the element budget (`countAfter`) stopped the count: the last match counted. */
  lastCounted?: Element;
}

/** Throws SyntaxError for a selector the browser does not accept (before any walking). */
export function checkSelector(selector: string): void {
  document.createDocumentFragment().querySelector(selector);
}

function* walk(
  selector: string,
  scope: Document | Element,
  slicer: Slicer,
  limit: number,
  stopAt: number,
  pick?: (el: Element) => boolean,
  keep?: (el: Element) => boolean,
  countAfter = Infinity,
): Generator<void, DeepQuery, void> {
  const found: Element[] = [];
  let total = 0;
  let last: Element | undefined;
  // Elements left to visit once `limit` matches are kept; checked before visiting one more, so a page that ends
  // right at the budget is still counted whole.
  let left = countAfter;
  const walkers = [document.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT)];
  while (walkers.length) {
    const node = walkers[walkers.length - 1]!.nextNode();
    if (!node) {
      walkers.pop();
      continue;
    }
    if (last && found.length >= limit && left-- <= 0) return { found, total, complete: false, lastCounted: last };
    const el = node as Element;
    if (el.matches(selector) && (!keep || keep(el))) {
      total++;
      last = el;
      if (pick?.(el)) return { found: [el], total, complete: false };
      if (found.length < limit) found.push(el);
      if (total >= stopAt) return { found, total, complete: false };
    }
    const root = shadowRootOf(el);
    if (root) walkers.push(document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT));
    if (slicer.due()) yield;
    if (slicer.overtime) return { found, total, complete: false };
  }
  return { found, total, complete: true };
}

/**
 * `:scope` means the element `querySelectorAll` was called on, and `matches()` gives it another meaning: such
 * selectors keep the native call (document and top-level scope only).
 */
function nativeQuery(
  selector: string,
  scope: Document | Element,
  limit: number,
  pick?: (el: Element) => boolean,
  keep?: (el: Element) => boolean,
): DeepQuery {
  const all = Array.from(scope.querySelectorAll(selector)).filter((el) => !keep || keep(el));
  const picked = pick && all.find(pick);
  if (picked) return { found: [picked], total: all.length, complete: true };
  return { found: all.slice(0, limit), total: all.length, complete: true };
}

export interface DeepQueryOptions {
  scope?: Document | Element;
  /** Matches to keep (the rest are only counted). */
  limit?: number;
  /** Stop counting here (a target needs one visible match, not a census). */
  stopAt?: number;
  /** performance.now() after which the count stops and says so. */
  deadline?: number;
  /** Stop at the first match this accepts and return just it (else `found` holds the first `limit` matches). */
  pick?: (el: Element) => boolean;
  /** Only matches this accepts are counted and kept (e.g. visible ones). */
  keep?: (el: Element) => boolean;
  /** A later query in the same lane abandons this one; '' for none. */
  lane?: string;
  /**
   * Once `limit` matches are kept, visit at most this many more elements to count, then stop with `lastCounted`
   * (dom.query: its cost is then bounded by this budget, not by the page). Default: count to the end or deadline.
   */
  countAfter?: number;
}

export async function deepQuerySliced(selector: string, opts: DeepQueryOptions = {}): Promise<DeepQuery> {
  checkSelector(selector);
  const scope = opts.scope ?? document;
  const limit = opts.limit ?? 50;
  if (/:scope\b/.test(selector)) return nativeQuery(selector, scope, limit, opts.pick, opts.keep);
  const slicer = new Slicer(opts.deadline);
  const steps = walk(selector, scope, slicer, limit, opts.stopAt ?? Infinity, opts.pick, opts.keep, opts.countAfter);
  return runSliced(steps, slicer, {
    lane: opts.lane ?? 'query',
    what: 'query',
  });
}

/** The same walk in one go (unit tests). */
export function deepQuerySync(selector: string, scope: Document | Element = document, limit = 50): DeepQuery {
  checkSelector(selector);
  if (/:scope\b/.test(selector)) return nativeQuery(selector, scope, limit);
  return runSync(walk(selector, scope, new Slicer(), limit, Infinity));
}
