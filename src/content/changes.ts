/**
 * What an action changed: a MutationObserver window around it (document and known shadow roots), then a short wait
 * for the page to settle. Reports same-document navigation, the page starting to unload (a full navigation), the
 * elements that appeared or went away (summarised), dialogs that opened or closed (role=dialog, aria-modal,
 * <dialog open>), whether the page asked to confirm leaving (beforeunload), and where focus went. The
 * alert/confirm/prompt calls answered meanwhile are added by the worker (background/pageDialogs.ts), which guards
 * them from the page's world.
 */
import { countElementsUpTo, deepActiveElement, knownRoots, parentOf } from './env.ts';
import { describeElement } from './describe.ts';
import type { PageDialog } from '../shared/contentMessages.ts';
import { accessibleName, textOf, truncate } from './names.ts';
import { hiddenReason, withStyleCache } from './visibility.ts';

export interface Changes {
  /** Same-document URL change (history API or hash). */
  navigated?: { from: string; to: string };
  /** The page began unloading: a full navigation is under way (the worker waits for it). */
  unloading?: boolean;
  added: string[];
  addedCount: number;
  removedCount: number;
  dialogsOpened: string[];
  dialogsClosed: string[];
  /** Page dialogs: here only `beforeunload` (the worker adds alert/confirm/prompt with the answers they got). */
  pageDialogs: PageDialog[];
  focus?: string;
  /** Set when the report was cut short (a very large change): what it left out. */
  note?: string;
}

const DIALOG_SELECTOR = 'dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]';
/** Nodes tracked one by one; past this a change is only counted (a page that adds 200,000 rows). */
const MAX_TRACKED = 20_000;
/** Added elements whose visibility is checked (each check reads styles and a box). */
const MAX_CHECKED = 500;
/** Ancestor steps when deciding whether an added node sits inside another added node. */
const MAX_ANCESTOR_STEPS = 256;

/** Past this many elements a page is not scanned for dialogs around each action (see `dialogsIn`). */
const BIG_PAGE_ELEMENTS = 20_000;

/**
 * Open dialogs in the document and in the shadow roots walks have seen. Not every shadow root in the page: finding
 * them all is a script walk over every element, twice per action, which froze big pages.
 */
function visibleDialogs(): Element[] {
  try {
    const found: Element[] = Array.from(document.querySelectorAll(DIALOG_SELECTOR));
    for (const root of knownRoots)
      if (root.host.isConnected) found.push(...Array.from(root.querySelectorAll(DIALOG_SELECTOR)));
    return found.filter((d) => !hiddenReason(d));
  } catch {
    return [];
  }
}

/**
 * Dialogs at or under the given nodes (what an action added, removed or changed attributes of). On big pages this
 * replaces the two document-wide scans per action (250 ms each at 500,000 elements): a dialog that opened or closed
 * was itself, or sits inside, something the MutationObserver saw change.
 */
function dialogsIn(nodes: Iterable<Node>): Set<Element> {
  const out = new Set<Element>();
  let budget = MAX_CHECKED;
  for (const n of nodes) {
    if (n.nodeType !== 1 || budget-- <= 0) continue;
    const el = n as Element;
    try {
      if (el.matches(DIALOG_SELECTOR)) out.add(el);
      // A change on <html>/<body> would mean a full scan: those count only when they are dialogs themselves.
      if (el !== document.documentElement && el !== document.body)
        el.querySelectorAll(DIALOG_SELECTOR).forEach((d) => out.add(d));
    } catch {
      // detached or odd node
    }
  }
  return out;
}

function dialogLabel(d: Element): string {
  const name =
    accessibleName(d, 'dialog') ||
    d.querySelector('h1,h2,h3,h4,[role="heading"]')?.textContent?.trim() ||
    textOf(d, 60);
  return `${d.getAttribute('role') === 'alertdialog' ? 'alertdialog' : 'dialog'}${name ? ` ${JSON.stringify(truncate(name, 80))}` : ''}`;
}

export interface ObserveOptions {
  /** Quiet time that counts as settled (ms). */
  settleMs?: number;
  /** Longest wait after the action (ms). */
  maxMs?: number;
}

