/**
 * Fuzz: the command language (issue 34). Generated input through classify, the snippet parser, parse and run:
 * only CommandError escapes and its message is in plain words at a real line/column; time stays linear in long
 * runs of whitespace; snippets that start each other (through ot.run) always end, with the nesting or step limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CommandError,
  classifyInput,
  parse,
  parseSnippetInvocation,
  runProgram,
  tokenizePartial,
} from '../../src/command/index.ts';
import { runCommandText } from '../../src/tools/packs/ot/index.ts';
import { otFixture } from '../packs/otSupport.ts';
import { expectLinearTime, expectUserWords, fuzz, fuzzAsync, fuzzTimeout } from './support/fuzz.ts';

const PIECES = [
  '$',
  '$brv',
  '$loop',
  '/help',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u3000',
  'topic=',
  'a=',
  'k: ',
  '=',
  ':',
  '"',
  "'",
  '"""',
  '\\',
  '\\=',
  'x',
  'ot.help(',
  'web.fetch(',
  ')',
  '(',
  '[',
  ']',
  '{',
  '}',
  ',',
  '#',
  'query="q"',
  'a = ',
  'None',
  'True',
  '1e999',
  '-',
  '.',
  'undefined',
  'NaN',
  '😀',
  '\ud800',
  '\u200b',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((p) => p.join('')),
  fc.string({ maxLength: 60 }),
  // Long whitespace runs between pieces: the shape that was quadratic.
  fc
    .tuple(
      fc.constantFrom(...PIECES),
      fc.constantFrom(' ', '\t', ' \t', '\u00a0'),
      fc.integer({ min: 0, max: 3000 }),
      fc.constantFrom(...PIECES),
    )
    .map(([a, ws, n, b]) => `${a}${ws.repeat(n)}${b}`),
);
const vocabulary = { packs: ['ot', 'web'], aliases: { ws: 'web.fetch' }, snippets: { brv: {} } };

function checkCommandError(error: unknown, source: string): void {
  if (!(error instanceof CommandError)) throw new Error(`threw a non-CommandError: ${String(error)}`);
  expectUserWords(error.reason, JSON.stringify(source.slice(0, 80)));
  if (error.line !== null) {
    expect(error.line).toBeGreaterThanOrEqual(1);
    expect(error.line).toBeLessThanOrEqual(source.split('\n').length + 1);
  }
  if (error.column !== null) expect(error.column).toBeGreaterThanOrEqual(1);
}

describe('fuzz: command language', () => {
  it('classify, snippet parsing, parsing and running: only clear CommandErrors, fast', async () => {
    await fuzzAsync(
      fc.asyncProperty(text, async (source) => {
        const started = performance.now();
        expect(['command', 'chat']).toContain(classifyInput(source, vocabulary));
        tokenizePartial(source);
        for (const step of [() => parse(source), () => parseSnippetInvocation(source)]) {
          try {
            step();
          } catch (error) {
            checkCommandError(error, source);
          }
        }
        try {
          await runProgram(source, { call: async (name) => name, isKnownCallable: (n) => n.includes('.') });
        } catch (error) {
          checkCommandError(error, source);
        }
        // A few thousand characters take milliseconds; 250 ms leaves room for a loaded machine.
        expect(performance.now() - started).toBeLessThan(250);
      }),
      { runs: 300 },
    );
  });

  it(
    'time is linear in a run of whitespace wherever it stands',
    () => {
      fuzz(
        fc.property(
          fc.constantFrom(...PIECES),
          fc.constantFrom(...PIECES),
          fc.constantFrom(' ', '\t', '\u00a0'),
          (a, b, ws) => {
            expectLinearTime(
              (n) => `${a}${ws.repeat(n)}${b}`,
              (t) => classifyInput(t, vocabulary),
              3000,
            );
            expectLinearTime(
              (n) => `$brv ${a}=${ws.repeat(n)}${b}`,
              (t) => {
                try {
                  parseSnippetInvocation(t);
                } catch {
                  // errors are fine here; time is what is measured
                }
              },
              3000,
            );
          },
        ),
        { runs: 12 },
      );
    },
    fuzzTimeout(),
  );

  it(
    'snippets that start each other through ot.run always end, with a clear limit',
    async () => {
      const names = ['a', 'b', 'c'];
      const body = fc
        .array(
          fc.constantFrom(...names.map((n) => `ot.run(code="$${n}")`), 'demo.foo(n=1)', `ot.run(code="demo.foo(n=2)")`),
          {
            minLength: 1,
            maxLength: 3,
          },
        )
        .map((lines) => lines.join('\n'));
      await fuzzAsync(
        fc.asyncProperty(fc.tuple(body, body, body), fc.constantFrom(...names), async (bodies, start) => {
          const snippets = Object.fromEntries(names.map((n, i) => [n, { body: bodies[i]! }]));
          const f = otFixture({ snippets });
          const started = performance.now();
          try {
            await runCommandText(`$${start}`, f.ctx, { registry: f.registry });
          } catch (error) {
            checkCommandError(error, `$${start}`);
            expect(['limit', 'tool']).toContain((error as CommandError).kind);
          }
          expect(performance.now() - started).toBeLessThan(5000);
        }),
        { runs: 25 },
      );
    },
    fuzzTimeout(60_000),
  );
});
