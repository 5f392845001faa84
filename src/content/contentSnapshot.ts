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
  const walk = new SnapshotWalk(options, slicer);
  yield* walk.walk();
  return walk.result(t0);
}

/** What `visit` found out about an element, for the kind of line it becomes. */
interface Visit {
  el: Element;
  tag: string;
  style: CSSStyleDeclaration | undefined;
  visible: boolean;
  ariaHidden: boolean;
  inert: boolean;
  block: boolean;
  cell: boolean;
  child: Ctx;
}

/**
 * One walk of the page into an outline (#45: the walk was one 430-line closure): its budget, its counts and what it
 * has shown, and a method per step — `visit` one node, which hands an element to `visitControl`, `visitStructure` or
 * `visitRest`.
 */
class SnapshotWalk {
  readonly reg: RefRegistry;
  readonly focused: Element | null;
  readonly shown: Node[] = [];
  readonly frames: FrameSlot[] = [];
  refs = 0;
  newRefs = 0;
  readonly windowFrames: Window[];
  readonly top = new WalkNode({ kind: 'element' });
  readonly notes: string[] = [];
  // Budget: characters the rendered lines will take (text lines counted as the worker will shorten them).
  readonly maxChars: number;
  readonly enough: SnapshotOptions['enough'];
  used = 0;
  usedNonText = 0;
  full = false;
  stopped: 'budget' | 'time' | 'enough' | undefined;
  stopAt: Node | null = null;
  visited = 0;
  readonly viewportFirst: boolean;
  /** Elements left unwalked, estimated per level from the siblings walked there (cheap: no count of the rest). */
  estLeft = 0;
  skippedAbove = 0;
  skippedIn = '';
  readonly keep: boolean;

  constructor(
    readonly options: SnapshotOptions,
    readonly slicer: Slicer,
  ) {
    this.reg = options.registry ?? defaultRegistry;
    this.focused = deepActiveElement(document);
    this.windowFrames = collectWindowFrames();
    this.maxChars = options.maxChars ?? Infinity;
    this.enough = options.enough;
    // No element count of the page here: counting 500,000 elements takes the browser ~100-200 ms in one piece.
    this.viewportFirst =
      options.viewportFirst !== false &&
      this.maxChars !== Infinity &&
      !options.root &&
      layoutAvailable() &&
      scrollY > innerHeight / 2;
    this.keep = options.keepPieces === true;
  }

