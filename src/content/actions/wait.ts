/**
 * Waiting for the page: text, a ref or a selector to appear or disappear, within a timeout. Re-checks on DOM
 * changes and every 100 ms (visibility can change without mutations).
 */
import { checkSelector, deepQuerySliced, SEARCH_ELEMENTS } from '../deepQuery.ts';
import { countElementsUpTo, knownRoots } from '../flatTree.ts';
import { findTextSliced } from '../textSearch.ts';
import { registry } from '../refs.ts';
import { visibleText } from '../text.ts';
import { isElementVisible, withStyleCache } from '../visibility.ts';
import { ActionError } from '../targets.ts';
import { describeElement, named, tagHint } from '../describe.ts';
import { textOf } from '../names.ts';
import { interactiveRole, roleOf } from '../roles.ts';

/** The element itself when it is interactive, else its nearest interactive ancestor (a ref worth acting on). */
function interactiveAncestor(el: Element): Element | undefined {
  for (let n: Element | null = el, i = 0; n && i < 6; n = n.parentElement, i++)
    if (interactiveRole(n, roleOf(n), undefined)) return n;
  return undefined;
}

export interface WaitRequest {
  /** Only inside this element (a ref or selector resolved by the caller). */
  root?: Element;
  text?: string;
  ref?: string;
  selector?: string;
  state?: 'appear' | 'disappear';
  timeoutMs?: number;
}

export interface WaitResult {
  met: boolean;
  elapsedMs: number;
  ref?: string;
  /** The condition held at the first check: nothing was waited for. */
  already?: boolean;
  summary: string;
}

function what(req: WaitRequest): string {
  if (req.text) return `text ${JSON.stringify(req.text)}`;
  if (req.ref) return `ref ${req.ref}`;
  return `selector ${JSON.stringify(req.selector)}`;
}

/**
 * Past this many elements, `innerText` (a layout and serialization of the whole page, per check) is not used: the
 * text is looked for in slices (../textSearch.ts).
 */
const BIG_PAGE_ELEMENTS = 10_000;

/** On a page of at most BIG_PAGE_ELEMENTS: its text, as the page shows it, holds `text`. */
function textPresent(text: string, root?: Element): boolean {
  const body = (root ?? document.body) as HTMLElement | null;
  if (!body) return false;
  if ((body.innerText ?? body.textContent ?? '').includes(text)) return true;
  if (!knownRoots.size) return false;
  return visibleText(body, 2_000_000).text.includes(text);
}

/** The visible element whose own text holds `text` (the first in document order), to say what matched. */
function textElement(text: string, root: Element): Element | undefined {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el && (n.nodeValue ?? '').includes(text) && isElementVisible(el)) return el;
  }
  // Text split over several nodes (<b>Order</b> confirmed): the smallest visible element whose text holds it.
  let best: Element | undefined;
  walker.currentNode = root;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let el = n.parentElement; el && el !== root.parentElement; el = el.parentElement) {
      if ((el as HTMLElement).innerText?.includes(text)) {
        if (!best || best.contains(el)) best = el;
        break;
      }
    }
    if (best) break;
  }
  return best;
}

/**
 * A look at a selector that its search budget cut short (#24 few-match walks): how far it searched, and whether the
 * main document past that was matched by id.
 */
interface Cut {
  searched: number;
  upTo: Element;
  byId: boolean;
}

interface Look {
  present: boolean;
  el?: Element;
  cut?: Cut;
}

/** Whether the awaited thing is present now, and the element if there is one. */
async function probe(req: WaitRequest, lookEnd: number): Promise<Look> {
  if (req.selector && !req.text && !req.ref) {
    // A selector is matched in slices: each look on a big page held its main thread for a second or more (#24).
    try {
      checkSelector(req.selector);
    } catch {
      throw new ActionError(`Invalid CSS selector ${JSON.stringify(req.selector)}.`);
    }
    // A look may take the rest of the wait, as for text below: a first look cut short after 2 s on a loaded
    // 50k-row page made the next look report "appeared after 4390 ms" for an element that was there all along.
    const r = await deepQuerySliced(req.selector, {
      scope: req.root ?? document,
      limit: 1,
      pick: (e) => isElementVisible(e),
      deadline: Math.max(lookEnd, performance.now() + 500),
      lane: '',
      searchBudget: SEARCH_ELEMENTS,
    });
    const el = r.found.find((e) => isElementVisible(e));
    if (el) return { present: true, el };
    const cut = r.searchedUpTo && { searched: r.searched, upTo: r.searchedUpTo, byId: !!r.byId };
    // A look that did not reach the end of the page has not seen the element's absence; one whose budget stopped it
    // and that matched the main document by id has seen it absent there (the summary says shadow roots were not).
    if (cut) return { present: !cut.byId && (req.state ?? 'appear') === 'disappear', cut };
    return { present: !r.complete && (req.state ?? 'appear') === 'disappear' };
  }
  if (req.text && countElementsUpTo(req.root ?? document, BIG_PAGE_ELEMENTS + 1) > BIG_PAGE_ELEMENTS) {
    // A look may take the rest of the wait: it yields to the page between slices. A look cut short by the time
    // limit has not seen the whole page, so for "disappear" it does not count as absence.
    const r = await findTextSliced(req.text, req.root ?? document, Math.max(lookEnd, performance.now() + 500));
    if (r.el) return { present: true, el: r.el };
    return { present: !r.complete && (req.state ?? 'appear') === 'disappear' };
  }
  return withStyleCache(() => {
    if (req.text) {
      const present = textPresent(req.text, req.root);
      if (!present) return { present };
      const el = textElement(req.text, req.root ?? document.body);
      return el ? { present, el } : { present };
    }
    try {
      const el = registry.resolve(req.ref!);
      return { present: isElementVisible(el), el };
    } catch {
      return { present: false };
    }
  });
}

