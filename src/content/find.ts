/**
 * Searching the page without reading all of it. `find` filters the outline by text, role or name and returns only
 * the matching lines with refs and a line of context; `query` runs a CSS selector (across shadow roots) and gives
 * every match a ref.
 */
import { checkSelector, deepQuerySliced, SEARCH_ELEMENTS } from './deepQuery.ts';
import { flatChildren, parentOf } from './flatTree.ts';
import { accessibleName, textOf, truncate } from './names.ts';
import { registry } from './refs.ts';
import { interactiveRole, roleOf } from './roles.ts';
import {
  buildSnapshot,
  buildSnapshotSliced,
  linePieces,
  type OutlineNode,
  type SnapshotResult,
  where,
} from './contentSnapshot.ts';
import { closeWalkCache, hiddenReason, openWalkCache, styleOf, withStyleCache } from './visibility.ts';
import { runSliced, runSync, Slicer } from './slices.ts';
import { describeElement, hrefText, quote, stateTokens, tagHint, valueText } from './describe.ts';
import { roleAndName } from '../shared/outline.ts';

export interface FindOptions {
  text?: string;
  role?: string;
  name?: string;
  limit?: number;
  root?: Element;
}

export interface FindMatch {
  ref?: string;
  line: string;
  context: string;
  /** For a text match inside an element with a ref (a button's label, a link's text): that element's ref. */
  inside?: string;
  /** For a text match in a list item or table row: the refs of that row's controls (`e5 checkbox "Buy milk"`). */
  row?: string[];
  /**
   * For a match that is no control and not part of one (a paragraph's text, a list item, a heading): a ref for the
   * element that holds it, with its tag (`e14 <p>`), so every match names something the tools accept (#43).
   */
  holder?: string;
}

/** Text matches the outline could not show because they sit in hidden elements, grouped by why. */
export interface HiddenMatches {
  count: number;
  /** `2 in tabpanel "Billing" (an ancestor has display:none)`, at most 4. */
  where: string[];
}

/** Rows whose controls a text match points at (a todo's checkbox and delete button sit beside its label). */
const ROW_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'article']);

export interface FindResult {
  matches: FindMatch[];
  total: number;
  hidden?: HiddenMatches;
  /** Set when the search covered only part of the frame. */
  note?: string;
}

/**
 * The search's own budget: the outline it filters is at most this many characters (≈ 1,400 rows of a five-control
 * table, 7.5 snapshots' worth), so a search costs what that holds, not what the page holds. A search that finds what
 * it shows stops sooner (FIND_LOOKAHEAD_CHARS); this bounds the one that finds little or nothing (#24: 600,000
 * before, which made such a search cost ~0.7-1.5 s CPU on a 10,000-row table; docs/decisions.md).
 */
export const FIND_OUTLINE_CHARS = 300_000;

/** Searches the whole frame in one go (unit tests). */
export function find(opts: FindOptions): FindResult {
  return runSync(
    matchOutline(
      buildSnapshot({ root: opts.root, commit: false, viewportFirst: false, keepPieces: true }),
      opts,
      new Slicer(),
    ),
  );
}

/**
 * After its `limit`-th match a search walks this many characters more, to count what follows, and stops: a search
 * with many matches costs what it shows, not what the page holds (#24). A snapshot's default budget.
 */
export const FIND_LOOKAHEAD_CHARS = 40_000;

/**
 * Searches in slices that yield to the page, within the search budget and `deadline`, and stops soon after it has
 * `limit` matches; says when it covered less than the frame.
 */
