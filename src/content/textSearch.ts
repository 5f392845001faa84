/**
 * The first visible element whose own text holds a string, in page order (shadow roots included), found in slices
 * that yield to the page (#24). `dom.wait_for(text)` on a big page used an XPath query over every text node of the
 * page (one native call: ~0.1 s on 10,000 rows, ~0.5 s on 50,000, repeated every 100 ms while waiting) and then a
 * synchronous walk to the match to say which element it was (0.8 s on 10,000 rows when the text was near the end).
 * This walk stops at the first visible match.
 */
import { shadowRootOf } from './flatTree.ts';
import { runSliced, Slicer } from './slices.ts';
import { isElementVisible } from './visibility.ts';

export interface TextSearch {
  /** The visible element holding the text, if one was found. */
  el?: Element;
  /** False when the deadline stopped the walk before the end: absence is then unknown. */
  complete: boolean;
}

/** The element's own text nodes hold `text` (one of them, not their sum: as when each is visited). */
function ownTextHolds(el: Element, text: string): boolean {
  for (let c = el.firstChild; c; c = c.nextSibling)
    if (c.nodeType === 3 && (c.nodeValue ?? '').includes(text)) return true;
  return false;
}

/**
 * Moves the walker past the subtree of its current node (without entering it) and returns the node there, or null at
 * the end of its root.
 */
function pastSubtree(w: TreeWalker): Node | null {
  for (;;) {
    const next = w.nextSibling();
    if (next) return next;
    if (!w.parentNode()) return null;
  }
}

/**
 * Text nodes are visited one by one only inside elements that also hold elements. A leaf element's text is read in
 * one native call (`textContent`) and its text nodes are looked at only when that holds the string: every node a
 * walk visits gets a wrapper in Otto's world, and on a big page the garbage collector's work for those wrappers is
 * most of a slice's cost (#24: a 50,000-row table's cells hold about a quarter of its nodes as text). The order of
 * the match is the same as visiting every text node: a leaf's text comes right after it, and a shadow host (whose
 * shadow content comes first) is walked as before.
 */
function* walk(text: string, scope: Node, slicer: Slicer): Generator<void, TextSearch, void> {
  const show = NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT;
  const walkers = [document.createTreeWalker(scope, show)];
  let skip = false;
  while (walkers.length) {
    const w = walkers[walkers.length - 1]!;
    const node = skip ? pastSubtree(w) : w.nextNode();
    skip = false;
    if (!node) {
      walkers.pop();
      continue;
    }
    if (node.nodeType === 3) {
      const parent = node.parentElement;
      if (parent && (node.nodeValue ?? '').includes(text) && isElementVisible(parent))
        return { el: parent, complete: true };
    } else {
      const el = node as Element;
      const root = shadowRootOf(el);
      if (root) walkers.push(document.createTreeWalker(root, show));
      else if (!el.firstElementChild) {
        if (el.textContent?.includes(text) && ownTextHolds(el, text) && isElementVisible(el))
          return { el, complete: true };
        skip = true;
      }
    }
    if (slicer.due()) yield;
    if (slicer.overtime) return { complete: false };
  }
  return { complete: true };
}

/** Searches `scope` (default: the document) until `deadline` (performance.now() time). */
export function findTextSliced(text: string, scope: Node = document, deadline = Infinity): Promise<TextSearch> {
  const slicer = new Slicer(deadline);
  return runSliced(walk(text, scope, slicer), slicer, { what: 'text search' });
}
