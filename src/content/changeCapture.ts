/**
 * What the change report (changes.ts) reads of the whole page before and after an action: open dialogs, every
 * control's state, and the roots of hidden subtrees. Properties (a value, `checked`) change without mutations, so
 * these are compared before/after rather than taken from the MutationObserver.
 *
 * Read in slices (#24): on a 1,000-row table these reads took 60-100 ms of CPU in one task, before and again after
 * each action. The "before" read now runs sliced before the action is performed, the "after" read sliced once the
 * page has settled. The page keeps running between slices, so what it adds meanwhile is noted (`unsettled`) and never
 * reported as shown or hidden by the action, and a control whose attributes it changed during the "before" read is
 * read again at its end.
 */
import { countElementsUpTo, flatChildren, knownRoots, shadowRootOf } from './flatTree.ts';
import { checkedState, isDisabled } from './describe.ts';
import { normalize, truncate } from './names.ts';
import { hiddenReason, withStyleCache } from './visibility.ts';
import { runSliced, Slicer } from './slices.ts';

const STATE_SELECTOR =
  'input, select, textarea, button, [aria-disabled], [aria-checked], [aria-selected], [aria-expanded], [aria-pressed], [aria-valuenow], [contenteditable="true"], [contenteditable=""]';
const STATE_MAX = 5000;
const WALK_MAX = 30_000;
export const DIALOG_SELECTOR = 'dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]';
/** Past this many elements a page is not read whole around each action (changes.ts says so in a note). */
const BIG_PAGE_ELEMENTS = 20_000;
/** Attributes a control's state reads: a change to one during the "before" read means reading that control again. */
const STATE_ATTRS = [
  'aria-checked',
  'aria-selected',
  'aria-expanded',
  'aria-pressed',
  'aria-valuenow',
  'aria-disabled',
  'disabled',
  'checked',
  'value',
  'type',
];

/** The page as the change report compares it. */
export interface PageState {
  /** Over BIG_PAGE_ELEMENTS: nothing below was read. */
  big: boolean;
  dialogs: Element[];
  /** Each control's state (`stateOf`), in document order then shadow roots', up to STATE_MAX. */
  states: Map<Element, string>;
  /** Roots of hidden subtrees, in the walk's order. */
  hidden: Set<Element>;
}

/**
 * Reads the page before an action, in slices. Elements the page adds meanwhile go into `unsettled` (with their
 * subtrees, by ancestry); controls whose state attributes it changes are read again at the end.
 */
export async function readBefore(unsettled: Set<Node>): Promise<PageState> {
  const big = countElementsUpTo(document, BIG_PAGE_ELEMENTS + 1) > BIG_PAGE_ELEMENTS;
  if (big) return { big, dialogs: [], states: new Map(), hidden: new Set() };
  const touched = new Set<Node>();
  const state = await watching(unsettled, touched, (slicer) => before(slicer));
  for (const el of state.states.keys()) if (touched.has(el)) state.states.set(el, stateOf(el));
  return state;
}

/** Reads the page again after the action has settled: the same controls as before, and a new walk for hidden parts. */
export async function readAfter(before: PageState, unsettled: Set<Node>): Promise<PageState> {
  if (before.big) return before;
  return watching(unsettled, new Set(), (slicer) => after(before, slicer));
}

function* before(slicer: Slicer): Generator<void, PageState, void> {
  const dialogs = withStyleCache(visibleDialogs);
  const states = yield* controlStates(slicer);
  const hidden = yield* hiddenRoots(slicer);
  return { big: false, dialogs, states, hidden };
}

function* after(prev: PageState, slicer: Slicer): Generator<void, PageState, void> {
  const dialogs = withStyleCache(visibleDialogs);
  // Only controls read before are compared, so only they are read again (no query of the whole page); one that no
  // longer matches the selector (its aria-expanded removed) or left the page has no "after", as before.
  const states = new Map<Element, string>();
  for (const el of prev.states.keys()) {
    if (el.isConnected && el.matches(STATE_SELECTOR) && (el as HTMLInputElement).type !== 'hidden')
      states.set(el, stateOf(el));
    if (slicer.due()) yield;
  }
  const hidden = yield* hiddenRoots(slicer);
  return { big: false, dialogs, states, hidden };
}

/**
 * Runs a read in slices while a MutationObserver notes what the page adds (into `unsettled`) and which elements'
 * state attributes it changes (into `touched`) between the slices.
 */
async function watching<T>(
  unsettled: Set<Node>,
  touched: Set<Node>,
  read: (slicer: Slicer) => Generator<void, T, void>,
): Promise<T> {
  const note = (records: MutationRecord[]): void => {
    for (const r of records) {
      if (r.type === 'attributes') touched.add(r.target);
      else r.addedNodes.forEach((n) => n.nodeType === 1 && unsettled.add(n));
    }
  };
  const mo = new MutationObserver(note);
  const options: MutationObserverInit = {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: STATE_ATTRS,
  };
  mo.observe(document, options);
  for (const root of knownRoots) if (root.host.isConnected) mo.observe(root, options);
  const slicer = new Slicer();
  try {
    return await runSliced(read(slicer), slicer, { what: 'change report' });
  } finally {
    note(mo.takeRecords());
    mo.disconnect();
  }
}

/**
 * Open dialogs in the document and in the shadow roots walks have seen. Not every shadow root in the page: finding
 * them all is a script walk over every element, twice per action, which froze big pages.
 */
export function visibleDialogs(): Element[] {
  try {
    const found: Element[] = Array.from(document.querySelectorAll(DIALOG_SELECTOR));
    for (const root of knownRoots)
      if (root.host.isConnected) found.push(...Array.from(root.querySelectorAll(DIALOG_SELECTOR)));
    return found.filter((d) => !hiddenReason(d));
  } catch {
    return [];
  }
}

