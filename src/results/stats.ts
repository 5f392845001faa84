/**
 * `ot.stats` logic (docs/specs/002-ot-tools.md "Runtime Statistics", reference facts "Stats"), independent of storage.
 *
 * Input is a stream of *contributions*: either one raw record (a tool call, a model request, a saving) or a rollup
 * (the sums of many records of one kind and name over an hour or a day). Storage (src/storage/stats.ts) picks, for a
 * window [start, now], the raw records of the partial first hour, hour rollups up to the first whole day and day
 * rollups after it, so a month over 100,000 calls reads a few hundred records; the aggregator adds them in one pass.
 *
 * Estimates, from what was measured (the reply's `estimates` says which figures went in):
 *   context_saved   characters kept out of the model's context (result store: output size − reference size; code
 *                   mode later) ÷ CHARS_PER_TOKEN, in tokens.
 *   time_saved_ms   model round trips avoided (code mode) × the median latency of the model requests in the window
 *                   (from a log histogram, 8 bins per doubling: within ±5%).
 *   cost            token counts × the approximate prices of ./prices.ts.
 */
import { costUsd, priceFor } from './prices.ts';
import { round2 } from '../shared/round.ts';

export const PERIODS = ['day', 'week', 'month', 'all'] as const;
export type Period = (typeof PERIODS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** day = 24 h, week = 7 d, month = 30 d (the reference's choice). */
export const PERIOD_MS: Readonly<Record<Exclude<Period, 'all'>, number>> = { day: DAY, week: 7 * DAY, month: 30 * DAY };
export const CHARS_PER_TOKEN = 4;

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

export function parsePeriod(period: string | undefined): Period {
  const p = period ?? 'all';
  if (!(PERIODS as readonly string[]).includes(p)) throw new StatsError(invalidPeriod(p));
  return p as Period;
}

// ---- latency histogram -------------------------------------------------------------------------------------------

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

// ---- contributions -----------------------------------------------------------------------------------------------

export interface ToolContribution {
  kind: 'tool';
  name: string;
  /** Record time, or the rollup's bucket start. */
  t: number;
  calls: number;
  success: number;
  errors: number;
  duration_ms: number;
  chars_in: number;
  chars_out: number;
}

export interface ModelContribution {
  kind: 'model';
  name: string;
  t: number;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (#23); absent in records from before. */
  cached_tokens?: number;
  latency_ms: number;
  hist: Record<string, number>;
}

export interface SavingContribution {
  kind: 'saving';
  /** The tool whose output was kept out ('' when not attributable to one tool). */
  name: string;
  t: number;
  chars_kept_out: number;
  round_trips_avoided: number;
}

export type Contribution = ToolContribution | ModelContribution | SavingContribution;

export interface TimelineBucket {
  /** Bucket start, ms since the epoch (UTC-aligned). */
  t: number;
  calls: number;
  errors: number;
  duration_ms: number;
}

export interface ToolTotals {
  tool: string;
  calls: number;
  success: number;
  errors: number;
  duration_ms: number;
  chars_in: number;
  chars_out: number;
}

export interface ModelTotals {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (#23); absent in records from before. */
  cached_tokens?: number;
  latency_ms: number;
  hist: Record<string, number>;
}

/** Everything the reply and the panel's Stats view are built from. */
export interface StatsAggregate {
  period: Period;
  tool: string | undefined;
  /** Window start (ms), or for `all` the first bucket seen (undefined when nothing was recorded). */
  start: number | undefined;
  end: number;
  tools: Map<string, ToolTotals>;
  models: Map<string, ModelTotals>;
  charsKeptOut: number;
  roundTripsAvoided: number;
  bucketMs: number;
  timeline: TimelineBucket[];
}

/** Timeline resolution per period: hourly for a day, 6-hourly for a week, daily for a month and for `all`. */
export function bucketSize(period: Period, spanMs = 0): number {
  if (period === 'day') return HOUR;
  if (period === 'week') return 6 * HOUR;
  if (period === 'month') return DAY;
  return spanMs > 120 * DAY ? 7 * DAY : DAY;
}

/** One-pass aggregation: `add` every contribution, then `finish`. */
export class StatsAggregator {
  readonly #tools = new Map<string, ToolTotals>();
  readonly #models = new Map<string, ModelTotals>();
  readonly #buckets = new Map<number, TimelineBucket>();
  #kept = 0;
  #trips = 0;
  #first = Infinity;
  readonly #timelineBucket: number;

  constructor(
    readonly period: Period,
    readonly tool: string | undefined,
    /** Bucket size for the timeline; for `all` the aggregator rebuckets at finish if the span is long. */
    timelineBucketMs = bucketSize(period),
  ) {
    this.#timelineBucket = timelineBucketMs;
  }

  add(c: Contribution): void {
    if (c.kind === 'tool') {
      if (this.tool !== undefined && c.name !== this.tool) return;
      let t = this.#tools.get(c.name);
      if (!t) {
        t = { tool: c.name, calls: 0, success: 0, errors: 0, duration_ms: 0, chars_in: 0, chars_out: 0 };
        this.#tools.set(c.name, t);
      }
      t.calls += c.calls;
      t.success += c.success;
      t.errors += c.errors;
      t.duration_ms += c.duration_ms;
      t.chars_in += c.chars_in;
      t.chars_out += c.chars_out;
      if (c.t < this.#first) this.#first = c.t;
      const key = Math.floor(c.t / this.#timelineBucket) * this.#timelineBucket;
      let b = this.#buckets.get(key);
      if (!b) {
        b = { t: key, calls: 0, errors: 0, duration_ms: 0 };
        this.#buckets.set(key, b);
      }
      b.calls += c.calls;
      b.errors += c.errors;
      b.duration_ms += c.duration_ms;
    } else if (c.kind === 'model') {
      let m = this.#models.get(c.name);
      if (!m) {
        m = {
          model: c.name,
          requests: 0,
          input_tokens: 0,
          output_tokens: 0,
          cached_tokens: 0,
          latency_ms: 0,
          hist: {},
        };
        this.#models.set(c.name, m);
      }
      m.requests += c.requests;
      m.input_tokens += c.input_tokens;
      m.output_tokens += c.output_tokens;
      m.cached_tokens = (m.cached_tokens ?? 0) + (c.cached_tokens ?? 0);
      m.latency_ms += c.latency_ms;
      for (const k in c.hist) m.hist[k] = (m.hist[k] ?? 0) + c.hist[k]!;
      if (c.t < this.#first) this.#first = c.t;
    } else {
      if (this.tool !== undefined && c.name !== this.tool) return;
      this.#kept += c.chars_kept_out;
      this.#trips += c.round_trips_avoided;
      if (c.t < this.#first) this.#first = c.t;
    }
  }

  finish(window: { start: number | undefined; end: number }): StatsAggregate {
    const start = window.start ?? (Number.isFinite(this.#first) ? this.#first : undefined);
    let size = this.#timelineBucket;
    let buckets = this.#buckets;
    if (this.period === 'all' && start !== undefined) {
      const wanted = bucketSize('all', window.end - start);
      if (wanted !== size) {
        buckets = new Map();
        for (const b of this.#buckets.values()) {
          const key = Math.floor(b.t / wanted) * wanted;
          const into = buckets.get(key) ?? { t: key, calls: 0, errors: 0, duration_ms: 0 };
          into.calls += b.calls;
          into.errors += b.errors;
          into.duration_ms += b.duration_ms;
          buckets.set(key, into);
        }
        size = wanted;
      }
    }
    const timeline: TimelineBucket[] = [];
    if (start !== undefined) {
      // Dense from the window's first bucket to the bucket of `end` (never more than a few hundred).
      // Up to the bucket of `end`, or later if a record is dated after it (a clock set back since).
      let last = Math.floor(window.end / size) * size;
      for (const t of buckets.keys()) if (t > last) last = t;
      let from = Math.floor(start / size) * size;
      if ((last - from) / size > 1000) from = last - 1000 * size;
      for (let t = from; t <= last; t += size)
        timeline.push(buckets.get(t) ?? { t, calls: 0, errors: 0, duration_ms: 0 });
    }
    return {
      period: this.period,
      tool: this.tool,
      start,
      end: window.end,
      tools: this.#tools,
      models: this.#models,
      charsKeptOut: this.#kept,
      roundTripsAvoided: this.#trips,
      bucketMs: size,
      timeline,
    };
  }
}

// ---- the reply ---------------------------------------------------------------------------------------------------

export interface ToolStatsRow {
  tool: string;
  total_calls: number;
  success_count: number;
  error_count: number;
  success_rate: number;
  total_duration_ms: number;
  avg_duration_ms: number;
}

export interface ModelStatsRow {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Of the input tokens, those served from the provider's prompt cache. */
  cached_tokens: number;
  median_latency_ms: number | null;
  cost_estimate_usd: number | null;
}

/** The reply of `ot.stats`: every key of the reference, plus `estimates`, `tool` (when filtered) and `models`. */
export interface StatsReport {
  period: Period;
  tool?: string;
  start_time: string | null;
  end_time: string;
  total_calls: number;
  success_count: number;
  error_count: number;
  /** Percent, 1 decimal (0 when there were no calls). */
  success_rate: number;
  total_chars_in: number;
  total_chars_out: number;
  total_duration_ms: number;
  /** Estimated model-context tokens saved. */
  context_saved: number;
  /** Estimated milliseconds saved. */
  time_saved_ms: number;
  /** How context_saved, time_saved_ms and cost_estimate_usd were estimated, from which measurements. */
  estimates: string;
  /** The model with the most requests in the window (null when none was recorded). */
  model: string | null;
  model_requests: number;
  cost_estimate_usd: number | null;
  tools: ToolStatsRow[];
  models: ModelStatsRow[];
  /** Name of the HTML report saved in Otto's files, or null. */
  html_report: string | null;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const rate = (ok: number, n: number): number => (n ? round1((ok * 100) / n) : 0);
const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

export function toolRows(agg: StatsAggregate): ToolStatsRow[] {
  return [...agg.tools.values()]
    .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool))
    .map((t) => ({
      tool: t.tool,
      total_calls: t.calls,
      success_count: t.success,
      error_count: t.errors,
      success_rate: rate(t.success, t.calls),
      total_duration_ms: round2(t.duration_ms),
      avg_duration_ms: t.calls ? round2(t.duration_ms / t.calls) : 0,
    }));
}

export function toReport(agg: StatsAggregate, htmlReport: string | null = null): StatsReport {
  const rows = toolRows(agg);
  let calls = 0;
  let ok = 0;
  let errors = 0;
  let cin = 0;
  let cout = 0;
  let dur = 0;
  for (const t of agg.tools.values()) {
    calls += t.calls;
    ok += t.success;
    errors += t.errors;
    cin += t.chars_in;
    cout += t.chars_out;
    dur += t.duration_ms;
  }

  const allHist: Record<string, number> = {};
  let requests = 0;
  let cost = 0;
  let priced = 0;
  const unpriced: string[] = [];
  const models: ModelStatsRow[] = [...agg.models.values()]
    .sort((a, b) => b.requests - a.requests || a.model.localeCompare(b.model))
    .map((m) => {
      requests += m.requests;
      for (const k in m.hist) allHist[k] = (allHist[k] ?? 0) + m.hist[k]!;
      const c = costUsd(m.model, m.input_tokens, m.output_tokens);
      if (c === undefined) unpriced.push(m.model);
      else {
        cost += c;
        priced++;
      }
      const med = histMedian(m.hist);
      return {
        model: m.model,
        requests: m.requests,
        input_tokens: m.input_tokens,
        output_tokens: m.output_tokens,
        cached_tokens: m.cached_tokens ?? 0,
        median_latency_ms: med === undefined ? null : Math.round(med),
        cost_estimate_usd: c === undefined ? null : Math.round(c * 10_000) / 10_000,
      };
    });
  const median = histMedian(allHist);
  const contextSaved = Math.round(agg.charsKeptOut / CHARS_PER_TOKEN);
  const timeSaved = median === undefined ? 0 : Math.round(agg.roundTripsAvoided * median);

  const notes = [
    `context_saved = ${grouped(agg.charsKeptOut)} characters kept out of the model's context (large results stored ` +
      `for ot.result instead of inlined) / ${CHARS_PER_TOKEN} characters per token`,
    median === undefined
      ? `time_saved_ms = ${grouped(agg.roundTripsAvoided)} model round trips avoided x median model latency, ` +
        `but no model request was measured in this period, so 0`
      : `time_saved_ms = ${grouped(agg.roundTripsAvoided)} model round trips avoided (code mode) x ` +
        `${grouped(median)} ms median model latency over ${grouped(requests)} requests`,
    requests === 0
      ? 'cost_estimate_usd: no model requests recorded'
      : `cost_estimate_usd = tokens x approximate list prices per 1M tokens` +
        (unpriced.length ? `; not priced (unknown to the price table): ${unpriced.join(', ')}` : ''),
  ];
  if (agg.tool !== undefined) notes.push('model figures are not filtered by tool');

  const report: StatsReport = {
    period: agg.period,
    start_time: agg.start === undefined ? null : new Date(agg.start).toISOString(),
    end_time: new Date(agg.end).toISOString(),
    total_calls: calls,
    success_count: ok,
    error_count: errors,
    success_rate: rate(ok, calls),
    total_chars_in: cin,
    total_chars_out: cout,
    total_duration_ms: round2(dur),
    context_saved: contextSaved,
    time_saved_ms: timeSaved,
    estimates: notes.join('; '),
    model: models[0]?.model ?? null,
    model_requests: requests,
    cost_estimate_usd: requests === 0 ? 0 : priced === 0 ? null : Math.round(cost * 10_000) / 10_000,
    tools: rows,
    models,
    html_report: htmlReport,
  };
  if (agg.tool === undefined) return report;
  // With a filter, `tool` follows `period` so the reply reads "period, tool, ...".
  const { period, ...rest } = report;
  return { period, tool: agg.tool, ...rest };
}

// ---- raw records as contributions ----------------------------------------------------------------------------------

export interface ToolCallStat {
  tool: string;
  ts: number;
  duration_ms: number;
  success: boolean;
  error_type: string | null;
  chars_in: number;
  chars_out: number;
}

export interface ModelRequestStat {
  model: string;
  ts: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  latency_ms: number;
}

export interface SavingStat {
  ts: number;
  /** Where the saving came from: `result_store` (large output kept out), `code_mode` (round trips avoided). */
  source: string;
  /** The tool concerned, '' when not one tool. */
  tool: string;
  chars_kept_out: number;
  round_trips_avoided: number;
}

export function toolContribution(r: ToolCallStat): ToolContribution {
  return {
    kind: 'tool',
    name: r.tool,
    t: r.ts,
    calls: 1,
    success: r.success ? 1 : 0,
    errors: r.success ? 0 : 1,
    duration_ms: r.duration_ms,
    chars_in: r.chars_in,
    chars_out: r.chars_out,
  };
}

export function modelContribution(r: ModelRequestStat): ModelContribution {
  return {
    kind: 'model',
    name: r.model,
    t: r.ts,
    requests: 1,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cached_tokens: r.cached_tokens ?? 0,
    latency_ms: r.latency_ms,
    hist: { [latencyBin(r.latency_ms)]: 1 },
  };
}

export function savingContribution(r: SavingStat): SavingContribution {
  return {
    kind: 'saving',
    name: r.tool,
    t: r.ts,
    chars_kept_out: r.chars_kept_out,
    round_trips_avoided: r.round_trips_avoided,
  };
}

/** Whether a model name is in the price table (for the panel's cost caveat). */
export const isPriced = (model: string): boolean => priceFor(model) !== undefined;

/** Adds `c` into `into` (same kind and name): how rollups grow. */
export function mergeContribution<C extends Contribution>(into: C, c: C): C {
  if (into.kind === 'tool' && c.kind === 'tool') {
    into.calls += c.calls;
    into.success += c.success;
    into.errors += c.errors;
    into.duration_ms += c.duration_ms;
    into.chars_in += c.chars_in;
    into.chars_out += c.chars_out;
  } else if (into.kind === 'model' && c.kind === 'model') {
    into.requests += c.requests;
    into.input_tokens += c.input_tokens;
    into.output_tokens += c.output_tokens;
    into.cached_tokens = (into.cached_tokens ?? 0) + (c.cached_tokens ?? 0);
    into.latency_ms += c.latency_ms;
    for (const k in c.hist) into.hist[k] = (into.hist[k] ?? 0) + c.hist[k]!;
  } else if (into.kind === 'saving' && c.kind === 'saving') {
    into.chars_kept_out += c.chars_kept_out;
    into.round_trips_avoided += c.round_trips_avoided;
  }
  return into;
}
