/**
 * What the model receives instead of an output too large for its context (issue 6, "Large results"): the
 * reference's shape `{handle, total_lines, size_bytes, summary, preview, query}`, with a summary that says how to read
 * the stored text. The store (src/storage/results.ts) keeps the text; this is how it is presented.
 */
import { LINE_WRAP } from './lines.ts';
import { resultCall } from './query.ts';

/** What the model receives instead of a large output (the reference's shape). */
export interface ResultReference {
  handle: string;
  total_lines: number;
  size_bytes: number;
  summary: string;
  /** The first `preview_lines` lines, each cut to PREVIEW_LINE_CHARS. */
  preview: string[];
  /** `ot.result(handle='<h>', offset=1, limit=50)` */
  query: string;
}

export const PREVIEW_LINE_CHARS = 300;

/** A line of the preview: cut to PREVIEW_LINE_CHARS, saying how much was left out. */
export function previewLine(line: string): string {
  return line.length <= PREVIEW_LINE_CHARS
    ? line
    : `${line.slice(0, PREVIEW_LINE_CHARS)}… (+${line.length - PREVIEW_LINE_CHARS} chars)`;
}

function humanBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

function humanDuration(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The facts of a stored result the reference is written from. */
export interface StoredResultFacts {
  handle: string;
  totalLines: number;
  sizeBytes: number;
  /** Lines longer than LINE_WRAP characters that were stored wrapped. */
  wrappedLines: number;
  /** Seconds the result is kept; 0 = until removed. */
  ttl: number;
  /** The tool whose output it is. */
  tool?: string;
  /** Preview lines, already cut (previewLine). */
  preview: string[];
}

export function resultReference(r: StoredResultFacts): ResultReference {
  const what = r.tool ? `Output of ${r.tool}` : 'Output';
  const kept = r.ttl > 0 ? ` for ${humanDuration(r.ttl)}` : '';
  const wrapped = r.wrappedLines
    ? ` ${r.wrappedLines} line(s) longer than ${LINE_WRAP} characters were wrapped into several lines.`
    : '';
  return {
    handle: r.handle,
    total_lines: r.totalLines,
    size_bytes: r.sizeBytes,
    summary:
      `${what} too large for context (${r.totalLines} lines, ${humanBytes(r.sizeBytes)}): stored as ${r.handle}${kept}. ` +
      `Read it with the query below (offset is 1-indexed); search='regex' filters lines (case-insensitive; ` +
      `fuzzy=True for approximate), context=N adds lines around matches, tail=N shows the end.${wrapped}`,
    preview: r.preview,
    query: resultCall(r.handle, { offset: 1, limit: 50 }),
  };
}

export function isResultReference(value: unknown): value is ResultReference {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ResultReference).handle === 'string' &&
    typeof (value as ResultReference).query === 'string' &&
    Array.isArray((value as ResultReference).preview)
  );
}
