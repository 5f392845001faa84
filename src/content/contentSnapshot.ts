/**
 * The page outline: what a person sees, as indented lines.
 *
 *   - navigation "Main":
 *     - link "Home" [ref=e1] -> /
 *   - heading "Sign in" [level=1]
 *   - text: Welcome back.
 *   - textbox "Email" [ref=e2] [required] value="a@b.c"
 *   - iframe "Payment" [ref=e3]           ← a `frame` node: the worker puts the child frame's outline in it
 *
 * Interactive elements that are visible get refs (stable for the element's life, see refs.ts); landmarks, headings,
 * dialogs, tables and other structure get lines; generic containers are transparent and their text is merged into
 * `text:` lines at block boundaries. Shadow roots (open and closed) and slots are walked in flat-tree order.
 * Elements that earlier snapshots did not show are marked `[new]`.
 *
 * Like Playwright's aria snapshot (generate, normalise, render), the walk builds a tree of typed nodes (role, name,
 * states, ref, children; src/shared/contentMessages.ts) and text is rendered once from it (outline.ts): here for a
 * caller that wants this frame's text, in the worker for a tab, after child frames are stitched into `frame` nodes.
 */
import { deepActiveElement, flatChildren } from './flatTree.ts';
import { accessibleName, dedupeRepeat, normalize } from './names.ts';
import { interactiveRole, NAME_FROM_CONTENT, roleOf, STRUCTURAL_ROLES } from './roles.ts';
import { linkTarget, ROW_NAMED, stateNames, tagHint, valueShown } from './describe.ts';
import {
  DISPLAY_NAME_MAX,
  defuseRefTokens,
  headOf,
  linesText,
  type OutlineNode as TreeNode,
  quote,
  renderOutline,
  truncate,
} from '../shared/outline.ts';
import { type RefRegistry, registry as defaultRegistry } from './refs.ts';
import { closeWalkCache, hasVisibleBox, layoutAvailable, openWalkCache, styleOf } from './visibility.ts';
import { runSliced, runSync, Slicer } from './slices.ts';
import { textOf } from './names.ts';
import { inferName } from './inferName.ts';

export const TEXT_LINE_MAX = 300;
/** Cap on one frame's rendered outline (and, through FRAME_BUDGET_MAX, on the tree it sends the worker). */
export const FRAME_OUTLINE_CAP = 1_000_000;

/**
 * A node as the walk builds it: the typed fields are what crosses to the worker; `head` renders the node's line
 * (`button "Save" [ref=e3] [disabled]`) on demand, for the searches that match text against what the model reads.
 */
class WalkNode implements TreeNode {
  declare kind: TreeNode['kind'];
  declare role?: string;
  declare name?: string;
  declare ref?: string;
  declare isNew?: boolean;
  declare nameInferred?: boolean;
  declare states?: string[];
  declare value?: string;
  declare href?: string;
  declare hint?: string;
  declare text?: string;
  declare frame?: number;
  children: WalkNode[] = [];
  constructor(fields: Omit<TreeNode, 'children' | 'isNew'>, isNew = false) {
    Object.assign(this, fields);
    // Only new nodes carry the flag: most are not, and the tree crosses to the worker as JSON.
    if (isNew) this.isNew = true;
  }
  get head(): string {
    return headOf(this);
  }
}
export type OutlineNode = WalkNode;

/**
 * A line's page nodes, kept when the walk was asked to (`keepPieces`): for a text line, each piece of its text with
 * the element it sits in (a line merges the text of several elements); for a structure line, its element.
 */
export type LinePieces = { text: string; el: Element }[] | Element;
const pieces = new WeakMap<OutlineNode, LinePieces>();

export function linePieces(node: OutlineNode): LinePieces | undefined {
  return pieces.get(node);
}

export interface FrameSlot {
  /** Index of the iframe's window in `window.frames` (-1 when not found). */
  index: number;
  src: string;
  name: string;
}

export interface SnapshotResult {
  root: OutlineNode;
  text: string;
  refs: number;
  newRefs: number;
  lines: number;
  frames: FrameSlot[];
  /** What the walk left out (budget, time, the part above the viewport), in the model's words; empty when nothing. */
  notes: string[];
  /** Why the walk stopped early, if it did ('enough': the caller's `enough` said so). */
  stopped?: 'budget' | 'time' | 'enough';
  /** The first node the walk did not enter once it stopped (none when what was left held nothing to walk). */
  stopAt?: Node;
}

