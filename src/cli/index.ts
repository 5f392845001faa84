/**
 * `npm run otto -- <command> ...`: Otto's command line. One small dispatcher; each subcommand lives in its own
 * folder and exports a `run…(argv)`.
 */
import { runMcp } from './mcp/index.ts';
import { errorMessage } from '../shared/errorMessage.ts';

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; help: string }> = {
  mcp: { run: runMcp, help: 'serve Otto’s browser tools to an MCP client (stdio; --http <port>, --no-open)' },
  // #17: loaded when asked for (it brings Playwright).
  run: {
    run: async (argv) => {
      process.exitCode = await (await import('./run/index.ts')).main(argv);
    },
    help: "run '$snippet k=v' (or a task) headless; --each rows.csv, --concurrency N, --browser ws://…",
  },
  // #46: schedules of a settings file (run loads Playwright through `otto run`).
  schedule: {
    run: async (argv) => {
      process.exitCode = await (await import('./schedule/index.ts')).main(argv);
    },
    help: 'list, add or run the schedules of a settings file (--config FILE.yaml)',
  },
};

function usage(): string {
  return [
    'Usage: npm run otto -- <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(8)} ${c.help}`),
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stderr.write(`${usage()}\n`);
    process.exitCode = name ? 0 : 1;
    return;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    process.stderr.write(`Unknown command '${name}'.\n${usage()}\n`);
    process.exitCode = 1;
    return;
  }
  await cmd.run(rest);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`otto: ${errorMessage(err)}\n`);
  process.exit(1);
});
