/** Rounds to two decimals: how durations (ms) and ratios are reported. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Rounds to one decimal: percentages in `ot.stats`, pixel positions in gesture paths. */
export const round1 = (n: number): number => Math.round(n * 10) / 10;
