/**
 * The page outline: what a person sees, as indented lines.
 *
 *   - navigation "Main":
 *     - link "Home" [ref=e1] -> /
 *   - heading "Sign in" [level=1]
 *   - text: Welcome back.
 *   - textbox "Email" [ref=e2] [required] value="a@b.c"
 *   - iframe "Payment" {{frame 0}}        ← the worker stitches the child frame's outline here
 *
 * Interactive elements that are visible get refs (stable for the element's life, see refs.ts); landmarks, headings,
 * dialogs, tables and other structure get lines; generic containers are transparent and their text is merged into
 * `text:` lines at block boundaries. Shadow roots (open and closed) and slots are walked in flat-tree order.
 * Elements that earlier snapshots did not show are marked `[new]`.
 */
import { deepActiveElement, flatChildren } from './env.ts';
import { accessibleName, dedupeRepeat, normalize, truncate } from './names.ts';
import { interactiveRole, NAME_FROM_CONTENT, roleOf, STRUCTURAL_ROLES } from './roles.ts';
import { DISPLAY_NAME_MAX, hrefText, quote, stateTokens, valueText } from './describe.ts';
import { type RefRegistry, registry as defaultRegistry } from './refs.ts';
import { hasVisibleBox, styleOf, withStyleCache } from './visibility.ts';

export const TEXT_LINE_MAX = 300;
/** Content-side cap on one frame's outline; the worker applies the caller's budget after stitching frames. */
export const FRAME_OUTLINE_CAP = 1_000_000;

export interface OutlineNode {
  kind: 'element' | 'text' | 'frame';
  /** The line without indent, dash or trailing colon: `button "Save" [ref=e3] [disabled]`. */
  head: string;
  role?: string;
  name?: string;
  ref?: string;
  isNew?: boolean;
  children: OutlineNode[];
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
}

export interface SnapshotOptions {
  root?: Element;
  registry?: RefRegistry;
  /** Record shown nodes so the next snapshot can mark what is new (default true). */
  commit?: boolean;
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
}

/** Structural roles shown only when named (otherwise their content flows into the parent). */
const NEEDS_NAME = new Set(['group', 'region', 'toolbar', 'radiogroup']);
// <noscript> is not skipped by tag: with scripting on, Chrome's UA style hides it; with scripting off it shows.
const SKIP_TAGS = new Set(['script', 'style', 'template', 'head', 'meta', 'link', 'title', 'base', 'datalist', 'option', 'optgroup', 'param', 'source', 'track']);
const INLINE_DISPLAYS = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'contents', 'ruby', 'ruby-text', 'inline-table']);

export function buildSnapshot(options: SnapshotOptions = {}): SnapshotResult {
  return withStyleCache(() => build(options));
}