export interface SnapshotOptions {
  root?: Element;
  registry?: RefRegistry;
  /** Record shown nodes so the next snapshot can mark what is new (default true). */
  commit?: boolean;
  /**
   * The caller's character budget. The walk gathers what that budget can show (text lines beyond it may still be
   * dropped by the worker's truncation) and then stops doing per-element work; the rest is estimated. Default: no
   * budget (the whole frame, up to FRAME_OUTLINE_CAP).
   */
  maxChars?: number;
  /** When the page is larger than the budget and scrolled, start long lists near the viewport (default true). */
  viewportFirst?: boolean;
  /** What the stop note suggests doing about the part left out. */
  hint?: string;
  /** Render the tree to text (default true; a search reads the tree and skips it). */
  render?: boolean;
  /**
   * Remember the page nodes behind lines without a ref (`linePieces`): a search gives the element that holds a
   * matched text a ref (#43). Off for snapshots: it costs a list per text line.
   */
  keepPieces?: boolean;
  /**
   * Told of each node as the walk adds it (with the characters gathered so far and the node it is added to); true
   * stops the walk there as a full budget would, without a note of its own (a search that has found what it needs
   * says so itself, #24). A node may be told twice (a list item's one child moves up), and a clickable's short text
   * lines are later folded into its name.
   */
  enough?: (node: OutlineNode, used: number, parent: OutlineNode) => boolean;
}

export interface SlicedOptions extends SnapshotOptions {
  /** Stop walking at this `performance.now()` time and return what was gathered, with a note. */
  deadline?: number;
  /** Walks in the same lane supersede each other (default 'snapshot'). */
  lane?: string;
}

interface Ctx {
  /** Computed visibility of the nearest element is visible (text nodes inherit it). */
  visible: boolean;
  ariaHidden: boolean;
  inert: boolean;
  /** Text goes to this name buffer instead of text lines (inside a name-from-content element). */
  nameBuf: string[] | null;
  /** Text is dropped (a label whose control carries the text as its name). */
  muteText: boolean;
  cursor: string | undefined;
  inRow: boolean;
}

interface Parent {
  node: OutlineNode;
  pending: string[];
  pendingOwner: Node | null;
  depth: number;
  /** The pending text's pieces with their elements (only when the walk keeps pieces). */
  pieces?: { text: string; el: Element }[];
}

/** Gather this many times the budget before stopping: the worker's truncation drops text lines before refs. */
const GATHER_FACTOR = 2;
/** The largest budget a frame's walk for the worker takes, so the tree it sends stays within FRAME_OUTLINE_CAP. */
export const FRAME_BUDGET_MAX = FRAME_OUTLINE_CAP / GATHER_FACTOR;
/** A child list this long is searched for the viewport instead of walked from its start (big, scrolled pages). */
const LONG_LIST = 60;

/** Structural roles shown only when named (otherwise their content flows into the parent). */
const NEEDS_NAME = new Set(['group', 'region', 'toolbar', 'radiogroup']);
// <noscript> is not skipped by tag: with scripting on, Chrome's UA style hides it; with scripting off it shows.
const SKIP_TAGS = new Set([
  'script',
  'style',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'base',
  'datalist',
  'option',
  'optgroup',
  'param',
  'source',
  'track',
]);
const INLINE_DISPLAYS = new Set([
  'inline',
  'inline-block',
  'inline-flex',
  'inline-grid',
  'contents',
  'ruby',
  'ruby-text',
  'inline-table',
]);

/** The whole walk in one go (tests, the bench's reference path). Pages are walked with `buildSnapshotSliced`. */
export function buildSnapshot(options: SnapshotOptions = {}): SnapshotResult {
  openWalkCache();
  try {
    return runSync(build(options, new Slicer()));
  } finally {
    closeWalkCache();
  }
}

/** The walk in slices that yield to the page; a newer call in the same lane abandons this one. */
export async function buildSnapshotSliced(options: SlicedOptions = {}): Promise<SnapshotResult> {
  const slicer = new Slicer(options.deadline);
  openWalkCache();
  try {
    return await runSliced(build(options, slicer), slicer, { lane: options.lane ?? 'snapshot', what: 'snapshot' });
  } finally {
    closeWalkCache();
  }
}

