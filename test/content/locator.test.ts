// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { locate, locatorFor, LocatorError } from '../../src/content/locator.ts';
import { setPage } from './helpers.ts';

const PAGE = `
  <form>
    <p><label for="a">Email</label> <input id="a" type="email"></p>
    <p><label for="b">Email address (work)</label> <input id="b" type="email"></p>
    <p><label>Company <input class="x1"></label></p>
    <button type="submit">Log in</button>
    <button type="button">Log in with a passkey</button>
  </form>
  <button>Add to cart</button><button>Add to cart</button>`;

describe('locator', () => {
  it('resolves role+name and labels, exact matches before partial ones', () => {
    setPage(PAGE);
    expect(locate({ role: 'button', name: 'log in' }).textContent).toBe('Log in');
    expect(locate({ label: 'Email' }).id).toBe('a');
    expect(locate({ label: 'company' }).className).toBe('x1');
    expect(locate({ role: 'button', name: 'passkey' }).textContent).toBe('Log in with a passkey');
    expect(locate({ text: 'Log in with' }).textContent).toBe('Log in with a passkey');
  });

  it('says so when a locator names nothing or several elements', () => {
    setPage(PAGE);
    expect(() => locate({ label: 'Organisation' })).toThrow(LocatorError);
    expect(() => locate({ label: 'Organisation' })).toThrow(/^No element matches label="Organisation" on this page\./);
    try {
      locate({ role: 'button', name: 'Add to cart' });
      expect.unreachable();
    } catch (e) {
      expect((e as LocatorError).code).toBe('locator-many');
      expect((e as Error).message).toMatch(
        /^2 elements match role="button" name="Add to cart": [a-z]*e\d+, [a-z]*e\d+\. A locator must name exactly one/,
      );
    }
  });

  it('describes an element by the most readable locator that names it alone', () => {
    setPage(PAGE);
    const [submit] = document.querySelectorAll('button');
    expect(locatorFor(document.getElementById('a')!)).toEqual({ label: 'Email' });
    expect(locatorFor(submit!)).toEqual({ role: 'button', name: 'Log in' });
    // Two identical buttons: no readable locator names one alone, so a CSS path does.
    const second = document.querySelectorAll('button')[3]!;
    const l = locatorFor(second)!;
    expect(l.selector).toBeDefined();
    expect(locate(l)).toBe(second);
  });
});
