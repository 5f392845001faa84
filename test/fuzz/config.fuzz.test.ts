/**
 * Fuzz: the config and the settings forms (issue 34). Generated YAML through the parser and validator, and form
 * edits through patchYaml: nothing throws; every problem sits at a real line/column and is in plain words; an edit
 * that saves reads back exactly (every character of a text value kept); URLs are judged with a reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigYaml } from '../../src/config/parse.ts';
import { patchYaml, writtenValue } from '../../src/config/edit.ts';
import { newServerFields } from '../../src/ui/settings/serverForm.ts';
import { httpUrlProblem } from '../../src/shared/urlProblem.ts';
import { expectLinearTime, expectUserWords, fuzz, fuzzTimeout } from './support/fuzz.ts';

const KEYS = [
  'agent',
  'model',
  'max_turns',
  'mode',
  'base_url',
  'servers',
  'x',
  'url',
  'snippets',
  'body',
  'params',
  'default',
  'version',
  'aliases',
  'output',
  'format',
  'temperature',
];
const VALUES = [
  '1',
  '0',
  '-1',
  '.nan',
  '.inf',
  '~',
  'null',
  'true',
  'yes',
  '""',
  "''",
  'text',
  'localhost:8080/mcp',
  'http://[::1',
  'http://300.300.300.300/mcp',
  'https://ok.example/v1',
  '[',
  ']',
  '{',
  '}',
  '[]',
  '{}',
  '&a 1',
  '*a',
  '*b',
  '!!str 1',
  '!!binary x',
  '|',
  '>',
  '- a',
  '1e999',
  '0x1F',
  '"\\u0000"',
  '😀',
  '\u200b',
  '#c',
];
const line = fc
  .tuple(
    fc.integer({ min: 0, max: 6 }),
    fc.constantFrom(...KEYS),
    fc.constantFrom(': ', ':', ' : ', '- ', ''),
    fc.array(fc.constantFrom(...VALUES), { maxLength: 3 }),
  )
  .map(([indent, key, sep, vals]) => `${' '.repeat(indent * 2)}${key}${sep}${vals.join(' ')}`);
const yamlText = fc.oneof(
  fc.array(line, { maxLength: 12 }).map((ls) => ls.join('\n')),
  fc.string({ maxLength: 80 }),
  fc
    .tuple(fc.constantFrom('[', '{', '- ', '  - '), fc.integer({ min: 50, max: 400 }))
    .map(([c, n]) => `x: ${c.repeat(n)}`),
);

describe('fuzz: config parse and validate', () => {
  it(
    'any text: no throw, problems at real positions, in plain words',
    () => {
      fuzz(
        fc.property(yamlText, (text) => {
          const out = parseConfigYaml(text);
          const lines = text.split(/\r\n|\r|\n/).length;
          for (const p of [...(out.ok ? [] : out.problems), ...out.warnings]) {
            expect(p.line).toBeGreaterThanOrEqual(1);
            expect(p.line).toBeLessThanOrEqual(lines + 1);
            expect(p.column).toBeGreaterThanOrEqual(1);
            expectUserWords(p.message, JSON.stringify(text.slice(0, 120)));
          }
          if (!out.ok) {
            // One mistake is said once: no message repeated.
            const messages = out.problems.map((p) => `${p.line}:${p.column}:${p.message}`);
            expect(new Set(messages).size).toBe(messages.length);
          }
        }),
        { runs: 400 },
      );
    },
    fuzzTimeout(),
  );

  it(
    'time is roughly linear in the number of snippets',
    () => {
      const config = (n: number) =>
        `snippets:\n${Array.from({ length: n }, (_, i) => `  s${i}:\n    body: ot.help(query="{{ q }}")\n    params: {q: {default: "x"}}\n`).join('')}`;
      expectLinearTime(config, (t) => parseConfigYaml(t), 30, { slack: 4, floorMs: 40 });
    },
    fuzzTimeout(),
  );
});

/** Paths the forms edit, with values of the right kind and of the wrong kind. */
const EDIT_PATHS: readonly string[][] = [
  ['agent', 'model'],
  ['agent', 'base_url'],
  ['agent', 'instructions'],
  ['agent', 'max_turns'],
  ['transform', 'model'],
  ['servers', 'srv', 'url'],
  ['servers', 'srv', 'headers', 'Authorization'],
  ['snippets', 's', 'body'],
  ['snippets', 's', 'description'],
  ['aliases', 'ws'],
];
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    'a: b\nc',
    ' lead',
    'trail ',
    '#x',
    '- x',
    '"q"',
    "'q'",
    '{a: 1}',
    'null',
    '~',
    'yes',
    '1',
    '.nan',
    '\t',
    '\r\n',
    '\\',
    '|',
    '>',
    '&a',
    '*a',
    '!x',
    '%x',
    '@x',
    '`x',
  ),
);
const editValue = fc.oneof(anyString, fc.integer(), fc.boolean(), fc.constant(undefined));
const startText = fc.constantFrom(
  '',
  '# mine\nagent:\n  model: gpt-5 # keep\n',
  '{}',
  'version: 1\nagent:\n  model: x\n',
  'servers:\n  srv:\n    url: https://a.example/mcp\n',
);

