/**
 * Fuzz: secrets (issue 34). Any sequence of adds, replacements and removals through the stored YAML keeps every
 * value character for character (a model map is the oracle); a refused value is refused in plain words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeSecretsText, secretValueProblem } from '../../src/config/secretsText.ts';
import { parseSecretsYaml } from '../../src/config/parse.ts';
import { expectUserWords, fuzz } from './support/fuzz.ts';

const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom(
      ':',
      '\n',
      ' ',
      '\t',
      '\r',
      '#',
      '"',
      "'",
      '\\',
      '{',
      '}',
      '[',
      ']',
      ',',
      '-',
      '?',
      '|',
      '>',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      'a',
      '\u0085',
      '\u2028',
      '\ufeff',
    ),
    maxLength: 16,
  }),
);
const name = fc.constantFrom('OPENAI_API_KEY', 'A', 'B_2', 'TOKEN');
const op = fc.oneof(
  fc.tuple(fc.constant('set' as const), name, value),
  fc.tuple(fc.constant('remove' as const), name, fc.constant('')),
);

describe('fuzz: secrets round trip', () => {
  it('every value round-trips through any sequence of edits; refusals are in plain words', () => {
    fuzz(
      fc.property(
        fc.constantFrom('', '{}\n', '# keys\n\nA: "1"\n', 'B_2: |\n  x:\n  y\n'),
        fc.array(op, { maxLength: 8 }),
        (start, ops) => {
          let text: string = start;
          const model = new Map<string, string>(
            Object.entries((parseSecretsYaml(start) as { value: Record<string, string> }).value),
          );
          for (const [kind, key, v] of ops) {
            if (kind === 'remove') {
              text = mergeSecretsText(text, {}, [key]);
              model.delete(key);
              continue;
            }
            const problem = secretValueProblem(key, v);
            if (problem) {
              expectUserWords(problem);
              continue; // refused before anything is stored
            }
            text = mergeSecretsText(text, { [key]: v });
            model.set(key, v);
          }
          const out = parseSecretsYaml(text);
          if (!out.ok) throw new Error(`stored secrets no longer parse: ${out.problems[0]?.message}\n${text}`);
          expect(out.value).toEqual(Object.fromEntries(model));
        },
      ),
      { runs: 300 },
    );
  });
});