function build(options: SnapshotOptions): SnapshotResult {
  const reg = options.registry ?? defaultRegistry;
  const doc = document;
  const focused = deepActiveElement(doc);
  const shown: Node[] = [];
  const frames: FrameSlot[] = [];
  let refs = 0;
  let newRefs = 0;
  const windowFrames = collectWindowFrames();

  const top: OutlineNode = { kind: 'element', head: '', children: [] };

  const flush = (p: Parent): void => {
    if (!p.pending.length) return;
    const text = normalize(p.pending.join(''));
    const owner = p.pendingOwner;
    p.pending = [];
    p.pendingOwner = null;
    if (!text || text === '|') return;
    const cleaned = text.replace(/^\|\s*|\s*\|$/g, '');
    if (!cleaned) return;
    const isNew = !!owner && reg.isNew(owner);
    if (owner) shown.push(owner);
    p.node.children.push({ kind: 'text', head: truncate(cleaned, TEXT_LINE_MAX), isNew, children: [] });
  };

  const pushText = (p: Parent, ctx: Ctx, text: string, owner: Node | null): void => {
    if (!ctx.visible || ctx.ariaHidden || ctx.muteText) return;
    if (ctx.nameBuf) {
      ctx.nameBuf.push(text);
      return;
    }
    if (!p.pendingOwner && owner && /\S/.test(text)) p.pendingOwner = owner;
    p.pending.push(text);
  };

  const append = (p: Parent, child: OutlineNode): void => {
    flush(p);
    p.node.children.push(child);
  };

  const walkChildren = (node: Node, p: Parent, ctx: Ctx): void => {
    const kids = flatChildren(node);
    for (let i = 0; i < kids.length; i++) visit(kids[i]!, p, ctx);
  };

  const visit = (node: Node, p: Parent, ctx: Ctx): void => {
    if (node.nodeType === 3) {
      const t = node.nodeValue;
      if (t) pushText(p, ctx, t, node.parentElement ?? node.parentNode);
      return;
    }
    if (node.nodeType === 11) {
      walkChildren(node, p, ctx);
      return;
    }
    if (node.nodeType !== 1) return;
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

    // Frames: a placeholder the worker replaces with the child frame's own outline.
    if (tag === 'iframe' || tag === 'frame') {
      if (visible && hasVisibleBox(el)) {
        const slot = frames.length;
        const win = (el as HTMLIFrameElement).contentWindow;
        frames.push({ index: win ? windowFrames.indexOf(win) : -1, src: (el as HTMLIFrameElement).src || '', name: el.getAttribute('name') ?? '' });
        const title = el.getAttribute('title') || el.getAttribute('aria-label') || '';
        // The frame element itself gets a ref too (to scroll it into view, or click an empty or unreadable frame).
        const ref = reg.refFor(el);
        const isNew = reg.isNew(el);
        refs++;
        if (isNew) newRefs++;
        shown.push(el);
        append(p, { kind: 'frame', head: `iframe${title ? ' ' + quote(truncate(normalize(title), DISPLAY_NAME_MAX)) : ''} [ref=${ref}]${isNew ? ' [new]' : ''} {{frame ${slot}}}`, role: 'iframe', name: title, ref, children: [] });
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
      const out: OutlineNode = { kind: 'element', head: '', role: iRole, ref, isNew, children: [] };
      const me: Parent = { node: out, pending: [], pendingOwner: null };
      let name = explicitName;
      const leafControl = isLeafControl(control, iRole);
      if (!leafControl) {
        if (NAME_FROM_CONTENT.has(iRole) && !heuristic) {
          const buf: string[] = [];
          walkChildren(el, me, { ...child, nameBuf: buf, muteText: false, ariaHidden: false, inRow: false });
          if (!name) name = truncate(dedupeRepeat(normalize(buf.join(''))), DISPLAY_NAME_MAX);
        } else {
          walkChildren(el, me, { ...child, nameBuf: null, muteText: false, ariaHidden: false, inRow: false });
          flush(me);
          // A clickable whose content is a short text reads better as a named leaf.
          if (out.children.every((c) => c.kind === 'text')) {
            const joined = normalize(out.children.map((c) => c.head).join(' '));
            if (!name && joined.length <= DISPLAY_NAME_MAX) {
              name = joined;
              out.children = [];
            }
          }
        }
        flush(me);
      }
      if (control !== el && !name) name = accessibleName(control, iRole);
      out.name = name;
      out.head =
        `${iRole}${name ? ' ' + quote(truncate(name, DISPLAY_NAME_MAX)) : ''} [ref=${ref}]` +
        stateTokens(el, iRole, focused, control).map((s) => ' ' + s).join('') +
        valueText(control, iRole) +
        (iRole === 'link' ? hrefText(el) : '');
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
        const out: OutlineNode = { kind: 'element', head: '', role, children: [] };
        const me: Parent = { node: out, pending: [], pendingOwner: null };
        walkChildren(el, me, { ...child, nameBuf: buf, inRow: false });
        flush(me);
        const name = accessibleName(el, role, false) || truncate(normalize(buf.join('')), DISPLAY_NAME_MAX);
        if (!name && !out.children.length) return;
        out.name = name;
        out.isNew = reg.isNew(el);
        shown.push(el);
        out.head = `heading${name ? ' ' + quote(truncate(name, DISPLAY_NAME_MAX)) : ''}` + stateTokens(el, role, null).map((s) => ' ' + s).join('');
        append(p, out);
        return;
      }
      if (role === 'img') {
        const name = accessibleName(el, role);
        if (name && hasVisibleBox(el)) {
          shown.push(el);
          append(p, { kind: 'element', head: `img ${quote(truncate(name, DISPLAY_NAME_MAX))}`, role, name, isNew: reg.isNew(el), children: [] });
        }
        return;
      }
      const structural = STRUCTURAL_ROLES.has(role) ? (role === 'row' ? '' : accessibleName(el, role, false)) : undefined;
      if (structural !== undefined && (structural || !NEEDS_NAME.has(role))) {
        const out: OutlineNode = { kind: 'element', head: '', role, children: [] };
        const me: Parent = { node: out, pending: [], pendingOwner: null };
        walkChildren(el, me, { ...child, inRow: role === 'row' });
        flush(me);
        if (!out.children.length && role !== 'dialog' && role !== 'alertdialog') return;
        out.name = structural;
        out.isNew = reg.isNew(el);
        shown.push(el);
        out.head = `${role}${structural ? ' ' + quote(truncate(structural, DISPLAY_NAME_MAX)) : ''}` + stateTokens(el, role, null).map((s) => ' ' + s).join('');
        append(p, out);
        if (block) flush(p);
        return;
      }
    }

    if (tag === 'svg') {
      if (ctx.nameBuf && !hidden) {
        const label = el.getAttribute('aria-label') || el.querySelector('title')?.textContent;
        if (label) ctx.nameBuf.push(' ', label, ' ');
      }
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
      if (summary) visit(summary, p, child);
      return;
    }
    if (style && (style.contentVisibility === 'hidden')) return;

    let muteText = ctx.muteText;
    if (tag === 'label') {
      const ctl = (el as HTMLLabelElement).control;
      if (ctl && isRendered(ctl)) muteText = true;
    }
    // A table's caption and a fieldset's legend are their names, already on the container's line.
    if (tag === 'caption' || (tag === 'legend' && el.parentElement?.localName === 'fieldset')) muteText = true;
    walkChildren(el, p, { ...child, muteText });
    if (block && !cell) {
      if (!ctx.nameBuf) flush(p);
      else ctx.nameBuf.push(' ');
    }
  };

  const start = options.root ?? doc.body ?? doc.documentElement;
  const rootParent: Parent = { node: top, pending: [], pendingOwner: null };
  const ctx: Ctx = { visible: true, ariaHidden: false, inert: false, nameBuf: null, muteText: false, cursor: undefined, inRow: false };
  if (start) {
    if (options.root) visit(start, rootParent, ctx);
    else walkChildren(start, rootParent, ctx);
  }
  flush(rootParent);

  if (options.commit !== false) {
    reg.commitSnapshot(shown);
    reg.prune();
  }
  const lines: string[] = [];
  renderOutline(top.children, 0, lines);
  let text = lines.join('\n');
  if (text.length > FRAME_OUTLINE_CAP) text = text.slice(0, text.lastIndexOf('\n', FRAME_OUTLINE_CAP)) + '\n- text: [frame outline cut at 1,000,000 characters]';
  return { root: top, text, refs, newRefs, lines: lines.length, frames };
}

function isLeafControl(el: Element, role: string): boolean {
  const tag = el.localName;
  return tag === 'input' || tag === 'select' || tag === 'textarea' || role === 'textbox' || role === 'searchbox' || role === 'slider' || role === 'spinbutton' || (role === 'combobox' && tag !== 'div');
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

/** Renders outline nodes as indented lines. A container with one text child folds it onto its own line. */
export function renderOutline(nodes: OutlineNode[], depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  for (const n of nodes) {
    const mark = n.isNew ? ' [new]' : '';
    if (n.kind === 'text') {
      out.push(`${indent}- text: ${n.head}${mark}`);
      continue;
    }
    if (!n.children.length) {
      out.push(`${indent}- ${n.head}${mark}`);
      continue;
    }
    const only = n.children.length === 1 ? n.children[0]! : undefined;
    if (only && only.kind === 'text' && (!only.isNew || n.isNew) && !n.ref) {
      out.push(`${indent}- ${n.head}${mark}: ${only.head}`);
      continue;
    }
    out.push(`${indent}- ${n.head}${mark}:`);
    renderOutline(n.children, depth + 1, out);
  }
}
