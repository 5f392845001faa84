import { describe, expect, it } from 'vitest';
import { readStringLiteral, tokenize, tokenizePartial } from '../../src/command/index.ts';
import { catchCommandError } from './helpers.ts';

const kinds = (source: string): string[] => tokenize(source).map((t) => (t.kind === 'punct' ? t.text : t.kind));
const str = (source: string): unknown => tokenize(source)[0]?.value;

describe('lexer: tokens', () => {
  it('reads names, dotted calls, numbers, strings and punctuation', () => {
    expect(kinds('x = web.fetch(url="a", n=1)')).toEqual([
      'name',
      '=',
      'name',
      '.',
      'name',
      '(',
      'name',
      '=',
      'string',
      ',',
      'name',
      '=',
      'number',
      ')',
      'eof',
    ]);
  });

  it('gives 1-based line and column for every token', () => {
    const tokens = tokenize('a = 1\n  bb(c=2)');
    const bb = tokens.find((t) => t.text === 'bb');
    expect(bb?.pos).toEqual({ line: 2, column: 3, offset: 8 });
  });

  it('emits newlines at top level only, not inside brackets', () => {
    expect(kinds('f(\n a=1,\n b=[\n 2\n ]\n)\ng()')).toEqual([
      'name',
      '(',
      'name',
      '=',
      'number',
      ',',
      'name',
      '=',
      '[',
      'number',
      ']',
      ')',
      'newline',
      'name',
      '(',
      ')',
      'eof',
    ]);
  });

  it('skips comments to the end of the line, but not # inside strings', () => {
    expect(kinds('a = 1 # comment (\nb = "#not"')).toEqual([
      'name',
      '=',
      'number',
      'newline',
      'name',
      '=',
      'string',
      'eof',
    ]);
    expect(str('"#not"')).toBe('#not');
  });

  it('reads integers, floats, exponents and leading-dot floats', () => {
    expect(
      tokenize('42 3.5 1e3 2.5E-2 .5 7. 1e+21')
        .filter((t) => t.kind === 'number')
        .map((t) => t.value),
    ).toEqual([42, 3.5, 1000, 0.025, 0.5, 7, 1e21]);
  });

  it('lexes "-" as its own token (the parser makes negative numbers)', () => {
    expect(kinds('-5')).toEqual(['-', 'number', 'eof']);
  });

  it('reads names with inner hyphens (MCP tool names), but a-1 is a name and a number', () => {
    expect(tokenize('github.get-issue')[2]?.text).toBe('get-issue');
    expect(kinds('a-1')).toEqual(['name', '-', 'number', 'eof']);
  });

  it('treats \\r, tabs, NBSP and BOM as whitespace', () => {
    expect(kinds('\ufeffa\t=\u00a01\r\n')).toEqual(['name', '=', 'number', 'newline', 'eof']);
  });
});

describe('lexer: strings', () => {
  it('reads single- and double-quoted strings', () => {
    expect(str(`'it"s'`)).toBe('it"s');
    expect(str(`"it's"`)).toBe("it's");
  });

  it('decodes escapes', () => {
    expect(str(String.raw`"a\nb\tc\\d\"e\'f\r\x41\u00e9\u{1F600}\U0001F600\0\101\a\b\f\v"`)).toBe(
      'a\nb\tc\\d"e\'f\rAé😀😀\0A\x07\b\f\v',
    );
  });

  it('keeps unknown escapes as written (like Python), so regexes work', () => {
    expect(str(String.raw`"\d+\s"`)).toBe('\\d+\\s');
  });

  it('treats backslash-newline as a line continuation', () => {
    expect(str('"a\\\nb"')).toBe('ab');
  });

  it('reads triple-quoted multi-line strings with quotes inside', () => {
    expect(str('"""line 1\nline "2"\n"""')).toBe('line 1\nline "2"\n');
    expect(str("'''a\n'b'\n'''")).toBe("a\n'b'\n");
  });

  it('keeps unicode as is', () => {
    expect(str('"héllo 世界 🎉"')).toBe('héllo 世界 🎉');
  });

  it('readStringLiteral returns the value and the end offset', () => {
    expect(readStringLiteral('x="ab" y', 2)).toEqual({ value: 'ab', end: 6 });
  });
});

describe('lexer: errors', () => {
  it('unterminated string: points at the opening quote', () => {
    const error = catchCommandError(() => tokenize('a = 1\nb = "abc'));
    expect([error.line, error.column, error.reason]).toEqual([2, 5, 'unterminated string']);
    expect(error.message).toBe('line 2, column 5: unterminated string');
  });

  it('a newline ends a single-quoted string: unterminated', () => {
    const error = catchCommandError(() => tokenize("f(a='x\n')"));
    expect([error.line, error.column, error.reason]).toEqual([1, 5, 'unterminated string']);
  });

  it('unterminated triple-quoted string', () => {
    const error = catchCommandError(() => tokenize('x = """abc\n\ndef'));
    expect([error.line, error.column, error.reason]).toEqual([1, 5, 'unterminated triple-quoted string']);
  });

  it('bad \\x and \\u escapes point at the backslash', () => {
    const x = catchCommandError(() => tokenize('"ab\\xZZ"'));
    expect([x.line, x.column]).toEqual([1, 4]);
    expect(x.reason).toMatch(/invalid \\x escape/);
    const u = catchCommandError(() => tokenize('"\\u12"'));
    expect(u.reason).toMatch(/invalid \\u escape/);
    const big = catchCommandError(() => tokenize('"\\u{110000}"'));
    expect(big.reason).toMatch(/invalid \\u\{…\} escape/);
  });

  it('unexpected character', () => {
    const error = catchCommandError(() => tokenize('a = 1\nb = @'));
    expect([error.line, error.column, error.reason]).toEqual([2, 5, "unexpected character '@'"]);
  });

  it('a backslash outside strings', () => {
    const error = catchCommandError(() => tokenize('f(a=1) \\'));
    expect([error.line, error.column]).toEqual([1, 8]);
    expect(error.reason).toMatch(/line continuations are not supported/);
  });

  it('invalid numbers', () => {
    expect(catchCommandError(() => tokenize('x = 12abc')).column).toBe(5);
    expect(catchCommandError(() => tokenize('x = 1.2.3')).reason).toMatch(/invalid number/);
    expect(catchCommandError(() => tokenize('x = 1e999')).reason).toMatch(/number out of range/);
  });

  it('string prefixes (r"", f"") are refused with a clear message', () => {
    const error = catchCommandError(() => tokenize('x = f"{a}"'));
    expect([error.line, error.column]).toEqual([1, 5]);
    expect(error.reason).toMatch(/string prefixes .* not supported/);
  });

  it('tokenizePartial returns the tokens before the error and where it stopped', () => {
    const result = tokenizePartial('a(b="x") c("unterminated');
    expect(result.error?.reason).toBe('unterminated string');
    expect(result.stoppedAt).toBe(11);
    expect(result.tokens.map((t) => t.text)).toEqual(['a', '(', 'b', '=', '"x"', ')', 'c', '(']);
  });
});
