import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/shared/oneLine.ts';
import { sleep } from '../../src/shared/sleep.ts';

describe('oneLine', () => {
  it('puts text on one row: whitespace runs become one space, ends trimmed', () => {
    expect(oneLine('  Order\n\n  #42\t shipped \r\n')).toBe('Order #42 shipped');
  });

  it('cuts text longer than max to max characters, the last one an ellipsis', () => {
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
    expect(oneLine('abcde', 5)).toBe('abcde');
  });
});

describe('sleep', () => {
  it('resolves after the wait', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('rejects with an AbortError as soon as its signal aborts', async () => {
    const c = new AbortController();
    const wait = sleep(60_000, c.signal);
    c.abort();
    await expect(wait).rejects.toMatchObject({ name: 'AbortError', message: 'The wait was aborted.' });
    await expect(sleep(1, c.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
