/**
 * The first visible element whose own text holds a string, in page order (shadow roots included), found in slices
 * that yield to the page (#24). `dom.wait_for(text)` on a big page used an XPath query over every text node of the
 * page (one native call: ~0.1 s on 10,000 rows, ~0.5 s on 50,000, repeated every 100 ms while waiting) and then a
 * synchronous walk to the match to say which element it was (0.8 s on 10,000 rows when the text was near the end).
 * This walk stops at the first visible match.
 */
import { shadowRootOf } from './env.ts';
import { runSliced, Slicer } from './slices.ts';
import { isElementVisible } from './visibility.ts';

export interface TextSearch {
  /** The visible element holding the text, if one was found. */
  el?: Element;
  /** False when the deadline stopped the walk before the end: absence is then unknown. */
  complete: boolean;
}

function* walk(text: string, scope: Node, slicer: Slicer): Generator<void, TextSearch, void> {
  const show = NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT;
  const walkers = [document.createTreeWalker(scope, show)];
  while (walkers.length) {
    const node = walkers[walkers.length - 1]!.nextNode();
    if (!node) {
      walkers.pop();
      continue;
    }
    if (node.nodeType === 3) {
      const parent = node.parentElement;
      if (parent && (node.nodeValue ?? '').includes(text) && isElementVisible(parent))
        return { el: parent, complete: true };
    } else {
      const root = shadowRootOf(node as Element);
      if (root) walkers.push(document.createTreeWalker(root, show));
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
