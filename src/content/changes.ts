/**
 * What an action changed: a MutationObserver window around it (document and known shadow roots), then a wait for
 * the page to settle — at least MIN_WINDOW_MS (microtasks, animation frames and short timers land in it) and until
 * the DOM was quiet for settleMs. Reports same-document navigation, the page starting to unload (a full
 * navigation), elements that appeared (with the refs of the controls inside) or went away, elements that existed
 * and changed: value, checked, selected, expanded, pressed, enabled (compared before/after, since properties make no
 * mutations), text (from the mutation records), and visibility (hidden subtrees compared before/after: a tab panel
 * shown, a menu opened); dialogs that opened or closed (role=dialog, aria-modal, <dialog open>), whether the page
 * asked to confirm leaving (beforeunload), and where focus went. The alert/confirm/prompt calls answered meanwhile
 * are added by the worker (page/dialogs.ts), which guards them from the page's world. Given the element the action
 * works on (`subject`), attribute changes a person would see in and around it are told too (attributeChanges.ts).
 */
import { deepActiveElement, parentOf } from './flatTree.ts';
import { describeElement } from './describe.ts';
import { buildSnapshot, type OutlineNode } from './contentSnapshot.ts';
import type { PageDialog } from '../shared/contentMessages.ts';
import { accessibleName, normalize, textOf, truncate } from './names.ts';
import { hiddenReason, styleOf, withStyleCache } from './visibility.ts';
import { DIALOG_SELECTOR, isHidden, readAfter, readBefore } from './changeCapture.ts';
import { neighbourhood, readLooks, seenChangeLines } from './attributeChanges.ts';
import { emptyMutationLog, watchMutations, type MutationLog } from './mutationLog.ts';
import { watchLeaving, type PageLeaving } from './pageLeaving.ts';

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
  /** Existing elements whose state or text changed: `checkbox "Buy milk" [ref=e5]: checked → not checked`. */
  changed: string[];
  /** Existing elements that became visible, with the refs of their controls. */
  shown: string[];
  /** Existing elements that became hidden. */
  hidden: string[];
  /** How long the page was watched after the action (ms). */
  observedMs: number;
}

/** Shortest watch after an action: late updates (a timer, a resolved fetch, an animation frame) land inside it. */
export const MIN_WINDOW_MS = 300;
const LIST_MAX = 8;
/** Added elements whose visibility is checked (each check reads styles and a box). */
const MAX_CHECKED = 500;
/** Ancestor steps when deciding whether an added node sits inside another added node. */
const MAX_ANCESTOR_STEPS = 256;

/**
 * Past this many characters (or text nodes) an element is a region, not a line: its text change is told from the text
 * nodes that changed in it. Reading a region's whole text after an action held a 10,000-row page for 700 ms.
 */
const TEXT_BOX_MAX = 2_000;
const TEXT_BOX_MAX_NODES = 400;

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
  /**
   * The element the action works on, found before it runs: attribute changes a person would see in it and its
   * neighbourhood are reported (attributeChanges.ts).
   */
  subject?: Element;
}

export async function observeChanges<T>(
  action: () => T | Promise<T>,
  opts: ObserveOptions = {},
): Promise<{ result: T; changes: Changes }> {
  // Whole-page comparisons (every control's state, every hidden subtree) only where the page is small enough; read
  // in slices before the action is performed. What the page adds meanwhile is not the action's doing.
  const unsettled = new Set<Node>();
  const before = await readBefore(unsettled);
  const urlBefore = location.href;
  const focusBefore = deepActiveElement();
  const near = opts.subject?.isConnected ? neighbourhood([opts.subject]) : undefined;
  const log = emptyMutationLog(near, { old: new Map(), looks: near ? readLooks(near) : new Map() });
  const mo = watchMutations(log);
  const leaving = watchLeaving();
  let result: T;
  let observedMs = 0;
  try {
    result = await action();
    const start = performance.now();
    await settled(start, log, leaving, opts.settleMs ?? 150, opts.maxMs ?? 2000);
    observedMs = Math.round(performance.now() - start);
  } finally {
    mo.takeRecords();
    mo.disconnect();
    leaving.stop();
  }
  const after = await readAfter(before, unsettled);
  const changes = withStyleCache(() => {
    const c = addedAndDialogs(log, before, after, observedMs);
    if (leaving.leaveAsked) c.pageDialogs.push({ type: 'beforeunload', message: '', at: Date.now(), url: urlBefore });
    stateAndVisibility(c, log, before, after, unsettled);
    textChanges(c, log);
    // Attributes a person would see change in and around the element acted on (shown/hidden are told above).
    if (near) c.changed.push(...seenChangeLines(log.seen, (el, name) => name === 'hidden' && toldShownOrHidden(el, c)));
    if (location.href !== urlBefore) c.navigated = { from: urlBefore, to: location.href };
    if (leaving.unloading) c.unloading = true;
    const focusAfter = deepActiveElement();
    if (focusAfter && focusAfter !== focusBefore && focusAfter !== document.body) c.focus = describeElement(focusAfter);
    return c;
  });
  return { result, changes };
}

