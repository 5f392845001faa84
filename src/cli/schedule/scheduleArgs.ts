/**
 * `npm run otto -- schedule list|add|run …` (#46 part 5): the arguments, checked before anything is read or written.
 * The conditions and times are checked by the same parsers the panel and the worker use, when the command runs.
 */
export const SCHEDULE_HELP = `usage: npm run otto -- schedule <list|add|run> [options]

  schedule list --config FILE.yaml
      the schedules of that settings file: name, when, what it runs, its watch, paused or not
  schedule add NAME --when "every Monday 09:00" (--snippet '$name k=v' | --task "text") [--watch "below 40"]
               --config FILE.yaml
      adds a schedule to the settings file (comments and other keys kept); --when and --watch are checked first
  schedule run NAME --config FILE.yaml [--browser URL] [--profile DIR] [--timeout S] [--dist DIR]
      runs that schedule now, headless with Otto loaded, as \`otto run\` does, and prints its output

The settings file is the YAML from Otto's Settings (Settings → Edit as text), so the panel and a machine that is
always on can keep the same schedules.`;

export type ScheduleCommand =
  | { command: 'help' }
  | { command: 'list'; config: string }
  | {
      command: 'add';
      config: string;
      name: string;
      when: string;
      run: { snippet: string } | { task: string };
      watch?: string;
    }
  | { command: 'run'; config: string; name: string; pass: string[] };

const PASS = new Set(['--browser', '--profile', '--timeout', '--dist', '--extension-id']);

export function parseScheduleArgs(argv: readonly string[]): ScheduleCommand {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h'))
    return { command: 'help' };
  if (sub !== 'list' && sub !== 'add' && sub !== 'run')
    throw new Error(`unknown schedule command '${sub}': use list, add or run (see --help)`);
  const opts: Record<string, string> = {};
  const pass: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const v = rest[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    if (sub === 'run' && PASS.has(a)) pass.push(a, v);
    else if (allowed(sub).includes(a)) opts[a.slice(2)] = v;
    else throw new Error(`unknown option ${a} for 'schedule ${sub}' (see --help)`);
  }
  const config = opts.config;
  if (!config) throw new Error(`'schedule ${sub}' needs --config FILE.yaml (the settings file with the schedules)`);
  if (sub === 'list') {
    if (positional.length) throw new Error(`'schedule list' takes no name (got '${positional[0]}')`);
    return { command: 'list', config };
  }
  if (positional.length !== 1) throw new Error(`'schedule ${sub}' needs one schedule name, e.g. price-watch`);
  const name = positional[0]!;
  if (sub === 'run') return { command: 'run', config, name, pass };
  return addCommand(config, name, opts);
}

function allowed(sub: 'list' | 'add' | 'run'): string[] {
  if (sub === 'add') return ['--config', '--when', '--snippet', '--task', '--watch'];
  return ['--config'];
}

function addCommand(config: string, name: string, opts: Record<string, string>): ScheduleCommand {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name))
    throw new Error(`'${name}' is not a schedule name: letters, digits, - and _, up to 64, e.g. price-watch`);
  if (!opts.when) throw new Error(`'schedule add' needs --when, e.g. --when "every 2 hours"`);
  if (!!opts.snippet === !!opts.task)
    throw new Error(`'schedule add' needs one of --snippet '$name k=v' or --task "what to do"`);
  if (opts.snippet && !opts.snippet.trim().startsWith('$'))
    throw new Error(`--snippet takes a snippet call that starts with $, e.g. --snippet '$price url=https://…'`);
  const run = opts.snippet ? { snippet: opts.snippet.trim() } : { task: opts.task!.trim() };
  return { command: 'add', config, name, when: opts.when, run, ...(opts.watch ? { watch: opts.watch } : {}) };
}
