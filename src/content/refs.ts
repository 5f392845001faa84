/**
 * Stable element refs. An element keeps its ref (`e12`, or `f3e12` inside frame 3) for as long as it lives: a
 * WeakMap element → number and a Map number → WeakRef, with a counter that only grows in this frame. Refs never
 * keep elements alive; dead entries are pruned on each snapshot.
 *
 * The registry also remembers which nodes earlier snapshots showed, so a snapshot can mark what is new.
 */

export const REF_PATTERN = /^(?:f(\d+))?e(\d+)$/;

export class StaleRefError extends Error {}

export class RefRegistry {
  private prefix = '';
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
    return `${this.prefix}e${n}`;
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
    if (!m) throw new StaleRefError(`"${ref}" is not a ref (refs look like e12, or f3e12 inside a frame). Take a snapshot (dom.snapshot) and use a ref from it.`);
    const n = Number(m[2]);
    const el = this.byNumber.get(n)?.deref();
    if (!el) {
      if (n > this.counter)
        throw new StaleRefError(`Ref ${ref} was not issued on this page (it may have reloaded or navigated since). Take a new snapshot (dom.snapshot) and use a ref from it.`);
      throw new StaleRefError(`Ref ${ref} is stale: its element was removed from the page. Take a new snapshot (dom.snapshot) and use a fresh ref.`);
    }
    if (!el.isConnected)
      throw new StaleRefError(`Ref ${ref} is stale: its element is no longer in the page (the page re-rendered). Take a new snapshot (dom.snapshot) and use a fresh ref.`);
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
