import { describe, expect, it } from 'vitest';
import {
  MAX_WATCH_VALUE,
  watchTaskMessage,
  watchValueFromAnswer,
  watchValueFromOutput,
} from '../../src/shared/watchValue.ts';

describe('watch values', () => {
  it("a snippet's value is its output, trimmed", () => {
    expect(watchValueFromOutput('  $39.99\n')).toBe('$39.99');
    expect(watchValueFromOutput('x'.repeat(MAX_WATCH_VALUE + 5))).toHaveLength(MAX_WATCH_VALUE);
  });

  it("page text inside Otto's boundary is the value, not Otto's own line", () => {
    expect(
      watchValueFromOutput(
        'Text of #price (12 chars):\n<external-content-3fa9c2d1>\n$39.99\n</external-content-3fa9c2d1>',
      ),
    ).toBe('$39.99');
  });

  it("a task's value is its last VALUE: line, markup removed", () => {
    expect(watchValueFromAnswer('The price is shown in the header.\n\n**VALUE:** $39.99')).toBe('$39.99');
    expect(watchValueFromAnswer('VALUE: 45\nI checked again.\nvalue: `42`')).toBe('42');
  });

  it("without a VALUE: line, the answer's last non-empty line", () => {
    expect(watchValueFromAnswer('The status page says:\nAll systems operational\n\n')).toBe('All systems operational');
    expect(watchValueFromAnswer('')).toBe('');
  });

  it('asks the model for the value on a line of its own', () => {
    expect(watchTaskMessage(' What does the status page say? ', 'changed')).toBe(
      'What does the status page say?\n\nThis run is a watch (changed): end your answer with one line "VALUE: <the value you read>", the value exactly as the page shows it.',
    );
  });
});
