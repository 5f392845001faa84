import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/configStore.ts';
import { openOttoDB } from '../../src/storage/db.ts';
import { ScheduleHistory } from '../../src/storage/scheduleHistory.ts';
import { scheduleHandlers } from '../../src/background/scheduleHandlers.ts';

/** chrome.storage.local in memory: the handlers edit the stored config text as the settings forms do. */
let data: Record<string, unknown>;
beforeEach(() => {
  data = {};
  (globalThis as { chrome?: unknown }).chrome = {
    storage: {
      local: {
        get: async (k: string) => (k in data ? { [k]: data[k] } : {}),
        set: async (o: Record<string, unknown>) => void Object.assign(data, o),
      },
    },
  };
});
afterEach(() => delete (globalThis as { chrome?: unknown }).chrome);

async function setup(yaml: string) {
  data.config = yaml;
  const history = new ScheduleHistory(await openOttoDB(`otto-h-${Math.random().toString(36).slice(2)}`));
  const armed: number[] = [];
  const started: string[] = [];
  const now = new Date(2026, 0, 7, 12).getTime(); // a Wednesday
  const h = scheduleHandlers({
    settings: async () => {
      const { config, problems } = await loadConfig();
      return { config, problems, secrets: {} };
    },
    history,
    runNow: async (id) => (started.push(id), `${id}:1`),
    changed: async () => void armed.push(1),
    now: () => now,
  });
  const port = {} as never;
  return { h, history, armed, started, port };
}

const SNIPPET = 'snippets:\n  report:\n    body: tabs.navigate(url="https://shop.example/orders")\n';

describe('schedules.* requests', () => {
  it('save writes the entry with its agreed scope into the config text, keeps comments, and re-arms', async () => {
    const t = await setup(`# my settings\n${SNIPPET}`);
    const view = await t.h['schedules.save'](
      { type: 'schedules.save', id: '1', scheduleId: 'mon', when: 'every monday 09:00', snippet: 'report' },
      t.port,
    );
    expect([view.id, view.kind, view.cron, new Date(view.nextRun!).getDate()]).toEqual([
      'mon',
      'snippet',
      '0 9 * * 1',
      12,
    ]);
    expect(view.entry.scope!.sites).toEqual(['shop.example']);
    expect(String(data.config)).toContain('# my settings');
    expect(String(data.config)).toContain('when: every monday 09:00');
    expect(t.armed).toEqual([1]);
  });

  it('a task is scoped by its words', async () => {
    const t = await setup('');
    const view = await t.h['schedules.save'](
      {
        type: 'schedules.save',
        id: '1',
        scheduleId: 'inbox',
        when: 'daily 07:00',
        task: 'Summarise my inbox on mail.example',
      },
      t.port,
    );
    expect(view.entry.scope).toEqual({ effects: ['read', 'fill'], sites: ['mail.example'] });
  });

  it('bad requests are refused in plain words', async () => {
    const t = await setup(SNIPPET);
    const save = (over: Record<string, unknown>) =>
      t.h['schedules.save'](
        { type: 'schedules.save', id: '1', scheduleId: 'x', when: 'daily 07:00', ...over } as never,
        t.port,
      );
    await expect(save({ snippet: 'nope' })).rejects.toThrow('There is no snippet "nope" in the settings.');
    await expect(save({})).rejects.toThrow('A schedule runs either a snippet or a task, exactly one of them.');
    await expect(save({ task: 'x', when: 'every funday 9:00' })).rejects.toThrow('"funday" is not a day of the week');
    await expect(t.h['schedules.run']({ type: 'schedules.run', id: '1', scheduleId: 'ghost' }, t.port)).rejects.toThrow(
      'There is no schedule "ghost".',
    );
  });

  it('pause hides the next run and resume brings it back; run now starts it; delete drops entry and history', async () => {
    const t = await setup(`${SNIPPET}schedules:\n  mon:\n    when: every monday 09:00\n    snippet: report\n`);
    const paused = await t.h['schedules.pause'](
      { type: 'schedules.pause', id: '1', scheduleId: 'mon', paused: true },
      t.port,
    );
    expect([paused.entry.paused, paused.nextRun]).toEqual([true, undefined]);
    const resumed = await t.h['schedules.pause'](
      { type: 'schedules.pause', id: '1', scheduleId: 'mon', paused: false },
      t.port,
    );
    expect(resumed.nextRun).toBeDefined();
    expect(String(data.config)).not.toContain('paused');
    expect(await t.h['schedules.run']({ type: 'schedules.run', id: '1', scheduleId: 'mon' }, t.port)).toEqual({
      runId: 'mon:1',
    });
    await t.history.put({ id: 'mon:1', scheduleId: 'mon', due: 1, started: 1, outcome: 'done' });
    const list = await t.h['schedules.list']({ type: 'schedules.list', id: '1' }, t.port);
    expect(list.schedules.map((s) => [s.id, s.last?.outcome])).toEqual([['mon', 'done']]);
    expect(await t.h['schedules.delete']({ type: 'schedules.delete', id: '1', scheduleId: 'mon' }, t.port)).toEqual({
      deleted: true,
      runsDeleted: 1,
    });
    expect((await t.h['schedules.list']({ type: 'schedules.list', id: '1' }, t.port)).schedules).toEqual([]);
  });

  it('a schedule whose snippet is gone says so and has no next run', async () => {
    const t = await setup('schedules:\n  mon:\n    when: every monday 09:00\n    snippet: gone\n');
    const [view] = (await t.h['schedules.list']({ type: 'schedules.list', id: '1' }, t.port)).schedules;
    expect([view!.problem, view!.nextRun]).toEqual(['The snippet "gone" is not in the settings any more.', undefined]);
  });
});