export async function findSliced(
  opts: FindOptions & { deadline?: number; maxChars?: number; lookahead?: number },
): Promise<FindResult> {
  const isMatch = matcher(opts);
  const limit = opts.limit ?? 20;
  const lookahead = opts.lookahead ?? FIND_LOOKAHEAD_CHARS;
  const counted = new Set<OutlineNode>();
  let at = -1;
  const snap = await buildSnapshotSliced({
    root: opts.root,
    commit: false,
    render: false,
    viewportFirst: false,
    keepPieces: true,
    maxChars: opts.maxChars ?? FIND_OUTLINE_CHARS,
    deadline: opts.deadline,
    lane: 'find',
    hint: FIND_HINT,
    enough: (node, used, parent) => {
      if (at >= 0) return used - at >= lookahead;
      // Counted once, and not a clickable's text, which may fold into its name (the clickable is counted then):
      // counting either twice would stop the search before it has `limit` matches to show.
      if (node.kind === 'text' && parent.role === 'clickable') return false;
      if (isMatch(node) && !counted.has(node)) {
        counted.add(node);
        if (counted.size >= limit) at = used;
      }
      return false;
    },
  });
  const slicer = new Slicer();
  const r = await runSliced(matchOutline(snap, opts, slicer), slicer, { lane: 'find', what: 'search' });
  // An early stop with nothing left to walk (no stopAt) covered the whole frame after all: no note then.
  if (snap.stopped === 'enough' && snap.stopAt)
    r.note = `Stopped soon after the first ${limit === 1 ? 'match' : `${limit} matches`}, at ${where(snap.stopAt)}, so more matches may follow (the total counts the part searched). Raise limit (up to 200) to see more, or narrow the search.`;
  else if (snap.stopped && snap.stopped !== 'enough')
    r.note =
      `Searched part of the page only, so more matches may exist (the total counts the searched part). ${snap.notes.at(-1) ?? ''}`.trim();
  return r;
}

/**
 * What the model can do about the part a search left out. `dom.find` has no root, and walks from the top whatever
 * the scroll, so the part past the budget is reached by the tools that do take one.
 */
const FIND_HINT =
  'To search past it, snapshot that part with dom.snapshot(root=<ref or CSS selector>), or match it by CSS with dom.query.';

/** The search's test of one outline node (a text match is against the line the model would read). */
function matcher(opts: FindOptions): (node: OutlineNode) => boolean {
  const text = opts.text?.toLowerCase();
  const name = opts.name?.toLowerCase();
  const role = opts.role?.toLowerCase();
  return (node) => {
    if (!text && !name && !role) return false;
    if (node.kind === 'frame') return false;
    if (role && node.role?.toLowerCase() !== role) return false;
    if (name && !(node.name ?? '').toLowerCase().includes(name)) return false;
    if (text && !node.head.toLowerCase().includes(text)) return false;
    return true;
  };
}

/** Filters the outline tree (a generator so a big tree is matched in slices too). */
function* matchOutline(snap: SnapshotResult, opts: FindOptions, slicer: Slicer): Generator<void, FindResult, void> {
  const isMatch = matcher(opts);
  const limit = opts.limit ?? 20;
  const matches: FindMatch[] = [];
  let total = 0;
  let lastHeading: OutlineNode | undefined;
  // Document order, with the path to each node on one stack (no copy of it per node).
  const path: OutlineNode[] = [];
  const walk = function* (nodes: OutlineNode[]): Generator<void, void, void> {
    for (const node of nodes) {
      if (slicer.due()) yield;
      if (node.role === 'heading') lastHeading = node;
      if (isMatch(node)) {
        total++;
        if (matches.length < limit)
          matches.push(matchOf(node, path, lastHeading !== node ? lastHeading : undefined, opts.text));
      }
      if (node.children.length) {
        path.push(node);
        yield* walk(node.children);
        path.pop();
      }
    }
  };
  yield* walk(snap.root.children);
  const out: FindResult = { matches, total };
  if (opts.text) {
    const hidden = yield* hiddenTextMatches(opts.text, opts.root ?? document.body, slicer, snap.stopAt);
    if (hidden.count) out.hidden = hidden;
  }
  return out;
}

