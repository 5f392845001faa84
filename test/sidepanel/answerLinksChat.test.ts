/**
 * The link verdicts reach the message list as data (issue #42 part 3): from the `item` event and from a reloaded
 * transcript alike, parsed by zod; a verdict that does not parse counts as none (every link of the message asks).
 */
import { describe, expect, it } from 'vitest';
import { chatReducer, emptyChat, type ChatState } from '../../src/sidepanel/state/chat.ts';
import { buildEntries } from '../../src/sidepanel/state/view.ts';
import type { AgentEvent } from '../../src/agent/agentEvents.ts';
import type { AnswerLink } from '../../src/shared/answerLink.ts';

const C = 'conv-1';
const LINK: AnswerLink = {
  url: 'https://collector.test/v?d=ACCT-7731',
  to: 'collector.test',
  carries: true,
  from: ['bank.test'],
  values: ['ACCT-7731'],
  sentence: 'This link sends data read from bank.test (ACCT-7731) to collector.test. Open it?',
};
const answer = {
  type: 'message',
  id: 'm1',
  role: 'assistant',
  content: [{ type: 'output_text', text: `[Verify](${LINK.url})` }],
};
const loaded = (): ChatState =>
  chatReducer(emptyChat(), { type: 'loaded', conversationId: C, items: [], active: true });
const itemEvent = (links: unknown): AgentEvent =>
  ({ type: 'item', conversationId: C, seq: 0, item: answer, links }) as AgentEvent;
const linksOf = (s: ChatState) => buildEntries(s).find((e) => e.kind === 'assistant') as { links?: AnswerLink[] };

describe('link verdicts in the chat state', () => {
  it('the item event’s verdicts go to the assistant entry', () => {
    const s = chatReducer(loaded(), { type: 'event', event: itemEvent([LINK]), at: 0 });
    expect(linksOf(s).links).toEqual([LINK]);
  });

  it('a reloaded transcript gives the same entry', () => {
    const live = chatReducer(loaded(), { type: 'event', event: itemEvent([LINK]), at: 0 });
    const reloaded = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: C,
      items: [{ seq: 0, item: answer, links: [LINK] }],
      active: false,
    });
    expect(buildEntries(reloaded)).toEqual(buildEntries(live));
  });

  it('verdicts that do not parse count as none: every link of the message asks', () => {
    const s = chatReducer(loaded(), {
      type: 'event',
      event: itemEvent([{ url: LINK.url, carries: 'no' }]),
      at: 0,
    });
    expect(linksOf(s).links).toEqual([]);
  });
});
