/**
 * The options a click on a closed ARIA combobox makes appear, when the combobox does not say where they are
 * (no aria-controls/aria-owns). They are looked for where the page changed after the click — the subtrees it added
 * and the elements whose attributes it changed (a popup un-hidden by a class or `hidden`) — so the search costs what
 * the click changed, not the page (#24: the old fallback matched `[role="option"]` over the whole page, with
 * visibility checks, ten times in a row, holding a big page's main thread each time). Each search is sliced.
 */
import { knownRoots } from '../flatTree.ts';
import { deepQuerySliced, SEARCH_ELEMENTS } from '../deepQuery.ts';
import { isElementVisible } from '../visibility.ts';

const OPTION = '[role="option"]';
/** Changed subtrees looked into per check; a click that changes more than this is not opening a popup. */
const MAX_ROOTS = 200;
/** Options kept (a longer list is cut; the model picks among what it is told). */
const MAX_OPTIONS = 500;

/** Options shown anywhere on the page, and where the search stopped when it did not reach the page's end. */
export interface ShownAnywhere {
  options: Element[];
  /** The last element visited when the element budget stopped the search (what follows was not searched). */
  searchedUpTo?: Element;
  /** Elements visited. */
  searched: number;
  /** Set when the deadline stopped the search first. */
  timedOut?: true;
}

export interface OptionWatch {
  /** Visible options in what changed since the watch began (or since the last check, for changes already seen). */
  check(deadline: number): Promise<Element[]>;
  /**
   * Visible options anywhere on the page (sliced, until the deadline or SEARCH_ELEMENTS elements, as a
   * selector target's search): the last resort.
   */
  anywhere(deadline: number): Promise<ShownAnywhere>;
  stop(): void;
}

export function watchShownOptions(): OptionWatch {
  const pending: Element[] = [];
  const take = (records: MutationRecord[]): void => {
    for (const r of records) {
      if (r.type === 'attributes') pending.push(r.target as Element);
      else for (const n of Array.from(r.addedNodes)) if (n.nodeType === 1) pending.push(n as Element);
    }
  };
  const observer = new MutationObserver(take);
  const opts = { subtree: true, childList: true, attributes: true };
  observer.observe(document, opts);
  for (const root of knownRoots) observer.observe(root, opts);
  const searched = new Set<Element>();
  const found: Element[] = [];
  // Elements the checks of what changed may still visit in all: a click that adds a whole page's worth is not
  // opening a popup, and each check's walk would otherwise be bounded only by the time limit.
  let left = SEARCH_ELEMENTS;
  const visible = (el: Element): boolean => isElementVisible(el);

  return {
    async check(deadline) {
      take(observer.takeRecords());
      const batch = pending.splice(0);
      let roots = 0;
      for (const root of batch) {
        if (searched.has(root) || !root.isConnected) continue;
        searched.add(root);
        if (++roots > MAX_ROOTS || found.length >= MAX_OPTIONS || left <= 0 || performance.now() >= deadline) break;
        if (root.matches(OPTION) && visible(root) && !found.includes(root)) found.push(root);
        const r = await deepQuerySliced(OPTION, {
          scope: root,
          limit: MAX_OPTIONS,
          keep: visible,
          deadline,
          lane: '',
          searchBudget: left,
        });
        left -= r.searched;
        for (const o of r.found) if (!found.includes(o) && found.length < MAX_OPTIONS) found.push(o);
      }
      // Options un-hidden earlier may have been hidden again since; keep what is showing now.
      return found.filter(visible);
    },
    async anywhere(deadline) {
      const r = await deepQuerySliced(OPTION, {
        limit: MAX_OPTIONS,
        keep: visible,
        deadline,
        lane: '',
        searchBudget: SEARCH_ELEMENTS,
      });
      const out: ShownAnywhere = { options: r.found, searched: r.searched };
      if (r.searchedUpTo) out.searchedUpTo = r.searchedUpTo;
      else if (!r.complete && r.found.length < MAX_OPTIONS) out.timedOut = true;
      return out;
    },
    stop() {
      observer.disconnect();
    },
  };
}
