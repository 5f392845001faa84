/**
 * Shared fuzz harness (issue 34). Every property in `test/fuzz/` goes through `fuzz` so that:
 * - the quick form (inside `npm test`) runs a few hundred cases per property on a FIXED seed: deterministic, a
 *   failure there is a failure every time, on every machine;
 * - the long form (`npm run test:fuzz`, i.e. FUZZ_LONG=1) runs `LONG_FACTOR` times as many on a fresh seed;
 * - FUZZ_SEED / FUZZ_RUNS / FUZZ_PATH override seed, run count and replay path (fast-check's `path`: the first
 *   number is the index of the generated case, the rest the shrink steps);
 * - a failure prints the exact command that replays that one counterexample.
 *
 * Also here: the checks every input path shares (`expectUserWords`: an error a user reads never leaks internals;
 * `expectLinearTime`: doubling the input does not quadruple the time).
 */
import fc from 'fast-check';
import { expect } from 'vitest';

const env = process.env;
/** The long form multiplies each property's quick run count by this. */
export const LONG_FACTOR = 40;
export const LONG = env.FUZZ_LONG === '1';
/** Fixed for the quick form (reproducible in CI); random per process for the long form unless FUZZ_SEED is set. */
export const FUZZ_SEED: number =
  env.FUZZ_SEED !== undefined && env.FUZZ_SEED !== ''
    ? Number(env.FUZZ_SEED)
    : LONG
      ? Date.now() ^ (Math.random() * 0x7fffffff)
      : 34_2026;
const FUZZ_RUNS = env.FUZZ_RUNS !== undefined && env.FUZZ_RUNS !== '' ? Number(env.FUZZ_RUNS) : undefined;
const FUZZ_PATH = env.FUZZ_PATH || undefined;

if (!Number.isInteger(FUZZ_SEED)) throw new Error(`FUZZ_SEED must be an integer, got "${env.FUZZ_SEED}"`);
if (FUZZ_RUNS !== undefined && !(Number.isInteger(FUZZ_RUNS) && FUZZ_RUNS > 0))
  throw new Error(`FUZZ_RUNS must be a positive integer, got "${env.FUZZ_RUNS}"`);

/** How many cases a property runs: its quick count, ×LONG_FACTOR in the long form, or FUZZ_RUNS when given. */
export function fuzzRuns(quick: number): number {
  if (FUZZ_RUNS !== undefined) return FUZZ_RUNS;
  return LONG ? quick * LONG_FACTOR : quick;
}

/** Test timeout (ms) for a fuzz `it`: generous in the long form. Pass as vitest's third argument. */
export function fuzzTimeout(quickMs = 20_000): number {
  return LONG || FUZZ_RUNS !== undefined ? Math.max(quickMs * LONG_FACTOR, 600_000) : quickMs;
}

export interface FuzzOptions {
  /** Cases in the quick form (keep the whole quick suite to a few seconds). */
  runs: number;
  /** Per-case timeout for async properties, ms (a case that hangs fails with its seed instead of stalling). */
  caseTimeoutMs?: number;
  /** Examples always tried first (known tricky inputs); they do not count towards `runs`. */
  examples?: fc.Parameters<unknown>['examples'];
}

/** The command that replays one counterexample: same seed, same path, only this test. */
export function reproCommand(seed: number, path: string | undefined): string {
  const state = expect.getState();
  const file = state.testPath ? relative(state.testPath) : 'test/fuzz';
  const name = state.currentTestName?.split(' > ').pop() ?? '';
  const vars = [`FUZZ_SEED=${seed}`, path !== undefined ? `FUZZ_PATH=${path}` : '', 'FUZZ_RUNS=1']
    .filter(Boolean)
    .join(' ');
  return `${vars} npx vitest run ${file} -t ${JSON.stringify(name)}`;
}

function relative(file: string): string {
  const i = file.replace(/\\/g, '/').lastIndexOf('/test/');
  return i >= 0 ? file.slice(i + 1) : file;
}

function parameters<T>(options: FuzzOptions): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns: FUZZ_PATH !== undefined ? Math.max(fuzzRuns(options.runs), 1) : fuzzRuns(options.runs),
    path: FUZZ_PATH,
    endOnFailure: false,
    timeout: options.caseTimeoutMs,
    examples: FUZZ_PATH !== undefined ? [] : ((options.examples ?? []) as fc.Parameters<T>['examples']),
  };
}

function fail(details: fc.RunDetails<unknown>, report: string | undefined): never {
  const replay = reproCommand(details.seed, details.counterexamplePath ?? undefined);
  const message = [
    `fuzz: property failed after ${details.numRuns} case(s) (seed ${details.seed}, path ${details.counterexamplePath ?? '-'})`,
    `reproduce: ${replay}`,
    report ?? '',
  ].join('\n');
  // Printed as well as thrown: a long run's output may be read from the console only.
  console.error(message);
  const error = new Error(message);
  if (details.errorInstance) (error as Error & { cause?: unknown }).cause = details.errorInstance;
  throw error;
}