/**
 * Waits until the page settles: at least MIN_WINDOW_MS, then until the DOM was quiet for `settleMs`, at most `maxMs`,
 * or at once when the page starts unloading.
 */
function settled(start: number, log: MutationLog, leaving: PageLeaving, settleMs: number, maxMs: number) {
  return new Promise<void>((resolve) => {
    // The minimum window ends with one timer set now, not with the 30 ms poll: Chrome queues deeply nested timers
    // (the poll, after five ticks) apart from a page's plain ones, and the poll's tick at 300 ms ran before a
    // page's 300 ms timer set during the action in 13 of 40 tries (a false "no DOM change within 304 ms").
    // A plain timer set after the page's, with the same delay, runs after it.
    let minDone = false;
    let done = false;
    const check = (): void => {
      const t = performance.now();
      if (done) return;
      if (leaving.unloading || (minDone && t - log.last >= settleMs) || t - start >= maxMs) {
        done = true;
        resolve();
      }
    };
    const tick = (): void => {
      check();
      if (!done) setTimeout(tick, 30);
    };
    setTimeout(tick, 30);
    setTimeout(() => {
      minDone = true;
      check();
    }, MIN_WINDOW_MS);
  });
}

type Before = Awaited<ReturnType<typeof readBefore>>;
type After = Awaited<ReturnType<typeof readAfter>>;

/** The report's start: what appeared (visible, with refs) and went away, and the dialogs that opened or closed. */
function addedAndDialogs(log: MutationLog, before: Before, after: After, observedMs: number): Changes {
  const tops = [...log.added].filter((n) => n.isConnected && !hasAddedAncestor(n, log.added)) as Element[];
  // Visibility is checked for the first MAX_CHECKED; the rest are counted as they are.
  const visibleTops = tops.slice(0, MAX_CHECKED).filter((el) => !hiddenReason(el));
  const unchecked = tops.length - Math.min(tops.length, MAX_CHECKED) + log.moreAdded;
  const removedTops = [...log.removed].filter((n) => !n.isConnected);
  const c: Changes = {
    added: visibleTops.slice(0, LIST_MAX).map((el) => summarize(el, true)),
    addedCount: visibleTops.length + unchecked,
    removedCount: removedTops.length + log.moreRemoved,
    ...dialogChanges(log, tops, removedTops, before, after),
    pageDialogs: [],
    changed: [],
    shown: [],
    hidden: [],
    observedMs,
  };
  if (unchecked)
    c.note = `a large change: ${unchecked.toLocaleString('en-US')} of the added elements were counted without checking that they are visible`;
  if (before.big) {
    // Comparing every control's state and every hidden subtree means walking the whole page before and after each
    // action; on a page this large that is what froze it (#24). Text changes still come from the mutation records.
    const skip = 'state and visibility of existing elements were not compared on a page this large';
    c.note = c.note ? `${c.note}; ${skip}` : skip;
  }
  return c;
}

function dialogChanges(
  log: MutationLog,
  tops: Element[],
  removedTops: Node[],
  before: Before,
  after: After,
): Pick<Changes, 'dialogsOpened' | 'dialogsClosed'> {
  if (!before.big)
    return {
      dialogsOpened: after.dialogs.filter((d) => !before.dialogs.includes(d)).map(dialogLabel),
      dialogsClosed: before.dialogs
        .filter((d) => !after.dialogs.includes(d))
        .map((d) => (d.isConnected ? dialogLabel(d) : 'dialog (removed)')),
    };
  // What changed decides: dialogs in added or changed nodes that show now opened; changed ones that do not show,
  // and removed ones, closed.
  const touched = dialogsIn([...tops, ...log.changed]);
  const toggled = dialogsIn(log.changed);
  const gone = dialogsIn(removedTops);
  return {
    dialogsOpened: [...touched].filter((d) => d.isConnected && !hiddenReason(d)).map(dialogLabel),
    dialogsClosed: [...[...toggled].filter((d) => !d.isConnected || hiddenReason(d)), ...gone].map((d) =>
      d.isConnected ? dialogLabel(d) : 'dialog (removed)',
    ),
  };
}

