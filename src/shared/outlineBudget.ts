/**
 * Fitting a rendered outline into the caller's character budget, by line kind (from the tree, never from the text):
 * long text lines are shortened, then text lines dropped, and only then is the tail cut. No DOM here.
 */
import type { OutlineLine } from './outline.ts';

export interface Truncation {
  text: string;
  /** What was cut and how to get it, or undefined when the outline fit. */
  note?: string;
  shortened: number;
  droppedText: number;
  cutLines: number;
  cutRefs: number;
}

const TEXT_SHORT = 120;
const NOTE_RESERVE = 420;
const TEXT_PREFIX = '- text: '.length;

function shortLabel(line: string): string {
  const t = line.trim().replace(/^- /, '');
  return t.length > 60 ? t.slice(0, 59) + '…' : t;
}

/**
 * Fits an outline into `maxChars` (less `reserve`, kept for notes the caller appends): first long text lines are
 * shortened, then text lines are dropped from the bottom up (refs, headings and structure stay), and only then is
 * the tail cut. The note says what went and how to get it.
 */
export function truncateOutline(lines: readonly OutlineLine[], maxChars: number, reserve = 0): Truncation {
  const size = (ls: readonly (OutlineLine | null)[]): number => ls.reduce((n, l) => (l ? n + l.line.length + 1 : n), 0);
  let total = size(lines);
  // The joined text has one newline fewer than the lines.
  const result: Truncation = { text: '', shortened: 0, droppedText: 0, cutLines: 0, cutRefs: 0 };
  if (Math.max(0, total - 1) + reserve <= maxChars) {
    result.text = lines.map((l) => l.line).join('\n');
    return result;
  }
  const budget = Math.max(0, maxChars - NOTE_RESERVE - reserve);

  // 1. Shorten long text lines.
  const shortened = lines.map((l): OutlineLine => {
    if (l.kind !== 'text') return l;
    const at = 2 * l.depth + TEXT_PREFIX;
    if (l.line.length - at <= TEXT_SHORT) return l;
    result.shortened++;
    return { ...l, line: `${l.line.slice(0, at + TEXT_SHORT - 1)}…` };
  });
  total = size(shortened);

  // 2. Drop text lines from the bottom up.
  const kept: (OutlineLine | null)[] = shortened.slice();
  let firstDropped = -1;
  for (let i = kept.length - 1; i >= 0 && total > budget; i--) {
    const l = kept[i]!;
    if (l.kind !== 'text') continue;
    total -= l.line.length + 1;
    kept[i] = null;
    result.droppedText++;
    firstDropped = i;
  }
  let out = kept.filter((l): l is OutlineLine => l !== null);

  // 3. Cut the tail.
  let cutFrom = '';
  if (total > budget) {
    let n = 0;
    let cutAt = out.length;
    for (let i = 0; i < out.length; i++) {
      if (n + out[i]!.line.length + 1 > budget) {
        cutAt = i;
        break;
      }
      n += out[i]!.line.length + 1;
    }
    const cut = out.slice(cutAt);
    result.cutLines = cut.length;
    result.cutRefs = cut.filter((l) => l.kind === 'ref').length;
    cutFrom = cut[0] ? shortLabel(cut[0].line) : '';
    out = out.slice(0, cutAt);
  }
  result.note = note(maxChars, result, cutFrom, firstDropped);
  result.text = out.map((l) => l.line).join('\n') + '\n' + result.note;
  return result;
}

function note(maxChars: number, r: Truncation, cutFrom: string, firstDropped: number): string {
  const parts: string[] = [];
  if (r.shortened) parts.push(`${r.shortened} long text lines shortened`);
  if (r.droppedText)
    parts.push(`${r.droppedText} text lines omitted${firstDropped >= 0 ? ` (from line ${firstDropped + 1} on)` : ''}`);
  if (r.cutLines) parts.push(`the last ${r.cutLines} lines cut (${r.cutRefs} refs), starting at: ${cutFrom}`);
  return (
    `[outline truncated to ${maxChars} chars: ${parts.join('; ')}. ` +
    `Narrow it with root=<ref or CSS selector>, search it with dom.find, or read the prose with dom.text / dom.read.]`
  );
}