describe('fuzz: settings form edits', () => {
  it('an edit either saves and reads back exactly, or is refused in plain words', () => {
    fuzz(
      fc.property(
        startText,
        fc.array(fc.tuple(fc.constantFrom(...EDIT_PATHS), editValue), { minLength: 1, maxLength: 4 }),
        (start, edits) => {
          let next: string;
          try {
            next = patchYaml(
              start,
              edits.map(([path, value]) => ({ path, value })),
            );
          } catch (error) {
            expectUserWords((error as Error).message);
            return;
          }
          const out = parseConfigYaml(next);
          if (!out.ok) for (const p of out.problems) expectUserWords(p.message, JSON.stringify(next.slice(0, 200)));
          // The last edit of each path is what the text now holds, character for character.
          const last = new Map<string, unknown>();
          for (const [path, value] of edits) last.set(path.join('\u0000'), value);
          for (const [key, value] of last) {
            const got = writtenValue(next, key.split('\u0000'));
            if (value === undefined) continue; // removing may leave a parent empty or absent
            expect(got).toEqual(value);
          }
        },
      ),
      { runs: 80 },
    );
  });
});

describe('fuzz: URLs in the forms and the config', () => {
  it('a URL is accepted only when the browser can use it, and refused with a reason', () => {
    const url = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string({ maxLength: 40 }),
      fc
        .tuple(
          fc.constantFrom('http://', 'https://', 'ftp://', '', '//', 'http:/', 'HTTP://'),
          fc.constantFrom(
            '[::1',
            '[::1]',
            '300.300.300.300',
            '1.2.3.4',
            'localhost',
            'a b',
            '',
            'x:99999',
            'x:0',
            '%%',
            'ex.com',
          ),
          fc.constantFrom('', '/mcp', ':8080/mcp', '?a=1'),
        )
        .map(([a, b, c]) => `${a}${b}${c}`),
    );
    fuzz(
      fc.property(url, (u) => {
        const problem = httpUrlProblem(u);
        if (problem === undefined) {
          expect(/^https?:$/.test(new URL(u.trim()).protocol)).toBe(true);
        } else expectUserWords(problem);
        const form = newServerFields({ name: 'srv', url: u, headers: '', timeout: '' }, []);
        if (!form.ok && form.problem) expectUserWords(form.problem);
        const config = parseConfigYaml(`servers:\n  srv:\n    url: ${JSON.stringify(u)}\n`);
        if (!config.ok) for (const p of config.problems) expectUserWords(p.message);
        else expect(problem).toBeUndefined();
      }),
      { runs: 200 },
    );
  });
});