function* build(options: SnapshotOptions, slicer: Slicer): Generator<void, SnapshotResult, void> {
  const t0 = performance.now();
  const reg = options.registry ?? defaultRegistry;
  const doc = document;
  const focused = deepActiveElement(doc);
  const shown: Node[] = [];
  const frames: FrameSlot[] = [];
  let refs = 0;
  let newRefs = 0;
  const windowFrames = collectWindowFrames();

  const top = new WalkNode({ kind: 'element' });
  const notes: string[] = [];

  // Budget: characters the rendered lines will take (text lines counted as the worker will shorten them).
  const maxChars = options.maxChars ?? Infinity;
  const enough = options.enough;
  let used = 0;
  let usedNonText = 0;
  let full = false;
  let stopped: 'budget' | 'time' | 'enough' | undefined;
  let stopAt: Node | null = null;
  let visited = 0;
  const charge = (n: OutlineNode, depth: number, parent: OutlineNode): void => {
    const head = headOf(n);
    const size = 2 * depth + 4 + (n.kind === 'text' ? 6 + Math.min(head.length, 121) : head.length);
    used += size;
    if (n.kind !== 'text') usedNonText += size;
    if (!full && (usedNonText > maxChars || used > GATHER_FACTOR * maxChars)) {
      full = true;
      stopped = 'budget';
    }
    if (!full && enough?.(n, used, parent)) {
      full = true;
      stopped = 'enough';
    }
  };
  /** Called where a node would be walked: false once the budget is full or time is up (the first such node is kept). */
  const open = (node: Node): boolean => {
    if (!full && slicer.overtime) {
      full = true;
      stopped = 'time';
    }
    if (!full) return true;
    if (!stopAt && (node.nodeType === 1 || /\S/.test(node.nodeValue ?? ''))) stopAt = node;
    return false;
  };

  const start = options.root ?? doc.body ?? doc.documentElement;
  // No element count of the page here: counting 500,000 elements takes the browser ~100-200 ms in one piece.
  const viewportFirst =
    options.viewportFirst !== false &&
    maxChars !== Infinity &&
    !options.root &&
    layoutAvailable() &&
    scrollY > innerHeight / 2;
  /** Elements left unwalked, estimated per level from the siblings walked there (cheap: no count of the rest). */
  let estLeft = 0;
  let skippedAbove = 0;
  let skippedIn = '';

  const keep = options.keepPieces === true;
  /** Remembers a structure line's element for a search (`keepPieces`). */
  const own = (node: OutlineNode, el: Element): void => {
    if (keep) pieces.set(node, el);
  };

  const flush = (p: Parent): void => {
    if (!p.pending.length) return;
    const text = normalize(p.pending.join(''));
    const owner = p.pendingOwner;
    p.pending = [];
    p.pendingOwner = null;
    if (!text || text === '|') {
      if (p.pieces) p.pieces = [];
      return;
    }
    const cleaned = text.replace(/^\|\s*|\s*\|$/g, '');
    if (!cleaned) {
      if (p.pieces) p.pieces = [];
      return;
    }
    const isNew = !!owner && reg.isNew(owner);
    if (owner) shown.push(owner);
    const node = new WalkNode({ kind: 'text', text: truncate(defuseRefTokens(cleaned), TEXT_LINE_MAX) }, isNew);
    if (p.pieces) {
      pieces.set(node, p.pieces);
      p.pieces = [];
    }
    p.node.children.push(node);
    charge(node, p.depth, p.node);
  };

  const pushText = (p: Parent, ctx: Ctx, text: string, owner: Node | null): void => {
    if (!ctx.visible || ctx.ariaHidden || ctx.muteText) return;
    if (ctx.nameBuf) {
      ctx.nameBuf.push(text);
      return;
    }
    if (!p.pendingOwner && owner && /\S/.test(text)) p.pendingOwner = owner;
    p.pending.push(text);
    if (keep && owner && owner.nodeType === 1) (p.pieces ??= []).push({ text, el: owner as Element });
  };

  const append = (p: Parent, child: OutlineNode): void => {
    flush(p);
    p.node.children.push(child);
    charge(child, p.depth, p.node);
  };

  const walkChildren = function* (node: Node, p: Parent, ctx: Ctx): Generator<void, void, void> {
    const kids = flatChildren(node);
    let i = 0;
    if (viewportFirst && kids.length >= LONG_LIST && !ctx.nameBuf) {
      i = firstNearViewport(kids, maxChars);
      if (i > 0) {
        skippedAbove += i;
        skippedIn ||= node.nodeType === 1 ? (node as Element).localName : 'the page';
        // Otto's marker, not page text: a note, which the budget truncation keeps with the structure.
        append(
          p,
          new WalkNode({
            kind: 'note',
            text: `[${i.toLocaleString('en-US')} items above the viewport are not shown: scroll up, or snapshot with root=<ref or selector>]`,
          }),
        );
      }
    }
    const from = i;
    const before = visited;
    for (; i < kids.length; i++) {
      const k = kids[i];
      if (!k || !open(k)) break;
      yield* visit(k, p, ctx);
    }
    // Stopped early: the siblings not walked are estimated like the ones walked at this level.
    if (i < kids.length)
      estLeft += Math.round(((kids.length - i) * Math.max(1, visited - before)) / Math.max(1, i - from));
  };

  /**
   * What acts inside an SVG (#43 part 3): shapes with a pointer cursor, a handler, a role or a tabindex — a game's
   * target, a chart's bar, a map's region — each a control with a ref. The drawing and its text stay out (as before,
   * the outline does not read a picture's labels as lines), so an SVG with nothing to act on adds nothing.
   */
  const svgControls = function* (svg: Element, p: Parent, ctx: Ctx): Generator<void, void, void> {
    yield* walkChildren(svg, p, { ...ctx, muteText: true });
  };

  const visit = function* (node: Node, p: Parent, ctx: Ctx): Generator<void, void, void> {
    if (slicer.due()) yield;
    if (!open(node)) return;
    if (node.nodeType === 3) {
      const t = node.nodeValue;
      if (t) pushText(p, ctx, t, node.parentElement ?? node.parentNode);
      return;
    }
    if (node.nodeType === 11) {
      yield* walkChildren(node, p, ctx);
      return;
    }
    if (node.nodeType !== 1) return;
    visited++;
    const el = node as Element;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    const style = styleOf(el);
    if (style && style.display === 'none') return;
    if (tag === 'input' && (el as HTMLInputElement).type === 'hidden') return;

    const visible = style ? style.visibility !== 'hidden' && style.visibility !== 'collapse' : true;
    const ariaHidden = ctx.ariaHidden || el.getAttribute('aria-hidden') === 'true';
    const inert = ctx.inert || el.hasAttribute('inert');
    const display = style?.display || 'inline';
    const block = !INLINE_DISPLAYS.has(display) || tag === 'br';
    const cell = ctx.inRow && (display === 'table-cell' || tag === 'td' || tag === 'th');
    const child: Ctx = { ...ctx, visible, ariaHidden, inert, cursor: style?.cursor };

    if (cell) pushText(p, ctx, ' | ', null);
    else if (block) {
      if (!ctx.nameBuf) flush(p);
      else ctx.nameBuf.push(' ');
    }
    if (tag === 'br') return;

    // Frames: a node the worker fills with the child frame's own outline.
    if (tag === 'iframe' || tag === 'frame') {
      if (visible && hasVisibleBox(el)) {
        const slot = frames.length;
        const win = (el as HTMLIFrameElement).contentWindow;
        frames.push({
          index: win ? windowFrames.indexOf(win) : -1,
          src: (el as HTMLIFrameElement).src || '',
          name: el.getAttribute('name') ?? '',
        });
        const title = el.getAttribute('title') || el.getAttribute('aria-label') || '';
        // The frame element itself gets a ref too (to scroll it into view, or click an empty or unreadable frame).
        const ref = reg.refFor(el);
        const isNew = reg.isNew(el);
        refs++;
        if (isNew) newRefs++;
        shown.push(el);
        const frame = new WalkNode({ kind: 'frame', role: 'iframe', ref, frame: slot }, isNew);
        if (title) frame.name = normalize(title);
        append(p, frame);
      }
      return;
    }

    let role = roleOf(el);
    if (role === 'none' || role === 'presentation') role = undefined;

    // A label whose control is not rendered (custom checkboxes) stands in for the control.
    let control: Element = el;
    let iRole: string | undefined;
    if (visible && !inert) {
      if (tag === 'label') {
        const ctl = (el as HTMLLabelElement).control;
        if (ctl && ctl !== el && !isRendered(ctl)) {
          control = ctl;
          iRole = interactiveRole(ctl, roleOf(ctl), undefined);
        }
      }
      iRole ??= interactiveRole(el, role, ctx.cursor);
    }

    if (iRole && hasVisibleBox(el)) {
      const ref = reg.refFor(el);
      const isNew = reg.isNew(el);
      refs++;
      if (isNew) newRefs++;
      shown.push(el);
      const heuristic = iRole === 'clickable';
      const explicitName = accessibleName(el, iRole, false);
      const out = new WalkNode({ kind: 'element', role: iRole, ref }, isNew);
      const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
      let name = explicitName;
      const leafControl = isLeafControl(control, iRole);
      if (!leafControl) {
        if (NAME_FROM_CONTENT.has(iRole) && !heuristic) {
          const buf: string[] = [];
          yield* walkChildren(el, me, { ...child, nameBuf: buf, muteText: false, ariaHidden: false, inRow: false });
          if (!name) name = truncate(dedupeRepeat(normalize(buf.join(''))), DISPLAY_NAME_MAX);
        } else {
          yield* walkChildren(el, me, { ...child, nameBuf: null, muteText: false, ariaHidden: false, inRow: false });
          flush(me);
          // A clickable whose content is a short text reads better as a named leaf.
          if (out.children.every((c) => c.kind === 'text')) {
            const joined = normalize(out.children.map((c) => c.text).join(' '));
            if (!name && joined.length <= DISPLAY_NAME_MAX) {
              name = joined;
              out.children = [];
            }
          }
        }
        flush(me);
      }
      if (control !== el && !name) name = accessibleName(control, iRole);
      // No accessible name: borrow the text of its row (a todo's checkbox and its sibling label), said to be
      // inferred; failing that, a <tag#id.class> hint so two unnamed controls can be told apart.
      let inferred = false;
      let hint = '';
      if (!name && !out.children.length) {
        const beside = inferName(el);
        // A field's or checkbox's row text is its label; a button's row text is only where it sits (a todo's
        // delete button is not called "Buy milk"), so buttons keep the hint and say what they are beside.
        if (beside && ROW_NAMED.has(iRole)) {
          name = beside;
          inferred = true;
        } else hint = tagHint(el) + (beside ? ` beside ${quote(truncate(beside, 60))}` : '');
      }
      out.name = name;
      if (inferred) out.nameInferred = true;
      const states = stateNames(el, iRole, focused, control);
      if (states.length) out.states = states;
      const value = valueShown(control, iRole);
      if (value) out.value = value;
      const href = iRole === 'link' ? linkTarget(el) : '';
      if (href) out.href = href;
      if (hint) out.hint = hint;
      if (ctx.nameBuf && name) ctx.nameBuf.push(' ');
      append(p, out);
      if (block && !ctx.nameBuf) flush(p);
      return;
    }

    // Structure: headings, landmarks, dialogs, tables, rows, named images.
    const hidden = !visible || ariaHidden;
    if (!hidden && !ctx.nameBuf && role) {
      if (role === 'heading') {
        const buf: string[] = [];
        const out = new WalkNode({ kind: 'element', role });
        own(out, el);
        const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
        yield* walkChildren(el, me, { ...child, nameBuf: buf, inRow: false });
        flush(me);
        const name = accessibleName(el, role, false) || truncate(normalize(buf.join('')), DISPLAY_NAME_MAX);
        if (!name && !out.children.length) return;
        out.name = name;
        if (reg.isNew(el)) out.isNew = true;
        shown.push(el);
        const states = stateNames(el, role, null);
        if (states.length) out.states = states;
        append(p, out);
        return;
      }
      if (role === 'img') {
        const name = accessibleName(el, role);
        if (name && hasVisibleBox(el)) {
          shown.push(el);
          const img = new WalkNode({ kind: 'element', role, name }, reg.isNew(el));
          own(img, el);
          append(p, img);
        }
        if (tag === 'svg') yield* svgControls(el, p, child);
        return;
      }
      const structural = STRUCTURAL_ROLES.has(role)
        ? role === 'row'
          ? ''
          : accessibleName(el, role, false)
        : undefined;
      if (structural !== undefined && (structural || !NEEDS_NAME.has(role))) {
        const out = new WalkNode({ kind: 'element', role });
        own(out, el);
        const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
        yield* walkChildren(el, me, { ...child, inRow: role === 'row' });
        flush(me);
        if (!out.children.length && role !== 'dialog' && role !== 'alertdialog') return;
        // A list item holding one element (a nav link) reads as that element: the item line would add nothing.
        if (role === 'listitem' && out.children.length === 1 && out.children[0]!.kind !== 'text') {
          append(p, out.children[0]!);
          if (block) flush(p);
          return;
        }
        out.name = structural;
        if (reg.isNew(el)) out.isNew = true;
        shown.push(el);
        const states = stateNames(el, role, null);
        if (states.length) out.states = states;
        append(p, out);
        if (block) flush(p);
        return;
      }
    }

    if (tag === 'svg') {
      if (ctx.nameBuf && !hidden) {
        const label = el.getAttribute('aria-label') || el.querySelector('title')?.textContent;
        if (label) ctx.nameBuf.push(' ', label, ' ');
      } else if (!hidden) yield* svgControls(el, p, child);
      return;
    }
    if (tag === 'img' || tag === 'area') {
      if (ctx.nameBuf && !hidden) ctx.nameBuf.push(' ', el.getAttribute('alt') ?? '', ' ');
      return;
    }
    if (ctx.nameBuf && !hidden) {
      const label = el.getAttribute('aria-label');
      if (label && label.trim()) {
        ctx.nameBuf.push(' ', label, ' ');
        return;
      }
    }
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      const summary = el.querySelector(':scope > summary');
      if (summary) yield* visit(summary, p, child);
      return;
    }
    if (style && style.contentVisibility === 'hidden') return;

    let muteText = ctx.muteText;
    if (tag === 'label') {
      const ctl = (el as HTMLLabelElement).control;
      if (ctl && isRendered(ctl)) muteText = true;
    }
    // A table's caption and a fieldset's legend are their names, already on the container's line.
    if (tag === 'caption' || (tag === 'legend' && el.parentElement?.localName === 'fieldset')) muteText = true;
    yield* walkChildren(el, p, { ...child, muteText });
    if (block && !cell) {
      if (!ctx.nameBuf) flush(p);
      else ctx.nameBuf.push(' ');
    }
  };

  const rootParent: Parent = { node: top, pending: [], pendingOwner: null, depth: 0 };
  // A part of the page starts with its parent's cursor: inside a clickable card, a child is not where the pointer starts.
  const parentCursor = options.root?.parentElement ? styleOf(options.root.parentElement)?.cursor : undefined;
  const ctx: Ctx = {
    visible: true,
    ariaHidden: false,
    inert: false,
    nameBuf: null,
    muteText: false,
    cursor: parentCursor,
    inRow: false,
  };
  if (start) {
    if (options.root) yield* visit(start, rootParent, ctx);
    else yield* walkChildren(start, rootParent, ctx);
  }
  flush(rootParent);

  if (skippedAbove)
    notes.push(
      `The page is larger than the budget and is scrolled, so long lists start near the viewport: ${skippedAbove.toLocaleString('en-US')} items above it were left out (first in ${skippedIn}); scroll up or snapshot with root=<ref or selector> to see them.`,
    );
  if (stopped && stopped !== 'enough')
    notes.push(
      stopNote(stopped, stopAt, estLeft, visited, refs, performance.now() - t0, maxChars) +
        ' ' +
        (options.hint ?? SNAPSHOT_HINT),
    );

  if (options.commit !== false) {
    reg.commitSnapshot(shown);
    reg.prune();
  }
  const lines = options.render !== false ? renderOutline(top.children) : [];
  let text = linesText(lines);
  if (text.length > FRAME_OUTLINE_CAP)
    text =
      text.slice(0, text.lastIndexOf('\n', FRAME_OUTLINE_CAP)) +
      '\n- text: [frame outline cut at 1,000,000 characters]';
  const result: SnapshotResult = { root: top, text, refs, newRefs, lines: lines.length, frames, notes };
  if (stopped) result.stopped = stopped;
  if (stopAt) result.stopAt = stopAt;
  return result;
}

