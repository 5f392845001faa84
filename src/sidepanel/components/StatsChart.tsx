/** Tool calls over the period as inline SVG bars (errors stacked in red); no library, no network. */
import type { TimelineBucket } from '../../results/statsLogic.ts';

const W = 320;
const H = 70;

function label(t: number, bucketMs: number): string {
  const d = new Date(t);
  return bucketMs < 86_400_000
    ? d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

export function StatsChart({ timeline, bucketMs }: { timeline: TimelineBucket[]; bucketMs: number }) {
  if (!timeline.length) return null;
  const max = Math.max(1, ...timeline.map((b) => b.calls));
  const step = W / timeline.length;
  const bar = Math.max(1, step * 0.8);
  const total = timeline.reduce((n, b) => n + b.calls, 0);
  return (
    <figure class="stats-chart" data-testid="stats-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        height={H}
        role="img"
        aria-label={`${total} tool calls over the period`}
      >
        {timeline.map((b, i) => {
          const h = (b.calls / max) * (H - 2);
          const e = (b.errors / max) * (H - 2);
          const x = i * step + (step - bar) / 2;
          return (
            <g key={b.t}>
              <title>{`${label(b.t, bucketMs)}: ${b.calls} calls, ${b.errors} errors`}</title>
              <rect x={x} y={H - h} width={bar} height={Math.max(0, h - e)} class="bar-ok" />
              {e > 0 && <rect x={x} y={H - e} width={bar} height={e} class="bar-err" />}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted">
        Tool calls per{' '}
        {bucketMs >= 86_400_000 * 7 ? 'week' : bucketMs >= 86_400_000 ? 'day' : `${bucketMs / 3_600_000} h`}
        {' · '}
        {label(timeline[0]!.t, bucketMs)} – {label(timeline[timeline.length - 1]!.t, bucketMs)}
      </figcaption>
    </figure>
  );
}
