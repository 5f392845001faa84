/**
 * Rows as CSV text (RFC 4180: a header row, commas, CRLF line ends, fields with a comma, quote or line break quoted
 * and their quotes doubled) — the writer beside `cli/run/csv.ts`'s reader. Exports hold page text, so a text field
 * that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return, and not a plain
 * number) gets a leading apostrophe (OWASP's advice on CSV injection); numbers are written as they are.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

function field(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && FORMULA.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvText(columns: readonly string[], rows: readonly Record<string, CsvValue>[]): string {
  const lines = [columns.map(field), ...rows.map((r) => columns.map((c) => field(r[c])))];
  return `${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}
