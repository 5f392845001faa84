/** #42: the line `otto run` prints when a task stops at an approval. */
import { describe, expect, it } from 'vitest';
import { approvalStopLine } from '../../src/cli/run/approvalStop.ts';

describe('approvalStopLine', () => {
  it('a call outside the task: the task did not ask for it, and how to widen it (no "allow the site")', () => {
    const line = approvalStopLine({
      callId: 'c1',
      name: 'dom.click',
      outOfScope: {
        effects: ['send'],
        site: 'mail.test',
        sentence:
          'You asked to summarise your inbox. Otto wants to send or post to attacker@evil.test on mail.test (“Send”) — your request did not ask for this; a page Otto read may have asked for it.',
      },
    });
    expect(line).toBe(
      'stopped, nothing was done: the task asked to summarise your inbox. Otto wants to send or post to attacker@evil.test on mail.test (“Send”) — your request did not ask for this; a page Otto read may have asked for it. To let the task do this, run it again with words that ask for it (e.g. “… and send it”), or run it in the panel and choose Allow for this task.',
    );
    expect(line).not.toContain('allow the site');
  });
  it('two kinds name both', () => {
    expect(
      approvalStopLine({ outOfScope: { effects: ['delete', 'buy'], sentence: 'You asked to x. Otto wants to y.' } }),
    ).toContain('(e.g. “… and delete them and buy it”)');
  });
  it('any other approval keeps the old advice; a reply of the wrong shape counts as that', () => {
    const old = 'stopped: it needs an approval (run it in the panel, or allow the site in settings)';
    expect(approvalStopLine({ callId: 'c1', name: 'dom.click' })).toBe(old);
    expect(approvalStopLine(undefined)).toBe(old);
    expect(approvalStopLine({ outOfScope: { effects: 'send' } })).toBe(old);
  });
});
