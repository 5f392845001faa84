/**
 * Seeded fast-check runs for the model-stream properties: FUZZ_SEED and FUZZ_RUNS override the fixed seed and the
 * quick run count; a failure names the seed and path that replay it (FUZZ_SEED=… FUZZ_PATH=…). The same contract as
 * the shared harness of #34, so these properties move onto it unchanged.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

const env = process.env;
export const FUZZ_SEED = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : 34_2026;
const FUZZ_RUNS = env.FUZZ_RUNS ? Number(env.FUZZ_RUNS) : undefined;
const FUZZ_PATH = env.FUZZ_PATH || undefined;
const LONG = env.FUZZ_LONG === '1';

export const fuzzRuns = (quick: number): number => FUZZ_RUNS ?? (LONG ? quick * 40 : quick);

function parameters<T>(runs: number): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: fuzzRuns(runs), path: FUZZ_PATH, endOnFailure: false };
}

function fail(details: fc.RunDetails<unknown>, report: string | undefined): never {
  const replay = `FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''} FUZZ_RUNS=1`;
  throw new Error(`fuzz: property failed (reproduce with ${replay})\n${report ?? ''}`);
}

export function fuzz<T>(property: fc.IProperty<T>, options: { runs: number }): void {
  const details = fc.check(property, parameters<T>(options.runs)) as fc.RunDetails<unknown>;
  if (details.failed) fail(details, fc.defaultReportMessage(details));
}

export async function fuzzAsync<T>(property: fc.IAsyncProperty<T>, options: { runs: number }): Promise<void> {
  const details = (await fc.check(property, parameters<T>(options.runs))) as fc.RunDetails<unknown>;
  if (details.failed) fail(details, await fc.asyncDefaultReportMessage(details));
}

/** Words a user must never read in an error about the model's answer. */
const UNCLEAR: readonly [RegExp, string][] = [
  [/\bundefined\b|\bNaN\b|\[object Object\]/, 'a stringified nothing'],
  [/ISO-8859-1|ByteString/i, "fetch's header encoding message"],
  [/\b(?:TypeError|RangeError|SyntaxError):/, 'a JS error name'],
  [/Too big: expected|Too small: expected|expected \w+, received \w+|invalid_type|too_big/, 'a validator dump'],
  [/Maximum call stack|is not a function|Cannot read propert/i, 'a JS runtime error'],
];

export function expectUserWords(message: string, context = ''): void {
  expect(message.trim(), `empty message ${context}`).not.toBe('');
  for (const [pattern, why] of UNCLEAR)
    if (pattern.test(message))
      throw new Error(`unclear error (${why}) ${context}: ${JSON.stringify(message.slice(0, 300))}`);
}
