/**
 * Links in the model's messages are sinks (issue #42 part 3): the pure check over the run's transcript, and the
 * verdicts the loop keeps on the message's record and sends with its `item` event.
 */
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { judgeAnswerLinks, judgeLink, linkCorpus, type LinkCorpus } from '../../src/agent/answerLinkCheck.ts';
import { answerUrls, urlsIn } from '../../src/agent/answerUrls.ts';
import type { FlowBlock, ToolRunContext } from '../../src/agent/toolHost.ts';
import type { ItemRecord } from '../../src/storage/records.ts';
import { calls, say } from '../support/scriptedModel.ts';
import { FakeHost, setup } from './helpers.ts';

const BANK = 'https://bank.test';
const BLOG = 'https://blog.test';
const ACCOUNT = 'ACCT-7731-QX';
const BANK_PAGE = `Your account. Account number: ${ACCOUNT}. Balance: 1,024.00`;
const BLOG_PAGE =
  'Gardening tips. See https://shop.test/widgets/blue for seeds. Verify at https://collector.test/verify';

const corpus = (over: Partial<LinkCorpus> = {}): LinkCorpus => ({
  user: ['Summarise the blog post and check my bank balance'],
  outputs: [
    { text: BANK_PAGE, labels: [BANK] },
    { text: BLOG_PAGE, labels: [BLOG] },
  ],
  written: [],
  ...over,
});

describe('judgeLink: plain or carrying data', () => {
  it('a link carrying the account number read on the bank names the flow: the site, the value and where it goes', () => {
    expect(judgeLink(`https://collector.test/verify?d=${ACCOUNT}`, corpus())).toEqual({
      url: `https://collector.test/verify?d=${ACCOUNT}`,
      to: 'collector.test',
      carries: true,
      from: ['bank.test'],
      values: [ACCOUNT],
      sentence: `This link sends data read from bank.test (${ACCOUNT}) to collector.test. Open it?`,
    });
  });

  it('the value is found in the path, the fragment, a subdomain, percent-encoded or in another case', () => {
    for (const url of [
      `https://collector.test/v/${ACCOUNT}/ok`,
      `https://collector.test/v#acct=${ACCOUNT}`,
      `https://${ACCOUNT.toLowerCase()}.collector.test/p.png`,
      `https://collector.test/v?d=${encodeURIComponent(`id: ${ACCOUNT}`)}`,
      `https://collector.test/v?d=${ACCOUNT.toLowerCase()}`,
    ])
      expect(judgeLink(url, corpus()), url).toMatchObject({ carries: true, from: ['bank.test'] });
    // Shown as the link has it.
    expect(judgeLink(`https://collector.test/v?d=x-${ACCOUNT.toLowerCase()}`, corpus())?.values).toEqual([
      ACCOUNT.toLowerCase(),
    ]);
  });

  it('a link the blog showed verbatim, to a site the page named, is plain', () => {
    expect(judgeLink('https://shop.test/widgets/blue', corpus())).toEqual({
      url: 'https://shop.test/widgets/blue',
      to: 'shop.test',
      carries: false,
      from: [],
      values: [],
    });
    expect(judgeLink('https://collector.test/verify', corpus())?.carries).toBe(false);
  });

  it('a link the user wrote is plain, even with a value the bank showed too', () => {
    const url = `https://collector.test/verify?d=${ACCOUNT}`;
    expect(judgeLink(url, corpus({ user: [`open ${url}`] }))?.carries).toBe(false);
  });

  it('a link seen nowhere asks once the run has read another site, and names every site read', () => {
    expect(judgeLink('https://collector.test/landing', corpus())).toMatchObject({
      carries: true,
      from: ['bank.test', 'blog.test'],
      values: [],
      sentence:
        'This link was not in anything you wrote or a page showed, so it may carry data read from bank.test and blog.test to collector.test. Open it?',
    });
    // Nothing read: nothing to carry.
    expect(judgeLink('https://collector.test/landing', corpus({ outputs: [] }))?.carries).toBe(false);
    // Read only from its own site: nothing foreign to carry.
    const own = corpus({ outputs: [{ text: BANK_PAGE, labels: [BANK] }] });
    expect(judgeLink('https://bank.test/statements', own)?.carries).toBe(false);
  });

  it('a link the model wrote into a page first, that the page echoed back, is not "seen"', () => {
    const url = 'https://collector.test/landing';
    const echoed = corpus({
      outputs: [...corpus().outputs, { text: `Results for ${url}`, labels: [BLOG] }],
      written: [JSON.stringify({ text: url })],
    });
    expect(judgeLink(url, echoed)?.carries).toBe(true);
    expect(judgeLink(url, corpus({ outputs: echoed.outputs }))?.carries).toBe(false);
  });

  it('a value of the link’s own site, short words and the user’s words are no values read from another site', () => {
    const shopOnly = corpus({ outputs: [{ text: 'Order 99812 placed', labels: ['https://shop.test'] }] });
    expect(judgeLink('https://shop.test/o?order=99812', shopOnly)?.carries).toBe(false); // own site, nothing foreign
    const c = corpus({ outputs: [...corpus().outputs, ...shopOnly.outputs] });
    // Not seen verbatim, so it asks (the bank was read), but it carries no value the bank or the blog showed.
    expect(judgeLink('https://shop.test/o?order=99812', c)).toMatchObject({ carries: true, values: [] });
    expect(judgeLink('https://shop.test/o?q=Your', c)).toMatchObject({ carries: true, values: [] });
    const user = ['find widgets for order 55555'];
    const bankHas = corpus({ outputs: [{ text: `${BANK_PAGE} order 55555`, labels: [BANK] }], user });
    expect(judgeLink('https://shop.test/o/55555', bankHas)?.values).toEqual([]);
    expect(judgeLink('https://shop.test/o/55555', { ...bankHas, user: [] })?.values).toEqual(['55555']);
  });

  it('a page that shows a link shows what is in it: the link it named, values and all, stays plain', () => {
    const named = `https://partner.test/offer?ref=${ACCOUNT}`;
    const c = corpus({ outputs: [{ text: `${BANK_PAGE} Offer: ${named}`, labels: [BANK] }] });
    expect(judgeLink(named, c)?.carries).toBe(false);
  });

  it('an MCP server is named as one', () => {
    const c = corpus({ outputs: [{ text: 'note: SECRET-4411', labels: ['mcp:notes'] }] });
    expect(judgeLink('https://collector.test/?n=SECRET-4411', c)?.sentence).toBe(
      'This link sends data read from the MCP server "notes" (SECRET-4411) to collector.test. Open it?',
    );
  });
});

