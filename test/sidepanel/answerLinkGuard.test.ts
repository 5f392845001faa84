// @vitest-environment happy-dom
/**
 * The panel applies the worker's link verdicts (issue #42 part 3): a link carrying data, or one with no verdict,
 * loses its href, shows where it goes, and a click on it yields the question; a plain link stays a link.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/sidepanel/lib/markdownToHtml.ts';
import { guardLinks, questionAt } from '../../src/sidepanel/lib/answerLinkGuard.ts';
import type { AnswerLink } from '../../src/shared/answerLink.ts';

const LEAK = 'https://collector.test/verify?d=ACCT-7731';
const IMAGE = 'https://collector.test/p.png?d=ACCT-7731';
const SHOP = 'https://shop.test/widgets/blue';
const sentence = 'This link sends data read from bank.test (acct-7731) to collector.test. Open it?';
const verdicts: AnswerLink[] = [
  { url: LEAK, to: 'collector.test', carries: true, from: ['bank.test'], values: ['acct-7731'], sentence },
  { url: IMAGE, to: 'collector.test', carries: true, from: ['bank.test'], values: ['acct-7731'], sentence },
  { url: SHOP, to: 'shop.test', carries: false, from: [], values: [] },
];

function rendered(markdown: string, links: readonly AnswerLink[]): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = renderMarkdown(markdown);
  guardLinks(root, links);
  return root;
}

describe('guardLinks', () => {
  it('a link carrying data has no href, shows its destination, and a click on it gives the worker’s question', () => {
    const root = rendered(`[Verify your booking](${LEAK})`, verdicts);
    const a = root.querySelector('a')!;
    expect(a.hasAttribute('href')).toBe(false);
    expect(a.getAttribute('data-ask-url')).toBe(LEAK);
    expect(root.querySelector('.link-dest')?.textContent).toBe('→ collector.test · carries data');
    expect(questionAt(a.firstChild, verdicts)).toEqual({
      url: LEAK,
      to: 'collector.test',
      sentence,
      values: ['acct-7731'],
      checked: true,
    });
  });

  it('an image is never loaded: it is a link, and one carrying data is guarded like any other', () => {
    const root = rendered(`![logo](${IMAGE})`, verdicts);
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('a')!.getAttribute('data-ask-url')).toBe(IMAGE);
    expect(root.textContent?.trim()).toBe('[image: logo]→ collector.test · carries data');
  });

  it('a plain link stays a link, with no label and no question', () => {
    const root = rendered(`[Seeds](${SHOP})`, verdicts);
    const a = root.querySelector('a')!;
    expect(a.getAttribute('href')).toBe(SHOP);
    expect(root.querySelector('.link-dest')).toBeNull();
    expect(questionAt(a, verdicts)).toBeUndefined();
  });

  it('a link with no verdict asks, and says Otto has not checked it', () => {
    const root = rendered('[Elsewhere](https://other.test/x) and [mail](mailto:a@b.test)', verdicts);
    const [web, mail] = [...root.querySelectorAll('a')];
    expect(web!.hasAttribute('href')).toBe(false);
    expect(questionAt(web!, verdicts)?.sentence).toBe(
      'Otto has not checked this link. It goes to other.test. Open it?',
    );
    expect([...root.querySelectorAll('.link-dest')].map((l) => l.textContent)).toEqual([
      '→ other.test · not checked',
      '→ mailto: · not checked',
    ]);
    expect(mail!.getAttribute('data-ask-url')).toBe('mailto:a@b.test');
  });

  it('applied again with the verdicts that arrived later, it undoes its own marks', () => {
    const root = rendered(`[Seeds](${SHOP})`, []);
    expect(root.querySelector('a')!.hasAttribute('href')).toBe(false);
    guardLinks(root, verdicts);
    const a = root.querySelector('a')!;
    expect(a.getAttribute('href')).toBe(SHOP);
    expect(a.hasAttribute('data-ask-url')).toBe(false);
    expect(a.outerHTML).toBe(`<a href="${SHOP}" target="_blank" rel="noopener noreferrer">Seeds</a>`);
    expect(root.querySelectorAll('.link-dest')).toHaveLength(0);
  });
});
