/**
 * Searching the page without reading all of it. `find` filters the outline by text, role or name and returns only
 * the matching lines with refs and a line of context; `query` runs a CSS selector (across shadow roots) and gives
 * every match a ref.
 */
import { checkSelector, deepQuerySliced } from './deepQuery.ts';
import { flatChildren, parentOf } from './env.ts';
import { accessibleName, textOf, truncate } from './names.ts';
import { registry } from './refs.ts';
import { interactiveRole, roleOf } from './roles.ts';
import { buildSnapshot, buildSnapshotSliced, type OutlineNode, type SnapshotResult } from './snapshot.ts';
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
 * The search's own budget: the outline it filters is at most this many characters (≈ 2,500 rows of a five-control
 * table), so a search costs what that holds, not what the page holds.
 */
export const FIND_OUTLINE_CHARS = 600_000;

/** Searches the whole frame in one go (unit tests). */
export function find(opts: FindOptions): FindResult {
  return runSync(
    matchOutline(buildSnapshot({ root: opts.root, commit: false, viewportFirst: false }), opts, new Slicer()),
  );
}

/** Searches in slices that yield to the page, within the search budget and `deadline`; says when it covered less. */
export async function findSliced(opts: FindOptions & { deadline?: number; maxChars?: number }): Promise<FindResult> {
  const snap = await buildSnapshotSliced({
    root: opts.root,
    commit: false,
    render: false,
    viewportFirst: false,
    maxChars: opts.maxChars ?? FIND_OUTLINE_CHARS,
    deadline: opts.deadline,
    lane: 'find',
    hint: 'Narrow the search with a root, or scroll and search again.',
  });
  const slicer = new Slicer();
  const r = await runSliced(matchOutline(snap, opts, slicer), slicer, { lane: 'find', what: 'search' });
  if (snap.stopped)
    r.note =
      `Searched part of the page only, so more matches may exist (the total counts the searched part). ${snap.notes.at(-1) ?? ''}`.trim();
  return r;
}

/** Filters the outline tree (a generator so a big tree is matched in slices too). */
function* matchOutline(snap: SnapshotResult, opts: FindOptions, slicer: Slicer): Generator<void, FindResult, void> {
  const text = opts.text?.toLowerCase();
  const name = opts.name?.toLowerCase();
  const role = opts.role?.toLowerCase();
  const limit = opts.limit ?? 20;
  const matches: FindMatch[] = [];
  let total = 0;

  // Document-order list of nodes with refs, to point text matches at the nearest actionable element.
  const order: { node: OutlineNode; path: OutlineNode[] }[] = [];
  const walk = function* (nodes: OutlineNode[], path: OutlineNode[]): Generator<void, void, void> {
    for (const n of nodes) {
      if (slicer.due()) yield;
      order.push({ node: n, path });
      if (n.children.length) yield* walk(n.children, [...path, n]);
    }
  };
  yield* walk(snap.root.children, []);

  let lastHeading: OutlineNode | undefined;
  for (let i = 0; i < order.length; i++) {
    if (slicer.due()) yield;
    const { node, path } = order[i]!;
    if (node.role === 'heading') lastHeading = node;
    if (role && node.role?.toLowerCase() !== role) continue;
    if (name && !(node.name ?? '').toLowerCase().includes(name)) continue;
    if (text && !node.head.toLowerCase().includes(text)) continue;
    if (!text && !name && !role) continue;
    if (node.kind === 'frame') continue;
    total++;
    if (matches.length >= limit) continue;
    const context = contextOf(path, lastHeading !== node ? lastHeading : undefined);
    const line = node.kind === 'text' ? `text: ${node.head}` : node.head;
    const m: FindMatch = { line, context };
    if (node.ref) m.ref = node.ref;
    else {
      // Only the element that holds the text, or the row it sits in, is "its" element: a neighbour in document
      // order may be another item's control (the bug this replaced pointed "Buy milk" at the previous todo's box).
      const inside = [...path].reverse().find((p) => p.ref);
      if (inside?.ref) m.inside = inside.ref;
      else {
        const row = [...path].reverse().find((p) => p.role && ROW_ROLES.has(p.role));
        const controls = row ? refsIn(row).slice(0, 4) : [];
        if (controls.length) m.row = controls.map((c) => `${c.ref} ${upToRef(c)}`);
      }
    }
    matches.push(m);
  }
  const out: FindResult = { matches, total };
  if (opts.text) {
    const hidden = yield* hiddenTextMatches(opts.text, opts.root ?? document.body, slicer);
    if (hidden.count) out.hidden = hidden;
  }
  return out;
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
  budget = 200_000,
): Generator<void, HiddenMatches, void> {
  if (!root) return { count: 0, where: [] };
  const needle = text.toLowerCase();
  openWalkCache();
  try {
    const groups = new Map<Element, { n: number; reason: string }>();
    let count = 0;
    let seen = 0;
    const walk = function* (node: Node): Generator<void, void, void> {
      const kids = flatChildren(node);
      for (let i = 0; i < kids.length; i++) {
        const child = kids[i]!;
        if (++seen > budget || slicer.overtime) return;
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

/** CSS selector → matching elements (document and shadow roots, walked in slices), each with a ref. */
export async function query(
  selector: string,
  limit = 50,
  opts: { scope?: Document | Element; deadline?: number } = {},
): Promise<{ matches: QueryMatch[]; total: number; partial?: true }> {
  try {
    checkSelector(selector);
  } catch {
    throw new Error(`Invalid CSS selector ${quote(selector)}. Fix the selector, or search by text with dom.find.`);
  }
  const found = await deepQuerySliced(selector, { limit, ...opts });
  return withStyleCache(() => {
    const matches = found.found.map((el) => {
      const ref = registry.refFor(el);
      const role = interactiveRole(el, roleOf(el), undefined) ?? roleOf(el) ?? el.localName;
      const name = truncate(accessibleName(el, role) || textOf(el, 80), 80);
      const tag = tagHint(el);
      const hidden = hiddenReason(el);
      const line = `${role}${name ? ' ' + quote(name) : ''} [ref=${ref}]${stateTokens(el, role, null)
        .map((s) => ' ' + s)
        .join('')}${valueText(el, role)}${role === 'link' ? hrefText(el) : ''} ${tag}${hidden ? ' [hidden]' : ''}`;
      const m: QueryMatch = { ref, line, visible: !hidden };
      if (hidden) m.hidden = hidden;
      return m;
    });
    return { matches, total: found.total, ...(found.complete ? {} : { partial: true as const }) };
  });
}
