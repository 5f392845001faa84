/**
 * One-pass aggregation for `ot.stats`: storage (src/storage/statsStore.ts) picks, for a window [start, now], the raw
 * records of the partial first hour, hour rollups up to the first whole day and day rollups after it, so a month
 * over 100,000 calls reads a few hundred records; the aggregator adds them once, into per-tool and per-model totals
 * and a dense timeline.
 */
import type { Contribution } from './contributions.ts';
import { bucketSize, type Period } from './statsPeriods.ts';

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
