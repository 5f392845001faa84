/**
 * Schedules in the worker (#46): builds the engine, its two listeners (alarms; notification clicks — each wakes the
 * worker only for its own event), the panel's requests, and what happens when a waiting task ends after the user
 * answered in the panel. Called synchronously at the top level of `index.ts`, so the listeners are in place before
 * Chrome delivers the event that started the worker.
 */
import type { AgentEvent } from '../agent/agentEvents.ts';
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { log } from '../shared/log.ts';
import { ScheduleHistory } from '../storage/scheduleHistory.ts';
import type { ScheduleRunRecord } from '../storage/scheduleRunRecord.ts';
import { broadcast } from './panelHub.ts';
import { ScheduleEngine } from './scheduleEngine.ts';
import { scheduleHandlers } from './scheduleHandlers.ts';
import { noticeFor, openNoticedRun, showNotice } from './scheduleNotices.ts';
import { applyWatch } from './scheduleWatch.ts';
import { closeRunWindow, runSnippet, runTask, taskEnd, type ScheduledRunDeps } from './scheduleRun.ts';
import { blockedByConfig } from './settings.ts';

/** Session storage: the tasks waiting for the user, by conversation (a worker restart keeps them). */
const WAITING_KEY = 'schedules.waiting';
type Waiting = Record<string, { record: ScheduleRunRecord; windowId?: number; notify: boolean }>;

export function scheduleService(deps: ScheduledRunDeps & { ready: Promise<unknown> }) {
  const history = new ScheduleHistory();
  const waiting = async (): Promise<Waiting> =>
    ((await chrome.storage.session.get(WAITING_KEY))[WAITING_KEY] ?? {}) as Waiting;

  const changed = (
    record: ScheduleRunRecord,
    entry: Pick<ScheduleEntry, 'notify' | 'watch' | 'url'> & { args?: ScheduleEntry['args'] },
  ): void => {
    broadcast({ type: 'schedules.changed', scheduleId: record.scheduleId, runId: record.id });
    const notice = noticeFor(record, entry);
    if (notice) void showNotice(record, notice).catch((e: unknown) => log.warn(`notification: ${errorMessage(e)}`));
  };

  const engine = new ScheduleEngine({
    config: async () => {
      await deps.ready;
      const s = await deps.settings();
      return blockedByConfig(s) ? undefined : s.config;
    },
    history,
    run: async (id, entry) => {
      const end = await (entry.snippet ? runSnippet(deps, id, entry) : runTask(deps, id, entry));
      if (end.outcome === 'done' && entry.watch)
        Object.assign(end, applyWatch(entry, end.output, await history.list(id, 50)));
      if (end.outcome === 'paused-waiting' && end.conversationId) {
        const all = await waiting();
        const record = (await history.last(id))!;
        all[end.conversationId] = {
          record,
          ...(end.windowId !== undefined ? { windowId: end.windowId } : {}),
          notify: entry.notify,
        };
        await chrome.storage.session.set({ [WAITING_KEY]: all });
      }
      return end;
    },
    changed,
  });

  /** A waiting task's run went on after the user answered: when it ends, its history record ends too. */
  async function onRunStatus(event: Extract<AgentEvent, { type: 'run.status' }>): Promise<void> {
    if (event.status === 'running' || event.status === 'awaiting_approval') return;
    const all = await waiting();
    const held = all[event.conversationId];
    if (!held) return;
    delete all[event.conversationId];
    await chrome.storage.session.set({ [WAITING_KEY]: all });
    const state = await deps.runner.getState(event.conversationId);
    if (!state) return;
    const end = await taskEnd(deps, state);
    await closeRunWindow(deps.tabScope, event.conversationId, held.windowId);
    const finished = Date.now();
    const { windowId: _w, ...kept } = end;
    const record = await history.put({ ...held.record, ...kept, finished, durationMs: finished - held.record.started });
    changed(record, { notify: held.notify });
  }

  chrome.alarms.onAlarm.addListener((alarm) => {
    void engine.onAlarm(alarm).catch((e: unknown) => log.error(`schedule alarm: ${errorMessage(e)}`));
  });
  chrome.notifications.onClicked.addListener((id) => void openNoticedRun(id));
  // Every worker start: what came due while Chrome was closed (or the worker could not run it) runs once, late.
  void engine.catchUp().catch((e: unknown) => log.error(`schedules at start: ${errorMessage(e)}`));

  const handlers = scheduleHandlers({
    settings: deps.settings,
    history,
    runNow: (id) => engine.runNow(id),
    changed: () => engine.rearm(),
  });
  return { engine, history, handlers, onRunStatus };
}