export async function observeChanges<T>(
  action: () => T | Promise<T>,
  opts: ObserveOptions = {},
): Promise<{ result: T; changes: Changes }> {
  const settleMs = opts.settleMs ?? 120;
  const maxMs = opts.maxMs ?? 1500;
  const urlBefore = location.href;
  const focusBefore = deepActiveElement();
  const big = countElementsUpTo(document, BIG_PAGE_ELEMENTS + 1) > BIG_PAGE_ELEMENTS;
  const dialogsBefore = big ? [] : withStyleCache(visibleDialogs);
  const changed = new Set<Node>();

  const added = new Set<Node>();
  const removed = new Set<Node>();
  let moreAdded = 0;
  let moreRemoved = 0;
  let last = performance.now();
  let unloading = false;
  const mo = new MutationObserver((records) => {
    last = performance.now();
    for (const r of records) {
      if (r.type === 'attributes') {
        if (changed.size < MAX_TRACKED) changed.add(r.target);
        continue;
      }
      if (r.type !== 'childList') continue;
      r.addedNodes.forEach((n) => {
        if (n.nodeType === 1) {
          if (removed.has(n)) removed.delete(n);
          else if (added.size < MAX_TRACKED) added.add(n);
          else moreAdded++;
        }
      });
      r.removedNodes.forEach((n) => {
        if (n.nodeType === 1) {
          if (added.has(n)) added.delete(n);
          else if (removed.size < MAX_TRACKED) removed.add(n);
          else moreRemoved++;
        }
      });
    }
  });
  const options: MutationObserverInit = {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['open', 'hidden', 'aria-hidden', 'aria-modal', 'style', 'class'],
  };
  mo.observe(document, options);
  for (const root of knownRoots) if (root.host.isConnected) mo.observe(root, options);
  let leaveAsked = false;
  const onUnload = (e: Event): void => {
    // Only the browser's own event counts: a page cannot fake a navigation report.
    if (e.isTrusted) unloading = true;
  };
  // Added after the page's own beforeunload listeners, so it sees whether they asked Chrome to confirm leaving.
  // Otto never answers that question: Chrome shows it to the user (when the page has had a user gesture).
  const onBeforeUnload = (e: Event): void => {
    if (!e.isTrusted) return;
    const rv = (e as BeforeUnloadEvent).returnValue as unknown;
    if (e.defaultPrevented || (typeof rv === 'string' && rv !== '') || rv === false) leaveAsked = true;
  };
  window.addEventListener('beforeunload', onUnload, true);
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('pagehide', onUnload, true);

  let result: T;
  try {
    result = await action();
    const start = performance.now();
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        const t = performance.now();
        if (unloading || (t - last >= settleMs && t - start >= 40) || t - start >= maxMs) resolve();
        else setTimeout(tick, 30);
      };
      setTimeout(tick, 30);
    });
  } finally {
    mo.takeRecords();
    mo.disconnect();
    window.removeEventListener('beforeunload', onUnload, true);
    window.removeEventListener('beforeunload', onBeforeUnload);
    window.removeEventListener('pagehide', onUnload, true);
  }

  const changes: Changes = withStyleCache(() => {
    const tops = [...added].filter((n) => n.isConnected && !hasAddedAncestor(n, added)) as Element[];
    // Visibility is checked for the first MAX_CHECKED; the rest are counted as they are.
    const visibleTops = tops.slice(0, MAX_CHECKED).filter((el) => !hiddenReason(el));
    const unchecked = tops.length - Math.min(tops.length, MAX_CHECKED) + moreAdded;
    const removedTops = [...removed].filter((n) => !n.isConnected);
    let dialogsOpened: string[];
    let dialogsClosed: string[];
    if (big) {
      // What changed decides: dialogs in added or changed nodes that show now opened; changed ones that do not show,
      // and removed ones, closed.
      const touched = dialogsIn([...tops, ...changed]);
      const toggled = dialogsIn(changed);
      const gone = dialogsIn(removedTops);
      dialogsOpened = [...touched].filter((d) => d.isConnected && !hiddenReason(d)).map(dialogLabel);
      dialogsClosed = [...[...toggled].filter((d) => !d.isConnected || hiddenReason(d)), ...gone].map((d) =>
        d.isConnected ? dialogLabel(d) : 'dialog (removed)',
      );
    } else {
      const dialogsAfter = visibleDialogs();
      dialogsOpened = dialogsAfter.filter((d) => !dialogsBefore.includes(d)).map(dialogLabel);
      dialogsClosed = dialogsBefore
        .filter((d) => !dialogsAfter.includes(d))
        .map((d) => (d.isConnected ? dialogLabel(d) : 'dialog (removed)'));
    }
    const c: Changes = {
      added: visibleTops.slice(0, 8).map(summarize),
      addedCount: visibleTops.length + unchecked,
      removedCount: removedTops.length + moreRemoved,
      dialogsOpened,
      dialogsClosed,
      pageDialogs: leaveAsked ? [{ type: 'beforeunload', message: '', at: Date.now(), url: urlBefore }] : [],
    };
    if (unchecked)
      c.note = `a large change: ${unchecked.toLocaleString('en-US')} of the added elements were counted without checking that they are visible`;
    if (location.href !== urlBefore) c.navigated = { from: urlBefore, to: location.href };
    if (unloading) c.unloading = true;
    const focusAfter = deepActiveElement();
    if (focusAfter && focusAfter !== focusBefore && focusAfter !== document.body) c.focus = describeElement(focusAfter);
    return c;
  });
  return { result, changes };
}

function hasAddedAncestor(n: Node, added: Set<Node>): boolean {
  let steps = 0;
  for (let p = parentOf(n); p && steps < MAX_ANCESTOR_STEPS; p = parentOf(p), steps++) if (added.has(p)) return true;
  return false;
}

function summarize(el: Element): string {
  const d = describeElement(el);
  const text = textOf(el, 80);
  return text && !d.includes(JSON.stringify(truncate(text, 60))) ? `${d}: ${JSON.stringify(text)}` : d;
}