/** A control's state as a comparable string: `checked|value=...|selected|expanded=...`. */
export function stateOf(el: Element): string {
  const parts: string[] = [];
  const c = checkedState(el);
  if (c !== undefined) parts.push(c === 'mixed' ? 'checked=mixed' : c ? 'checked' : 'not checked');
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea') {
    const input = el as HTMLInputElement;
    if (input.type !== 'checkbox' && input.type !== 'radio')
      parts.push(
        `value=${JSON.stringify(input.type === 'password' ? '•'.repeat(Math.min(input.value.length, 8)) : truncate(input.value, 60))}`,
      );
  } else if (tag === 'select')
    parts.push(
      `value=${JSON.stringify(Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.label || o.text).join(', '))}`,
    );
  else if ((el as HTMLElement).isContentEditable)
    parts.push(`value=${JSON.stringify(truncate(normalize(el.textContent ?? ''), 60))}`);
  const sel = el.getAttribute('aria-selected');
  if (sel === 'true' || sel === 'false') parts.push(sel === 'true' ? 'selected' : 'not selected');
  const exp = el.getAttribute('aria-expanded');
  if (exp === 'true' || exp === 'false') parts.push(exp === 'true' ? 'expanded' : 'collapsed');
  const pressed = el.getAttribute('aria-pressed');
  if (pressed === 'true' || pressed === 'false') parts.push(pressed === 'true' ? 'pressed' : 'not pressed');
  const now = el.getAttribute('aria-valuenow');
  if (now !== null) parts.push(`value=${JSON.stringify(truncate(now, 40))}`);
  parts.push(isDisabled(el) ? 'disabled' : 'enabled');
  return parts.join('|');
}

/**
 * Every control's state, in the order `deepQueryAll` gives (the document's matches, then each shadow root's, roots
 * in depth-first order), up to STATE_MAX. Each root's matches come from one `querySelectorAll` (a static list, so a
 * control the page adds later is not in it); reading their states is what is sliced.
 */
function* controlStates(slicer: Slicer): Generator<void, Map<Element, string>, void> {
  const out = new Map<Element, string>();
  const roots: (Document | ShadowRoot)[] = [document, ...(yield* shadowRootsIn(document, slicer, []))];
  let i = 0;
  for (const root of roots) {
    if (i >= STATE_MAX) break;
    const els = root.querySelectorAll(STATE_SELECTOR);
    for (let j = 0; j < els.length && i < STATE_MAX; j++, i++) {
      const el = els[j]!;
      if ((el as HTMLInputElement).type === 'hidden') continue;
      out.set(el, stateOf(el));
      if (slicer.due()) yield;
    }
  }
  return out;
}

/**
 * Every shadow root (open and closed) under `root`, depth first, nested ones right after their host's (the order of
 * `allShadowRoots`). If the page removes the walk's current node between slices the walk cannot go on from there:
 * it ends, and the roots earlier walks have seen (`knownRoots`) are added.
 */
function* shadowRootsIn(
  root: Document | ShadowRoot,
  slicer: Slicer,
  out: ShadowRoot[],
): Generator<void, ShadowRoot[], void> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const sr = shadowRootOf(n as Element);
    if (sr) {
      out.push(sr);
      yield* shadowRootsIn(sr, slicer, out);
    }
    if (slicer.due()) {
      yield;
      if (!walker.currentNode.isConnected) {
        for (const known of knownRoots) if (known.host.isConnected && !out.includes(known)) out.push(known);
        return out;
      }
    }
  }
  return out;
}

export function isHidden(el: Element): boolean {
  const e = el as Element & { checkVisibility?: (o?: object) => boolean };
  if (typeof e.checkVisibility === 'function') return !e.checkVisibility({ visibilityProperty: true });
  return !!hiddenReason(el);
}

const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'head', 'link', 'meta']);

/**
 * The roots of hidden subtrees (hidden elements whose parent shows), document and open/known shadow roots, bounded:
 * a depth-first walk of the flat tree that does not enter hidden subtrees. Compared before and after an action, they
 * tell which existing parts of the page were shown or hidden. Child lists are live: before a slice ends, the ones
 * the walk is inside are copied, so a page that changes them meanwhile makes the walk neither skip nor repeat a node.
 */
function* hiddenRoots(slicer: Slicer): Generator<void, Set<Element>, void> {
  const out = new Set<Element>();
  const body = document.body;
  if (!body) return out;
  let budget = WALK_MAX;
  interface Level {
    kids: ArrayLike<Node>;
    i: number;
    copied: boolean;
  }
  const stack: Level[] = [{ kids: flatChildren(body), i: 0, copied: false }];
  while (stack.length && budget > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.kids.length) {
      stack.pop();
      continue;
    }
    const k = top.kids[top.i++]!;
    if (k.nodeType === 11) {
      stack.push({ kids: flatChildren(k), i: 0, copied: false });
      continue;
    }
    if (k.nodeType !== 1) continue;
    budget--;
    const el = k as Element;
    if (SKIPPED_TAGS.has(el.localName) || (top.copied && !el.isConnected)) continue;
    if (isHidden(el)) {
      // Empty hidden boxes (spacers, templates' hosts) cannot be "shown" in a way worth reporting.
      if (el.firstElementChild || /\S/.test(el.textContent ?? '')) out.add(el);
    } else stack.push({ kids: flatChildren(el), i: 0, copied: false });
    if (slicer.due()) {
      for (const level of stack)
        if (!level.copied) {
          level.kids = Array.prototype.slice.call(level.kids, level.i) as Node[];
          level.i = 0;
          level.copied = true;
        }
      yield;
    }
  }
  return out;
}
