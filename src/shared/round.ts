/** Rounds to two decimals: how durations (ms) and ratios are reported. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;
