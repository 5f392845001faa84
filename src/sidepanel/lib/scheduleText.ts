/**
 * The words the Schedules view shows for a schedule's next run and a run's outcome (#46 part 4). Pure, so the
 * exact text is tested without a panel.
 */
import { formatDuration } from './displayFormat.ts';

/** A coarse countdown ("in 5 min", "in 2 h", a weekday and time further out); "due now" once the time has passed. */
export function nextRunText(nextRunAt: number | null, paused: boolean, now = Date.now()): string {
  if (paused) return 'paused';
  if (nextRunAt === null) return 'not scheduled';
  const s = Math.round((nextRunAt - now) / 1000);
  if (s <= 0) return 'due now';
  if (s < 60) return 'in less than a minute';
  if (s < 3600) return `in ${Math.round(s / 60)} min`;
  if (s < 86_400) return `in ${Math.round(s / 3600)} h`;
  return `on ${new Date(nextRunAt).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' })}`;
}

export interface RunOutcome {
  outcome: string;
  durationMs: number | null;
  late: boolean;
  notified: boolean;
}

/** "ok · 1.2 s · late · notified" — the one line a run gets in the list. */
export function outcomeText(r: RunOutcome): string {
  return [
    r.outcome,
    r.durationMs === null ? '' : formatDuration(r.durationMs),
    r.late ? 'late' : '',
    r.notified ? 'notified' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Tokens and cost: "0 tokens" for a snippet (no model), "1,234 tokens · $0.0021" for a task. */
export function costText(tokens: number, costUsd: number | null): string {
  const t = `${tokens.toLocaleString('en-US')} tokens`;
  return costUsd ? `${t} · $${costUsd.toFixed(4)}` : t;
}
