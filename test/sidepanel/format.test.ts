import { describe, expect, it } from 'vitest';
import {
  argsSummary,
  formatDuration,
  metadataDuration,
  prettyJson,
  resultHandle,
  truncate,
} from '../../src/sidepanel/lib/displayFormat.ts';

describe('panel formatters', () => {
  it('finds a stored result handle in JSON or YAML flow references', () => {
    expect(
      resultHandle(`{"handle":"a1b2c3","total_lines":900,"query":"ot.result(handle='a1b2c3', offset=1, limit=50)"}`),
    ).toBe('a1b2c3');
    expect(resultHandle(`{handle: f00d, total_lines: 12, query: "ot.result(handle='f00d', offset=1, limit=50)"}`)).toBe(
      'f00d',
    );
    expect(resultHandle('{"tabs":[]}')).toBeUndefined();
  });

  it('reads the interceptor duration from an object result', () => {
    expect(metadataDuration('{"x":1,"_execution_metadata":{"duration_ms":12.34,"tool_name":"tabs.list"}}')).toBe(12.34);
    expect(metadataDuration('Error: nope')).toBeUndefined();
  });

  it('formats durations, arguments and previews', () => {
    expect(formatDuration(4.2)).toBe('4 ms');
    expect(formatDuration(1530)).toBe('1.5 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(61_000)).toBe('1 min 1 s');
    expect(argsSummary('{"tab_id":3,"url":"https://a.example"}')).toBe('tab_id: 3, url: "https://a.example"');
    expect(argsSummary('not json')).toBe('not json');
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('plain')).toBe('plain');
    expect(truncate('abcdef', 3)).toEqual({ text: 'abc…', truncated: true });
  });
});
