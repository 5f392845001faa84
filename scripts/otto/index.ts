/**
 * `npm run otto -- <command> ...`: Otto's command line, a small dispatcher. Each command is a module of its own here
 * with a `main(argv): Promise<number>` (the exit code), loaded only when asked for.
 *
 *   run   run a snippet or a task headless, once or per CSV row (run.ts)
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ main(argv: string[]): Promise<number> }> }> = {
  run: {
    summary: "run '$snippet k=v' (or a task) headless; --each rows.csv, --concurrency N, --browser ws://…",
    load: () => import('./run.ts'),
  },
};

function usage(): string {
  return [
    'usage: npm run otto -- <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(6)} ${c.summary}`),
    '',
    'npm run otto -- <command> --help shows its options.',
  ].join('\n');
}

export {};

const [cmd, ...rest] = process.argv.slice(2);
if (!cmd || cmd === '--help' || cmd === '-h') {
  console.log(usage());
  process.exit(cmd ? 0 : 2);
}
const command = COMMANDS[cmd];
if (!command) {
  console.error(`otto: unknown command '${cmd}'.\n\n${usage()}`);
  process.exit(2);
}
try {
  process.exitCode = await (await command.load()).main(rest);
} catch (e) {
  console.error(`otto ${cmd}: ${(e as Error).message}`);
  process.exitCode = 2;
}
