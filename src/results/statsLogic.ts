/**
 * `ot.stats` logic (docs/specs/002-ot-tools.md "Runtime Statistics", reference facts "Stats"), independent of storage: the one import
 * for its users. The parts, one concept each:
 *
 *   statsPeriods.ts      the periods and the timeline's resolution for each
 *   statsErrors.ts       the exact failures the tool returns
 *   latencyHistogram.ts  the log histogram model latencies are kept in, and its median
 *   contributions.ts     raw records and rollups as one stream of contributions, and how rollups grow
 *   statsAggregator.ts   one-pass aggregation of a window's contributions
 *   statsReport.ts       the reply and its estimates
 *   prices.ts            approximate prices for the cost estimate
 */
export {
  modelContribution,
  mergeContribution,
  savingContribution,
  toolContribution,
  type Contribution,
  type ModelContribution,
  type ModelRequestStat,
  type SavingContribution,
  type SavingStat,
  type ToolCallStat,
  type ToolContribution,
} from './contributions.ts';
export { binCenter, HIST_STEPS, histMedian, latencyBin } from './latencyHistogram.ts';
export { isPriced } from './prices.ts';
export {
  StatsAggregator,
  type ModelTotals,
  type StatsAggregate,
  type TimelineBucket,
  type ToolTotals,
} from './statsAggregator.ts';
export { cannotWrite, invalidPeriod, STATS_DISABLED, StatsError } from './statsErrors.ts';
export { bucketSize, parsePeriod, PERIOD_MS, PERIODS, type Period } from './statsPeriods.ts';
export {
  CHARS_PER_TOKEN,
  toolRows,
  toReport,
  type ModelStatsRow,
  type StatsReport,
  type ToolStatsRow,
} from './statsReport.ts';
