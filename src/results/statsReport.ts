/**
 * The reply of `ot.stats` (docs/specs/002-ot-tools.md "Runtime Statistics", reference facts "Stats"), built from an aggregate.
 *
 * Estimates, from what was measured (the reply's `estimates` says which figures went in):
 *   context_saved   characters kept out of the model's context (result store: output size − reference size; code
 *                   mode later) ÷ CHARS_PER_TOKEN, in tokens.
 *   time_saved_ms   model round trips avoided (code mode) × the median latency of the model requests in the window
 *                   (from a log histogram, 8 bins per doubling: within ±5%).
 *   cost            token counts × the approximate prices of ./prices.ts.
 */
import { histMedian } from './latencyHistogram.ts';
import { costUsd } from './prices.ts';
import type { StatsAggregate } from './statsAggregator.ts';
import type { Period } from './statsPeriods.ts';
import { round1, round2 } from '../shared/round.ts';

export const CHARS_PER_TOKEN = 4;

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
