import { describe, expect, it } from 'vitest';
import { formatCall, formatLiteral, formatString, isName, parse, runProgram } from '../../src/command/index.ts';
import { catchCommandError, recordingCall } from './helpers.ts';

async function evaluate(source: string): Promise<unknown> {
  return (await runProgram(source, { call: recordingCall().call })).value;
}

describe('formatLiteral', () => {
  it('writes scalars in the language', () => {
    expect(formatLiteral('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(formatLiteral(42)).toBe('42');
    expect(formatLiteral(-1.5)).toBe('-1.5');
    expect(formatLiteral(1e21)).toBe('1e+21');
    expect(formatLiteral(-0)).toBe('-0');
    expect(formatLiteral(true)).toBe('True');
    expect(formatLiteral(false)).toBe('False');
    expect(formatLiteral(null)).toBe('None');
  });

  it('writes lists and dicts with quoted keys', () => {
    expect(formatLiteral([1, 'a', [true], { k: null, 'odd key': [] }])).toBe(
      '[1, "a", [True], {"k": None, "odd key": []}]',
    );
  });

  it('escapes control characters and lone surrogates; keeps other unicode', () => {
    expect(formatString('\x00\x1f\x7f\t\r')).toBe('"\\x00\\x1f\\x7f\\t\\r"');
    expect(formatString('\ud800x\udc00')).toBe('"\\ud800x\\udc00"');
    expect(formatString('é世😀')).toBe('"é世😀"');
  });

  it('round-trips awkward values through parse and evaluate', async () => {
    const values: unknown[] = [
      '',
      "'",
      '"""',
      '\\',
      'a\\nb',
      '\ud83d',
      'line\nline',
      -0,
      5e-324,
      Number.MAX_VALUE,
      -123456789.125,
      { '': { '"': ["'"] } },
    ];
    for (const value of values) expect(await evaluate(formatLiteral(value))).toEqual(value);
    expect(Object.is(await evaluate(formatLiteral(-0)), -0)).toBe(true);
  });

  it('refuses values that are not literals, with CommandError', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    for (const bad of [
      undefined,
      NaN,
      Infinity,
      -Infinity,
      () => 1,
      Symbol('s'),
      10n,
      new Date(0),
      new Map(),
      cyclic,
      [undefined],
    ]) {
      const error = catchCommandError(() => formatLiteral(bad));
      expect(error.kind).toBe('value');
    }
  });

  it('refuses values nested deeper than the parser accepts', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 500; i++) deep = [deep];
    expect(catchCommandError(() => formatLiteral(deep)).reason).toMatch(/nested too deeply/);
  });

  it('accepts null-prototype objects', () => {
    const obj = Object.create(null) as Record<string, unknown>;
    obj.a = 1;
    expect(formatLiteral(obj)).toBe('{"a": 1}');
  });
});

describe('formatCall', () => {
  it('writes a keyword-argument call that parses', () => {
    const text = formatCall('web.fetch', { url: 'https://x.test/?q="a"', timeout: 5, skip: undefined });
    expect(text).toBe('web.fetch(url="https://x.test/?q=\\"a\\"", timeout=5)');
    expect(() => parse(text)).not.toThrow();
    expect(formatCall('ot.help')).toBe('ot.help()');
  });

  it('refuses names that cannot be written', () => {
    expect(catchCommandError(() => formatCall('web.fetch', { 'bad key': 1 })).kind).toBe('value');
    expect(catchCommandError(() => formatCall('web fetch')).kind).toBe('value');
  });

  it('isName accepts identifiers (with inner hyphens) and refuses keywords', () => {
    expect(['a', '_b', 'get-issue', 'x1'].every(isName)).toBe(true);
    expect(['1a', 'a-', '-a', 'True', 'null', 'a.b', ''].some(isName)).toBe(false);
  });
});