/** Controls whose state changed (properties change without mutations), and subtrees shown or hidden. */
function stateAndVisibility(c: Changes, log: MutationLog, before: Before, after: After, unsettled: Set<Node>): void {
  for (const [el, was] of before.states) {
    if (c.changed.length >= LIST_MAX) break;
    const now = after.states.get(el);
    if (now === undefined || now === was || !el.isConnected || hiddenReason(el)) continue;
    c.changed.push(`${describeElement(el)}: ${diffState(was, now)}`);
  }
  // Visibility: hidden subtrees before vs after (what the page added while they were read is not reported).
  const hiddenBefore = before.hidden;
  const hiddenAfter = after.hidden;
  for (const el of hiddenBefore) {
    if (c.shown.length >= LIST_MAX) break;
    if (el.isConnected && !hiddenAfter.has(el) && !isHidden(el) && !hasHiddenAncestor(el, hiddenAfter))
      c.shown.push(summarize(el, true));
  }
  for (const el of hiddenAfter) {
    if (c.hidden.length >= LIST_MAX) break;
    if (
      !hiddenBefore.has(el) &&
      !isNewHere(el, log.added) &&
      !hasHiddenAncestor(el, hiddenBefore) &&
      !hasAddedAncestor(el, unsettled, true)
    )
      c.hidden.push(summarize(el, false));
  }
}

/** Text of elements that existed and stay visible: a line's before and after, or a big region's changed nodes. */
function textChanges(c: Changes, log: MutationLog): void {
  const { oldText, removedText, addedText, added } = log;
  const seenText = new Set<Element>();
  for (const parent of log.textParents) {
    if (c.changed.length >= LIST_MAX * 2) break;
    if (!parent.isConnected || isNewHere(parent, added) || hiddenReason(parent)) continue;
    if (textLongerThan(parent, TEXT_BOX_MAX)) {
      const line = regionTextChange(parent, oldText, removedText, addedText);
      if (line) c.changed.push(line);
      continue;
    }
    const box = textBox(parent);
    if (seenText.has(box)) continue;
    seenText.add(box);
    const now = normalize(box.textContent ?? '');
    const before = normalize(textBefore(box, oldText, removedText, addedText, added));
    if (now === before) continue;
    c.changed.push(`text of ${describeElement(box)}: ${textDiff(before, now)}`);
  }
}

const isNewHere = (el: Element, added: Set<Node>): boolean => el !== document.body && hasAddedAncestor(el, added, true);

/** `checked → not checked`, `value "" → "2026-12-01"`: only the parts that differ. */
function diffState(before: string, after: string): string {
  const a = before.split('|');
  const b = after.split('|');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x.startsWith('value=') && y.startsWith('value=')) out.push(`value ${x.slice(6)} → ${y.slice(6)}`);
    else out.push(`${x || '(none)'} → ${y || '(none)'}`);
  }
  return out.join(', ');
}

/** Whether the element heads a shown: or hidden: line already (its hidden attribute's change is that line). */
function toldShownOrHidden(el: Element, c: Changes): boolean {
  const d = describeElement(el);
  return [...c.shown, ...c.hidden].some((line) => line === d || line.startsWith(`${d}:`) || line.startsWith(`${d} —`));
}

function hasHiddenAncestor(el: Element, set: Set<Element>): boolean {
  for (let p = parentOf(el); p; p = parentOf(p)) if (set.has(p)) return true;
  return false;
}

/**
 * The element a text change is reported on: the changed node's parent, widened while the wider element adds no text
 * of its own (a wrapper) or while the box is inline (`<strong>2</strong> items left` reads as "2 items left").
 */
function textBox(el: Element): Element {
  let box = el;
  for (let i = 0, p = parentOf(el); p && i < 4 && p !== document.body; i++, p = parentOf(p)) {
    if (textLongerThan(p, TEXT_BOX_MAX)) break;
    const mine = normalize(box.textContent ?? '');
    const theirs = normalize(p.textContent ?? '');
    const inline = (styleOf(box)?.display ?? 'inline').startsWith('inline');
    if (theirs !== mine && !(inline && theirs.length <= 120)) break;
    box = p;
  }
  return box;
}

