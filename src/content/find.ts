/**
 * Searching the page without reading all of it. `find` filters the outline by text, role or name and returns only
 * the matching lines with refs and a line of context; `query` runs a CSS selector (across shadow roots) and gives
 * every match a ref.
 */
import { deepQueryAll } from './env.ts';
import { accessibleName, textOf, truncate } from './names.ts';
import { registry } from './refs.ts';
import { interactiveRole, roleOf } from './roles.ts';
import { buildSnapshot, buildSnapshotSliced, type OutlineNode, type SnapshotResult } from './snapshot.ts';
import { hiddenReason, withStyleCache } from './visibility.ts';
import { runSliced, runSync, Slicer } from './slices.ts';
import { hrefText, quote, stateTokens, valueText } from './describe.ts';

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
  /** For a text match: the closest ref (the element to act on near that text). */
  near?: string;
}

export interface FindResult {
  matches: FindMatch[];
  total: number;
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
      const inside = [...path].reverse().find((p) => p.ref);
      const near = inside ?? nearestRef(order, i);
      if (near?.ref) m.near = near.ref;
    }
    matches.push(m);
  }
  return { matches, total };
}

function contextOf(path: OutlineNode[], heading: OutlineNode | undefined): string {
  const parts = path.filter((p) => p.kind === 'element').map((p) => p.head.replace(/ \[ref=[^\]]+\].*$/, ''));
  const where = parts.slice(-2).join(' › ');
  const under = heading && !path.includes(heading) ? `under ${heading.head}` : '';
  return [where && `in ${where}`, under].filter(Boolean).join(', ');
}

function nearestRef(order: { node: OutlineNode }[], i: number): OutlineNode | undefined {
  for (let d = 1; d < 40; d++) {
    const after = order[i + d]?.node;
    if (after?.ref) return after;
    const before = order[i - d]?.node;
    if (before?.ref) return before;
  }
  return undefined;
}

export interface QueryMatch {
  ref: string;
  line: string;
  visible: boolean;
  hidden?: string;
}

/** CSS selector → matching elements (document and shadow roots), each with a ref. */
export function query(
  selector: string,
  limit = 50,
  scope: Document | Element = document,
): { matches: QueryMatch[]; total: number } {
  let found: Element[];
  try {
    found = deepQueryAll(selector, scope);
  } catch {
    throw new Error(`Invalid CSS selector ${quote(selector)}. Fix the selector, or search by text with dom.find.`);
  }
  return withStyleCache(() => {
    const matches = found.slice(0, limit).map((el) => {
      const ref = registry.refFor(el);
      const role = interactiveRole(el, roleOf(el), undefined) ?? roleOf(el) ?? el.localName;
      const name = truncate(accessibleName(el, role) || textOf(el, 80), 80);
      const tag = `<${el.localName}${el.id ? '#' + el.id : ''}${typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).slice(0, 3).join('.') : ''}>`;
      const hidden = hiddenReason(el);
      const line = `${role}${name ? ' ' + quote(name) : ''} [ref=${ref}]${stateTokens(el, role, null)
        .map((s) => ' ' + s)
        .join('')}${valueText(el, role)}${role === 'link' ? hrefText(el) : ''} ${tag}${hidden ? ' [hidden]' : ''}`;
      const m: QueryMatch = { ref, line, visible: !hidden };
      if (hidden) m.hidden = hidden;
      return m;
    });
    return { matches, total: found.length };
  });
}
