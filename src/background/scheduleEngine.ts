/**
 * The schedule engine (#46): one `chrome.alarms` alarm per active schedule (`schedule:<name>`, at its next time),
 * re-armed from the config when the worker starts and when the config changes. An alarm wakes the worker only at a
 * schedule's time; nothing else of this engine listens or ticks, so an idle Otto stays idle.
 *
 * Due times, missed runs, late runs: on every alarm and at every worker start, each schedule's last due time
 * (`previousFire(now)`) is compared with its newest history record. A due time with no run — Chrome was closed, or
 * the alarm was cleared by a restart — runs once now, marked late when it is more than LATE_MS behind. Only the
 * latest missed time runs (a week closed is one Monday report, not seven). A schedule is only owed runs from when it
 * was first armed (`since`, kept per name and `when` in local storage), so a new schedule does not fire for the past.
 */
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import type { OttoConfig } from '../config/schema.ts';
import { nextFire, parseWhen, previousFire } from '../shared/scheduleWhen.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import type { ScheduleHistory } from '../storage/scheduleHistory.ts';
import type { ScheduleRunRecord } from '../storage/scheduleRunRecord.ts';
import type { RunEnd } from './scheduleRun.ts';

export const ALARM_PREFIX = 'schedule:';
/** A run this far behind its time says it was late. */
export const LATE_MS = 2 * 60_000;
const SINCE_KEY = 'schedules.since';

type Trigger = ScheduleRunRecord['trigger'];

export interface ScheduleEngineDeps {
  config: () => Promise<OttoConfig | undefined>;
  history: ScheduleHistory;
  /** Runs one schedule to its end (or to a wait for the user). */
  run: (id: string, entry: ScheduleEntry) => Promise<RunEnd>;
  /** A run started or ended: the panels re-read, the notification goes out. */
  changed: (record: ScheduleRunRecord, entry: ScheduleEntry) => void;
  alarms?: Pick<typeof chrome.alarms, 'create' | 'clear' | 'getAll'>;
  storage?: chrome.storage.StorageArea;
  now?: () => number;
}

export class ScheduleEngine {
  readonly #deps: ScheduleEngineDeps;
  readonly #inFlight = new Set<string>();

  constructor(deps: ScheduleEngineDeps) {
    this.#deps = deps;
  }

  #now(): number {
    return (this.#deps.now ?? Date.now)();
  }

  get #alarms(): Pick<typeof chrome.alarms, 'create' | 'clear' | 'getAll'> {
    return this.#deps.alarms ?? chrome.alarms;
  }

  get #storage(): chrome.storage.StorageArea {
    return this.#deps.storage ?? chrome.storage.local;
  }

  /** The schedules that run: not paused, `when` readable. */
  async #active(): Promise<Record<string, ScheduleEntry>> {
    const config = await this.#deps.config();
    if (!config) return {};
    return Object.fromEntries(Object.entries(config.schedules).filter(([, e]) => !e.paused));
  }

  /** When each schedule (name and `when`) was first armed. */
  async #since(active: Record<string, ScheduleEntry>): Promise<Record<string, number>> {
    const stored = ((await this.#storage.get(SINCE_KEY))[SINCE_KEY] ?? {}) as Record<
      string,
      { when: string; at: number }
    >;
    const next: Record<string, { when: string; at: number }> = {};
    for (const [id, e] of Object.entries(active))
      next[id] = stored[id]?.when === e.when ? stored[id] : { when: e.when, at: this.#now() };
    if (JSON.stringify(next) !== JSON.stringify(stored)) await this.#storage.set({ [SINCE_KEY]: next });
    return Object.fromEntries(Object.entries(next).map(([id, v]) => [id, v.at]));
  }

  /** One alarm per active schedule at its next time; alarms of schedules gone or paused are cleared. */
  async rearm(): Promise<void> {
    const active = await this.#active();
    await this.#since(active);
    const now = this.#now();
    const existing = new Map((await this.#alarms.getAll()).map((a) => [a.name, a.scheduledTime]));
    for (const name of existing.keys())
      if (name.startsWith(ALARM_PREFIX) && !Object.hasOwn(active, name.slice(ALARM_PREFIX.length)))
        await this.#alarms.clear(name);
    for (const [id, entry] of Object.entries(active)) {
      const when = nextFire(parseWhen(entry.when), now);
      if (existing.get(ALARM_PREFIX + id) !== when) await this.#alarms.create(ALARM_PREFIX + id, { when });
    }
  }

  /** An alarm fired (or the worker started): run what is due and not run yet, then arm the next times. */
  async catchUp(only?: string): Promise<void> {
    const active = await this.#active();
    const since = await this.#since(active);
    const now = this.#now();
    for (const [id, entry] of Object.entries(active)) {
      if (only !== undefined && id !== only) continue;
      const due = previousFire(parseWhen(entry.when), now);
      if (due === undefined || due < since[id]!) continue;
      const last = await this.#deps.history.last(id);
      if (last && last.due >= due) continue;
      void this.#start(id, entry, due, now - due > LATE_MS ? 'missed' : 'alarm');
    }
    await this.rearm();
  }

  async onAlarm(alarm: { name: string }): Promise<void> {
    if (alarm.name.startsWith(ALARM_PREFIX)) await this.catchUp(alarm.name.slice(ALARM_PREFIX.length));
  }

  /** "Run now" (the panel, the test hook): resolves with the run's history id once it has started. */
  async runNow(id: string): Promise<string> {
    const config = await this.#deps.config();
    const entry = config?.schedules[id];
    if (!entry) throw new Error(`There is no schedule "${id}".`);
    const started = this.#start(id, entry, this.#now(), 'run-now');
    return (await started.first).id;
  }

  #start(
    id: string,
    entry: ScheduleEntry,
    due: number,
    trigger: Trigger,
  ): { first: Promise<ScheduleRunRecord> } & Promise<void> {
    const key = `${id}@${due}`;
    let resolveFirst!: (r: ScheduleRunRecord) => void;
    let rejectFirst!: (e: unknown) => void;
    const first = new Promise<ScheduleRunRecord>((res, rej) => ((resolveFirst = res), (rejectFirst = rej)));
    const done = (async () => {
      if (this.#inFlight.has(key)) return rejectFirst(new Error(`"${id}" is already running.`));
      this.#inFlight.add(key);
      try {
        const started = this.#now();
        const base = { id: `${id}:${started}`, scheduleId: id, due, started, late: trigger === 'missed', trigger };
        const record = await this.#deps.history.put({ ...base, outcome: 'running' });
        resolveFirst(record);
        this.#deps.changed(record, entry);
        const end = await this.#deps.run(id, entry).catch((error: unknown): RunEnd => ({
          outcome: 'failed',
          output: '',
          reason: errorMessage(error),
          tokens: 0,
          costUsd: 0,
        }));
        const finished = this.#now();
        const { windowId: _w, ...kept } = end;
        const final = await this.#deps.history.put({
          ...base,
          ...kept,
          ...(end.outcome === 'paused-waiting' ? {} : { finished, durationMs: finished - started }),
        });
        this.#deps.changed(final, entry);
      } catch (error) {
        rejectFirst(error);
      } finally {
        this.#inFlight.delete(key);
      }
    })();
    return Object.assign(done, { first });
  }
}
