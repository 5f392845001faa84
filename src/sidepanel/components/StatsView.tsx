/**
 * The Stats view: the figures of `ot.stats` for a period (day, week, month, all) — tool calls, success rate, the
 * per-tool table, model requests and tokens, context_saved and time_saved_ms with how they were estimated — and a
 * chart of calls over the period. "Save HTML report" runs `ot.stats(period=…, output=…)`.
 */
import { useEffect } from 'preact/hooks';
import { PERIODS, type DataSlice } from '../state/data.ts';
import { formatDuration, formatTokens } from '../lib/displayFormat.ts';
import { StatsChart } from './StatsChart.tsx';

const LABEL = { day: 'Day', week: 'Week', month: 'Month', all: 'All' } as const;
const n = (x: number) => x.toLocaleString('en-US');

function Tile({ label, value, id, hint }: { label: string; value: string; id: string; hint?: string | undefined }) {
  return (
    <div class="tile" title={hint}>
      <dt>{label}</dt>
      <dd data-testid={id}>{value}</dd>
    </div>
  );
}

export function StatsView({ data }: { data: DataSlice }) {
  const { loadStats } = data;
  useEffect(() => void loadStats(), [loadStats]);
  const s = data.stats;
  const r = s?.report;
  const tokensIn = r?.models.reduce((a, m) => a + m.input_tokens, 0) ?? 0;
  const tokensOut = r?.models.reduce((a, m) => a + m.output_tokens, 0) ?? 0;

  return (
    <section class="stats" data-testid="stats-view" aria-busy={data.statsLoading}>
      <div class="row wrap">
        <div class="segmented" role="group" aria-label="Period">
          {PERIODS.map((p) => (
            <button
              type="button"
              key={p}
              aria-pressed={data.period === p}
              data-testid={`stats-period-${p}`}
              title={
                p === 'all'
                  ? 'Everything recorded'
                  : `The last ${p === 'day' ? '24 hours' : p === 'week' ? '7 days' : '30 days'}`
              }
              onClick={() => void loadStats(p)}
            >
              {LABEL[p]}
            </button>
          ))}
        </div>
        <span class="grow" />
        <button type="button" class="icon-text" onClick={() => void loadStats()} aria-label="Refresh statistics">
          Refresh
        </button>
      </div>
      {data.statsError && <p class="error-text">{data.statsError}</p>}
      {s && !s.enabled && (
        <p class="banner warn" data-testid="stats-disabled">
          Statistics collection is off (config <code>stats.enabled: false</code>): figures recorded before still show.
        </p>
      )}
      {!r ? (
        <p class="muted">Loading…</p>
      ) : (
        <>
          <dl class="tiles">
            <Tile label="Tool calls" value={n(r.total_calls)} id="stats-calls" />
            <Tile
              label="Success rate"
              value={`${r.success_rate}%`}
              id="stats-success"
              hint={`${n(r.success_count)} ok, ${n(r.error_count)} failed`}
            />
            <Tile label="Tool time" value={formatDuration(r.total_duration_ms) || '0 ms'} id="stats-duration" />
            <Tile label="Model requests" value={n(r.model_requests)} id="stats-requests" />
            <Tile
              label="Tokens in / out"
              value={`${formatTokens(tokensIn)} / ${formatTokens(tokensOut)}`}
              id="stats-tokens"
            />
            <Tile label="Context saved" value={`${n(r.context_saved)} tokens`} id="stats-context-saved" />
            <Tile label="Time saved" value={formatDuration(r.time_saved_ms) || '0 ms'} id="stats-time-saved" />
            <Tile
              label="Cost estimate"
              value={r.cost_estimate_usd === null ? 'unknown' : `$${r.cost_estimate_usd.toFixed(4)}`}
              id="stats-cost"
            />
          </dl>
          <details class="estimates" data-testid="stats-estimates">
            <summary>How these are estimated</summary>
            <ul>
              {r.estimates.split('; ').map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </details>
          <StatsChart timeline={s.timeline} bucketMs={s.bucketMs} />
          <h3>Tools</h3>
          {r.tools.length === 0 ? (
            <p class="muted">No tool calls in this period.</p>
          ) : (
            <table class="data-table" data-testid="stats-tools">
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Calls</th>
                  <th scope="col">OK</th>
                  <th scope="col">Avg</th>
                </tr>
              </thead>
              <tbody>
                {r.tools.map((t) => (
                  <tr key={t.tool} data-testid="stats-tool-row" data-tool={t.tool}>
                    <td>
                      <code>{t.tool}</code>
                    </td>
                    <td data-testid="stats-tool-calls">{n(t.total_calls)}</td>
                    <td>{t.success_rate}%</td>
                    <td>{formatDuration(t.avg_duration_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Models</h3>
          {r.models.length === 0 ? (
            <p class="muted">No model requests in this period.</p>
          ) : (
            <table class="data-table" data-testid="stats-models">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Tokens in / out</th>
                  <th scope="col">Median</th>
                </tr>
              </thead>
              <tbody>
                {r.models.map((m) => (
                  <tr key={m.model} data-testid="stats-model-row" data-model={m.model}>
                    <td>
                      <code>{m.model}</code>
                    </td>
                    <td>{n(m.requests)}</td>
                    <td
                      data-testid="stats-model-tokens"
                      title={`${m.cached_tokens} of ${m.input_tokens} input tokens served from the prompt cache`}
                    >
                      {formatTokens(m.input_tokens)} / {formatTokens(m.output_tokens)}
                      {m.cached_tokens ? ` (${formatTokens(m.cached_tokens)} cached)` : ''}
                    </td>
                    <td>{m.median_latency_ms === null ? '–' : formatDuration(m.median_latency_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div class="actions">
            <button type="button" onClick={() => void data.saveReport()} data-testid="stats-save-report">
              Save HTML report
            </button>
          </div>
        </>
      )}
    </section>
  );
}
