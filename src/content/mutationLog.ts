/**
 * What the MutationObserver saw during an action's window (changes.ts): elements added and removed (tracked one by
 * one up to MAX_TRACKED, then counted), nodes whose watched attributes changed, text nodes' old values, text removed
 * per parent and text nodes added, the parents whose text may have changed, the old values of attributes a person
 * would see near the element acted on, and when the DOM last moved.
 */
import { knownRoots } from './flatTree.ts';
import { SEEN_ATTRS, type SeenChanges } from './attributeChanges.ts';

/** Attributes whose changes count as activity (settling waits for them); state itself is compared before/after. */
const ATTRS = [
  'open',
  'hidden',
  'aria-hidden',
  'aria-modal',
  'style',
  'class',
  'aria-expanded',
  'aria-selected',
  'aria-checked',
  'aria-pressed',
  'value',
  'checked',
  'disabled',
  ...SEEN_ATTRS.filter((a) => a !== 'style' && a !== 'class' && a !== 'hidden' && a !== 'aria-hidden'),
];

/** Nodes tracked one by one; past this a change is only counted (a page that adds 200,000 rows). */
const MAX_TRACKED = 20_000;

export interface MutationLog {
  added: Set<Node>;
  removed: Set<Node>;
  /** Elements added or removed past MAX_TRACKED: counted, not kept. */
  moreAdded: number;
  moreRemoved: number;
  /** Nodes whose watched attributes changed. */
  changed: Set<Node>;
  /** Text nodes' first old value (characterData), removed text per parent, and text nodes added (childList). */
  oldText: Map<Node, string>;
  removedText: Map<Node, string[]>;
  addedText: Set<Node>;
  textParents: Set<Element>;
  /** The element acted on and its neighbourhood, whose visible attribute changes are told (attributeChanges.ts). */
  near: Set<Element> | undefined;
  seen: SeenChanges;
  /** When the DOM last changed (performance.now()). */
  last: number;
}

export function emptyMutationLog(near: Set<Element> | undefined, seen: SeenChanges): MutationLog {
  return {
    added: new Set(),
    removed: new Set(),
    moreAdded: 0,
    moreRemoved: 0,
    changed: new Set(),
    oldText: new Map(),
    removedText: new Map(),
    addedText: new Set(),
    textParents: new Set(),
    near,
    seen,
    last: performance.now(),
  };
}

/** Starts recording into the log: the document and every known shadow root. */
export function watchMutations(log: MutationLog): MutationObserver {
  const mo = new MutationObserver((records) => {
    log.last = performance.now();
    for (const r of records) {
      if (r.type === 'attributes') onAttribute(log, r);
      else if (r.type === 'characterData') onText(log, r);
      else if (r.type === 'childList') onChildren(log, r);
    }
  });
  const options: MutationObserverInit = {
    childList: true,
    subtree: true,
    characterData: true,
    characterDataOldValue: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: ATTRS,
  };
  mo.observe(document, options);
  for (const root of knownRoots) if (root.host.isConnected) mo.observe(root, options);
  return mo;
}

function onAttribute(log: MutationLog, r: MutationRecord): void {
  if (log.changed.size < MAX_TRACKED) log.changed.add(r.target);
  if (log.near?.has(r.target as Element) && r.attributeName) {
    const olds = log.seen.old.get(r.target as Element) ?? new Map<string, string | null>();
    if (!olds.has(r.attributeName)) olds.set(r.attributeName, r.oldValue);
    log.seen.old.set(r.target as Element, olds);
  }
}

function onText(log: MutationLog, r: MutationRecord): void {
  if (log.oldText.size >= MAX_TRACKED) return;
  if (!log.oldText.has(r.target) && !log.addedText.has(r.target)) log.oldText.set(r.target, r.oldValue ?? '');
  const parent = r.target.parentElement;
  if (parent) log.textParents.add(parent);
}

function onChildren(log: MutationLog, r: MutationRecord): void {
  const { added, removed, addedText, textParents } = log;
  // Small inline elements swapped in a line (`<strong>2</strong> items left` re-rendered) change its text.
  const smallSwap = (n: Node): boolean =>
    n.nodeType === 1 && r.target.nodeType === 1 && (n.textContent ?? '').length <= 120;
  const textRemoved = (text: string): void => {
    const list = log.removedText.get(r.target) ?? [];
    list.push(text);
    log.removedText.set(r.target, list);
  };
  r.addedNodes.forEach((n) => {
    if (n.nodeType === 1) {
      if (removed.has(n)) removed.delete(n);
      else if (added.size < MAX_TRACKED) added.add(n);
      else log.moreAdded++;
      if (smallSwap(n) && textParents.size < MAX_TRACKED) textParents.add(r.target as Element);
    } else if (n.nodeType === 3 && addedText.size < MAX_TRACKED) {
      addedText.add(n);
      if (r.target.nodeType === 1 && textParents.size < MAX_TRACKED) textParents.add(r.target as Element);
    }
  });
  r.removedNodes.forEach((n) => {
    if (n.nodeType === 1) {
      if (added.has(n)) added.delete(n);
      else if (removed.size < MAX_TRACKED) {
        removed.add(n);
        if (smallSwap(n) && textParents.size < MAX_TRACKED) {
          textRemoved(n.textContent ?? '');
          textParents.add(r.target as Element);
        }
      } else log.moreRemoved++;
    } else if (n.nodeType === 3 && !addedText.delete(n) && textParents.size < MAX_TRACKED) {
      textRemoved(log.oldText.get(n) ?? n.nodeValue ?? '');
      if (r.target.nodeType === 1) textParents.add(r.target as Element);
    }
  });
}
