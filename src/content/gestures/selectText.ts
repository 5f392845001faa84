/**
 * Selecting text as a person drags the mouse over it: the button goes down at the start of the span, the selection
 * is set (Selection API for page text and contenteditable editors, setSelectionRange in inputs and textareas), the
 * pointer moves to its end and the button comes up there — so the page's mousedown/mouseup handlers and the
 * browser's own selectionchange/select events see what they see for a person. The report quotes what the page's
 * selection holds afterwards.
 */
import { describeElement } from '../describe.ts';
import { composedContains, deepElementFromPoint } from '../flatTree.ts';
import { ActionError } from '../targets.ts';
import { isTextControl } from '../actions/typing.ts';
import { moveTo, pressAt, releaseAt } from './mouse.ts';
import { pointIn, type Point } from './points.ts';
import { wrapUntrustedInline } from '../../shared/untrusted.ts';

export interface SelectResult {
  summary: string;
  selected: string;
}

function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** The start offsets of `text` in `all` (exact, else case-insensitive), or an error that says what is there. */
function find(all: string, text: string, occurrence: number, where: string): number {
  let at = occurrences(all, text);
  if (!at.length) at = occurrences(all.toLowerCase(), text.toLowerCase());
  if (!at.length)
    throw new ActionError(
      `${JSON.stringify(text)} is not in the text of ${wrapUntrustedInline(where)}. Read it with dom.text first.`,
    );
  if (occurrence > at.length)
    throw new ActionError(
      `${JSON.stringify(text)} occurs ${at.length} time${at.length === 1 ? '' : 's'} in ${wrapUntrustedInline(where)}, not ${occurrence}.`,
    );
  return at[occurrence - 1]!;
}

/** The text nodes under `root` (light DOM, in order) with their offsets in the concatenated text. */
function textNodes(root: Node): { node: Text; start: number }[] {
  const out: { node: Text; start: number }[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let pos = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (p && ['script', 'style', 'noscript', 'template'].includes(p.localName)) continue;
    out.push({ node: n as Text, start: pos });
    pos += (n as Text).data.length;
  }
  return out;
}

function locate(nodes: { node: Text; start: number }[], offset: number, end: boolean): [Text, number] {
  for (const { node, start } of nodes) {
    const len = node.data.length;
    if (offset < start + len || (end && offset === start + len)) return [node, offset - start];
  }
  const last = nodes.at(-1)!;
  return [last.node, last.node.data.length];
}

function edgePoints(range: Range, fallback: Point): [Point, Point] {
  const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 || r.height > 0);
  const a = rects[0];
  const b = rects.at(-1);
  if (!a || !b) return [fallback, fallback];
  return [
    { x: a.left + 1, y: a.top + a.height / 2 },
    { x: Math.max(b.left, b.right - 1), y: b.top + b.height / 2 },
  ];
}

export function selectText(el: Element, text: string | undefined, occurrence = 1): SelectResult {
  const where = describeElement(el);
  const centre = pointIn(el);
  if (isTextControl(el)) {
    const value = el.value;
    const start = text === undefined ? 0 : find(value, text, occurrence, where);
    const end = text === undefined ? value.length : start + text.length;
    pressAt(el, centre);
    el.focus({ preventScroll: true });
    el.setSelectionRange(start, end, 'forward');
    moveTo(centre, el);
    releaseAt(centre, el);
    const selected = el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0);
    return { selected, summary: `selected ${JSON.stringify(selected)} in ${where}` };
  }
  const range = document.createRange();
  const nodes = textNodes(el);
  if (text === undefined || !nodes.length) {
    if (text !== undefined) throw new ActionError(`${wrapUntrustedInline(where)} holds no text to select.`);
    range.selectNodeContents(el);
  } else {
    const all = nodes.map((n) => n.node.data).join('');
    const start = find(all, text, occurrence, where);
    const [sn, so] = locate(nodes, start, false);
    const [en, eo] = locate(nodes, start + text.length, true);
    range.setStart(sn, so);
    range.setEnd(en, eo);
  }
  const [a, b] = edgePoints(range, centre);
  const at = deepElementFromPoint(a.x, a.y);
  const down = at && composedContains(el, at) ? at : el;
  pressAt(down, a);
  // Focus the editor first: focusing it later would move its caret and drop the selection.
  const editor = (el as HTMLElement).isContentEditable
    ? (el.closest('[contenteditable]:not([contenteditable="false"])') as HTMLElement | null)
    : null;
  editor?.focus({ preventScroll: true });
  const sel = document.getSelection();
  if (!sel) throw new ActionError('This page has no selection to set.');
  sel.removeAllRanges();
  sel.addRange(range);
  moveTo(b, el);
  releaseAt(b, down);
  const selected = sel.toString();
  const which = text !== undefined && occurrence > 1 ? ` (occurrence ${occurrence})` : '';
  return {
    selected,
    summary: `selected ${JSON.stringify(selected.length > 200 ? `${selected.slice(0, 199)}…` : selected)}${which} in ${where}`,
  };
}
