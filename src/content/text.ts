/**
 * The visible text of an element or the page, in reading order, with line breaks at block boundaries; shadow roots
 * and slots included, hidden content left out. Stops at a character budget and says so.
 */
import { flatChildren } from './flatTree.ts';
import { runSliced, runSync, Slicer } from './slices.ts';
import { closeWalkCache, openWalkCache, styleOf } from './visibility.ts';

const SKIP = new Set(['script', 'style', 'template', 'head', 'title', 'svg', 'canvas', 'select', 'datalist']);
const INLINE = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'contents', 'ruby', 'inline-table']);

export interface VisibleText {
  text: string;
  truncated: boolean;
  /** Characters collected before the budget stopped the walk (at least `text.length`). */
  chars: number;
  /** Set when time ran out before the budget was filled. */
  note?: string;
}

export function visibleText(root: Node, maxChars: number): VisibleText {
  openWalkCache();
  try {
    return runSync(collect(root, maxChars, new Slicer()));
  } finally {
    closeWalkCache();
  }
}

/** The same walk in slices that yield to the page; past `deadline` it returns what it has, with a note. */
export async function visibleTextSliced(root: Node, maxChars: number, deadline?: number): Promise<VisibleText> {
  const slicer = new Slicer(deadline);
  openWalkCache();
  try {
    return await runSliced(collect(root, maxChars, slicer), slicer, { lane: 'text', what: 'text read' });
  } finally {
    closeWalkCache();
  }
}

function* collect(root: Node, maxChars: number, slicer: Slicer): Generator<void, VisibleText, void> {
  const t0 = performance.now();
  const out: string[] = [];
  let len = 0;
  let stop = false;
  const limit = maxChars + 1;
  const br = (): void => {
    if (out.length && out[out.length - 1] !== '\n') out.push('\n');
  };
  const visit = function* (node: Node, visible: boolean): Generator<void, void, void> {
    if (slicer.due()) yield;
    if (slicer.overtime) stop = true;
    if (stop) return;
    if (node.nodeType === 3) {
      if (!visible) return;
      const t = (node.nodeValue ?? '').replace(/\s+/g, ' ');
      if (!t) return;
      out.push(t);
      len += t.length;
      if (len > limit) stop = true;
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11 && node.nodeType !== 9) return;
    let vis = visible;
    let block = false;
    if (node.nodeType === 1) {
      const el = node as Element;
      if (SKIP.has(el.localName)) return;
      const s = styleOf(el);
      if (s?.display === 'none') return;
      if (s) vis = s.visibility !== 'hidden' && s.visibility !== 'collapse';
      if (el.localName === 'details' && !(el as HTMLDetailsElement).open) {
        const summary = el.querySelector(':scope > summary');
        if (summary) yield* visit(summary, vis);
        br();
        return;
      }
      block = !INLINE.has(s?.display || 'inline') || el.localName === 'br';
      if (el.localName === 'td' || el.localName === 'th') {
        out.push(' | ');
        block = false;
      }
      if (block) br();
      if (el.localName === 'img' && vis) {
        const alt = el.getAttribute('alt');
        if (alt) out.push(`[image: ${alt}]`);
      }
      if ((el.localName === 'input' || el.localName === 'textarea') && vis) {
        const v = (el as HTMLInputElement).value;
        const type = (el as HTMLInputElement).type;
        if (v && type !== 'password' && type !== 'hidden' && type !== 'checkbox' && type !== 'radio')
          out.push(`[${v}]`);
      }
    }
    const kids = node.nodeType === 9 ? ((node as Document).body?.childNodes ?? []) : flatChildren(node);
    for (let i = 0; i < kids.length && !stop; i++) {
      const k = kids[i];
      if (k) yield* visit(k, vis);
    }
    if (block) br();
  };
  yield* visit(root, true);
  const joined = out
    .join('')
    .split('\n')
    .map((l) =>
      l
        .replace(/\s+/g, ' ')
        .replace(/^(?: ?\| ?)+/, '')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
  const truncated = stop || joined.length > maxChars;
  const r: VisibleText = {
    text: truncated ? joined.slice(0, maxChars) : joined,
    truncated,
    chars: Math.max(len, joined.length),
  };
  if (slicer.overtime)
    r.note = `the read stopped after ${((performance.now() - t0) / 1000).toFixed(1)} s with ${r.text.length} characters: this is the start of the text only`;
  return r;
}
