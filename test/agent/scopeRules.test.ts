/** Issue #42: the task's scope from the user's words alone. */
import { describe, expect, it } from 'vitest';
import { effectsAsked, hostsNamed, scopeFromWords } from '../../src/agent/scopeRules.ts';
import { outsideScope, scopeLine, widenScope } from '../../src/shared/taskScope.ts';

const extra = (text: string) => effectsAsked(text).filter((k) => k !== 'read' && k !== 'fill');

describe('effectsAsked', () => {
  const cases: [string, string[]][] = [
    ['Summarise my inbox.', []],
    ['Summarize this page', []],
    ['What are my latest orders?', []],
    ['Read my settings and tell me if forwarding is on', []],
    ['Compare my two tabs', []],
    ['Search shop.test for blue widgets', []],
    ['Open the widgets article', []],
    ['Find the cheapest flight from Paris to Rome', []],
    ['Send Bob a short hello', ['send']],
    ['Reply to Alice that Friday works', ['send']],
    ['delete these three emails', ['delete']],
    ['Remove the spam from my inbox', ['delete']],
    ['buy the cheapest one', ['buy']],
    ['Order two packs of coffee', ['buy']],
    ['Place my order', ['buy']],
    ['Turn on forwarding to my work address', ['settings']],
    ['Download the invoice', ['download']],
    ['Post a comment saying thanks', ['send']],
    ['Schick Bob eine kurze Nachricht', ['send']],
    ['Supprime ces trois e-mails', ['delete']],
    ['Compra el más barato', ['buy']],
    // Requests that name a verb without asking for it: a question, a how-to, a negated verb, a draft.
    ['What does the delete button on this page do?', []],
    ['Which emails did Bob send me last week?', []],
    ['Tell me how to turn on two-factor authentication, but don’t do it', []],
    ['Fill in the shipping form with my home address but don’t submit it', []],
    ['Draft a reply to Carol but let me check it before it goes out', []],
    ['Zeig mir meine letzten Bestellungen', []],
    ['Set up an out-of-office reply until Monday', ['settings']],
    // The tricky ones the labelled set found missing (bench/scopeRequests.ts).
    ['reply to the last email', ['send']],
    ['Tell Sam I’ll be late via the team chat', ['send']],
    ['Leave a 5-star review for the coffee grinder', ['send']],
    ['check out', ['buy']],
    ['Renew my subscription', ['buy']],
    ['clear my cart', ['delete']],
    ['archive everything from Bob', ['delete']],
    ['Cancel my order and write to support asking for a refund', ['send', 'delete']],
    ['unsubscribe me', ['settings']],
    ['Make my profile private', ['settings']],
    ['Grab the PDF of my March statement', ['download']],
    ['Lade die Rechnung herunter', ['download']],
  ];
  for (const [text, kinds] of cases) it(text, () => expect(extra(text)).toEqual(kinds));
});

describe('scopeFromWords', () => {
  it('keeps the run’s own site and the sites the words name', () => {
    expect(scopeFromWords('Summarise my inbox.', 'mail.test')).toEqual({
      effects: ['read', 'fill'],
      sites: ['mail.test'],
      asked: 'summarise my inbox',
    });
    expect(hostsNamed('Search https://www.shop.test/search.html and read report.pdf')).toEqual(['shop.test']);
  });
  it('a later message widens the scope, never narrows it', () => {
    const a = scopeFromWords('Summarise my inbox.', 'mail.test');
    const b = widenScope(a, scopeFromWords('Now delete the spam'));
    expect(b.effects).toEqual(['read', 'fill', 'delete']);
    expect(b.asked).toBe('summarise my inbox');
    expect(widenScope(b, scopeFromWords('thanks')).effects).toEqual(['read', 'fill', 'delete']);
    expect(scopeLine(b)).toBe('Task: read, delete · mail.test');
  });
  it('outsideScope names what the words did not ask for', () => {
    const s = scopeFromWords('Summarise my inbox.');
    expect(outsideScope(s, ['send'])).toEqual(['send']);
    expect(outsideScope(s, ['fill'])).toEqual([]);
    expect(outsideScope(undefined, ['send'])).toEqual([]);
  });
});
