/**
 * The Schedules tab's requests (#46 part 4): the worker's `schedules.*` replies mapped to the rows and runs the tab
 * shows, and an edit turned back into `schedules.save` (the watch is checked here first, so its words come back
 * before anything is sent; `when` is checked by the worker, with the same parser as the config).
 */
import type { ScheduleRunRecord, ScheduleView } from '../../port/replies.ts';
import type { ExportedRun } from '../../shared/historyExport.ts';
import { parseWatchCondition } from '../../shared/watchCondition.ts';
import { CommandError, parseSnippetInvocation } from '../../command/index.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import type { Request } from './request.ts';
import type { ScheduleEdit, ScheduleRequests, ScheduleRow } from './schedules.ts';

/** `$name k="v"`: a snippet schedule as the user would type it. */
export function snippetCall(name: string, args: Record<string, string | number | boolean>): string {
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(String(v))}`);
  return [`$${name}`, ...pairs].join(' ');
}

/** What changed since the run before, for a run without a watch's own line: its output, compared whole. */
export function outputChange(r: ScheduleRunRecord, before?: ScheduleRunRecord): string {
  if (r.outcome !== 'done' || !before || before.outcome !== 'done') return '';
  return r.output === before.output ? 'same output as the last run' : 'the output changed since the last run';
}

/** A history record as the tab and the export show it; `previous` is the value of the run before it. */
export function exportedRun(
  r: ScheduleRunRecord,
  previous?: ScheduleRunRecord,
  before?: ScheduleRunRecord,
): ExportedRun {
  return {
    schedule: r.scheduleId,
    startedAt: r.started,
    durationMs: r.durationMs ?? null,
    outcome: r.outcome,
    late: r.late,
    output: r.output,
    change: r.change ?? outputChange(r, before),
    value: r.value ?? null,
    previous: previous?.value ?? null,
    notified: r.triggered ?? false,
    tokens: r.tokens,
    costUsd: r.costUsd,
    error: r.reason ? (r.failedStep ? `${r.failedStep}: ${r.reason}` : r.reason) : null,
  };
}

export function scheduleRow(v: ScheduleView): ScheduleRow {
  const e = v.entry;
  return {
    name: v.id,
    when: e.when,
    kind: v.kind,
    what: e.snippet ? snippetCall(e.snippet, e.args) : (e.task ?? ''),
    ...(e.watch ? { watch: e.watch.condition } : {}),
    paused: e.paused,
    nextRunAt: v.nextRun ?? null,
    ...(v.last ? { last: exportedRun(v.last) } : {}),
    ...(e.url ? { url: e.url } : {}),
    notify: e.notify,
    ...(v.problem ? { problem: v.problem } : {}),
  };
}

/** The `schedules.save` fields for an edit, or the problem in plain words. */
export function editRequest(
  row: ScheduleRow,
  edit: ScheduleEdit,
): { snippet: string; args: Record<string, string> } | { task: string } | string {
  if (edit.watch.trim()) {
    try {
      parseWatchCondition(edit.watch);
    } catch (e) {
      return errorMessage(e);
    }
  }
  if (row.kind === 'task') return edit.what.trim() ? { task: edit.what.trim() } : 'The task is empty.';
  try {
    const inv = parseSnippetInvocation(edit.what);
    return { snippet: inv.name, args: inv.args };
  } catch (e) {
    return e instanceof CommandError ? `The snippet call: ${e.message}` : errorMessage(e);
  }
}

export function scheduleRequests(req: Request): ScheduleRequests {
  const rows = new Map<string, ScheduleRow>();
  return {
    list: async () => {
      const r = await req({ type: 'schedules.list' });
      if (r.blocked) throw new Error(r.blocked);
      const list = r.schedules.map(scheduleRow);
      rows.clear();
      for (const row of list) rows.set(row.name, row);
      return list;
    },
    history: async (name) => {
      const runs = await req({ type: 'schedules.history', scheduleId: name, limit: 200 });
      return runs.map((r, i) =>
        exportedRun(
          r,
          runs.slice(i + 1).find((o) => o.value !== undefined),
          runs.slice(i + 1).find((o) => o.outcome === 'done'),
        ),
      );
    },
    runNow: async (name) => void (await req({ type: 'schedules.run', scheduleId: name })),
    setPaused: async (name, paused) => void (await req({ type: 'schedules.pause', scheduleId: name, paused })),
    remove: async (name) => void (await req({ type: 'schedules.delete', scheduleId: name })),
    update: async (name, edit) => {
      const row = rows.get(name);
      if (!row) return `There is no schedule "${name}".`;
      const what = editRequest(row, edit);
      if (typeof what === 'string') return what;
      try {
        await req({
          type: 'schedules.save',
          scheduleId: name,
          when: edit.when.trim(),
          ...what,
          ...(edit.watch.trim() ? { watch: { condition: edit.watch.trim() } } : {}),
          ...(row.url ? { url: row.url } : {}),
          paused: row.paused,
          notify: row.notify,
        });
        return undefined;
      } catch (e) {
        return errorMessage(e);
      }
    },
  };
}
