/**
 * Where a stored result's lines come from, as the queries read them (`query.ts`, `regexScan.ts`): ranges of lines
 * and a front-to-back scan, whether the lines sit in memory or in IndexedDB chunks (storage/results.ts).
 */
export interface LineSource {
  readonly totalLines: number;
  /** Lines [from, to) (0-based), clipped to the result. */
  read(from: number, to: number): Promise<string[]>;
  /** Visits consecutive runs of lines from the first; stops early when `visit` returns false. */
  scan(visit: (start: number, lines: readonly string[]) => boolean | void): Promise<void>;
  /** The same runs as `scan`, each as one text (its lines joined by `\n`): a regex search then splits none. */
  scanText?(visit: (start: number, text: string) => boolean | void): Promise<void>;
}
