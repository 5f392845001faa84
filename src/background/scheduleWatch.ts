/**
 * Watches in the schedule engine (#46 part 2). After a watched schedule's run ends `done`, the engine calls
 * `applyWatch`: it reads the run's value (a snippet's output, a task's `VALUE:` line), finds the value the last run
 * kept, and says whether the watch fires, with the line the history shows. The engine writes `value`, `triggered`
 * and `change` into the run's record and notifies only when `triggered`, with `watchNotice`'s words. Before a watched
 * task runs, `watchedTaskMessage` asks the model for the value on a line of its own.
 */
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import type { ScheduleRunRecord } from '../storage/scheduleRunRecord.ts';
import { parseWatchCondition } from '../shared/watchCondition.ts';
import { watchVerdict } from '../shared/watchVerdict.ts';
import { watchTaskMessage, watchValueFromAnswer, watchValueFromOutput } from '../shared/watchValue.ts';
import { oneLine } from '../shared/oneLine.ts';

export interface WatchResult {
  value: string;
  /** The value the last run kept (undefined on the first run). */
  previous?: string;
  triggered: boolean;
  change: string;
}

/** The last value a run of this schedule kept: the newest record with a value (the list is newest first). */
export function lastWatchedValue(runs: readonly ScheduleRunRecord[]): string | undefined {
  return runs.find((r) => r.value !== undefined && r.outcome === 'done')?.value;
}

/** The watch's verdict on a finished run; undefined when the schedule has no watch. */
export function applyWatch(
  entry: ScheduleEntry,
  output: string,
  earlier: readonly ScheduleRunRecord[],
): WatchResult | undefined {
  if (!entry.watch) return undefined;
  const condition = parseWatchCondition(entry.watch.condition);
  const value = entry.task ? watchValueFromAnswer(output) : watchValueFromOutput(output);
  const previous = lastWatchedValue(earlier);
  const v = watchVerdict(condition, value, previous);
  return { value, ...(previous !== undefined ? { previous } : {}), triggered: v.fires, change: oneLine(v.note, 500) };
}

/** The task message a watched task runs with; other tasks run with their own words. */
export function watchedTaskMessage(entry: ScheduleEntry): string | undefined {
  if (!entry.task) return undefined;
  return entry.watch ? watchTaskMessage(entry.task, entry.watch.condition) : entry.task;
}

/** The desktop notification of a watch that fired: the value, the previous one, and the page. */
export function watchNotice(
  scheduleId: string,
  entry: Pick<ScheduleEntry, 'watch'>,
  r: Pick<WatchResult, 'value' | 'previous'>,
  page?: string,
): { title: string; message: string } {
  const lines = [
    `Now: ${oneLine(r.value, 120)}`,
    r.previous !== undefined ? `Before: ${oneLine(r.previous, 120)}` : 'First value read',
    ...(page ? [`Page: ${oneLine(page, 200)}`] : []),
  ];
  return { title: `Otto watch "${scheduleId}": ${entry.watch?.condition ?? ''}`.trim(), message: lines.join('\n') };
}