  /** Walks the page, or the part `root` names. */
  *walk(): Generator<void, void, void> {
    const { options } = this;
    const start = options.root ?? document.body ?? document.documentElement;
    const rootParent: Parent = { node: this.top, pending: [], pendingOwner: null, depth: 0 };
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
      if (options.root) yield* this.visit(start, rootParent, ctx);
      else yield* this.walkChildren(start, rootParent, ctx);
    }
    this.flush(rootParent);
  }

  /** The outline, its counts and its notes; commits what was shown as seen unless told not to. */
  result(t0: number): SnapshotResult {
    const { options, notes, reg, top } = this;
    if (this.skippedAbove)
      notes.push(
        `The page is larger than the budget and is scrolled, so long lists start near the viewport: ${this.skippedAbove.toLocaleString('en-US')} items above it were left out (first in ${this.skippedIn}); scroll up or snapshot with root=<ref or selector> to see them.`,
      );
    if (this.stopped && this.stopped !== 'enough')
      notes.push(
        stopNote(
          this.stopped,
          this.stopAt,
          this.estLeft,
          this.visited,
          this.refs,
          performance.now() - t0,
          this.maxChars,
        ) +
          ' ' +
          (options.hint ?? SNAPSHOT_HINT),
      );
    if (options.commit !== false) {
      reg.commitSnapshot(this.shown);
      reg.prune();
    }
    const lines = options.render !== false ? renderOutline(top.children) : [];
    let text = linesText(lines);
    if (text.length > FRAME_OUTLINE_CAP)
      text =
        text.slice(0, text.lastIndexOf('\n', FRAME_OUTLINE_CAP)) +
        '\n- text: [frame outline cut at 1,000,000 characters]';
    const result: SnapshotResult = {
      root: top,
      text,
      refs: this.refs,
      newRefs: this.newRefs,
      lines: lines.length,
      frames: this.frames,
      notes,
    };
    if (this.stopped) result.stopped = this.stopped;
    if (this.stopAt) result.stopAt = this.stopAt;
    return result;
  }

  charge(n: OutlineNode, depth: number, parent: OutlineNode): void {
    const head = headOf(n);
    const size = 2 * depth + 4 + (n.kind === 'text' ? 6 + Math.min(head.length, 121) : head.length);
    this.used += size;
    if (n.kind !== 'text') this.usedNonText += size;
    if (!this.full && (this.usedNonText > this.maxChars || this.used > GATHER_FACTOR * this.maxChars)) {
      this.full = true;
      this.stopped = 'budget';
    }
    if (!this.full && this.enough?.(n, this.used, parent)) {
      this.full = true;
      this.stopped = 'enough';
    }
  }
  /** Called where a node would be walked: false once the budget is full or time is up (the first such node is kept). */
  open(node: Node): boolean {
    if (!this.full && this.slicer.overtime) {
      this.full = true;
      this.stopped = 'time';
    }
    if (!this.full) return true;
    if (!this.stopAt && (node.nodeType === 1 || /\S/.test(node.nodeValue ?? ''))) this.stopAt = node;
    return false;
  }

  /** Remembers a structure line's element for a search (`keepPieces`). */
  own(node: OutlineNode, el: Element): void {
    if (this.keep) pieces.set(node, el);
  }

  flush(p: Parent): void {
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
    const isNew = !!owner && this.reg.isNew(owner);
    if (owner) this.shown.push(owner);
    const node = new WalkNode({ kind: 'text', text: truncate(defuseRefTokens(cleaned), TEXT_LINE_MAX) }, isNew);
    if (p.pieces) {
      pieces.set(node, p.pieces);
      p.pieces = [];
    }
    p.node.children.push(node);
    this.charge(node, p.depth, p.node);
  }

  pushText(p: Parent, ctx: Ctx, text: string, owner: Node | null): void {
    if (!ctx.visible || ctx.ariaHidden || ctx.muteText) return;
    if (ctx.nameBuf) {
      ctx.nameBuf.push(text);
      return;
    }
    if (!p.pendingOwner && owner && /\S/.test(text)) p.pendingOwner = owner;
    p.pending.push(text);
    if (this.keep && owner && owner.nodeType === 1) (p.pieces ??= []).push({ text, el: owner as Element });
  }

  append(p: Parent, child: OutlineNode): void {
    this.flush(p);
    p.node.children.push(child);
    this.charge(child, p.depth, p.node);
  }

  *walkChildren(node: Node, p: Parent, ctx: Ctx): Generator<void, void, void> {
    const kids = flatChildren(node);
    let i = 0;
    if (this.viewportFirst && kids.length >= LONG_LIST && !ctx.nameBuf) {
      i = firstNearViewport(kids, this.maxChars);
      if (i > 0) {
        this.skippedAbove += i;
        this.skippedIn ||= node.nodeType === 1 ? (node as Element).localName : 'the page';
        // Otto's marker, not page text: a note, which the budget truncation keeps with the structure.
        this.append(
          p,
          new WalkNode({
            kind: 'note',
            text: `[${i.toLocaleString('en-US')} items above the viewport are not shown: scroll up, or snapshot with root=<ref or selector>]`,
          }),
        );
      }
    }
    const from = i;
    const before = this.visited;
    for (; i < kids.length; i++) {
      const k = kids[i];
      if (!k || !this.open(k)) break;
      yield* this.visit(k, p, ctx);
    }
    // Stopped early: the siblings not walked are estimated like the ones walked at this level.
    if (i < kids.length)
      this.estLeft += Math.round(((kids.length - i) * Math.max(1, this.visited - before)) / Math.max(1, i - from));
  }

  /**
   * What acts inside an SVG (#43 part 3): shapes with a pointer cursor, a handler, a role or a tabindex — a game's
   * target, a chart's bar, a map's region — each a control with a ref. The drawing and its text stay out (as before,
   * the outline does not read a picture's labels as lines), so an SVG with nothing to act on adds nothing.
   */
  *svgControls(svg: Element, p: Parent, ctx: Ctx): Generator<void, void, void> {
    yield* this.walkChildren(svg, p, { ...ctx, muteText: true });
  }

  *visit(node: Node, p: Parent, ctx: Ctx): Generator<void, void, void> {
    if (this.slicer.due()) yield;
    if (!this.open(node)) return;
    if (node.nodeType === 3) {
      const t = node.nodeValue;
      if (t) this.pushText(p, ctx, t, node.parentElement ?? node.parentNode);
      return;
    }
    if (node.nodeType === 11) {
      yield* this.walkChildren(node, p, ctx);
      return;
    }
    if (node.nodeType !== 1) return;
    this.visited++;
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

    if (cell) this.pushText(p, ctx, ' | ', null);
    else if (block) {
      if (!ctx.nameBuf) this.flush(p);
      else ctx.nameBuf.push(' ');
    }
    if (tag === 'br') return;

    const v: Visit = { el, tag, style, visible, ariaHidden, inert, block, cell, child };
    // Frames: a node the worker fills with the child frame's own outline.
    if (tag === 'iframe' || tag === 'frame') {
      if (visible && hasVisibleBox(el)) {
        const slot = this.frames.length;
        const win = (el as HTMLIFrameElement).contentWindow;
        this.frames.push({
          index: win ? this.windowFrames.indexOf(win) : -1,
          src: (el as HTMLIFrameElement).src || '',
          name: el.getAttribute('name') ?? '',
        });
        const title = el.getAttribute('title') || el.getAttribute('aria-label') || '';
        // The frame element itself gets a ref too (to scroll it into view, or click an empty or unreadable frame).
        const ref = this.reg.refFor(el);
        const isNew = this.reg.isNew(el);
        this.refs++;
        if (isNew) this.newRefs++;
        this.shown.push(el);
        const frame = new WalkNode({ kind: 'frame', role: 'iframe', ref, frame: slot }, isNew);
        if (title) frame.name = normalize(title);
        this.append(p, frame);
      }
      return;
    }

    let role = roleOf(el);
    if (role === 'none' || role === 'presentation') role = undefined;
    if (yield* this.visitControl(v, p, ctx, role)) return;
    if (yield* this.visitStructure(v, p, ctx, role)) return;
    yield* this.visitRest(v, p, ctx);
  }

  /** A control: a line with a ref, named from its content or its label (true when the node was one). */
  *visitControl(v: Visit, p: Parent, ctx: Ctx, role: string | undefined): Generator<void, boolean, void> {
    const { el, tag, visible, inert, block, child } = v;
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
      const ref = this.reg.refFor(el);
      const isNew = this.reg.isNew(el);
      this.refs++;
      if (isNew) this.newRefs++;
      this.shown.push(el);
      const heuristic = iRole === 'clickable';
      const explicitName = accessibleName(el, iRole, false);
      const out = new WalkNode({ kind: 'element', role: iRole, ref }, isNew);
      const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
      let name = explicitName;
      const leafControl = isLeafControl(control, iRole);
      if (!leafControl) {
        if (NAME_FROM_CONTENT.has(iRole) && !heuristic) {
          const buf: string[] = [];
          yield* this.walkChildren(el, me, {
            ...child,
            nameBuf: buf,
            muteText: false,
            ariaHidden: false,
            inRow: false,
          });
          if (!name) name = truncate(dedupeRepeat(normalize(buf.join(''))), DISPLAY_NAME_MAX);
        } else {
          yield* this.walkChildren(el, me, {
            ...child,
            nameBuf: null,
            muteText: false,
            ariaHidden: false,
            inRow: false,
          });
          this.flush(me);
          // A clickable whose content is a short text reads better as a named leaf.
          if (out.children.every((c) => c.kind === 'text')) {
            const joined = normalize(out.children.map((c) => c.text).join(' '));
            if (!name && joined.length <= DISPLAY_NAME_MAX) {
              name = joined;
              out.children = [];
            }
          }
        }
        this.flush(me);
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
      const states = stateNames(el, iRole, this.focused, control);
      if (states.length) out.states = states;
      const value = valueShown(control, iRole);
      if (value) out.value = value;
      const href = iRole === 'link' ? linkTarget(el) : '';
      if (href) out.href = href;
      if (hint) out.hint = hint;
      if (ctx.nameBuf && name) ctx.nameBuf.push(' ');
      this.append(p, out);
      if (block && !ctx.nameBuf) this.flush(p);
      return true;
    }
    return false;
  }

  /** Structure: headings, landmarks, dialogs, tables, rows, named images (true when the node was one). */
  *visitStructure(v: Visit, p: Parent, ctx: Ctx, role: string | undefined): Generator<void, boolean, void> {
    const { el, tag, visible, ariaHidden, block, child } = v;
    // Structure: headings, landmarks, dialogs, tables, rows, named images.
    const hidden = !visible || ariaHidden;
    if (!hidden && !ctx.nameBuf && role) {
      if (role === 'heading') {
        const buf: string[] = [];
        const out = new WalkNode({ kind: 'element', role });
        this.own(out, el);
        const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
        yield* this.walkChildren(el, me, { ...child, nameBuf: buf, inRow: false });
        this.flush(me);
        const name = accessibleName(el, role, false) || truncate(normalize(buf.join('')), DISPLAY_NAME_MAX);
        if (!name && !out.children.length) return true;
        out.name = name;
        if (this.reg.isNew(el)) out.isNew = true;
        this.shown.push(el);
        const states = stateNames(el, role, null);
        if (states.length) out.states = states;
        this.append(p, out);
        return true;
      }
      if (role === 'img') {
        const name = accessibleName(el, role);
        if (name && hasVisibleBox(el)) {
          this.shown.push(el);
          const img = new WalkNode({ kind: 'element', role, name }, this.reg.isNew(el));
          this.own(img, el);
          this.append(p, img);
        }
        if (tag === 'svg') yield* this.svgControls(el, p, child);
        return true;
      }
      const structural = STRUCTURAL_ROLES.has(role)
        ? role === 'row'
          ? ''
          : accessibleName(el, role, false)
        : undefined;
      if (structural !== undefined && (structural || !NEEDS_NAME.has(role))) {
        const out = new WalkNode({ kind: 'element', role });
        this.own(out, el);
        const me: Parent = { node: out, pending: [], pendingOwner: null, depth: p.depth + 1 };
        yield* this.walkChildren(el, me, { ...child, inRow: role === 'row' });
        this.flush(me);
        if (!out.children.length && role !== 'dialog' && role !== 'alertdialog') return true;
        // A list item holding one element (a nav link) reads as that element: the item line would add nothing.
        if (role === 'listitem' && out.children.length === 1 && out.children[0]!.kind !== 'text') {
          this.append(p, out.children[0]!);
          if (block) this.flush(p);
          return true;
        }
        out.name = structural;
        if (this.reg.isNew(el)) out.isNew = true;
        this.shown.push(el);
        const states = stateNames(el, role, null);
        if (states.length) out.states = states;
        this.append(p, out);
        if (block) this.flush(p);
        return true;
      }
    }
    return false;
  }

  /** Everything else: pictures, names from labels, closed details, and the element's children as text. */
  *visitRest(v: Visit, p: Parent, ctx: Ctx): Generator<void, void, void> {
    const { el, tag, style, visible, ariaHidden, block, cell, child } = v;
    const hidden = !visible || ariaHidden;
    if (tag === 'svg') {
      if (ctx.nameBuf && !hidden) {
        const label = el.getAttribute('aria-label') || el.querySelector('title')?.textContent;
        if (label) ctx.nameBuf.push(' ', label, ' ');
      } else if (!hidden) yield* this.svgControls(el, p, child);
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
      if (summary) yield* this.visit(summary, p, child);
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
    yield* this.walkChildren(el, p, { ...child, muteText });
    if (block && !cell) {
      if (!ctx.nameBuf) this.flush(p);
      else ctx.nameBuf.push(' ');
    }
  }
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
