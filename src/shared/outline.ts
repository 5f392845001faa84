/**
 * Writing the outline: a tree of typed nodes (src/shared/contentMessages.ts) rendered once, as indented lines that
 * keep their kind, so the worker stitches frames and applies the caller's character budget without reading the
 * text back. Shared by the content script (a frame's tree) and the worker (the stitched tab). No DOM here.
 *
 *   - heading "Sign in" [level=1]
 *   - textbox "Email" [ref=e2] [required] value="a@b.c"
 *   - iframe "Payment" [ref=e3]:
 *     - button "Pay" [ref=f1e1]
 */
import type { OutlineNode } from './outlineNode.ts';

export type { OutlineNode };

export const DISPLAY_NAME_MAX = 150;

export function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, Math.max(0, max - 1)) + '…' : text;
}

/**
 * Page text that looks like one of Otto's ref tokens (`Cancel [ref=e1]`) is rewritten (`Cancel [not-a-ref: e1]`), so
 * a name or text the page controls cannot present itself as the ref of another element (issue #31).
 */
export function defuseRefTokens(text: string): string {
  return /ref/i.test(text) ? text.replace(/\[\s*ref\s*=\s*/gi, '[not-a-ref: ') : text;
}

export function quote(text: string): string {
  return JSON.stringify(defuseRefTokens(text));
}

/** A node's line without indent, dash, `[new]` or colon: `button "Save" [ref=e3] [disabled]`. */
export function headOf(n: OutlineNode): string {
  if (n.kind === 'text' || n.kind === 'note') return n.text ?? '';
  return roleAndName(n) + (n.ref ? ` [ref=${n.ref}]` : '') + details(n);
}

/** `button "Save"`: the role and the name as shown. */
export function roleAndName(n: OutlineNode): string {
  return `${n.role ?? ''}${n.name ? ' ' + quote(truncate(n.name, DISPLAY_NAME_MAX)) : ''}`;
}

/** What follows the ref: ` [name inferred] [checked] value="…" -> /path <div.x>`. */
function details(n: OutlineNode): string {
  let s = n.nameInferred ? ' [name inferred]' : '';
  if (n.states) for (const st of n.states) s += ` [${st}]`;
  if (n.value) s += ' ' + n.value;
  if (n.href) s += ' -> ' + n.href;
  if (n.hint) s += ' ' + n.hint;
  return s;
}

/** How the budget treats a line: text goes first, then structure; lines with refs are what the model acts on. */
export type LineKind = 'ref' | 'text' | 'other';

export interface OutlineLine {
  /** The whole line, indent included. */
  line: string;
  depth: number;
  kind: LineKind;
}

/**
 * Renders nodes as indented lines. A container without a ref whose only child is text folds it onto its own line
 * (`- heading "Plans" [level=2]: Pick one`), unless only the text is new.
 */
export function renderOutline(nodes: readonly OutlineNode[], depth = 0, out: OutlineLine[] = []): OutlineLine[] {
  const indent = '  '.repeat(depth);
  for (const n of nodes) {
    const mark = n.isNew ? ' [new]' : '';
    if (n.kind === 'text') {
      out.push({ line: `${indent}- text: ${headOf(n)}${mark}`, depth, kind: 'text' });
      continue;
    }
    const kind: LineKind = n.ref ? 'ref' : 'other';
    const head = headOf(n);
    if (!n.children.length) {
      out.push({ line: `${indent}- ${head}${mark}`, depth, kind });
      continue;
    }
    const only = n.children.length === 1 ? n.children[0]! : undefined;
    if (only && only.kind === 'text' && (!only.isNew || n.isNew) && !n.ref) {
      out.push({ line: `${indent}- ${head}${mark}: ${headOf(only)}`, depth, kind });
      continue;
    }
    out.push({ line: `${indent}- ${head}${mark}:`, depth, kind });
    renderOutline(n.children, depth + 1, out);
  }
  return out;
}

export function linesText(lines: readonly OutlineLine[]): string {
  return lines.map((l) => l.line).join('\n');
}
