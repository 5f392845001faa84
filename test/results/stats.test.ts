// The pure ot.stats logic (src/results/statsLogic.ts, prices.ts, statsHtml.ts): periods, aggregation, the reply,
// estimates, prices and the HTML report.
import { describe, expect, it } from 'vitest';
import { costUsd, priceFor } from '../../src/results/prices.ts';
import {
  binCenter,
  histMedian,
  latencyBin,
  modelContribution,
  parsePeriod,
  savingContribution,
  StatsAggregator,
  StatsError,
  toolContribution,
  toReport,
  type ToolCallStat,
} from '../../src/results/statsLogic.ts';
import { buildStatsHtml, escapeHtml } from '../../src/results/statsHtml.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 5, 1, 0, 0, 0);

const call = (
  tool: string,
  ts: number,
  success = true,
  duration_ms = 10,
  chars_in = 5,
  chars_out = 50,
): ToolCallStat => ({
  tool,
  ts,
  duration_ms,
  success,
  error_type: success ? null : 'TypeError',
  chars_in,
  chars_out,
});

describe('periods', () => {
  it('accepts day, week, month, all (default all)', () => {
    for (const p of ['day', 'week', 'month', 'all']) expect(parsePeriod(p)).toBe(p);
    expect(parsePeriod(undefined)).toBe('all');
  });

  it('Invalid period: the exact error', () => {
    expect(() => parsePeriod('invalid')).toThrow(StatsError);
    expect(() => parsePeriod('invalid')).toThrow(
      "Error: Invalid period 'invalid'. Valid: day, week, month, all. Example: ot.stats(period='day')",
    );
    expect(() => parsePeriod('Day')).toThrow("Error: Invalid period 'Day'.");
  });
});

describe('latency histogram', () => {
  it('estimates the median within 5%', () => {
    const latencies = [120, 450, 800, 900, 1000, 1100, 5000, 9000, 30_000];
    const hist: Record<string, number> = {};
    for (const l of latencies) hist[latencyBin(l)] = (hist[latencyBin(l)] ?? 0) + 1;
    const m = histMedian(hist)!;
    expect(Math.abs(m - 1000) / 1000).toBeLessThan(0.05);
    expect(histMedian({})).toBeUndefined();
    expect(binCenter(latencyBin(0))).toBe(1);
  });
});

