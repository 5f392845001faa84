/**
 * CSS selector matching over the document and every shadow root, in slices (#24). `querySelectorAll` is one native
 * call per root, but finding the shadow roots means visiting every element, and on a page of half a million
 * elements the two together held the page's main thread for one to two seconds. Here one walk in tree order does
 * both (each shadow root's content right after its host), yields to the page between slices, keeps the first
 * `limit` matches and counts the rest until its deadline.
 */
import { shadowRootOf } from './flatTree.ts';
import { runSliced, Slicer } from './slices.ts';

export interface DeepQuery {
  /** The first `limit` matches, in tree order. */
  found: Element[];
  /** Matches counted; a lower bound when `complete` is false. */
  total: number;
  /** False when the deadline (or the count's element budget) stopped the count before the end of the page. */
  complete: boolean;
  /** Set when the element budget (`countAfter`) stopped the count: the last match counted. */
  lastCounted?: Element;
  /** Elements the walk visited. */
  searched: number;
  /**
   * Set when the search budget (`searchBudget`) stopped the walk before it held its matches: the last element it
   * visited. What follows it was not walked (but see `byId`).
   */
  searchedUpTo?: Element;
  /**
   * Past `searchedUpTo`, the main document (not its shadow roots) was matched by the selector's id, natively: the
   * matches there are in `found`/`total`, and only shadow roots past the stop were not searched.
   */
  byId?: true;
}

/**
 * Elements a walk visits at most while it is still looking: fewer than `limit` matches kept, or none picked yet
 * (#24, docs/decisions.md "#24 few-match walks"). Twice the 10,000-row fixture table (ten elements a row), so pages
 * up to that size are searched whole and exactly; on a page of millions of nodes a selector that matches little or
 * nothing costs this walk, not the page's (each visited element gets a wrapper whose garbage collection is what froze
 * the 200,000-row page). dom.query, dom.wait_for and selector targets pass it.
 */
export const SEARCH_ELEMENTS = 200_000;

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
  searchBudget = Infinity,
): Generator<void, DeepQuery, void> {
  const found: Element[] = [];
  let total = 0;
  let last: Element | undefined;
  let searched = 0;
  let prev: Element | undefined;
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
    if (last && found.length >= limit && left-- <= 0)
      return { found, total, complete: false, lastCounted: last, searched };
    // Still looking (nothing picked, or fewer than `limit` kept): checked before one more element, so a page that
    // ends right at the budget is searched whole.
    if (searched >= searchBudget && (pick || found.length < limit))
      return { found, total, complete: false, searched, searchedUpTo: prev };
    const el = node as Element;
    searched++;
    prev = el;
    if (el.matches(selector) && (!keep || keep(el))) {
      total++;
      last = el;
      if (pick?.(el)) return { found: [el], total, complete: false, searched };
      if (found.length < limit) found.push(el);
      if (total >= stopAt) return { found, total, complete: false, searched };
    }
    const root = shadowRootOf(el);
    if (root) walkers.push(document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT));
    if (slicer.due()) yield;
    if (slicer.overtime) return { found, total, complete: false, searched };
  }
  return { found, total, complete: true, searched };
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
  if (picked) return { found: [picked], total: all.length, complete: true, searched: all.length };
  return { found: all.slice(0, limit), total: all.length, complete: true, searched: all.length };
}

/**
 * A selector whose last compound names an id (`p#end`, `main #save.primary`) and holds nothing that could make the
 * native call walk the page (no list, attribute, function or escape): Chrome answers it from the document's id map,
 * well under a millisecond on the 200,000-row page, where `button[data-row="200000"]` took 100+ ms (docs/decisions.md
 * "#24 few-match walks"). Quirks mode matches ids without case, and Chrome then walks: not used there.
 */
export function idKeyed(selector: string): boolean {
  if (/[,()[\]"'\\]/.test(selector) || document.compatMode === 'BackCompat') return false;
  const last =
    selector
      .trim()
      .split(/[\s>+~]+/)
      .at(-1) ?? '';
  return /#-?[_a-zA-Z][-\w]*/.test(last);
}

/** The element itself, or the light-DOM host its shadow root hangs from (tree order across roots, see `walk`). */
function inDocument(el: Element): Element {
  let n = el;
  for (let r = n.getRootNode(); r instanceof ShadowRoot; r = n.getRootNode()) n = r.host;
  return n;
}

/**
 * After a walk stopped by its search budget: the selector's matches in the main document past where the walk
 * stopped, found natively by id (one call, no walk), added in tree order. Shadow roots past the stop stay unsearched,
 * so the result stays incomplete.
 */
function addById(
  r: DeepQuery,
  selector: string,
  scope: Document | Element,
  limit: number,
  pick?: (el: Element) => boolean,
  keep?: (el: Element) => boolean,
): DeepQuery {
  const stop = inDocument(r.searchedUpTo!);
  const out: DeepQuery = { ...r, found: [...r.found], byId: true };
  for (const el of Array.from(scope.querySelectorAll(selector))) {
    if (el === stop || !(stop.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    if (keep && !keep(el)) continue;
    out.total++;
    if (pick?.(el)) return { ...out, found: [el] };
    if (out.found.length < limit) out.found.push(el);
  }
  return out;
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
  /**
   * While fewer than `limit` matches are kept (or none picked), visit at most this many elements, then stop with
   * `searchedUpTo` (SEARCH_ELEMENTS for the model's calls). Default: walk to the end or deadline.
   */
  searchBudget?: number;
}

export async function deepQuerySliced(selector: string, opts: DeepQueryOptions = {}): Promise<DeepQuery> {
  checkSelector(selector);
  const scope = opts.scope ?? document;
  const limit = opts.limit ?? 50;
  if (/:scope\b/.test(selector)) return nativeQuery(selector, scope, limit, opts.pick, opts.keep);
  const slicer = new Slicer(opts.deadline);
  const steps = walk(
    selector,
    scope,
    slicer,
    limit,
    opts.stopAt ?? Infinity,
    opts.pick,
    opts.keep,
    opts.countAfter,
    opts.searchBudget,
  );
  const r = await runSliced(steps, slicer, {
    lane: opts.lane ?? 'query',
    what: 'query',
  });
  const inPage = scope === document || (scope as Element).getRootNode() === document;
  return r.searchedUpTo && inPage && idKeyed(selector) ? addById(r, selector, scope, limit, opts.pick, opts.keep) : r;
}
