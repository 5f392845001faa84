/**
 * The Schedules tab (#46 part 4): every schedule with its next run and last outcome; run now, pause/resume, edit
 * (when, what it runs, the watch), delete; a history per schedule (when, how long, outcome, output, what changed,
 * tokens and cost) with export as CSV or JSON. The state and the requests are `state/schedules.ts`.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { useSchedules, type SchedulesSlice, type ScheduleRow } from '../state/schedules.ts';
import { scheduleRequests } from '../state/scheduleRequests.ts';
import { costText, nextRunText, outcomeText } from '../lib/scheduleText.ts';
import { relativeTime } from '../lib/displayFormat.ts';
import { ScheduleSnippet } from './ScheduleSnippet.tsx';

function History({ s, row }: { s: SchedulesSlice; row: ScheduleRow }) {
  const runs = s.history[row.name];
  if (!runs) return <p class="muted">Loading…</p>;
  return (
    <section class="schedule-history" data-testid="schedule-history" aria-label={`History of ${row.name}`}>
      <div class="row">
        <h4 class="grow">History</h4>
        <button type="button" data-testid="schedule-export-csv" onClick={() => s.exportHistory(row.name, 'csv')}>
          Export CSV
        </button>
        <button type="button" data-testid="schedule-export-json" onClick={() => s.exportHistory(row.name, 'json')}>
          Export JSON
        </button>
      </div>
      {runs.length === 0 && <p class="muted">No runs yet.</p>}
      <ol class="schedule-runs">
        {runs.map((r) => (
          <li key={r.startedAt} data-testid="schedule-run" data-outcome={r.outcome}>
            <div>
              <strong>{new Date(r.startedAt).toLocaleString()}</strong> · {outcomeText(r)}
            </div>
            {r.change && <div data-testid="schedule-run-change">{r.change}</div>}
            {r.error && <div class="error-text">{r.error}</div>}
            {r.output && (
              <pre tabIndex={0} data-testid="schedule-run-output">
                {r.output}
              </pre>
            )}
            <div class="muted">{costText(r.tokens, r.costUsd)}</div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Editor({ s, row, onDone }: { s: SchedulesSlice; row: ScheduleRow; onDone(): void }) {
  const [when, setWhen] = useState(row.when);
  const [what, setWhat] = useState(row.what);
  const [watch, setWatch] = useState(row.watch ?? '');
  const [error, setError] = useState('');
  const id = `schedule-edit-${row.name}`;
  const save = async (e: Event) => {
    e.preventDefault();
    const problem = await s.update(row.name, { when, what, watch });
    if (problem) setError(problem);
    else onDone();
  };
  return (
    <form class="schedule-edit" onSubmit={(e) => void save(e)} aria-label={`Edit ${row.name}`}>
      <label for={`${id}-when`}>When</label>
      <input
        id={`${id}-when`}
        data-testid="schedule-edit-when"
        value={when}
        onInput={(e) => setWhen(e.currentTarget.value)}
      />
      <label for={`${id}-what`}>{row.kind === 'snippet' ? 'Snippet and its arguments' : 'Task'}</label>
      <input
        id={`${id}-what`}
        data-testid="schedule-edit-what"
        value={what}
        onInput={(e) => setWhat(e.currentTarget.value)}
      />
      <label for={`${id}-watch`}>Watch (optional: below 40, changed, contains "shipped")</label>
      <input
        id={`${id}-watch`}
        data-testid="schedule-edit-watch"
        value={watch}
        onInput={(e) => setWatch(e.currentTarget.value)}
      />
      {error && (
        <p class="error-text" role="alert" data-testid="schedule-edit-error">
          {error}
        </p>
      )}
      <div class="row">
        <button type="submit" data-testid="schedule-edit-save">
          Save
        </button>
        <button type="button" class="icon-text" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Schedule({ s, row }: { s: SchedulesSlice; row: ScheduleRow }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const toggle = () => {
    if (!open) s.loadHistory(row.name);
    setOpen(!open);
  };
  return (
    <li class="schedule-row" data-testid="schedule-row" data-name={row.name}>
      <div class="row">
        <div class="grow">
          <strong>{row.name}</strong> <span class="muted">{row.when}</span>
          <div>
            <code>{row.what}</code>
            {row.watch && <span data-testid="schedule-watch"> · watch: {row.watch}</span>}
          </div>
          {row.problem && <div class="error-text">{row.problem}</div>}
          <div class="muted" data-testid="schedule-status">
            Next: {nextRunText(row.nextRunAt, row.paused)}
            {row.last && ` · last: ${outcomeText(row.last)} ${relativeTime(row.last.startedAt)}`}
          </div>
        </div>
      </div>
      <div class="row schedule-actions">
        <button
          type="button"
          data-testid="schedule-run-now"
          onClick={() => s.runNow(row.name)}
          aria-label={`Run now: ${row.name}`}
        >
          Run now
        </button>
        <button
          type="button"
          data-testid="schedule-pause"
          onClick={() => s.setPaused(row.name, !row.paused)}
          aria-label={`${row.paused ? 'Resume' : 'Pause'} ${row.name}`}
        >
          {row.paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          onClick={() => setEditing(!editing)}
          aria-expanded={editing}
          aria-label={`Edit ${row.name}`}
        >
          Edit
        </button>
        <button
          type="button"
          data-testid="schedule-history-toggle"
          onClick={toggle}
          aria-expanded={open}
          aria-label={`History of ${row.name}`}
        >
          History
        </button>
        <button type="button" class="icon-text" onClick={() => s.remove(row.name)} aria-label={`Delete ${row.name}`}>
          Delete
        </button>
      </div>
      {editing && <Editor s={s} row={row} onDone={() => setEditing(false)} />}
      {open && <History s={s} row={row} />}
    </li>
  );
}

export function SchedulesView({ schedules: s, client }: { schedules: SchedulesSlice; client?: PortClient }) {
  const { load } = s;
  useEffect(() => void load(), [load]);
  return (
    <section class="schedules" data-testid="schedules-view" aria-busy={s.loading}>
      <div class="row">
        <h3 class="grow">Schedules</h3>
        <button type="button" class="icon-text" onClick={() => void load()} aria-label="Refresh schedules">
          Refresh
        </button>
      </div>
      {s.error && (
        <p class="error-text" role="alert">
          {s.error}
        </p>
      )}
      {s.rows && s.rows.length === 0 && (
        <p class="muted">
          No schedules yet. Save a run as a snippet and choose “Schedule this”, or “Repeat this” after a run; or add{' '}
          <code>schedules:</code> in Settings.
        </p>
      )}
      {client && <ScheduleSnippet client={client} onSaved={() => void load()} />}
      <ul class="schedule-list">
        {(s.rows ?? []).map((row) => (
          <Schedule key={row.name} s={s} row={row} />
        ))}
      </ul>
    </section>
  );
}

/** The tab as mounted in the panel: the worker's requests, reloaded when a run starts or ends. */
export function SchedulesTab({ client }: { client: PortClient }) {
  const api = useMemo(() => scheduleRequests((body) => client.request(body)), [client]);
  const schedules = useSchedules(api);
  const { load, loadHistory, history } = schedules;
  useEffect(
    () =>
      client.onEvent((e) => {
        if (e.type !== 'schedules.changed') return;
        void load();
        if (history[e.scheduleId]) loadHistory(e.scheduleId);
      }),
    [client, load, loadHistory, history],
  );
  return <SchedulesView schedules={schedules} client={client} />;
}
