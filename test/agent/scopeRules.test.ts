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
    ['Turn on forwarding to my work address', ['settings']],
    ['Download the invoice', ['download']],
    ['Post a comment saying thanks', ['send']],
    ['Schick Bob eine kurze Nachricht', ['send']],
    ['Supprime ces trois e-mails', ['delete']],
    ['Compra el más barato', ['buy']],
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
