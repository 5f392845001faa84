/**
 * The `ot.stats(output="<name>.html")` report: one self-contained HTML document — inline CSS and inline SVG charts
 * (calls over time, average duration per tool, success rate per tool), no scripts, no external resources (a CSP
 * meta tag forbids them too), every text escaped. Times are UTC.
 */
import type { StatsAggregate, StatsReport, TimelineBucket, ToolStatsRow } from './statsLogic.ts';
import { escapeHtml } from '../shared/escapeHtml.ts';

// Re-exported: the tests of this page check its escaping through it.
export { escapeHtml };

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function utcLabel(t: number, bucketMs: number): string {
  const iso = new Date(t).toISOString();
  return bucketMs < 86_400_000 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

const W = 720;
const BAR_ROW = 22;
const LABEL_W = 200;

function callsOverTime(timeline: readonly TimelineBucket[], bucketMs: number): string {
  const h = 200;
  const top = 16;
  const bottom = 28;
  const left = 44;
  const plotW = W - left - 8;
  const plotH = h - top - bottom;
  const max = Math.max(1, ...timeline.map((b) => b.calls));
  const n = Math.max(1, timeline.length);
  const bw = plotW / n;
  const parts: string[] = [];
  timeline.forEach((b, i) => {
    const x = left + i * bw;
    const okH = ((b.calls - b.errors) / max) * plotH;
    const errH = (b.errors / max) * plotH;
    const label = `${utcLabel(b.t, bucketMs)} UTC: ${b.calls} calls, ${b.errors} errors`;
    parts.push(
      `<g><title>${escapeHtml(label)}</title>` +
        `<rect class="ok" x="${x.toFixed(1)}" y="${(top + plotH - okH).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${okH.toFixed(1)}"/>` +
        `<rect class="err" x="${x.toFixed(1)}" y="${(top + plotH - okH - errH).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${errH.toFixed(1)}"/></g>`,
    );
  });
  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  const axis =
    `<line class="axis" x1="${left}" y1="${top + plotH}" x2="${W - 8}" y2="${top + plotH}"/>` +
    `<text x="${left - 4}" y="${top + 4}" text-anchor="end">${max}</text>` +
    `<text x="${left - 4}" y="${top + plotH}" text-anchor="end">0</text>` +
    (first ? `<text x="${left}" y="${h - 8}">${escapeHtml(utcLabel(first.t, bucketMs))}</text>` : '') +
    (last && last !== first
      ? `<text x="${W - 8}" y="${h - 8}" text-anchor="end">${escapeHtml(utcLabel(last.t, bucketMs))}</text>`
      : '');
  const empty = timeline.length ? '' : `<text x="${W / 2}" y="${h / 2}" text-anchor="middle">No calls recorded</text>`;
  return (
    `<svg class="chart" viewBox="0 0 ${W} ${h}" role="img" aria-labelledby="t-calls">` +
    `<title id="t-calls">Tool calls over time (successes and errors)</title>${axis}${parts.join('')}${empty}</svg>`
  );
}

function barChart(
  id: string,
  title: string,
  rows: readonly { label: string; value: number; text: string; cls?: string }[],
  max: number,
): string {
  const h = Math.max(1, rows.length) * BAR_ROW + 8;
  const plotW = W - LABEL_W - 110;
  const bars = rows.map((r, i) => {
    const y = 4 + i * BAR_ROW;
    const w = max > 0 ? (r.value / max) * plotW : 0;
    return (
      `<g><title>${escapeHtml(`${r.label}: ${r.text}`)}</title>` +
      `<text x="${LABEL_W - 6}" y="${y + 15}" text-anchor="end">${escapeHtml(r.label.length > 30 ? `${r.label.slice(0, 29)}…` : r.label)}</text>` +
      `<rect class="${r.cls ?? 'bar'}" x="${LABEL_W}" y="${y + 3}" width="${w.toFixed(1)}" height="${BAR_ROW - 6}"/>` +
      `<text x="${(LABEL_W + w + 6).toFixed(1)}" y="${y + 15}">${escapeHtml(r.text)}</text></g>`
    );
  });
  const empty = rows.length ? '' : `<text x="${W / 2}" y="18" text-anchor="middle">No calls recorded</text>`;
  return `<svg class="chart" viewBox="0 0 ${W} ${h}" role="img" aria-labelledby="${id}"><title id="${id}">${escapeHtml(title)}</title>${bars.join('')}${empty}</svg>`;
}

function durationChart(tools: readonly ToolStatsRow[]): string {
  const rows = tools.map((t) => ({
    label: t.tool,
    value: t.avg_duration_ms,
    text: `${fmt(t.avg_duration_ms, 1)} ms avg`,
  }));
  return barChart('t-dur', 'Average duration per tool (ms)', rows, Math.max(0, ...rows.map((r) => r.value)));
}

function successChart(tools: readonly ToolStatsRow[]): string {
  const rows = tools.map((t) => ({
    label: t.tool,
    value: t.success_rate,
    text: `${fmt(t.success_rate, 1)}% of ${fmt(t.total_calls)}`,
    cls: t.success_rate >= 95 ? 'ok' : t.success_rate >= 80 ? 'warn' : 'err',
  }));
  return barChart('t-rate', 'Success rate per tool (%)', rows, 100);
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:780px;color:#1d2330;background:#fff;padding:0 16px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:28px 0 8px}
.muted{color:#5d6675}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:8px;margin:16px 0}
.card{border:1px solid #dfe3ea;border-radius:8px;padding:8px 10px}.card b{display:block;font-size:18px}
.chart{width:100%;height:auto;font-size:11px;fill:#1d2330}.chart .ok{fill:#2f9e66}.chart .err{fill:#d9534f}
.chart .warn{fill:#e0a030}.chart .bar{fill:#3c78d8}.chart .axis{stroke:#99a1ad}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:right;padding:4px 6px;border-bottom:1px solid #eceff3}
th:first-child,td:first-child{text-align:left}p.note{font-size:12px}
@media (prefers-color-scheme:dark){body{background:#15181e;color:#e4e7ec}.chart{fill:#e4e7ec}.card{border-color:#333a45}th,td{border-color:#2a3039}.muted{color:#9aa3b0}}
`;

/** The report document. `generatedAt` is the time written in it (ms). */
export function buildStatsHtml(
  report: StatsReport,
  agg: Pick<StatsAggregate, 'timeline' | 'bucketMs'>,
  generatedAt: number,
): string {
  const scope = `${report.period === 'all' ? 'All time' : `Last ${report.period}`}${report.tool ? ` · tool ${report.tool}` : ''}`;
  const range = `${report.start_time ?? '—'} → ${report.end_time}`;
  const cards: [string, string][] = [
    ['Tool calls', fmt(report.total_calls)],
    ['Success rate', `${fmt(report.success_rate, 1)}%`],
    ['Errors', fmt(report.error_count)],
    ['Total duration', `${fmt(report.total_duration_ms / 1000, 1)} s`],
    ['Characters in / out', `${fmt(report.total_chars_in)} / ${fmt(report.total_chars_out)}`],
    ['Context saved', `${fmt(report.context_saved)} tokens`],
    ['Time saved', `${fmt(report.time_saved_ms / 1000, 1)} s`],
    ['Model requests', `${fmt(report.model_requests)}${report.model ? ` (${report.model})` : ''}`],
    ['Cost estimate', report.cost_estimate_usd === null ? 'n/a' : `$${fmt(report.cost_estimate_usd, 4)}`],
  ];
  const rows = report.tools
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.tool)}</td><td>${fmt(t.total_calls)}</td><td>${fmt(t.success_count)}</td>` +
        `<td>${fmt(t.error_count)}</td><td>${fmt(t.success_rate, 1)}%</td><td>${fmt(t.total_duration_ms, 1)}</td>` +
        `<td>${fmt(t.avg_duration_ms, 1)}</td></tr>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Otto statistics — ${escapeHtml(scope)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Otto statistics</h1>
<div class="muted">${escapeHtml(scope)} · ${escapeHtml(range)} · generated ${escapeHtml(new Date(generatedAt).toISOString())} (times UTC)</div>
<div class="cards">${cards.map(([k, v]) => `<div class="card">${escapeHtml(k)}<b>${escapeHtml(v)}</b></div>`).join('')}</div>
<h2>Calls over time</h2>
${callsOverTime(agg.timeline, agg.bucketMs)}
<h2>Average duration per tool</h2>
${durationChart(report.tools)}
<h2>Success rate per tool</h2>
${successChart(report.tools)}
<h2>Tools</h2>
<table><thead><tr><th>Tool</th><th>Calls</th><th>OK</th><th>Errors</th><th>Success</th><th>Total ms</th><th>Avg ms</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No calls recorded</td></tr>'}</tbody></table>
<p class="note muted">${escapeHtml(report.estimates)}</p>
</body>
</html>
`;
}