describe('aggregation and the reply', () => {
  function sample(): StatsAggregator {
    const agg = new StatsAggregator('day', undefined);
    agg.add(toolContribution(call('dom.click', T0 + 1000, true, 10.004)));
    agg.add(toolContribution(call('dom.click', T0 + 2000, true, 20)));
    agg.add(toolContribution(call('dom.click', T0 + HOUR + 5, false, 30)));
    agg.add(toolContribution(call('web.fetch', T0 + 3 * HOUR, true, 1000, 100, 90_000)));
    agg.add(
      modelContribution({
        model: 'gpt-5-mini',
        ts: T0,
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        latency_ms: 1000,
      }),
    );
    agg.add(
      modelContribution({ model: 'gpt-5-mini', ts: T0 + 10, input_tokens: 0, output_tokens: 0, latency_ms: 1000 }),
    );
    agg.add(
      modelContribution({ model: 'my-local-llm', ts: T0 + 20, input_tokens: 50, output_tokens: 5, latency_ms: 3000 }),
    );
    agg.add(
      savingContribution({
        ts: T0,
        source: 'result_store',
        tool: 'web.fetch',
        chars_kept_out: 80_000,
        round_trips_avoided: 0,
      }),
    );
    agg.add(savingContribution({ ts: T0, source: 'code_mode', tool: '', chars_kept_out: 0, round_trips_avoided: 3 }));
    return agg;
  }

  it("Get all-time stats: every key of the reference's result", () => {
    const report = toReport(sample().finish({ start: T0, end: T0 + 4 * HOUR }));
    expect(Object.keys(report)).toEqual([
      'period',
      'start_time',
      'end_time',
      'total_calls',
      'success_count',
      'error_count',
      'success_rate',
      'total_chars_in',
      'total_chars_out',
      'total_duration_ms',
      'context_saved',
      'time_saved_ms',
      'estimates',
      'model',
      'model_requests',
      'cost_estimate_usd',
      'tools',
      'models',
      'html_report',
    ]);
    expect(report).toMatchObject({
      total_calls: 4,
      success_count: 3,
      error_count: 1,
      success_rate: 75,
      total_chars_in: 115,
      total_chars_out: 90_150,
      total_duration_ms: 1060,
      context_saved: 20_000, // 80,000 chars / 4
      model: 'gpt-5-mini',
      model_requests: 3,
      html_report: null,
      start_time: new Date(T0).toISOString(),
      end_time: new Date(T0 + 4 * HOUR).toISOString(),
    });
    expect(report.tools).toEqual([
      {
        tool: 'dom.click',
        total_calls: 3,
        success_count: 2,
        error_count: 1,
        success_rate: 66.7,
        total_duration_ms: 60,
        avg_duration_ms: 20,
      },
      {
        tool: 'web.fetch',
        total_calls: 1,
        success_count: 1,
        error_count: 0,
        success_rate: 100,
        total_duration_ms: 1000,
        avg_duration_ms: 1000,
      },
    ]);
  });

  it('time_saved_ms = round trips avoided x measured median latency, and the reply says how it was estimated', () => {
    const report = toReport(sample().finish({ start: T0, end: T0 + 4 * HOUR }));
    const median = binCenter(latencyBin(1000));
    expect(report.time_saved_ms).toBe(Math.round(3 * median));
    expect(report.estimates).toContain("80,000 characters kept out of the model's context");
    expect(report.estimates).toContain('/ 4 characters per token');
    expect(report.estimates).toContain(
      `3 model round trips avoided (code mode) x ${Math.round(median).toLocaleString('en-US')} ms median model latency over 3 requests`,
    );
    expect(report.estimates).toContain('not priced (unknown to the price table): my-local-llm');
  });

  it('cost_estimate_usd from the price table; unpriced models left out and listed', () => {
    const report = toReport(sample().finish({ start: T0, end: T0 + 4 * HOUR }));
    // gpt-5-mini: 1M input x $0.25 + 100k output x $2 / 1M = 0.25 + 0.2
    expect(report.cost_estimate_usd).toBe(0.45);
    expect(report.models.find((m) => m.model === 'my-local-llm')!.cost_estimate_usd).toBeNull();
  });

  it('with no model requests, time saved is 0 and says why; no calls gives a 0 success rate', () => {
    const agg = new StatsAggregator('all', undefined);
    agg.add(savingContribution({ ts: T0, source: 'code_mode', tool: '', chars_kept_out: 0, round_trips_avoided: 5 }));
    const report = toReport(agg.finish({ start: undefined, end: T0 }));
    expect(report).toMatchObject({
      total_calls: 0,
      success_rate: 0,
      time_saved_ms: 0,
      cost_estimate_usd: 0,
      model: null,
    });
    expect(report.estimates).toContain('no model request was measured in this period');
  });

  it('a tool filter keeps only that tool (and its savings), and names the tool after period', () => {
    const agg = new StatsAggregator('day', 'web.fetch');
    for (const c of [
      toolContribution(call('dom.click', T0)),
      toolContribution(call('web.fetch', T0)),
      savingContribution({
        ts: T0,
        source: 'result_store',
        tool: 'dom.click',
        chars_kept_out: 4000,
        round_trips_avoided: 0,
      }),
      savingContribution({
        ts: T0,
        source: 'result_store',
        tool: 'web.fetch',
        chars_kept_out: 400,
        round_trips_avoided: 0,
      }),
    ])
      agg.add(c);
    const report = toReport(agg.finish({ start: T0, end: T0 + HOUR }));
    expect(Object.keys(report).slice(0, 2)).toEqual(['period', 'tool']);
    expect(report.tool).toBe('web.fetch');
    expect(report.total_calls).toBe(1);
    expect(report.tools.map((t) => t.tool)).toEqual(['web.fetch']);
    expect(report.context_saved).toBe(100);
  });

  it('success_rate has one decimal', () => {
    const agg = new StatsAggregator('all', undefined);
    for (let i = 0; i < 3; i++) agg.add(toolContribution(call('a.b', T0 + i, i < 2)));
    expect(toReport(agg.finish({ start: undefined, end: T0 + 10 })).success_rate).toBe(66.7);
  });

  it('timeline: hourly buckets over a day, dense from the window start to the end', () => {
    const agg = sample().finish({ start: T0 - 30 * 60_000, end: T0 + 4 * HOUR + 1 });
    expect(agg.bucketMs).toBe(HOUR);
    expect(agg.timeline.map((b) => [b.t - T0, b.calls, b.errors])).toEqual([
      [-HOUR, 0, 0],
      [0, 2, 0],
      [HOUR, 1, 1],
      [2 * HOUR, 0, 0],
      [3 * HOUR, 1, 0],
      [4 * HOUR, 0, 0],
    ]);
  });

  it('all time over a long span uses weekly buckets', () => {
    const agg = new StatsAggregator('all', undefined);
    agg.add(toolContribution(call('a.b', T0)));
    agg.add(toolContribution(call('a.b', T0 + 200 * 24 * HOUR)));
    const out = agg.finish({ start: undefined, end: T0 + 200 * 24 * HOUR });
    expect(out.bucketMs).toBe(7 * 24 * HOUR);
    expect(out.timeline.reduce((s, b) => s + b.calls, 0)).toBe(2);
  });
});

describe('prices', () => {
  it('matches exact names, dated versions and provider prefixes; longest prefix wins', () => {
    expect(priceFor('gpt-5-mini')?.key).toBe('gpt-5-mini');
    expect(priceFor('gpt-5-mini-2025-08-07')?.key).toBe('gpt-5-mini');
    expect(priceFor('openai/gpt-4o-mini')?.key).toBe('gpt-4o-mini');
    expect(priceFor('gpt-5')?.key).toBe('gpt-5');
    expect(priceFor('o3-mini')?.key).toBe('o3-mini');
    expect(priceFor('llama3.1:8b')).toBeUndefined();
    expect(costUsd('gpt-4.1', 1_000_000, 1_000_000)).toBe(10);
  });
});

describe('HTML report', () => {
  it('is self-contained: inline SVG charts, no scripts, no external URLs, text escaped', () => {
    const agg = new StatsAggregator('day', undefined);
    agg.add(toolContribution(call('evil.<script>alert(1)</script>', T0)));
    agg.add(toolContribution(call('web.fetch', T0 + HOUR, false)));
    const a = agg.finish({ start: T0 - HOUR, end: T0 + 2 * HOUR });
    const html = buildStatsHtml(toReport(a, 'stats.html'), a, T0 + 2 * HOUR);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<svg\b/g)).toHaveLength(3);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('evil.&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain("default-src 'none'");
  });

  it('escapes every HTML special character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
