/**
 * Pure helpers over rendered outline text, shared by the content script and the worker (which stitches frames and
 * applies the caller's character budget): line classification, indentation, frame markers, budget truncation.
 * No DOM here.
 */

/** `- iframe "title" [ref=e4] {{frame 3}}`: slot 3 of the frame's `frames` list. */
export const FRAME_MARKER =
  /^( *)- (iframe(?: "(?:[^"\\]|\\.)*")?(?: \[ref=(?:f\d+)?(?:[a-df-z]{2})?e\d+\])?(?: \[new\])?) \{\{frame (\d+)\}\}$/;

export type LineKind = 'ref' | 'text' | 'other';

export function lineKind(line: string): LineKind {
  if (/^ *- text: /.test(line)) return 'text';
  if (/ \[ref=(?:f\d+)?(?:[a-df-z]{2})?e\d+\]/.test(line)) return 'ref';
  return 'other';
}

export function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** Adds `spaces` of indentation to every non-empty line. */
export function indentText(text: string, spaces: number): string {
  if (!text) return text;
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => (l ? pad + l : l))
    .join('\n');
}

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

function shortLabel(line: string): string {
  const t = line.trim().replace(/^- /, '');
  return t.length > 60 ? t.slice(0, 59) + '…' : t;
}

/**
 * Fits an outline into `maxChars` (less `reserve`, kept for notes the caller appends): first long text lines are shortened, then text lines are dropped from the bottom
 * up (refs, headings and structure stay), and only then is the tail cut. The note says what went and how to get it.
 */
export function truncateOutline(text: string, maxChars: number, reserve = 0): Truncation {
  const result: Truncation = { text, shortened: 0, droppedText: 0, cutLines: 0, cutRefs: 0 };
  if (text.length + reserve <= maxChars) return result;
  const budget = Math.max(0, maxChars - NOTE_RESERVE - reserve);
  let lines = text.split('\n');
  const size = (ls: (string | null)[]): number => ls.reduce((n, l) => (l === null ? n : n + l.length + 1), 0);

  // 1. Shorten long text lines.
  lines = lines.map((l) => {
    if (lineKind(l) !== 'text') return l;
    const ind = indentOf(l);
    const body = l.slice(ind + '- text: '.length);
    if (body.length <= TEXT_SHORT) return l;
    result.shortened++;
    return `${' '.repeat(ind)}- text: ${body.slice(0, TEXT_SHORT - 1)}…`;
  });
  let total = size(lines);

  // 2. Drop text lines from the bottom up.
  const kept: (string | null)[] = lines.slice();
  let firstDropped = -1;
  for (let i = kept.length - 1; i >= 0 && total > budget; i--) {
    const l = kept[i]!;
    if (lineKind(l) !== 'text') continue;
    total -= l.length + 1;
    kept[i] = null;
    result.droppedText++;
    firstDropped = i;
  }
  let out = kept.filter((l): l is string => l !== null);

  // 3. Cut the tail.
  if (total > budget) {
    let n = 0;
    let cutAt = out.length;
    for (let i = 0; i < out.length; i++) {
      if (n + out[i]!.length + 1 > budget) {
        cutAt = i;
        break;
      }
      n += out[i]!.length + 1;
    }
    const cut = out.slice(cutAt);
    result.cutLines = cut.length;
    result.cutRefs = cut.filter((l) => lineKind(l) === 'ref').length;
    const from = cut[0] ? shortLabel(cut[0]) : '';
    out = out.slice(0, cutAt);
    result.note = note(maxChars, result, from, firstDropped);
  } else {
    result.note = note(maxChars, result, '', firstDropped);
  }
  result.text = out.join('\n') + '\n' + result.note;
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