function matchOf(
  node: OutlineNode,
  path: OutlineNode[],
  lastHeading: OutlineNode | undefined,
  text: string | undefined,
): FindMatch {
  const context = contextOf(path, lastHeading);
  // A line holding one text reads with it, as in the snapshot (`listitem: Wash`): a list of bare `listitem`s would
  // not say which is which.
  const only = node.children.length === 1 ? node.children[0] : undefined;
  const line =
    node.kind === 'text'
      ? `text: ${node.head}`
      : only?.kind === 'text' && !node.ref
        ? `${node.head}: ${only.head}`
        : node.head;
  const m: FindMatch = { line, context };
  if (node.ref) m.ref = node.ref;
  else {
    // Only the element that holds the text, or the row it sits in, is "its" element: a neighbour in document
    // order may be another item's control (the bug this replaced pointed "Buy milk" at the previous todo's box).
    const inside = path.findLast((p) => p.ref);
    if (inside?.ref) m.inside = inside.ref;
    else {
      const row = path.findLast((p) => p.role && ROW_ROLES.has(p.role));
      const controls = row ? refsIn(row).slice(0, 4) : [];
      if (controls.length) m.row = controls.map((c) => `${c.ref} ${upToRef(c)}`);
      const el = holderOf(node, text);
      if (el && el !== document.body && el !== document.documentElement)
        m.holder = `${registry.refFor(el)} <${el.localName}>`;
    }
  }
  return m;
}

const squash = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').toLowerCase();

/**
 * The element that holds a match: a structure line's own element; for a text line (which merges the text of several
 * elements) the one whose own piece holds the searched words (`Share` in `Like · Comment · Share` is the Share
 * span), else the nearest element around the line's first piece whose text holds them all.
 */
export function holderOf(node: OutlineNode, text: string | undefined): Element | undefined {
  const pieces = linePieces(node);
  if (!pieces) return undefined;
  if (!Array.isArray(pieces)) return pieces;
  if (!pieces.length) return undefined;
  const needle = squash(text).trim();
  if (!needle) return pieces[0]!.el;
  const own = pieces.find((p) => squash(p.text).includes(needle));
  if (own) return own.el;
  for (let e: Element | null = pieces[0]!.el; e && e !== document.body; e = e.parentElement)
    if (squash(e.textContent).includes(needle)) return e;
  return pieces[0]!.el;
}

