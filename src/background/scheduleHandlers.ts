/**
 * Schedules in the panel (#46): list them with their next run and last outcome, add or edit, run now, pause and
 * resume, delete, read the history. A schedule is a `schedules.<name>` entry of the config, so every edit is a
 * config edit (comments and other keys kept, as the settings forms do) and re-arms the alarms.
 *
 * Requests (src/shared/messages.ts) and their replies:
 *   schedules.list → {schedules: ScheduleView[], blocked?}  each with `cron`, `nextRun` (epoch ms; unset when
 *       paused), `last` (its newest history record) and `problem` when it cannot run (a missing snippet)
 *   schedules.save {scheduleId, when, snippet | task, args?, url?, watch?, paused?, notify?} → ScheduleView
 *       the scope is fixed now from the task's words or the snippet's sites; an edit that changes the task or the
 *       snippet fixes it again (the user is editing, so that is their consent)
 *   schedules.run {scheduleId} → {runId}                     starts a run as its time would; the history says `run-now`
 *   schedules.pause {scheduleId, paused} → ScheduleView
 *   schedules.delete {scheduleId} → {deleted, runsDeleted}   the entry and its history
 *   schedules.history {scheduleId?, limit?} → ScheduleRunRecord[]   newest first
 * Pushed: `schedules.changed {scheduleId, runId?}` whenever a run starts, ends or begins waiting.
 */
import { loadConfig, saveConfig } from '../config/configStore.ts';
import { formatProblem } from '../config/parse.ts';
import { patchYaml } from '../config/edit.ts';
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import type { OttoConfig } from '../config/schema.ts';
import { parseWhen, nextFire } from '../shared/scheduleWhen.ts';
import type { ScheduleView } from '../shared/replies.ts';
import type { Req } from '../shared/messages.ts';
import type { ScheduleHistory } from '../storage/scheduleHistory.ts';
import type { Handlers } from './panelPort.ts';
import { blockedByConfig, type Settings } from './settings.ts';
import { scheduleScope } from './scheduleScope.ts';

export interface ScheduleHandlerDeps {
  settings: () => Promise<Settings>;
  history: ScheduleHistory;
  /** Starts a run now; resolves with its history id once it has started. */
  runNow: (scheduleId: string) => Promise<string>;
  /** Called after every edit: the engine re-arms its alarms from the new config. */
  changed: () => Promise<void>;
  now?: () => number;
}

type ScheduleHandlers = Pick<
  Handlers,
  'schedules.list' | 'schedules.save' | 'schedules.run' | 'schedules.pause' | 'schedules.delete' | 'schedules.history'
>;

/** Why an entry cannot run, in plain words; undefined when it can. */
export function scheduleProblem(config: OttoConfig, entry: ScheduleEntry): string | undefined {
  if (entry.snippet && !Object.hasOwn(config.snippets, entry.snippet))
    return `The snippet "${entry.snippet}" is not in the settings any more.`;
  return undefined;
}

export async function scheduleView(
  config: OttoConfig,
  id: string,
  history: ScheduleHistory,
  now: number,
): Promise<ScheduleView> {
  const entry = config.schedules[id]!;
  const when = parseWhen(entry.when);
  const problem = scheduleProblem(config, entry);
  const last = await history.last(id);
  return {
    id,
    entry,
    kind: entry.snippet ? 'snippet' : 'task',
    cron: when.cron,
    ...(entry.paused || problem ? {} : { nextRun: nextFire(when, now) }),
    ...(last ? { last } : {}),
    ...(problem ? { problem } : {}),
  };
}

async function edit(path: string[], value: unknown): Promise<OttoConfig> {
  const { yaml, problems } = await loadConfig();
  if (problems.length) throw new Error('The settings have errors; fix them before changing a schedule.');
  const parsed = await saveConfig(patchYaml(yaml, [{ path, value }]));
  if (!parsed.ok)
    throw new Error(`The schedule does not fit the settings: ${parsed.problems.map(formatProblem).join('; ')}`);
  return parsed.value;
}

function entryFrom(req: Req<'schedules.save'>, config: OttoConfig): Record<string, unknown> {
  if (!req.snippet === !req.task) throw new Error('A schedule runs either a snippet or a task, exactly one of them.');
  if (req.snippet && !Object.hasOwn(config.snippets, req.snippet))
    throw new Error(`There is no snippet "${req.snippet}" in the settings.`);
  parseWhen(req.when);
  const body = req.snippet ? config.snippets[req.snippet]!.body : '';
  const scope = scheduleScope({ task: req.task, url: req.url, snippet: req.snippet, args: req.args ?? {} }, body);
  const entry: Record<string, unknown> = { when: req.when };
  if (req.snippet) entry.snippet = req.snippet;
  if (req.args && Object.keys(req.args).length) entry.args = req.args;
  if (req.task) entry.task = req.task;
  if (req.url) entry.url = req.url;
  if (req.watch) entry.watch = req.watch;
  if (req.paused) entry.paused = true;
  if (req.notify === false) entry.notify = false;
  entry.scope = scope;
  return entry;
}

export function scheduleHandlers(deps: ScheduleHandlerDeps): ScheduleHandlers {
  const now = deps.now ?? Date.now;
  const known = async (scheduleId: string): Promise<OttoConfig> => {
    const { config, problems } = await deps.settings();
    const blocked = blockedByConfig({ problems });
    if (blocked) throw new Error(blocked);
    if (!Object.hasOwn(config.schedules, scheduleId)) throw new Error(`There is no schedule "${scheduleId}".`);
    return config;
  };
  return {
    async 'schedules.list'() {
      const s = await deps.settings();
      const blocked = blockedByConfig(s);
      const ids = Object.keys(s.config.schedules).sort();
      const schedules = await Promise.all(ids.map((id) => scheduleView(s.config, id, deps.history, now())));
      return { schedules, ...(blocked ? { blocked } : {}) };
    },
    async 'schedules.save'(req) {
      const { config, problems } = await deps.settings();
      const blocked = blockedByConfig({ problems });
      if (blocked) throw new Error(blocked);
      const saved = await edit(['schedules', req.scheduleId], entryFrom(req, config));
      await deps.changed();
      return scheduleView(saved, req.scheduleId, deps.history, now());
    },
    async 'schedules.run'(req) {
      await known(req.scheduleId);
      return { runId: await deps.runNow(req.scheduleId) };
    },
    async 'schedules.pause'(req) {
      await known(req.scheduleId);
      const saved = await edit(['schedules', req.scheduleId, 'paused'], req.paused ? true : undefined);
      await deps.changed();
      return scheduleView(saved, req.scheduleId, deps.history, now());
    },
    async 'schedules.delete'(req) {
      const { config } = await deps.settings();
      const had = Object.hasOwn(config.schedules, req.scheduleId);
      if (had) await edit(['schedules', req.scheduleId], undefined);
      const runsDeleted = await deps.history.deleteSchedule(req.scheduleId);
      await deps.changed();
      return { deleted: had, runsDeleted };
    },
    async 'schedules.history'(req) {
      return deps.history.list(req.scheduleId, req.limit ?? 100);
    },
  };
}
