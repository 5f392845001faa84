// docs/specs/002-ot-tools.md "YAML Flow Style Output" and the JSON option (src/shared/outputFormat.ts).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatOutput } from '../../src/shared/outputFormat.ts';

describe('YAML Flow Style Output (seed 002)', () => {
  it('Flow style formatting: simple objects inline, lists of objects as a block sequence of flow items', () => {
    expect(formatOutput({ name: 'ot.help', description: 'Help' })).toBe('{name: ot.help, description: Help}');
    expect(
      formatOutput([
        { name: 'a', n: 1 },
        { name: 'b', n: 2 },
      ]),
    ).toBe('- {name: a, n: 1}\n- {name: b, n: 2}');
    expect(
      formatOutput({ period: 'all', total_calls: 3, tools: [{ tool: 'dom.click', total_calls: 3 }], models: [] }),
    ).toBe('period: all\ntotal_calls: 3\ntools:\n  - {tool: dom.click, total_calls: 3}\nmodels: []');
  });

  it('Readability: nested structures never exceed 2 levels of flow, and the YAML parses back', () => {
    const value = { a: { b: { c: 1, d: [1, 2] } }, list: [[1, 2], [3]], s: 'x: y, "z" #' };
    const text = formatOutput(value);
    expect(parse(text)).toEqual(value);
    expect(text).toBe('a:\n  b: {c: 1, d: [1, 2]}\nlist:\n  - [1, 2]\n  - [3]\ns: \'x: y, "z" #\'');
    for (const line of text.split('\n')) {
      let depth = 0;
      let max = 0;
      for (const c of line) {
        if (c === '{' || c === '[') max = Math.max(max, ++depth);
        if (c === '}' || c === ']') depth--;
      }
      expect(max).toBeLessThanOrEqual(2);
    }
  });

  it('a map of small maps is one flow line (the spec’s snippets and proxy lines); a wide one is a block', () => {
    expect(
      formatOutput({ proxy: { status: 'ok', server_count: 1, servers: { proxy_package_version: 'connected' } } }),
    ).toBe('proxy: {status: ok, server_count: 1, servers: {proxy_package_version: connected}}');
    const wide = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`snippet_${i}`, { description: `Snippet number ${i}` }]),
    );
    const text = formatOutput({ snippets: wide });
    expect(text.split('\n')).toHaveLength(13);
    expect(text.split('\n')[1]).toBe('  snippet_0: {description: Snippet number 0}');
  });

  it('a short list of scalars is inline; a long list of strings (lines of a result) is one item per line', () => {
    expect(formatOutput({ line_numbers: [1, 2, 3] })).toBe('line_numbers: [1, 2, 3]');
    const lines = Array.from({ length: 20 }, (_, i) => `2025-01-01 INFO request ${i} done`);
    const text = formatOutput({ returned: 20, lines });
    expect(text.split('\n')).toHaveLength(22);
    expect(parse(text)).toEqual({ returned: 20, lines });
  });

  it('keeps long strings on one line (no folding) and quotes what YAML needs quoted', () => {
    const long = 'word '.repeat(100).trim();
    const text = formatOutput({ summary: long, q: "ot.result(handle='abc', offset=1, limit=50)", empty: '', n: null });
    expect(text.split('\n')).toHaveLength(1);
    expect(parse(text)).toEqual({
      summary: long,
      q: "ot.result(handle='abc', offset=1, limit=50)",
      empty: '',
      n: null,
    });
  });

  it('returns strings as they are', () => {
    expect(formatOutput('OK: Configuration reloaded')).toBe('OK: Configuration reloaded');
    expect(formatOutput('a: b', 'json')).toBe('a: b');
  });

  it('json: compact JSON, undefined members dropped', () => {
    expect(formatOutput({ a: 1, b: [1, 'x'], c: undefined, d: null }, 'json')).toBe('{"a":1,"b":[1,"x"],"d":null}');
    expect(formatOutput({ a: 1, c: undefined })).toBe('{a: 1}');
  });

  it('Dates become ISO strings in both formats', () => {
    const d = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    expect(formatOutput({ at: d }, 'json')).toBe('{"at":"2025-01-02T03:04:05.000Z"}');
    expect(parse(formatOutput({ at: d }))).toEqual({ at: '2025-01-02T03:04:05.000Z' });
  });
});