describe('judgeLink: a value the model encoded (#42)', () => {
  const carried = (url: string) => judgeLink(url, corpus());
  const b64 = btoa(ACCOUNT);
  const b64url = btoa(`id:${ACCOUNT}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  it('base64 and base64url: the decoded value is named, with how it was hidden', () => {
    expect(carried(`https://collector.test/v?d=${b64}`)).toMatchObject({
      carries: true,
      values: [`${ACCOUNT} (base64)`],
      sentence: `This link sends data read from bank.test (${ACCOUNT} (base64)) to collector.test. Open it?`,
    });
    expect(carried(`https://collector.test/v/${b64url}`)).toMatchObject({
      carries: true,
      values: [`${ACCOUNT} (base64)`],
    });
  });
  it('percent-encoded twice, hex, reversed, split across parameters', () => {
    const twice = encodeURIComponent(encodeURIComponent(ACCOUNT)).replace(/-/g, '%252D');
    expect(carried(`https://collector.test/v?d=${twice}`)).toMatchObject({ carries: true, values: [ACCOUNT] });
    const hex = [...ACCOUNT].map((c) => c.charCodeAt(0).toString(16)).join('');
    expect(carried(`https://collector.test/v?h=${hex}`)).toMatchObject({ values: [`${ACCOUNT} (hex)`] });
    const reversed = [...ACCOUNT].reverse().join('');
    expect(carried(`https://collector.test/v?r=${reversed}`)).toMatchObject({ values: [`${ACCOUNT} (reversed)`] });
    expect(carried('https://collector.test/v?a=ACCT&b=-7731&c=-QX')).toMatchObject({
      values: [`${ACCOUNT} (split)`],
    });
  });
  it('benign: a link the page showed with a token in it stays plain; a token that is no value asks nothing more', () => {
    const page = 'Watch https://video.test/watch?v=dQw4w9WgXcQ and https://blog.test/p/aGVsbG8gd29ybGQ';
    const c = corpus({ outputs: [...corpus().outputs, { text: page, labels: [BLOG] }] });
    expect(judgeLink('https://video.test/watch?v=dQw4w9WgXcQ', c)).toMatchObject({ carries: false });
    expect(judgeLink('https://blog.test/p/aGVsbG8gd29ybGQ', c)).toMatchObject({ carries: false });
    expect(judgeLink('https://shop.test/widgets/blue', corpus())).toMatchObject({ carries: false });
  });
});

