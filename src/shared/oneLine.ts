/**
 * Text on one line: every run of whitespace (line breaks included) becomes one space, the ends are trimmed, and text
 * longer than `max` characters is cut to `max`, its last one an ellipsis. For labels, summaries and error messages
 * shown in one row.
 */
export function oneLine(text: string, max = Infinity): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
