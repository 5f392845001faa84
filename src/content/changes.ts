/**
 * What an action changed: a MutationObserver window around it (document and known shadow roots), then a short wait
 * for the page to settle. Reports same-document navigation, the page starting to unload (a full navigation), the
 * elements that appeared or went away (summarised), dialogs that opened or closed (role=dialog, aria-modal,
 * <dialog open>), whether the page asked to confirm leaving (beforeunload), and where focus went. The
 * alert/confirm/prompt calls answered meanwhile are added by the worker (background/pageDialogs.ts), which guards
 * them from the page's world.
 */
import { deepActiveElement, deepQueryAll, knownRoots, parentOf } from './env.ts';
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
}

const DIALOG_SELECTOR = 'dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]';

function visibleDialogs(): Element[] {
  try {
    return deepQueryAll(DIALOG_SELECTOR).filter((d) => !hiddenReason(d));
  } catch {
    return [];
  }
}

function dialogLabel(d: Element): string {
  const name = accessibleName(d, 'dialog') || d.querySelector('h1,h2,h3,h4,[role="heading"]')?.textContent?.trim() || textOf(d, 60);
  return `${d.getAttribute('role') === 'alertdialog' ? 'alertdialog' : 'dialog'}${name ? ` ${JSON.stringify(truncate(name, 80))}` : ''}`;
}

export interface ObserveOptions {
  /** Quiet time that counts as settled (ms). */
  settleMs?: number;
  /** Longest wait after the action (ms). */
  maxMs?: number;
}

export async function observeChanges<T>(action: () => T | Promise<T>, opts: ObserveOptions = {}): Promise<{ result: T; changes: Changes }> {
  const settleMs = opts.settleMs ?? 120;
  const maxMs = opts.maxMs ?? 1500;
  const urlBefore = location.href;
  const focusBefore = deepActiveElement();
  const dialogsBefore = withStyleCache(visibleDialogs);

  const added = new Set<Node>();
  const removed = new Set<Node>();
  let last = performance.now();
  let unloading = false;
  const mo = new MutationObserver((records) => {
    last = performance.now();
    for (const r of records) {
      if (r.type !== 'childList') continue;
      r.addedNodes.forEach((n) => {
        if (n.nodeType === 1) {
          if (removed.has(n)) removed.delete(n);
          else added.add(n);
        }
      });
      r.removedNodes.forEach((n) => {
        if (n.nodeType === 1) {
          if (added.has(n)) added.delete(n);
          else removed.add(n);
        }
      });
    }
  });
  const options: MutationObserverInit = { childList: true, subtree: true, attributes: true, attributeFilter: ['open', 'hidden', 'aria-hidden', 'aria-modal', 'style', 'class'] };
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
    const visibleTops = tops.filter((el) => !hiddenReason(el));
    const removedTops = [...removed].filter((n) => !n.isConnected);
    const dialogsAfter = visibleDialogs();
    const c: Changes = {
      added: visibleTops.slice(0, 8).map(summarize),
      addedCount: visibleTops.length,
      removedCount: removedTops.length,
      dialogsOpened: dialogsAfter.filter((d) => !dialogsBefore.includes(d)).map(dialogLabel),
      dialogsClosed: dialogsBefore.filter((d) => !dialogsAfter.includes(d)).map((d) => (d.isConnected ? dialogLabel(d) : 'dialog (removed)')),
      pageDialogs: leaveAsked ? [{ type: 'beforeunload', message: '', at: Date.now(), url: urlBefore }] : [],
    };
    if (location.href !== urlBefore) c.navigated = { from: urlBefore, to: location.href };
    if (unloading) c.unloading = true;
    const focusAfter = deepActiveElement();
    if (focusAfter && focusAfter !== focusBefore && focusAfter !== document.body) c.focus = describeElement(focusAfter);
    return c;
  });
  return { result, changes };
}

function hasAddedAncestor(n: Node, added: Set<Node>): boolean {
  for (let p = parentOf(n); p; p = parentOf(p)) if (added.has(p)) return true;
  return false;
}

function summarize(el: Element): string {
  const d = describeElement(el);
  const text = textOf(el, 80);
  return text && !d.includes(JSON.stringify(truncate(text, 60))) ? `${d}: ${JSON.stringify(text)}` : d;
}
