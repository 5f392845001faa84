/** The contract between bench modules and the runner (bench/run.ts). */

export interface BenchMetric {
  /** Stable identifier, e.g. `overhead_p99`; results.json is keyed by module + metric. */
  name: string;
  value: number;
  unit: string;
  /** An upper bound the metric should stay under (the runner marks it; `--strict` fails on a breach). */
  budget?: number;
}

export interface BenchModule {
  /** Short name used in the table and to select modules on the command line. */
  name: string;
  /** Rounds for this module when it already repeats internally (median per page, samples): default the runner's. */
  rounds?: number;
  /** One round of measurement; the runner calls it several times and reports median/min/max. */
  run(): Promise<BenchMetric[]>;
}
