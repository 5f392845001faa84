/**
 * Linear time on long runs of whitespace (issue 34): the panel classifies the composer's text on every keystroke,
 * and `$brv topic=` + 20,000 spaces + `b` took 182 ms (a backtracking regex in the snippet and /help parsers).
 */
import { describe, expect, it } from 'vitest';
import { classifyInput, parseHelpCommand, parseSnippetInvocation } from '../../src/command/index.ts';
import { expectLinearTime } from '../fuzz/support/fuzz.ts';

const vocabulary = { packs: ['ot', 'web'], aliases: {}, snippets: {} };

describe('linear parsing of long whitespace runs', () => {
  it('regression: $brv topic= + 20,000 spaces + b classifies and parses in a few ms', () => {
    const text = `$brv topic=${' '.repeat(20_000)}b`;
    const started = performance.now();
    expect(classifyInput(text, vocabulary)).toBe('command');
    expect(parseSnippetInvocation(text).args).toEqual({ topic: 'b' });
    expect(performance.now() - started).toBeLessThan(40);
  });

  it('regression: /help x + 20,000 spaces + x', () => {
    const text = `/help x${' '.repeat(20_000)}x`;
    const started = performance.now();
    expect(parseHelpCommand(text)).toBe(`x${' '.repeat(20_000)}x`);
    expect(performance.now() - started).toBeLessThan(40);
  });

  it('/help keeps its meaning', () => {
    expect(parseHelpCommand('/help')).toBe('');
    expect(parseHelpCommand('  /help  ')).toBe('');
    expect(parseHelpCommand('/help  dom click \n')).toBe('dom click');
    expect(parseHelpCommand('/helpx')).toBeNull();
    expect(parseHelpCommand('say /help')).toBeNull();
  });

  it('an unquoted value still runs to the next key=', () => {
    expect(parseSnippetInvocation('$s a=one two  b=three').args).toEqual({ a: 'one two', b: 'three' });
    expect(parseSnippetInvocation('$s a=x\t\tb=y').args).toEqual({ a: 'x', b: 'y' });
  });

  it('classification time grows linearly with spaces, tabs and mixed whitespace', () => {
    for (const ws of [' ', '\t', ' \t', '\u00a0']) {
      expectLinearTime(
        (n) => `$brv topic=${ws.repeat(n)}b`,
        (t) => classifyInput(t, vocabulary),
        4000,
      );
      expectLinearTime(
        (n) => `/help a${ws.repeat(n)}b`,
        (t) => classifyInput(t, vocabulary),
        4000,
      );
      expectLinearTime(
        (n) => `$brv a=b${ws.repeat(n)}c`,
        (t) => parseSnippetInvocation(t),
        4000,
      );
    }
  });
});
