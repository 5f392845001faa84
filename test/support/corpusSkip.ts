/**
 * Tests that read the shared corpora (`../shared/corpora`, outside the repository): where the folder is absent — a bare
 * clone — they skip and the report says why; in CI (`.ci/run` sets `OTTO_REQUIRE_CORPORA=1`) an absent corpus is an
 * error, so these tests cannot silently stop running there.
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';

/** Why a corpus test did not run, as the name of the skipped test the report shows. */
export function corpusAbsentReason(path: string): string {
  if (process.env.OTTO_REQUIRE_CORPORA === '1') throw new Error(`OTTO_REQUIRE_CORPORA=1 but ${path} is absent`);
  return `skipped: ${path} is absent (the shared corpora are not part of the repository; CI runs this)`;
}

/** `describe(name, body)` where `path` exists; elsewhere one skipped test whose name says which folder is missing. */
export function describeWithCorpus(path: string, name: string, body: () => void): void {
  if (existsSync(path)) describe(name, body);
  else describe(name, () => it.skip(corpusAbsentReason(path), () => undefined));
}

/** `it(name, body)` where `path` exists; elsewhere a skipped test whose name says which folder is missing. */
export function itWithCorpus(path: string, name: string, body: () => Promise<void> | void): void {
  if (existsSync(path)) it(name, body);
  else it.skip(`${name}: ${corpusAbsentReason(path)}`, () => undefined);
}
