/** The exact failures of `ot.stats`: each message is the text the tool returns. */

/** An `ot.stats` failure; `message` is the exact text the tool returns (it starts with `Error: `). */
export class StatsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatsError';
  }
}

export const STATS_DISABLED = 'Error: Statistics collection is disabled in configuration';

export function invalidPeriod(period: string): string {
  return `Error: Invalid period '${period}'. Valid: day, week, month, all. Example: ot.stats(period='day')`;
}

export function cannotWrite(name: string, reason: string): string {
  return `Error: Cannot write to '${name}': ${reason}`;
}
