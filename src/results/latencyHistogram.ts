/**
 * A sparse log histogram of model latencies ({bin: count}, 8 bins per doubling): rollups add histograms bin by bin,
 * and the median read back from one is within ±5% of the measured median.
 */

/** Bins per doubling of latency. */
export const HIST_STEPS = 8;
const HIST_MAX_BIN = HIST_STEPS * 24; // ~4.6 hours

export function latencyBin(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(HIST_MAX_BIN, Math.floor(Math.log2(ms) * HIST_STEPS));
}

/** The geometric middle of a bin, in ms. */
export function binCenter(bin: number): number {
  return bin === 0 ? 1 : 2 ** ((bin + 0.5) / HIST_STEPS);
}

/** Median of a sparse histogram {bin: count}, or undefined when empty. */
export function histMedian(hist: Readonly<Record<string, number>>): number | undefined {
  const bins = Object.keys(hist)
    .map(Number)
    .sort((a, b) => a - b);
  let total = 0;
  for (const b of bins) total += hist[b]!;
  if (!total) return undefined;
  const half = total / 2;
  let seen = 0;
  for (const b of bins) {
    seen += hist[b]!;
    if (seen >= half) return binCenter(b);
  }
  return undefined;
}
