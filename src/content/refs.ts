/**
 * Stable element refs. An element keeps its ref (`kqe12`, or `f3kqe12` inside frame 3) for as long as it lives: a
 * WeakMap element → number and a Map number → WeakRef, with a counter that only grows in this frame. Refs never
 * keep elements alive; dead entries are pruned on each snapshot.
 *
 * A ref belongs to its document (issue #31): the two letters before `e` are a tag drawn at random when this content
 * script starts, i.e. once per document. A ref from a page the tab has since left carries another tag and is refused
 * ("from an earlier page") instead of naming whatever element now has its number; and a page cannot predict the refs
 * Otto will give its elements, so text it shows cannot name one (`Cancel [ref=…]`).
 *
 * The registry also remembers which nodes earlier snapshots showed, so a snapshot can mark what is new.
 */

export const REF_PATTERN = /^(?:f(\d+))?([a-df-z]{2})?e(\d+)$/;

/** Letters a document tag is drawn from: no `e` or `f`, which mark the number and the frame. */
const TAG_LETTERS = 'abcdghijklmnopqrstuvwxyz';

export function randomTag(): string {
  const bytes = new Uint8Array(2);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => TAG_LETTERS[b % TAG_LETTERS.length]).join('');
}

export const EARLIER_PAGE =
  'this ref is from an earlier page; take a new snapshot (dom.snapshot) and use a ref from it.';

export class StaleRefError extends Error {}

export class RefRegistry {
  private prefix = '';
  /** This document's tag (see above). */
  readonly tag: string;

  constructor(tag: string = randomTag()) {
    this.tag = tag;
  }

  private counter = 0;
  private byElement = new WeakMap<Element, number>();
  private readonly byNumber = new Map<number, WeakRef<Element>>();
  private seen = new WeakSet<Node>();
  private snapshots = 0;

  /** `''` in the top frame, `f<frameId>` in a child frame (set by the worker on each request). */
  setPrefix(prefix: string | undefined): void {
    if (prefix !== undefined) this.prefix = prefix;
  }

  getPrefix(): string {
    return this.prefix;
  }

  format(n: number): string {
    return `${this.prefix}${this.tag}e${n}`;
  }

  /** The element's ref, assigning the next number the first time. */
  refFor(el: Element): string {
    let n = this.byElement.get(el);
    if (n === undefined) {
      n = ++this.counter;
      this.byElement.set(el, n);
      this.byNumber.set(n, new WeakRef(el));
    }
    return this.format(n);
  }

  /** The element's ref if it has one. */
  peek(el: Element): string | undefined {
    const n = this.byElement.get(el);
    return n === undefined ? undefined : this.format(n);
  }

  /** The live element behind a ref, or a StaleRefError saying what to do next. */
  resolve(ref: string): Element {
    const m = REF_PATTERN.exec(ref.trim());
    if (!m)
      throw new StaleRefError(
        `"${ref}" is not a ref (refs look like ${this.tag}e12, as dom.snapshot shows them). Take a snapshot (dom.snapshot) and use a ref from it.`,
      );
    if ((m[2] ?? '') !== this.tag) throw new StaleRefError(`Ref ${ref}: ${EARLIER_PAGE}`);
    const n = Number(m[3]);
    const el = this.byNumber.get(n)?.deref();
    if (!el) {
      if (n > this.counter)
        throw new StaleRefError(
          `Ref ${ref} was not issued on this page (it may have reloaded or navigated since). Take a new snapshot (dom.snapshot) and use a ref from it.`,
        );
      throw new StaleRefError(
        `Ref ${ref} is stale: its element was removed from the page. Take a new snapshot (dom.snapshot) and use a fresh ref.`,
      );
    }
    if (!el.isConnected)
      throw new StaleRefError(
        `Ref ${ref} is stale: its element is no longer in the page (the page re-rendered). Take a new snapshot (dom.snapshot) and use a fresh ref.`,
      );
    return el;
  }

  /** True when earlier snapshots ran and none of them showed this node. */
  isNew(node: Node): boolean {
    return this.snapshots > 0 && !this.seen.has(node);
  }

  /** Records what a finished snapshot showed. */
  commitSnapshot(shown: Iterable<Node>): void {
    for (const n of shown) this.seen.add(n);
    this.snapshots++;
  }

  hasSnapshot(): boolean {
    return this.snapshots > 0;
  }

  /** Drops map entries whose elements were garbage-collected. */
  prune(): void {
    for (const [n, ref] of this.byNumber) if (!ref.deref()) this.byNumber.delete(n);
  }

  /** Every live element with its ref (the screenshot overlay draws the ones on screen). */
  *entries(): Generator<[string, Element]> {
    for (const [n, ref] of this.byNumber) {
      const el = ref.deref();
      if (el?.isConnected) yield [this.format(n), el];
    }
  }

  /** For tests: how many refs are tracked. */
  size(): number {
    return this.byNumber.size;
  }

  /** Forgets everything (tests). */
  reset(): void {
    this.counter = 0;
    this.byElement = new WeakMap();
    this.byNumber.clear();
    this.seen = new WeakSet();
    this.snapshots = 0;
  }
}

/** The registry of this frame. */
export const registry = new RefRegistry();
