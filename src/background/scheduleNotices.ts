/**
 * Desktop notifications of scheduled runs (#46): done, failed, a watch triggered, and waiting for the user. A click
 * opens the side panel and leaves the run's conversation for it to show (`OPEN_RUN_KEY` in session storage, read by
 * the panel when it starts). The notification id carries the conversation, so a click after a worker restart still
 * knows which run it was.
 */
import type { ScheduleRunRecord } from '../storage/scheduleRunRecord.ts';
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import { watchNotice } from './scheduleWatch.ts';

import { OPEN_RUN_KEY } from '../shared/noticedRun.ts';

const PREFIX = 'otto-run|';

export interface Notice {
  title: string;
  message: string;
}

/** What a finished, failed or waiting run says; undefined when it says nothing (`done` with `notify: false`). */
export function noticeFor(
  record: ScheduleRunRecord,
  entry: Pick<ScheduleEntry, 'notify' | 'watch' | 'url'> & { args?: ScheduleEntry['args'] },
): Notice | undefined {
  const notifyDone = entry.notify;
  const late = record.late ? ' (late: Chrome was closed at its time)' : '';
  if (record.outcome === 'paused-waiting')
    return {
      title: 'Otto is waiting for you',
      message: `${record.scheduleId} ${record.reason ?? 'needs your answer'}.`,
    };
  if (record.outcome === 'failed')
    return {
      title: `Otto: ${record.scheduleId} failed${late}`,
      message: [record.failedStep, record.reason].filter(Boolean).join(': ') || 'The run failed.',
    };
  // A watch notifies only when it fires: a run whose value does not meet the condition says nothing.
  if (entry.watch && record.outcome === 'done' && !(record.triggered && record.value !== undefined)) return undefined;
  if (record.triggered && record.value !== undefined)
    return watchNotice(
      record.scheduleId,
      entry,
      { value: record.value, ...(record.previous !== undefined ? { previous: record.previous } : {}) },
      entry.url ?? (typeof entry.args?.url === 'string' ? entry.args.url : undefined),
    );
  if (record.outcome === 'done' && notifyDone)
    return { title: `Otto: ${record.scheduleId} done${late}`, message: record.output.slice(0, 200) || 'Done.' };
  return undefined;
}

export async function showNotice(record: ScheduleRunRecord, notice: Notice): Promise<void> {
  const id = `${PREFIX}${record.scheduleId}|${record.id}|${record.conversationId ?? ''}`;
  await chrome.notifications.create(id, {
    type: 'basic',
    iconUrl: chrome.runtime.getURL('icons/icon-128.png'),
    title: notice.title,
    message: notice.message,
    priority: record.outcome === 'paused-waiting' ? 2 : 0,
    requireInteraction: record.outcome === 'paused-waiting',
  });
}

/**
 * A click on one of Otto's notifications: open the panel first — `sidePanel.open` needs the click's user gesture,
 * which an `await` before it would lose — then leave the run for the panel to show.
 */
export function openNoticedRun(notificationId: string): boolean {
  if (!notificationId.startsWith(PREFIX)) return false;
  void chrome.sidePanel.open({ windowId: chrome.windows.WINDOW_ID_CURRENT }).catch(() => undefined);
  const [scheduleId, runId, conversationId] = notificationId.slice(PREFIX.length).split('|');
  const run = { scheduleId, runId, ...(conversationId ? { conversationId } : {}) };
  void chrome.storage.session.set({ [OPEN_RUN_KEY]: run });
  void chrome.notifications.clear(notificationId).catch(() => undefined);
  return true;
}