function refsIn(node: OutlineNode): OutlineNode[] {
  const out: OutlineNode[] = [];
  const walk = (n: OutlineNode): void => {
    for (const c of n.children) {
      if (c.ref && c.kind === 'element') out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

/** The element a hidden match is reported by: the nearest ancestor that says what it is (tab panel, menu, dialog). */
function hiddenContainer(el: Element): Element {
  for (let n: Element | null = el; n && n !== document.body; n = parentOf(n)) {
    const s = styleOf(n);
    if (
      n.getAttribute('role') ||
      n.id ||
      n.localName === 'details' ||
      n.localName === 'dialog' ||
      n.hasAttribute('hidden') ||
      s?.display === 'none'
    )
      return n;
  }
  return el;
}

/**
 * Text matches in hidden elements (closed tabs, menus, collapsed sections): counted and grouped by their container
 * and the reason it is hidden, so the model knows to open something rather than conclude the text is absent.
 * A generator on the search's slicer (#24): at most `budget` nodes, yielding to the page between slices.
 */
function* hiddenTextMatches(
  text: string,
  root: Element | null,
  slicer: Slicer,
  stopAt: Node | undefined,
  budget = 200_000,
): Generator<void, HiddenMatches, void> {
  if (!root) return { count: 0, where: [] };
  const needle = text.toLowerCase();
  openWalkCache();
  try {
    const groups = new Map<Element, { n: number; reason: string }>();
    let count = 0;
    let seen = 0;
    // Where the outline's walk stopped, this one stops too: the count covers the part searched, at its cost.
    let done = false;
    const walk = function* (node: Node): Generator<void, void, void> {
      const kids = flatChildren(node);
      for (let i = 0; i < kids.length; i++) {
        const child = kids[i]!;
        if (child === stopAt) done = true;
        if (done || ++seen > budget || slicer.overtime) return;
        if (slicer.due()) yield;
        if (child.nodeType === 3) {
          const v = child.nodeValue;
          if (!v || !v.toLowerCase().includes(needle)) continue;
          const el = child.parentElement;
          if (!el) continue;
          const reason = hiddenReason(el);
          if (!reason) continue;
          count++;
          const box = hiddenContainer(el);
          const g = groups.get(box);
          if (g) g.n++;
          else groups.set(box, { n: 1, reason: hiddenReason(box) ?? reason });
        } else if (child.nodeType === 1 || child.nodeType === 11) {
          const tag = (child as Element).localName;
          if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript') continue;
          yield* walk(child);
        }
      }
    };
    yield* walk(root);
    const where = [...groups]
      .slice(0, 4)
      .map(([el, g]) => `${g.n} in ${describeElement(el)} ${tagHint(el)} (${g.reason.replace(/^it /, '')})`);
    return { count, where };
  } finally {
    closeWalkCache();
  }
}

/** A node's line up to its ref: `button "Save"` for a control, the whole line for structure (`heading "Plans" [level=2]`). */
function upToRef(n: OutlineNode): string {
  return n.ref ? roleAndName(n) : n.head;
}

function contextOf(path: OutlineNode[], heading: OutlineNode | undefined): string {
  const parts = path.filter((p) => p.kind === 'element').map(upToRef);
  const where = parts.slice(-2).join(' › ');
  const under = heading && !path.includes(heading) ? `under ${heading.head}` : '';
  return [where && `in ${where}`, under].filter(Boolean).join(', ');
}

export interface QueryMatch {
  ref: string;
  line: string;
  visible: boolean;
  hidden?: string;
}

/**
 * Elements dom.query visits to count further matches once it holds `limit` of them (#24, docs/decisions.md "#24
 * dom.query's budget"): five times a 1,000-row table (~10,000 elements), so ordinary pages are counted whole, while on
 * a page of millions of nodes the call costs this walk and not the page's.
 */
export const QUERY_COUNT_AFTER = 50_000;

function roleAndNameOf(el: Element, max: number): { role: string; name: string } {
  const role = interactiveRole(el, roleOf(el), undefined) ?? roleOf(el) ?? el.localName;
  return { role, name: truncate(accessibleName(el, role) || textOf(el, max), max) };
}

/** Where a walk stopped, as the model reads it: `checkbox "Pick 5000"`. */
function upToText(el: Element): string {
  const { role, name } = roleAndNameOf(el, 60);
  return truncate(`${role}${name ? ' ' + quote(name) : ''}`, 160);
}

/**
 * CSS selector → matching elements (document and shadow roots, walked in slices), each with a ref. A selector that
 * matches fewer than `limit` searches SEARCH_ELEMENTS elements at most, then says how far it got (`searched`,
 * `searchedUpTo`, and `byId` when the main document past that was matched by id).
 */
export async function query(
  selector: string,
  limit = 50,
  opts: { scope?: Document | Element; deadline?: number; countAfter?: number; searchBudget?: number } = {},
): Promise<{
  matches: QueryMatch[];
  total: number;
  partial?: true;
  countedUpTo?: string;
  searched?: number;
  searchedUpTo?: string;
  byId?: true;
}> {
  try {
    checkSelector(selector);
  } catch {
    throw new Error(`Invalid CSS selector ${quote(selector)}. Fix the selector, or search by text with dom.find.`);
  }
  const found = await deepQuerySliced(selector, {
    limit,
    countAfter: QUERY_COUNT_AFTER,
    searchBudget: SEARCH_ELEMENTS,
    ...opts,
  });
  return withStyleCache(() => {
    const matches = found.found.map((el) => {
      const ref = registry.refFor(el);
      const { role, name } = roleAndNameOf(el, 80);
      const tag = tagHint(el);
      const hidden = hiddenReason(el);
      const line = `${role}${name ? ' ' + quote(name) : ''} [ref=${ref}]${stateTokens(el, role, null)
        .map((s) => ' ' + s)
        .join('')}${valueText(el, role)}${role === 'link' ? hrefText(el) : ''} ${tag}${hidden ? ' [hidden]' : ''}`;
      const m: QueryMatch = { ref, line, visible: !hidden };
      if (hidden) m.hidden = hidden;
      return m;
    });
    return {
      matches,
      total: found.total,
      ...(found.complete ? {} : { partial: true as const }),
      ...(found.lastCounted ? { countedUpTo: upToText(found.lastCounted) } : {}),
      ...(found.searchedUpTo
        ? {
            searched: found.searched,
            searchedUpTo: upToText(found.searchedUpTo),
            ...(found.byId ? { byId: true as const } : {}),
          }
        : {}),
    };
  });
}
