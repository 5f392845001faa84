/**
 * Whether the page has only grown since a mark (#24, docs/decisions.md "#24 the locator before each action"): only
 * elements and text added, none removed, no attribute or text changed, no style sheet added. Describing an action's
 * target uses it to skip the uniqueness walk on a page whose last walk already ran out of budget: added content can
 * only lengthen the outline, while a removal, an attribute (a class, `hidden`), a text edit or a new style sheet could
 * shorten it, and then the page is walked again.
 */
import { knownRoots } from './flatTree.ts';

/** A record that can only have lengthened the outline. */
function onlyAdds(r: MutationRecord): boolean {
  if (r.type !== 'childList' || r.removedNodes.length) return false;
  for (const n of Array.from(r.addedNodes)) {
    if (n.nodeType !== Node.ELEMENT_NODE) continue;
    const el = n as Element;
    if (el.matches('style, link') || el.querySelector('style, link')) return false;
  }
  return true;
}

export class PageGrowth {
  private observer: MutationObserver | undefined;

  /** Watches from now on; `onlyGrown` holds until a change that could shorten the outline. */
  mark(): void {
    this.stop();
    const observer = new MutationObserver((records) => {
      if (!records.every(onlyAdds)) this.stop();
    });
    const opts = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(document, opts);
    for (const root of knownRoots) observer.observe(root, opts);
    this.observer = observer;
  }

  /** True when marked and the page has only grown since. */
  onlyGrown(): boolean {
    if (this.observer && !this.observer.takeRecords().every(onlyAdds)) this.stop();
    return this.observer !== undefined;
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }
}
