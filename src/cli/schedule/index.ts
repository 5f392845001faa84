/**
 * `npm run otto -- schedule list|add|run` (#46 part 5): the schedules of a settings file, on the same config and with
 * the same parsers as the panel (`when`: shared/scheduleWhen.ts; watches: shared/watchCondition.ts). `add` writes
 * the file keeping its comments and other keys (config/edit.ts, as the settings forms do) and refuses text the
 * worker would refuse; `run` runs the schedule now through `otto run` (headless Chromium with Otto loaded).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { checkYaml, patchYaml } from '../../config/edit.ts';
import { formatProblem, parseConfigYaml } from '../../config/parse.ts';
import type { OttoConfig } from '../../config/schema.ts';
import type { ScheduleEntry } from '../../config/scheduleConfig.ts';
import { nextFire, parseWhen } from '../../shared/scheduleWhen.ts';
import { parseWatchCondition } from '../../shared/watchCondition.ts';
import { parseScheduleArgs, SCHEDULE_HELP, type ScheduleCommand } from './scheduleArgs.ts';

async function readConfig(file: string): Promise<{ yaml: string; config: OttoConfig }> {
  const yaml = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  const out = parseConfigYaml(yaml);
  if (!out.ok) throw new Error(`${file} has errors: ${out.problems.map(formatProblem).join('; ')}`);
  return { yaml, config: out.value };
}

/** `$name k="v"` for a snippet schedule, the task's words for a task. */
export function scheduleWhat(e: ScheduleEntry): string {
  if (!e.snippet) return e.task ?? '';
  return [`$${e.snippet}`, ...Object.entries(e.args).map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)].join(' ');
}

/** One line per schedule: name, when, next run (local time), what it runs, its watch. */
export function listText(config: OttoConfig, now: number): string {
  const names = Object.keys(config.schedules).sort();
  if (!names.length) return 'No schedules in this settings file. Add one: npm run otto -- schedule add --help';
  return names
    .map((name) => {
      const e = config.schedules[name]!;
      const next = e.paused ? 'paused' : `next ${new Date(nextFire(parseWhen(e.when), now)).toLocaleString()}`;
      const watch = e.watch ? ` · watch: ${e.watch.condition}` : '';
      return `${name}  ${e.when} (${next})  ${scheduleWhat(e)}${watch}`;
    })
    .join('\n');
}

/** The new text of the settings file with the schedule added (or replaced), checked as the worker checks it. */
export function addedYaml(yaml: string, c: Extract<ScheduleCommand, { command: 'add' }>): string {
  parseWhen(c.when);
  if (c.watch) parseWatchCondition(c.watch);
  const entry: Record<string, unknown> = { when: c.when };
  if ('snippet' in c.run) {
    const m = /^\$([A-Za-z0-9_][A-Za-z0-9_-]*)\s*(.*)$/s.exec(c.run.snippet);
    if (!m) throw new Error(`--snippet: '${c.run.snippet}' is not a snippet call like '$price url=https://…'`);
    entry.snippet = m[1];
    const args = snippetArgs(m[2]!);
    if (Object.keys(args).length) entry.args = args;
  } else entry.task = c.run.task;
  if (c.watch) entry.watch = { condition: c.watch };
  const next = patchYaml(yaml, [{ path: ['schedules', c.name], value: entry }]);
  const { problems } = checkYaml(next);
  if (problems.length) throw new Error(problems.map(formatProblem).join('; '));
  return next;
}

/** `k=v k2="a b" k3='c'` → {k: 'v', k2: 'a b', k3: 'c'}; anything else is refused by name. */
export function snippetArgs(text: string): Record<string, string> {
  const args: Record<string, string> = {};
  const re = /\s*([A-Za-z_][A-Za-z0-9_-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+)/y;
  let at = 0;
  while (at < text.trimEnd().length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m)
      throw new Error(`--snippet: cannot read the arguments from '${text.slice(at).trim()}'; write k=v or k="a b"`);
    const v = m[2]!;
    args[m[1]!] = v.startsWith('"') ? (JSON.parse(v) as string) : v.startsWith("'") ? v.slice(1, -1) : v;
    at = re.lastIndex;
  }
  return args;
}

export async function main(argv: string[]): Promise<number> {
  const c = parseScheduleArgs(argv);
  if (c.command === 'help') {
    console.log(SCHEDULE_HELP);
    return 0;
  }
  if (c.command === 'list') {
    console.log(listText((await readConfig(c.config)).config, Date.now()));
    return 0;
  }
  if (c.command === 'add') {
    const { yaml } = await readConfig(c.config);
    await writeFile(c.config, addedYaml(yaml, c));
    console.log(`Added schedule '${c.name}' to ${c.config}.`);
    return 0;
  }
  const { config } = await readConfig(c.config);
  const e = config.schedules[c.name];
  if (!e) throw new Error(`There is no schedule '${c.name}' in ${c.config}.`);
  const run = await import('../run/index.ts');
  return run.main([scheduleWhat(e), '--config', c.config, ...c.pass]);
}