/** Runs a synchronous property; throws with the seed, path and a replay command on failure. */
export function fuzz<T>(property: fc.IProperty<T>, options: FuzzOptions): void {
  const details = fc.check(property, parameters<T>(options)) as fc.RunDetails<unknown>;
  if (details.failed) fail(details, fc.defaultReportMessage(details));
}

/** Runs an asynchronous property; throws with the seed, path and a replay command on failure. */
export async function fuzzAsync<T>(property: fc.IAsyncProperty<T>, options: FuzzOptions): Promise<void> {
  const details = (await fc.check(property, parameters<T>(options))) as fc.RunDetails<unknown>;
  if (details.failed) fail(details, await fc.asyncDefaultReportMessage(details));
}

/**
 * Texts a user must never read in an error: internals (JS engine, validator dumps, message/port field names) and
 * the stringified nothings. Each entry says why it is here.
 */
export const UNCLEAR_ERROR_PATTERNS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /Maximum call stack/i, why: 'a stack overflow leaked' },
  { pattern: /\bNaN\b/, why: 'a NaN was printed' },
  { pattern: /\bundefined\b/, why: 'an undefined was printed' },
  { pattern: /\[object Object\]/, why: 'an object was stringified' },
  { pattern: /invalid message at/i, why: 'the port validator message leaked' },
  { pattern: /\b(?:Too big|Too small): expected/i, why: 'a zod size message leaked' },
  { pattern: /\bexpected \w+, received \w+/i, why: 'a zod type message leaked' },
  {
    pattern: /invalid_(?:type|union|value|format)|too_big|too_small|unrecognized_keys/,
    why: 'a zod issue code leaked',
  },
  { pattern: /"code":\s*"/, why: 'a JSON issue dump leaked' },
  { pattern: /\b(?:TypeError|RangeError|SyntaxError|ReferenceError):/, why: 'a JS error name leaked' },
  { pattern: /\bat [\w.<>]+ \(.*:\d+:\d+\)/, why: 'a stack trace leaked' },
  { pattern: /is not a function|Cannot read propert/i, why: 'a JS runtime error leaked' },
  { pattern: /ISO-8859-1|ByteString/i, why: "fetch's header-encoding message leaked" },
];

/**
 * Asserts `message` is something a user can read: non-empty and free of every pattern above. Text the message
 * quotes back ('…' or "…": the user's own input, which may well say "undefined") is not held against it.
 */
export function expectUserWords(message: string, context = ''): void {
  const where = context ? ` (${context})` : '';
  expect(message.trim(), `empty error${where}`).not.toBe('');
  const own = message.replace(/'[^\n]*'|"[^\n]*"/g, "''");
  for (const { pattern, why } of UNCLEAR_ERROR_PATTERNS) {
    if (pattern.test(own)) throw new Error(`unclear error${where}: ${why}: ${JSON.stringify(message.slice(0, 400))}`);
  }
}

/** Median wall time of `run()` over `rounds` runs, ms. */
export function medianMs(run: () => unknown, rounds = 5): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Time roughly linear in the input's size: `make(n)` builds an input of size n; the time at 8n must stay under
 * `slack` × 8 × the time at n (a quadratic routine shows 64×). Tiny absolute times always pass (timer noise on a
 * loaded machine), so pick n so that the large input takes a few ms at least.
 */
export function expectLinearTime<I>(
  make: (n: number) => I,
  run: (input: I) => unknown,
  n: number,
  options: { slack?: number; floorMs?: number; rounds?: number } = {},
): { small: number; large: number } {
  const slack = options.slack ?? 3;
  const rounds = options.rounds ?? 5;
  const floorMs = options.floorMs ?? 15;
  const smallInput = make(n);
  const largeInput = make(n * 8);
  run(smallInput); // warm up the JIT on this shape
  if (rounds > 1) run(largeInput);
  let small = 0;
  let large = 0;
  // A loaded machine (GC, another process) can stall one measurement: only three slow ones in a row count.
  for (let attempt = 0; attempt < 3; attempt++) {
    small = medianMs(() => run(smallInput), rounds);
    large = medianMs(() => run(largeInput), rounds);
    if (large <= floorMs || large <= small * 8 * slack) return { small, large };
  }
  throw new Error(
    `time grows faster than the input: n=${n} took ${small.toFixed(2)} ms, 8n took ${large.toFixed(2)} ms (> ${slack}× linear)`,
  );
}
