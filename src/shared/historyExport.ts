/**
 * A schedule's history as a file to keep (#46 part 4): CSV (one row per run, for a spreadsheet) or JSON (the rows as
 * objects, for a script). Built from the runs the panel already shows, so what is exported is what was read; the
 * output is page text and stays as it was, defused for spreadsheets by `csvText`.
 */
import { csvText, type CsvValue } from './csvText.ts';

/** One run as the export writes it (the engine's history record, mapped by the caller). */
export interface ExportedRun {
  schedule: string;
  startedAt: number;
  durationMs: number | null;
  outcome: string;
  late: boolean;
  output: string;
  /** What changed since the last run, one line (a watch's note, or the output's difference). */
  change: string;
  value: string | null;
  previous: string | null;
  notified: boolean;
  tokens: number;
  costUsd: number | null;
  error: string | null;
}

export const HISTORY_COLUMNS = [
  'schedule',
  'started',
  'duration_s',
  'outcome',
  'late',
  'value',
  'previous',
  'notified',
  'change',
  'output',
  'tokens',
  'cost_usd',
  'error',
] as const;

function row(r: ExportedRun): Record<(typeof HISTORY_COLUMNS)[number], CsvValue> {
  return {
    schedule: r.schedule,
    started: new Date(r.startedAt).toISOString(),
    duration_s: r.durationMs === null ? null : Math.round(r.durationMs / 100) / 10,
    outcome: r.outcome,
    late: r.late ? 'yes' : 'no',
    value: r.value,
    previous: r.previous,
    notified: r.notified ? 'yes' : 'no',
    change: r.change,
    output: r.output,
    tokens: r.tokens,
    cost_usd: r.costUsd,
    error: r.error,
  };
}

export interface HistoryFile {
  filename: string;
  mime: string;
  text: string;
}

/** The file for `format`; `name` is the schedule's name, made safe for a file name. */
export function historyFile(name: string, runs: readonly ExportedRun[], format: 'csv' | 'json'): HistoryFile {
  const base = `otto-schedule-${name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'history'}`;
  const rows = runs.map(row);
  if (format === 'csv') return { filename: `${base}.csv`, mime: 'text/csv', text: csvText(HISTORY_COLUMNS, rows) };
  const objects = rows.map((r, i) => ({ ...r, late: runs[i]!.late, notified: runs[i]!.notified }));
  return { filename: `${base}.json`, mime: 'application/json', text: `${JSON.stringify(objects, null, 2)}\n` };
}
