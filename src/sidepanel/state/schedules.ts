/**
 * The Schedules tab's state (#46 part 4): the schedules with their next run and last outcome, each one's history
 * when opened, and the actions (run now, pause/resume, edit, delete, export). The requests are the worker's
 * `schedules.*` (`scheduleRequests.ts` maps their replies to the rows shown here).
 */
import { useCallback, useMemo, useState } from 'preact/hooks';
import type { ExportedRun } from '../../shared/historyExport.ts';
import { historyFile } from '../../shared/historyExport.ts';
import { downloadText } from '../../ui/download.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export interface ScheduleRow {
  name: string;
  when: string;
  kind: 'snippet' | 'task';
  /** `$name k=v` or the task's text. */
  what: string;
  watch?: string;
  paused: boolean;
  nextRunAt: number | null;
  last?: ExportedRun;
  /** Kept as they are by an edit. */
  url?: string;
  notify: boolean;
  /** Why it cannot run (a snippet that is gone), in plain words. */
  problem?: string;
}

export interface ScheduleEdit {
  when: string;
  what: string;
  watch: string;
}

/** What the tab asks the worker; the real one is `scheduleRequests(req)`, tests pass a stand-in. */
export interface ScheduleRequests {
  list(): Promise<ScheduleRow[]>;
  history(name: string): Promise<ExportedRun[]>;
  runNow(name: string): Promise<void>;
  setPaused(name: string, paused: boolean): Promise<void>;
  remove(name: string): Promise<void>;
  /** Undefined when saved, else the problem in plain words (a bad `when` or watch). */
  update(name: string, edit: ScheduleEdit): Promise<string | undefined>;
}

export interface SchedulesState {
  rows?: ScheduleRow[];
  loading: boolean;
  error?: string;
  /** Each opened schedule's runs, newest first. */
  history: Record<string, ExportedRun[]>;
}

export interface SchedulesSlice extends SchedulesState {
  load(): Promise<void>;
  loadHistory(name: string): void;
  runNow(name: string): void;
  setPaused(name: string, paused: boolean): void;
  remove(name: string): void;
  update(name: string, edit: ScheduleEdit): Promise<string | undefined>;
  exportHistory(name: string, format: 'csv' | 'json'): void;
}

export function useSchedules(api: ScheduleRequests): SchedulesSlice {
  const [state, setState] = useState<SchedulesState>({ loading: false, history: {} });
  const set = (patch: Partial<SchedulesState>) => setState((s) => ({ ...s, ...patch }));

  const load = useCallback(async () => {
    set({ loading: true });
    try {
      set({ rows: await api.list(), loading: false, error: undefined });
    } catch (e) {
      set({ loading: false, error: errorMessage(e) });
    }
  }, [api]);

  const loadHistory = useCallback(
    (name: string) =>
      void api.history(name).then(
        (runs) => setState((s) => ({ ...s, history: { ...s.history, [name]: runs } })),
        (e: unknown) => set({ error: errorMessage(e) }),
      ),
    [api],
  );

  /** An action, then the list (and an open history) again; a failure shows in the tab. */
  const act = useCallback(
    (name: string, fn: () => Promise<unknown>) =>
      void fn()
        .then(() => load())
        .then(() => setState((s) => (s.history[name] ? (loadHistory(name), s) : s)))
        .catch((e: unknown) => set({ error: errorMessage(e) })),
    [load, loadHistory],
  );

  return useMemo<SchedulesSlice>(
    () => ({
      ...state,
      load,
      loadHistory,
      runNow: (name) => act(name, () => api.runNow(name)),
      setPaused: (name, paused) => act(name, () => api.setPaused(name, paused)),
      remove: (name) => act(name, () => api.remove(name)),
      update: async (name, edit) => {
        const problem = await api.update(name, edit).catch((e: unknown) => errorMessage(e));
        if (!problem) await load();
        return problem;
      },
      exportHistory: (name, format) => {
        const f = historyFile(name, state.history[name] ?? [], format);
        downloadText(f.filename, f.mime, f.text);
      },
    }),
    [state, load, loadHistory, act, api],
  );
}
