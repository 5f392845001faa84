/**
 * The periods `ot.stats` reports over (docs/specs/002-ot-tools.md "Runtime Statistics") and the timeline's resolution for each.
 */
import { invalidPeriod, StatsError } from './statsErrors.ts';

export const PERIODS = ['day', 'week', 'month', 'all'] as const;
export type Period = (typeof PERIODS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** day = 24 h, week = 7 d, month = 30 d (the reference's choice). */
export const PERIOD_MS: Readonly<Record<Exclude<Period, 'all'>, number>> = { day: DAY, week: 7 * DAY, month: 30 * DAY };

export function parsePeriod(period: string | undefined): Period {
  const p = period ?? 'all';
  if (!(PERIODS as readonly string[]).includes(p)) throw new StatsError(invalidPeriod(p));
  return p as Period;
}

/** Timeline resolution per period: hourly for a day, 6-hourly for a week, daily for a month and for `all`. */
export function bucketSize(period: Period, spanMs = 0): number {
  if (period === 'day') return HOUR;
  if (period === 'week') return 6 * HOUR;
  if (period === 'month') return DAY;
  return spanMs > 120 * DAY ? 7 * DAY : DAY;
}