export function waitFor(req: WaitRequest): Promise<WaitResult> {
  if (!req.text && !req.ref && !req.selector) throw new ActionError('Say what to wait for: text, ref or selector.');
  const appear = (req.state ?? 'appear') === 'appear';
  const timeout = req.timeoutMs ?? 5000;
  const start = performance.now();
  return new Promise((resolve, reject) => {
    let done = false;
    let scheduled = false;
    const mo = new MutationObserver(() => {
      // Busy pages mutate constantly: check at most every 30 ms.
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        void check();
      }, 30);
    });
    const finish = (r: WaitResult | Error): void => {
      if (done) return;
      done = true;
      mo.disconnect();
      clearInterval(timer);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    let looking = false;
    /** The last look, when its search budget cut it short (the timeout then says what it did not see). */
    let cut: Cut | undefined;
    /**
     * The next look waits as long as the last one took: on a big page a look takes 100-300 ms of walking, and looks
     * back to back kept a third of a core busy for the whole wait (10k rows: 1.5 s of CPU in a 3.4 s wait).
     */
    let restUntil = 0;
    /** One look at the page; `already` for the first, before anything could change. */
    const check = async (already = false): Promise<void> => {
      if (done || looking) return;
      const now = performance.now();
      if (cut && now - start >= timeout) {
        finish(new ActionError(timedOut(req, appear, timeout, cut)));
        return;
      }
      if (now < restUntil) return;
      looking = true;
      let p: Look;
      try {
        p = await probe(req, start + timeout);
      } catch (e) {
        finish(e as Error);
        return;
      } finally {
        looking = false;
      }
      if (done) return;
      cut = p.cut;
      restUntil = 2 * performance.now() - now;
      const elapsed = Math.round(performance.now() - start);
      if (p.present === appear) {
        // Met at the first look: say so — "appeared after 0 ms" reads as if the awaited change happened.
        const verb = already
          ? appear
            ? 'was already present'
            : 'was already absent'
          : `${appear ? 'appeared' : 'disappeared'} after ${elapsed} ms`;
        const where =
          p.el && appear
            ? ` — matched ${describeElement(p.el)} ${tagHint(p.el)}: ${JSON.stringify(textOf(p.el, 100))}`
            : p.cut
              ? ` from the main document (looked up by id; shadow roots past the first ${p.cut.searched.toLocaleString('en-US')} elements, up to ${describeElement(p.cut.upTo)}, were not searched)`
              : '';
        const r: WaitResult = { met: true, elapsedMs: elapsed, summary: `${what(req)} ${verb}${where}` };
        if (already) r.already = true;
        if (p.el && appear) {
          const own = req.text ? interactiveAncestor(p.el) : p.el;
          if (own) r.ref = registry.refFor(own);
        }
        finish(r);
      } else if (elapsed >= timeout) {
        finish(new ActionError(timedOut(req, appear, timeout, cut)));
      }
    };
    mo.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    const timer = setInterval(() => void check(), 100);
    void check(true);
  });
}

/**
 * The wait's timeout; when its looks were cut short by the search budget, what they did not see, so the model does
 * not read "did not appear" (or "did not disappear") as a fact about the whole page (#24 few-match walks).
 */
function timedOut(req: WaitRequest, appear: boolean, timeout: number, cut: Cut | undefined): string {
  const head = `Timed out after ${timeout} ms waiting for ${what(req)} to ${appear ? 'appear' : 'disappear'}.`;
  if (!cut) return `${head} Take a new snapshot to see the page as it is now, or wait longer.`;
  const part = `the first ${cut.searched.toLocaleString('en-US')} elements (up to ${named(cut.upTo)})`;
  const rest = cut.byId
    ? 'and, past them, the main document by id, not its shadow roots'
    : 'and not the rest of it, so it may be there unseen';
  return `${head} This page is too big to look through whole: each look searched ${part} ${rest}. Give the wait a root (a ref or selector of the part to watch), or use a selector whose last part has an #id.`;
}
