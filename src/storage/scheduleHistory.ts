/**
 * The history of scheduled runs (#46): one record per run in the `scheduleRuns` store, by schedule and time. Keeps
 * the last HISTORY_KEEP runs per schedule (older ones are dropped when a new one is added), and the record of a
 * deleted schedule goes with it.
 */
import type { IDBPDatabase } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import { OUTPUT_MAX_CHARS, ScheduleRunRecord, type ScheduleRunInput } from './scheduleRunRecord.ts';

export const HISTORY_KEEP = 200;

export class ScheduleHistory {
  readonly #db: () => Promise<IDBPDatabase<OttoDB>>;

  constructor(database?: IDBPDatabase<OttoDB>) {
    this.#db = database ? () => Promise.resolve(database) : sharedDb;
  }

  /** Adds or replaces one run (a run that waited, then finished, is written twice under one id). */
  async put(input: ScheduleRunInput): Promise<ScheduleRunRecord> {
    const record = ScheduleRunRecord.parse({ ...input, output: (input.output ?? '').slice(0, OUTPUT_MAX_CHARS) });
    const database = await this.#db();
    await database.put('scheduleRuns', record);
    await this.#prune(database, record.scheduleId);
    return record;
  }

  async get(id: string): Promise<ScheduleRunRecord | undefined> {
    const found = ScheduleRunRecord.safeParse(await (await this.#db()).get('scheduleRuns', id));
    return found.success ? found.data : undefined;
  }

  /** A schedule's runs, newest first (all schedules' when `scheduleId` is unset). */
  async list(scheduleId?: string, limit = 100): Promise<ScheduleRunRecord[]> {
    const database = await this.#db();
    const raw = scheduleId
      ? await database.getAllFromIndex(
          'scheduleRuns',
          'bySchedule',
          IDBKeyRange.bound([scheduleId, 0], [scheduleId, Infinity]),
        )
      : await database.getAll('scheduleRuns');
    const runs: ScheduleRunRecord[] = [];
    for (const r of raw) {
      const parsed = ScheduleRunRecord.safeParse(r);
      if (parsed.success) runs.push(parsed.data);
    }
    return runs.sort((a, b) => b.started - a.started).slice(0, limit);
  }

  /** The newest run of a schedule. */
  async last(scheduleId: string): Promise<ScheduleRunRecord | undefined> {
    return (await this.list(scheduleId, 1))[0];
  }

  async deleteSchedule(scheduleId: string): Promise<number> {
    const database = await this.#db();
    const keys = await database.getAllKeysFromIndex(
      'scheduleRuns',
      'bySchedule',
      IDBKeyRange.bound([scheduleId, 0], [scheduleId, Infinity]),
    );
    const tx = database.transaction('scheduleRuns', 'readwrite');
    await Promise.all([...keys.map((k) => tx.store.delete(k)), tx.done]);
    return keys.length;
  }

  async #prune(database: IDBPDatabase<OttoDB>, scheduleId: string): Promise<void> {
    const keys = await database.getAllKeysFromIndex(
      'scheduleRuns',
      'bySchedule',
      IDBKeyRange.bound([scheduleId, 0], [scheduleId, Infinity]),
    );
    if (keys.length <= HISTORY_KEEP) return;
    // The index sorts by start time: the first ones are the oldest.
    const tx = database.transaction('scheduleRuns', 'readwrite');
    await Promise.all([...keys.slice(0, keys.length - HISTORY_KEEP).map((k) => tx.store.delete(k)), tx.done]);
  }
}