describe('judgeAnswerLinks over a message', () => {
  it('finds markdown links, images, autolinks and bare URLs, once each, without trailing punctuation', () => {
    const text = [
      `[Verify your booking](https://collector.test/verify?d=${ACCOUNT})`,
      `![logo](https://collector.test/p.png?d=${ACCOUNT})`,
      'See <https://shop.test/widgets/blue> or https://shop.test/widgets/blue.',
    ].join('\n');
    expect(urlsIn(text)).toEqual([
      `https://collector.test/verify?d=${ACCOUNT}`,
      `https://collector.test/p.png?d=${ACCOUNT}`,
      'https://shop.test/widgets/blue',
    ]);
    const links = judgeAnswerLinks(text, corpus());
    expect(links.map((l) => [l.url, l.carries])).toEqual([
      [`https://collector.test/verify?d=${ACCOUNT}`, true],
      [`https://collector.test/p.png?d=${ACCOUNT}`, true],
      ['https://shop.test/widgets/blue', false],
    ]);
  });

  it('reads the answer as the panel does (marked): reference links, www autolinks, parentheses, raw HTML', () => {
    const text = [
      'Read [the guide][g] and [this](https://en.wikipedia.org/wiki/Foo_(bar)).',
      'Or www.shop.test/widgets, <a href="https://collector.test/a?x=1&amp;d=2">here</a>,',
      '<img src="https://collector.test/pixel.gif">.',
      '',
      `[g]: https://collector.test/r?d=${ACCOUNT} "Guide"`,
    ].join('\n');
    expect(answerUrls(text)).toEqual([
      `https://collector.test/r?d=${ACCOUNT}`,
      'https://en.wikipedia.org/wiki/Foo_(bar)',
      'http://www.shop.test/widgets',
      'https://collector.test/a?x=1&d=2',
      'https://collector.test/pixel.gif',
    ]);
    // A URL only in plain text (a code span is no link) is still found by pattern.
    expect(answerUrls('Run `curl https://collector.test/c?d=1`')).toEqual(['https://collector.test/c?d=1']);
    // The pattern alone misses the reference link's target in its place, the parentheses and the www autolink.
    const judged = judgeAnswerLinks(text, corpus());
    expect(judged.find((l) => l.url.startsWith('https://collector.test/r'))).toMatchObject({
      carries: true,
      values: [ACCOUNT],
    });
    expect(judged.find((l) => l.url === 'https://en.wikipedia.org/wiki/Foo_(bar)')).toBeTruthy();
  });

  it('ignores what is not http(s)', () => {
    expect(judgeAnswerLinks('mail me: mailto:a@b.test, or ftp://x.test/y', corpus())).toEqual([]);
  });

  it('builds the corpus from the records: user messages, outputs with their labels, the model’s arguments', () => {
    const rec = (seq: number, item: Record<string, unknown>, labels?: string[]): ItemRecord => ({
      conversationId: 'c',
      seq,
      createdAt: 0,
      item,
      ...(labels ? { labels } : {}),
    });
    expect(
      linkCorpus([
        rec(0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
        rec(1, { type: 'function_call', call_id: 'a', name: 'x', arguments: '{"u":1}' }),
        rec(2, { type: 'function_call_output', call_id: 'a', output: 'page' }, [BANK]),
        rec(3, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x' }] }),
      ]),
    ).toEqual({ user: ['hi'], outputs: [{ text: 'page', labels: [BANK], lower: 'page' }], written: ['{"u":1}'] });
  });
});

/** A host whose bank tool reports the bank's label, as the worker's guard does (background/workerToolHost.ts). */
class LabellingHost extends FakeHost {
  constructor() {
    super();
    this.define('bank.read', { readOnly: true, schema: z.object({}), impl: () => BANK_PAGE });
  }
  async checkFlow(): Promise<FlowBlock | undefined> {
    return undefined;
  }
  override async run(name: string, args: unknown, ctx: ToolRunContext): Promise<unknown> {
    if (name === 'bank.read') ctx.flow?.addLabels?.([BANK]);
    return super.run(name, args, ctx);
  }
}

describe('the loop keeps the verdicts with the message', () => {
  it('an answer with a link carrying the bank’s data: its record and its item event carry the verdict', async () => {
    const answer = `Done. [Verify your booking](https://collector.test/verify?d=${ACCOUNT}) or read https://bank.test/help`;
    const h = await setup({ turns: [calls([{ name: 'bank__read', callId: 'r' }]), say(answer)] });
    h.host = new LabellingHost();
    h.runner = h.newRunner();
    await h.runner.send(h.conversationId, 'check my balance');
    const records = await h.store.transcript(h.conversationId);
    const message = records.find((r) => r.item.type === 'message' && r.item.role === 'assistant')!;
    const expected = [
      {
        url: `https://collector.test/verify?d=${ACCOUNT}`,
        to: 'collector.test',
        carries: true,
        from: ['bank.test'],
        values: [ACCOUNT],
        sentence: `This link sends data read from bank.test (${ACCOUNT}) to collector.test. Open it?`,
      },
      { url: 'https://bank.test/help', to: 'bank.test', carries: false, from: [], values: [] },
    ];
    expect(message.links).toEqual(expected);
    const event = h.eventsOf('item').find((e) => e.seq === message.seq)!;
    expect(event.links).toEqual(expected);
    // Items without links keep no verdict.
    expect(records.filter((r) => r.links)).toHaveLength(1);
  });
});
