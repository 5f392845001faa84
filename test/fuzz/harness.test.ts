/**
 * The fuzz harness itself (issue 34): a failing property reports its seed, path and the command that replays it,
 * and replaying that path reaches the same counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectLinearTime, expectUserWords, fuzz, fuzzAsync, fuzzRuns } from './support/fuzz.ts';

describe('fuzz harness', () => {
  it('a failure names seed, path and a replay command', () => {
    let message = '';
    const quiet = console.error;
    console.error = () => undefined;
    try {
      fuzz(
        fc.property(fc.integer(), (n) => n < 1000),
        { runs: 200 },
      );
    } catch (error) {
      message = (error as Error).message;
    } finally {
      console.error = quiet;
    }
    expect(message).toMatch(/seed -?\d+, path [\d:]+/);
    expect(message).toMatch(
      /reproduce: FUZZ_SEED=-?\d+ FUZZ_PATH=[\d:]+ FUZZ_RUNS=1 npx vitest run test\/fuzz\/harness\.test\.ts -t "a failure names seed, path and a replay command"/,
    );
    // Replaying seed + path gives the shrunk counterexample straight away.
    const seed = Number(/seed (-?\d+)/.exec(message)![1]);
    const path = /path ([\d:]+)/.exec(message)![1]!;
    const replay = fc.check(
      fc.property(fc.integer(), (n) => n < 1000),
      { seed, path, numRuns: 1 },
    );
    expect(replay.failed).toBe(true);
    expect(replay.counterexample).toEqual([1000]);
  });

  it('async properties run and pass', async () => {
    await fuzzAsync(
      fc.asyncProperty(fc.string(), async (s) => s.length >= 0),
      { runs: 20 },
    );
  });

  it('run counts scale in the long form only', () => {
    expect(fuzzRuns(100)).toBeGreaterThanOrEqual(1);
  });

  it('unclear error texts are caught', () => {
    expect(() => expectUserWords('line 2, column 1167: Maximum call stack size exceeded')).toThrow(/stack overflow/);
    expect(() => expectUserWords('expected object, received NaN')).toThrow();
    expect(() => expectUserWords('undefined')).toThrow();
    expect(() =>
      expectUserWords('invalid message at text: Too big: expected string to have <=200000 characters'),
    ).toThrow();
    expect(() =>
      expectUserWords(
        "Failed to execute 'fetch' on 'Window': Failed to read the 'headers' property from 'RequestInit': String contains non ISO-8859-1 code point.",
      ),
    ).toThrow(/header-encoding/);
    expect(() =>
      expectUserWords('Cannot convert argument to a ByteString because the character at index 7 has a value of 8203'),
    ).toThrow(/header-encoding/);
    expect(() =>
      expectUserWords('Config line 2, column 3: nesting is too deep (more than 64 levels). Flatten the value.'),
    ).not.toThrow();
  });

  it('a quadratic routine fails the linear-time check', () => {
    const quadratic = (s: string) => {
      let n = 0;
      for (let i = 0; i < s.length; i++) for (let j = 0; j < i; j++) n += s.charCodeAt(j) & 1;
      return n;
    };
    expect(() => expectLinearTime((n) => 'a'.repeat(n), quadratic, 700, { floorMs: 1 })).toThrow(
      /faster than the input/,
    );
    expect(() =>
      expectLinearTime(
        (n) => 'a'.repeat(n),
        (s) => s.split('').length,
        20_000,
      ),
    ).not.toThrow();
  });
});
