/**
 * The lines of a stored result that a search regex matches, found without splitting every chunk into lines.
 *
 * A regex search tests each line on its own (`^` and `$` are the line's ends). Splitting a 1,000,000-line result
 * into strings and testing each one was most of a search's time, though most chunks hold no match at all. Instead,
 * the same pattern with the `m` flag runs over a chunk's whole text, and every match it finds is checked again on its
 * own line with the line regex (the answer stays exactly the line-by-line one); lines it passes over cannot match.
 * That holds for a pattern that cannot match a newline: a match inside one line is then a match in the chunk at the
 * same place (`^`/`$` with `m` match at line ends, `\b` sees the newline as a non-word character like the start of
 * a string), and no attempt runs past a line's end, so a chunk costs what its lines would. A pattern that could
 * match a newline (`\s`, `[^x]`, `\W`, `\D`, escapes of a character code) or looks around (`(?<!\n)x` matches a
 * line's first `x`, not the chunk's) is tested line by line as before: in a chunk, `[^"]*x` would scan to the
 * chunk's end from every position.
 */
import type { LineSource } from './lineSource.ts';

/**
 * A lookaround, or what may match a newline: a negated class, \s \S \W \D, an escape of a control character or of a
 * character code (also as the end of a range: `[\t-\r]`), a control character itself.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const LINE_BY_LINE = /\(\?<?[=!]|\[\^|\\[sSWDnrtvfxuc0-9]|[\x00-\x1f]/;

/** The chunk-wide form of a line regex, or undefined when the pattern must be tested line by line. */
export function chunkRegex(line: RegExp): RegExp | undefined {
  if (LINE_BY_LINE.test(line.source)) return undefined;
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