/**
 * `"before" → "after"`, each cut to 80 characters around where they first differ: two long texts that differ past
 * their 80th character would otherwise read the same (`"Posts: Ada… " → "Posts: Ada… "`).
 */
export function textDiff(before: string, after: string): string {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  const cut = (s: string): string => {
    if (s.length <= 80 || p < 60) return truncate(s, 80);
    const from = Math.max(0, p - 30);
    return `…${truncate(s.slice(from), 79)}`;
  };
  return `${JSON.stringify(cut(before))} → ${JSON.stringify(cut(after))}`;
}

/**
 * Whether the element holds more than `max` characters of text (or more text nodes than a line has), read only as far
 * as needed: `textContent` on a big table's container reads the whole table.
 */
function textLongerThan(el: Element, max: number): boolean {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let chars = 0;
  let nodes = 0;
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    chars += t.nodeValue?.length ?? 0;
    if (chars > max || ++nodes > TEXT_BOX_MAX_NODES) return true;
  }
  return false;
}

/**
 * A text change in a region too big to read as a line: the region's own text nodes that changed, before and after
 * (elements added to it are listed as added already, so an addition alone is not a text change).
 */
function regionTextChange(
  region: Element,
  oldText: Map<Node, string>,
  removedText: Map<Node, string[]>,
  addedText: Set<Node>,
): string | undefined {
  const before: string[] = [...(removedText.get(region) ?? [])];
  const now: string[] = [];
  for (const [node, old] of oldText)
    if (node.parentNode === region) {
      before.push(old);
      now.push(node.nodeValue ?? '');
    }
  for (const node of addedText) if (node.parentNode === region) now.push(node.nodeValue ?? '');
  const a = normalize(before.join(' '));
  const b = normalize(now.join(' '));
  if (a === b) return undefined;
  return `text in ${describeElement(region)}: ${textDiff(a, b)}`;
}

/** The element's text as it was before: changed text nodes' old values, added ones left out, removed ones put back. */
function textBefore(
  box: Element,
  oldText: Map<Node, string>,
  removedText: Map<Node, string[]>,
  addedText: Set<Node>,
  added: Set<Node>,
): string {
  const parts: string[] = [];
  const emitted = new Set<Node>();
  const walk = (n: Node): void => {
    const gone = removedText.get(n);
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3 || added.has(c)) {
        if (addedText.has(c) || added.has(c)) {
          if (gone && !emitted.has(n)) {
            emitted.add(n);
            parts.push(...gone);
          }
          continue;
        }
        parts.push(oldText.get(c) ?? c.nodeValue ?? '');
      } else if (c.nodeType === 1) walk(c);
    }
    if (gone && !emitted.has(n)) {
      emitted.add(n);
      parts.push(...gone);
    }
  };
  walk(box);
  return parts.join('');
}

function hasAddedAncestor(n: Node, added: Set<Node>, self = false): boolean {
  if (self && added.has(n)) return true;
  let steps = 0;
  for (let p = parentOf(n); p && steps < MAX_ANCESTOR_STEPS; p = parentOf(p), steps++) if (added.has(p)) return true;
  return false;
}

/**
 * `div "to: … subject: …" — refs: e31 textbox "To", e32 button "Send"`: what appeared or showed, with the refs of the
 * controls inside so the model can act without another snapshot.
 */
function summarize(el: Element, withRefs: boolean): string {
  const d = describeElement(el);
  const text = textOf(el, 80);
  const head = text && !d.includes(JSON.stringify(truncate(text, 60))) ? `${d}: ${JSON.stringify(text)}` : d;
  if (!withRefs) return head;
  const controls = controlsIn(el);
  if (!controls.length) return head;
  const shown = controls.slice(0, LIST_MAX).join(', ');
  return `${head} — refs: ${shown}${controls.length > LIST_MAX ? `, … ${controls.length - LIST_MAX} more` : ''}`;
}

function controlsIn(el: Element): string[] {
  const out: string[] = [];
  // Bounded (#24): only the first few refs are shown, so a large added table costs what that holds.
  const snap = buildSnapshot({ root: el, commit: false, render: false, maxChars: 4_000 });
  const walk = (nodes: OutlineNode[]): void => {
    for (const n of nodes) {
      if (n.ref && n.kind !== 'text') out.push(`${n.ref} ${n.head.replace(/ \[ref=[^\]]+\]/, '').slice(0, 80)}`);
      walk(n.children);
    }
  };
  walk(snap.root.children);
  return out;
}
