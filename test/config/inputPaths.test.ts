/**
 * Config errors a careless user meets (issue 34): each at its node, in plain words, once — never "Maximum call
 * stack", "NaN", a validator's dump, or line 1 column 1 for a problem elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { formatProblems, parseConfigYaml, parseSecretsYaml, MAX_NESTING } from '../../src/config/parse.ts';
import { expectLinearTime, expectUserWords } from '../fuzz/support/fuzz.ts';

function problems(text: string): string {
  const out = parseConfigYaml(text);
  if (out.ok) throw new Error('expected problems');
  const shown = formatProblems(out.problems);
  for (const p of out.problems) expectUserWords(p.message);
  return shown;
}

const NESTING = `nested more than ${MAX_NESTING} levels deep ([ or { inside each other): settings never need that many; remove the extra brackets or indentation`;

describe('config input paths', () => {
  it('regression: [ × 1,186 is refused by name, once, where the nesting passes the limit', () => {
    expect(problems(`version: 2\nx: ${'['.repeat(1186)}`)).toBe(`line 2, column 68: ${NESTING}`);
  });

  it('regression: a closed deep value in a snippet default is refused the same way', () => {
    const deep = `${'['.repeat(1186)}${']'.repeat(1186)}`;
    expect(problems(`snippets:\n  a:\n    body: x\n    params: {p: {default: ${deep}}}`)).toBe(
      `line 4, column 89: ${NESTING}`,
    );
  });

  it('deep indentation is refused too; 60 levels are fine', () => {
    const block = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n');
    expect(problems(`a:\n${block}x`)).toMatch(/^line \d+, column \d+: nested more than 64 levels deep/);
    const ok = `snippets:\n  a:\n    body: x\n    params: {p: {default: ${'['.repeat(58)}${']'.repeat(58)}}}`;
    expect(parseConfigYaml(ok).ok).toBe(true);
  });

  it('regression: an alias used before its anchor is placed at the alias', () => {
    expect(problems('agent:\n  model: *a\nx: &a 1')).toBe(
      'line 2, column 10: alias *a is used before its anchor &a is set: put &a on a value above this line, or write the value here',
    );
  });

  it('regression: a config that is only .nan says so in plain words', () => {
    expect(problems('.nan')).toBe(
      'line 1, column 1: the whole file: should be a map (one "key: value" per line), not .nan (not a number)',
    );
  });

  it('wrong values are said in plain words at their key', () => {
    expect(problems('agent:\n  max_turns: 0')).toBe('line 2, column 14: agent.max_turns: should be at least 1');
    expect(problems('agent:\n  mode: fast')).toBe('line 2, column 9: agent.mode: should be one of: tools, code, both');
    expect(problems('agent:\n  temperature: 1\n  model: ""')).toBe(
      'line 3, column 10: agent.model: should not be empty',
    );
    expect(problems('snippets:\n  a: {}')).toBe('line 2, column 6: snippets.a.body: is required: write text');
    expect(problems('agent:\n  request_timeout: .inf')).toMatch(
      /agent\.request_timeout: should be a number, not infinite/,
    );
  });

  it('regression: a server URL without a scheme is rejected with the reason at save', () => {
    expect(problems('servers:\n  x:\n    url: localhost:8080/mcp')).toBe(
      'line 3, column 10: servers.x.url: has no http:// or https:// at the start: write http://localhost:8080/mcp (or https://…)',
    );
    expect(problems('servers:\n  x:\n    url: http://[::1')).toMatch(/without its closing \]/);
    expect(problems('servers:\n  x:\n    url: http://300.300.300.300/mcp')).toMatch(
      /not an IP address: each of its four numbers is at most 255/,
    );
    expect(problems('agent:\n  base_url: ftp://example.com')).toMatch(
      /starts with ftp:\/\/: Otto connects over http:\/\/ or https:\/\/ only/,
    );
  });

  it('too many aliases is said at the first alias, in words', () => {
    const laughs =
      'a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]';
    expect(problems(laughs)).toBe(
      'line 2, column 8: the aliases (*name) here expand into too much text: write the values out instead',
    );
  });

  it('secrets that are not a map say so in words', () => {
    const out = parseSecretsYaml('- a');
    expect(!out.ok && out.problems[0]?.message).toBe(
      'the whole file: should be a map (one "key: value" per line), not a list',
    );
  });
});

describe('large configs', () => {
  it('regression: a key given twice is refused at the repeat, in words (checked in one pass)', () => {
    expect(problems('agent:\n  model: a\n  model: b')).toBe(
      'line 3, column 3: the key "model" appears twice in this map: keep one',
    );
  });

  it(
    'regression: thousands of keys in one map parse in linear time (the reader compared every key with every other)',
    { timeout: 60_000 },
    () => {
      // 2,500 then 20,000 aliases: the reader's own duplicate check made the second 22× slower (12.7 s), not 8×.
      const config = (n: number) => `aliases:\n${Array.from({ length: n }, (_, i) => `  a${i}: x.y\n`).join('')}`;
      expectLinearTime(config, (t) => parseConfigYaml(t), 2500, { slack: 2, floorMs: 300, rounds: 1 });
    },
  );
});