/**
 * Index of the first child near the viewport (one viewport above it), when the children are laid out top-down and
 * the ones above it would take at least half the budget (a list that fits is shown whole); 0 to walk from the start.
 */
function firstNearViewport(kids: ArrayLike<Node>, maxChars: number): number {
  const rectAt = (i: number): DOMRect | undefined => {
    const k = kids[i];
    return k && k.nodeType === 1 ? (k as Element).getBoundingClientRect() : undefined;
  };
  const first = rectAt(0);
  const last = rectAt(kids.length - 1);
  if (!first || !last || first.top > last.top || last.bottom < 0) return 0;
  const above = -innerHeight;
  let lo = 0;
  let hi = kids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const r = rectAt(mid);
    if (!r) return 0;
    if (r.bottom < above) lo = mid + 1;
    else hi = mid;
  }
  if (lo < LONG_LIST / 2) return 0;
  // Rough outline size of one child: ~40 characters per element, plus its text.
  const sample = kids[lo] as Element;
  const perChild =
    40 * (sample.getElementsByTagName('*').length + 1) + Math.min(2000, (sample.textContent ?? '').length);
  return lo * perChild >= maxChars / 2 ? lo : 0;
}

/** Where a walk stopped, for its note: `button "Open 7"`, `<tr> "Order 7 …"`, or a text's start (page text). */
export function where(node: Node | null): string {
  if (!node) return 'the end of the walked part';
  if (node.nodeType !== 1) return `text ${quote(truncate(normalize(node.nodeValue ?? ''), 60))}`;
  const el = node as Element;
  const role = roleOf(el);
  const text = textOf(el, 60);
  return `${role && role !== 'none' ? role : `<${el.localName}>`}${text ? ' ' + quote(truncate(text, 60)) : ''}`;
}

