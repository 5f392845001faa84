/**
 * The lines of a stored result that a search regex matches, found without splitting every chunk into lines.
 *
 * A regex search tests each line on its own (`^` and `$` are the line's ends). Splitting a 1,000,000-line result
 * into strings and testing each one was most of a search's time, though most chunks hold no match at all. Instead,
 * the same pattern with the `m` flag runs over a chunk's whole text: every match it finds is checked again on its
 * own line with the line regex (the answer stays exactly the line-by-line one), and lines it passes over cannot
 * match. That holds because a match inside one line is also a match in the chunk at the same place: `^`/`$` with
 * `m` match at line ends, `\b` sees the newline as a non-word character like the start of a string. Lookarounds
 * are the exception (`(?<!\n)x` matches a line's first `x`, not the chunk's), so a pattern with one goes line by
 * line as before.
 */
import type { LineSource } from './query.ts';

const LOOKAROUND = /\(\?<?[=!]/;

/** The chunk-wide form of a line regex, or undefined when the pattern must be tested line by line. */
export function chunkRegex(line: RegExp): RegExp | undefined {
  if (LOOKAROUND.test(line.source)) return undefined;
  return new RegExp(line.source, `${line.flags.replace(/[gmy]/g, '')}gm`);
}

/** Calls `hit` with each matching line (0-based index, text), in order. */
export async function scanMatches(
  source: LineSource,
  line: RegExp,
  hit: (index: number, text: string) => void,
): Promise<void> {
  const whole = source.scanText ? chunkRegex(line) : undefined;
  if (!whole) {
    await source.scan((start, lines) => {
      for (let i = 0; i < lines.length; i++) if (line.test(lines[i]!)) hit(start + i, lines[i]!);
    });
    return;
  }
  await source.scanText!((start, text) => matchChunk(text, start, whole, line, hit));
}

/** The matching lines of one chunk (`text`: lines joined by `\n`, the first one numbered `start`). */
export function matchChunk(
  text: string,
  start: number,
  whole: RegExp,
  line: RegExp,
  hit: (index: number, text: string) => void,
): void {
  whole.lastIndex = 0;
  let index = start; // the line that begins at `counted`
  let counted = 0;
  for (let m = whole.exec(text); m; m = whole.exec(text)) {
    // The line holding the match's first character (a match may begin on the newline that ends it).
    const from = text.lastIndexOf('\n', m.index - 1) + 1;
    for (let nl = text.indexOf('\n', counted); nl !== -1 && nl < from; nl = text.indexOf('\n', nl + 1)) index++;
    counted = from;
    let to = text.indexOf('\n', m.index);
    if (to === -1) to = text.length;
    const candidate = text.slice(from, to);
    if (line.test(candidate)) hit(index, candidate);
    if (to >= text.length) break;
    whole.lastIndex = to + 1; // on with the next line, also after an empty match
  }
}
