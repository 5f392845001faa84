/**
 * The DOM as a person sees it: the flat tree (shadow roots, open and closed, in place of their hosts' light children;
 * slotted nodes where their slots are), the deepest element under a point, the focused element across shadow roots.
 * Works in the content script (closed roots through `chrome.dom.openOrClosedShadowRoot`) and in plain pages/tests
 * (open roots only).
 */

type DomApi = { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null };

function domApi(): DomApi | undefined {
  const c = (globalThis as { chrome?: { dom?: DomApi } }).chrome;
  return c?.dom;
}

/** Shadow roots seen by any walk, so change observers can watch inside them too. */
export const knownRoots = new Set<ShadowRoot>();

function remember(root: ShadowRoot | null): ShadowRoot | null {
  if (root && !knownRoots.has(root)) {
    if (knownRoots.size > 2000) knownRoots.clear();
    knownRoots.add(root);
  }
  return root;
}

/**
 * The element's shadow root, open or closed (closed only where the extension API is present). Closed roots are
 * looked up on custom elements only: the extension call costs a few microseconds per element (≈20 ms on a large
 * page if made for every div), and closed roots on built-in elements are rare in practice.
 */
export function shadowRootOf(el: Element): ShadowRoot | null {
  const open = el.shadowRoot;
  if (open) return remember(open);
  if (!el.localName.includes('-')) return null;
  const api = domApi();
  if (api?.openOrClosedShadowRoot) {
    try {
      return remember(api.openOrClosedShadowRoot(el as HTMLElement));
    } catch {
      return null;
    }
  }
  return null;
}

/** Parent in the composed tree: the parent element, or the shadow host for a shadow root's top-level children. */
export function parentOf(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode;
  if (parent && parent.nodeType === 11 && (parent as ShadowRoot).host) return (parent as ShadowRoot).host;
  return null;
}

/** `ancestor` contains `node` in the composed tree (across shadow boundaries). */
export function composedContains(ancestor: Node, node: Node | null): boolean {
  for (let n: Node | null = node; n; n = parentOf(n)) if (n === ancestor) return true;
  return false;
}

/**
 * Children in the flat tree: a shadow host's shadow root children (not its light children, which appear through
 * slots); a slot's assigned nodes (or its fallback children); otherwise the child nodes.
 */
export function flatChildren(node: Node): ArrayLike<Node> {
  if (node.nodeType === 1) {
    const el = node as Element;
    if (el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length) return assigned;
      return el.childNodes;
    }
    const root = shadowRootOf(el);
    if (root) return root.childNodes;
  }
  return node.childNodes;
}

/** Every shadow root (open and closed) under `root`, depth first, including nested ones. */
export function allShadowRoots(root: Document | ShadowRoot | Element, out: ShadowRoot[] = []): ShadowRoot[] {
  const start = root.nodeType === 1 ? (root as Element) : root;
  const walker = document.createTreeWalker(start, NodeFilter.SHOW_ELEMENT);
  for (let n: Node | null = walker.currentNode; n; n = walker.nextNode()) {
    if (n.nodeType !== 1) continue;
    const sr = shadowRootOf(n as Element);
    if (sr) {
      out.push(sr);
      allShadowRoots(sr, out);
    }
  }
  return out;
}

/** querySelectorAll across the document and every shadow root, in document order per root. */
export function deepQueryAll(selector: string, scope: Document | Element = document): Element[] {
  const found: Element[] = [];
  const roots: (Document | ShadowRoot | Element)[] = [scope, ...allShadowRoots(scope)];
  for (const r of roots) for (const el of Array.from(r.querySelectorAll(selector))) found.push(el);
  return found;
}

/** The focused element, following focus into shadow roots. */
export function deepActiveElement(doc: Document = document): Element | null {
  let el: Element | null = doc.activeElement;
  for (;;) {
    if (!el) return null;
    const sr = shadowRootOf(el);
    const inner = sr?.activeElement;
    if (!inner || inner === el) return el;
    el = inner;
  }
}

/** The topmost element at a viewport point, descending into shadow roots. */
export function deepElementFromPoint(x: number, y: number, doc: Document = document): Element | null {
  let el = doc.elementFromPoint(x, y);
  for (let i = 0; el && i < 32; i++) {
    const sr = shadowRootOf(el);
    if (!sr) break;
    const inner = sr.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/** The root (document or shadow root) that holds an element, for id look-ups. */
export function rootOf(el: Element): Document | ShadowRoot {
  const r = el.getRootNode();
  return r.nodeType === 11 || r.nodeType === 9 ? (r as Document | ShadowRoot) : document;
}

/**
 * Elements under `root`, counting no further than `limit` (a size check that costs at most `limit` steps; the full
 * `getElementsByTagName('*').length` of a 500,000-element page holds the main thread for ~100-200 ms).
 */
export function countElementsUpTo(root: Node, limit: number): number {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let n = 0;
  while (n < limit && walker.nextNode()) n++;
  return n;
}