const SNAPSHOT_HINT =
  'Search them with dom.find, narrow with root=<ref or CSS selector>, or scroll and snapshot again.';

function stopNote(
  why: 'budget' | 'time',
  stopAt: Node | null,
  left: number,
  visited: number,
  refs: number,
  ms: number,
  maxChars: number,
): string {
  const total = visited + left;
  const share = Math.min(99, Math.max(1, Math.round((100 * visited) / total)));
  const interactive = visited ? Math.round((left * refs) / visited) : 0;
  const reason =
    why === 'budget'
      ? `the ${maxChars.toLocaleString('en-US')}-character budget was full`
      : `it ran out of time after ${(ms / 1000).toFixed(1)} s`;
  return (
    `The walk stopped because ${reason}: it covered about ${share}% of this frame's elements; about ${left.toLocaleString('en-US')} elements ` +
    `(roughly ${interactive.toLocaleString('en-US')} interactive, estimated) were not walked, starting at ${where(stopAt)}.`
  );
}

function isLeafControl(el: Element, role: string): boolean {
  const tag = el.localName;
  return (
    tag === 'input' ||
    tag === 'select' ||
    tag === 'textarea' ||
    role === 'textbox' ||
    role === 'searchbox' ||
    role === 'slider' ||
    role === 'spinbutton' ||
    (role === 'combobox' && tag !== 'div')
  );
}

