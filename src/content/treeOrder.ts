/**
 * Elements in page order, forwards or backwards from a given element, across shadow roots: the order the sliced
 * walks use (a shadow root's content right after its host, then the host's light children). A search that wants the
 * element next to another one (the next Tab stop) starts where it is and steps outward, so it costs the distance to
 * what it finds, not the page (#24). These are plain generators; callers check their slicer between elements.
 */
import { shadowRootOf } from './flatTree.ts';

function walkerOf(root: Node): TreeWalker {
  return document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
}

function shadowParent(root: Node): Element | null {
  return root.nodeType === 11 ? ((root as ShadowRoot).host ?? null) : null;
}

/** Elements after `start` (exclusive) to the end of the page; from the top of the page when `start` is null. */
export function* elementsAfter(start: Element | null): Generator<Element, void, void> {
  const walkers: TreeWalker[] = [];
  if (!start) walkers.push(walkerOf(document));
  else {
    // One walker per root from the outermost document in to the start's own root, each standing where the walk
    // continues: the start itself, then the host of each shadow root around it.
    for (let node: Element | null = start; node;) {
      const root = node.getRootNode();
      const w = walkerOf(root);
      w.currentNode = node;
      walkers.unshift(w);
      node = shadowParent(root);
    }
    const own = shadowRootOf(start);
    if (own) walkers.push(walkerOf(own));
  }
  while (walkers.length) {
    const node = walkers[walkers.length - 1]!.nextNode();
    if (!node) {
      walkers.pop();
      continue;
    }
    yield node as Element;
    const root = shadowRootOf(node as Element);
    if (root) walkers.push(walkerOf(root));
  }
}

/** The last element under `node` in tree order (its last child's last child, and so on), or `node` itself. */
function deepestLast(node: Element): Element {
  let n = node;
  while (n.lastElementChild) n = n.lastElementChild;
  return n;
}

/**
 * The element before `el` in tree order within its root (the previous sibling's last descendant, else the parent).
 * Written out rather than `TreeWalker.previousNode()`, which happy-dom (the unit tests' DOM) gets wrong.
 */
function previousIn(el: Element): Element | null {
  const sib = el.previousElementSibling;
  return sib ? deepestLast(sib) : el.parentElement;
}

/**
 * Backwards, an element reached by stepping back is preceded by its own shadow content: in forward order that
 * content sits right after the element and before whatever we stepped back from.
 */
function* arriveBackward(el: Element): Generator<Element, void, void> {
  const root = shadowRootOf(el);
  if (root) yield* backwardIn(root);
  yield el;
}

function* backwardIn(root: Document | ShadowRoot): Generator<Element, void, void> {
  const lastTop = root.lastElementChild;
  for (let n = lastTop && deepestLast(lastTop); n; n = previousIn(n)) yield* arriveBackward(n);
}

/** Elements before `start` (exclusive) back to the top of the page; from the end of the page when `start` is null. */
export function* elementsBefore(start: Element | null): Generator<Element, void, void> {
  if (!start) {
    yield* backwardIn(document);
    return;
  }
  for (let node: Element | null = start; node;) {
    for (let n = previousIn(node); n; n = previousIn(n)) yield* arriveBackward(n);
    node = shadowParent(node.getRootNode());
    if (node) yield node;
  }
}