function isRendered(el: Element): boolean {
  const s = styleOf(el);
  if (s && (s.display === 'none' || s.visibility === 'hidden')) return false;
  for (let p = el.parentElement; p; p = p.parentElement) if (styleOf(p)?.display === 'none') return false;
  return hasVisibleBox(el) && !isVisuallyHiddenControl(el);
}

/** Opacity-0 or 1px-clipped native checkboxes/radios are replaced by a styled label in the page's design. */
function isVisuallyHiddenControl(el: Element): boolean {
  if (el.localName !== 'input') return false;
  const type = (el as HTMLInputElement).type;
  if (type !== 'checkbox' && type !== 'radio') return false;
  const s = styleOf(el);
  if (!s) return false;
  if (s.opacity === '0') return true;
  const r = el.getBoundingClientRect();
  return r.width <= 1 && r.height <= 1;
}

function collectWindowFrames(): Window[] {
  const out: Window[] = [];
  try {
    for (let i = 0; i < window.length; i++) out.push(window[i] as Window);
  } catch {
    // frames collection unavailable
  }
  return out;
}

/** This frame's index in its parent's `window.frames`, -1 in the top frame or when not found. */
export function indexInParent(): number {
  try {
    if (window.parent === window) return -1;
    for (let i = 0; i < window.parent.length; i++) if (window.parent[i] === window) return i;
  } catch {
    // cross-origin access denied (not expected for indexed frames)
  }
  return -1;
}
