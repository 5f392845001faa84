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
  it("resolves by Playwright's rules: case-insensitive substrings, so a name held by two elements names both", async () => {
    setPage(PAGE);
    expect((await locate({ role: 'button', name: 'passkey' })).textContent).toBe('Log in with a passkey');
    expect((await locate({ label: 'company' })).className).toBe('x1');
    expect((await locate({ label: 'work' })).id).toBe('b');
    expect((await locate({ text: 'Log in with' })).textContent).toBe('Log in with a passkey');
    // "Log in" is in both buttons' names, "Email" in both labels: Playwright's getByRole/getByLabel count 2.
    await expect(locate({ role: 'button', name: 'log in' })).rejects.toThrow(
      /^2 elements match role="button" name="log in"/,
    );
    await expect(locate({ label: 'Email' })).rejects.toThrow(/^2 elements match label="Email"/);
  });

  it('says so when a locator names nothing or several elements', async () => {
    setPage(PAGE);
    await expect(locate({ label: 'Organisation' })).rejects.toThrow(LocatorError);
    await expect(locate({ label: 'Organisation' })).rejects.toThrow(
      /^No element matches label="Organisation" on this page\./,
    );
    try {
      await locate({ role: 'button', name: 'Add to cart' });
      expect.unreachable();
    } catch (e) {
      expect((e as LocatorError).code).toBe('locator-many');
      expect((e as Error).message).toMatch(
        /^2 elements match role="button" name="Add to cart": [a-z]*e\d+, [a-z]*e\d+\. A locator must name exactly one/,
      );
    }
  });

  it("names a line without a ref by Playwright's rules: a paragraph by its text, a heading by role and name (#43, #44)", async () => {
    setPage(`<h2>Story</h2><p id="story">The quick brown fox jumps.</p><p>Another fox.</p>
      <ul><li id="d">Dulci</li><li>Bravo</li></ul><button>Read the story</button>`);
    expect((await locate({ text: 'The quick brown fox jumps.' })).id).toBe('story');
    expect((await locate({ text: 'quick brown' })).id).toBe('story');
    expect((await locate({ role: 'heading', name: 'Story' })).localName).toBe('h2');
    expect((await locate({ text: 'Dulci' })).id).toBe('d');
    // getByText('story') holds the heading and the button alike: several, an error, never a guess.
    await expect(locate({ text: 'story' })).rejects.toThrow(/^2 elements match text="story"/);
    try {
      await locate({ text: 'fox' });
      expect.unreachable();
    } catch (e) {
      expect((e as LocatorError).code).toBe('locator-many');
      // #43: how to narrow a text locator, in words every tool taking it can follow.
      expect((e as Error).message).toMatch(
        /^2 elements match text="fox": \w+, \w+\. A locator must name exactly one: give more of the text \(a phrase only that element shows\), or act by one of these refs\.\n/,
      );
    }
    await expect(locate({ label: 'Story' })).rejects.toThrow(/^No element matches label="Story"/);
    // In a line merging several elements, the innermost element holding the words.
    setPage(`<p id="tip"><span id="x">Dismiss</span> · Tip: drag the steps.</p>`);
    expect((await locate({ text: 'Dismiss' })).id).toBe('x');
    expect((await locate({ text: 'Dismiss · Tip: drag the steps.' })).id).toBe('tip');
  });

  it('describes an element by the most readable locator that names it alone', async () => {
    setPage(PAGE);
    const [submit] = document.querySelectorAll('button');
    // "Email" is held by both labels, "Log in" by both buttons' names: the next locator that names one alone.
    expect(await locatorFor(document.getElementById('b')!)).toEqual({ role: 'textbox', name: 'Email address (work)' });
    expect(await locatorFor(document.getElementById('a')!)).toEqual({ selector: '#a' });
    expect(await locatorFor(submit!)).toEqual({ selector: 'body > form > button:nth-last-of-type(2)' });
    // Two identical buttons: no readable locator names one alone, so a CSS path does.
    const second = document.querySelectorAll('button')[3]!;
    const l = (await locatorFor(second))!;
    expect(l.selector).toBeDefined();
    expect(await locate(l)).toBe(second);
  });

  it('on a page past the describing budget, gives a CSS path: uniqueness of a name cannot be checked there', async () => {
    // 5,000 rows of a button and a sentence each: far more outline than describing a target may walk (2,000 rows fit
    // its 150,000 characters, and a walk that finished names "Open 1997" alone by Playwright's rules).
    const rows = Array.from(
      { length: 5000 },
      (_, i) => `<tr><td><button>Open ${i}</button></td><td>Row ${i} holds a sentence about order ${i}.</td></tr>`,
    ).join('');
    setPage(`<table><tbody id="t">${rows}</tbody></table>`);
    const target = document.querySelectorAll('button')[3]!;
    const l = (await locatorFor(target))!;
    expect(l).toEqual({ selector: '#t > tr:nth-of-type(4) > td:nth-of-type(1) > button' });
    expect(await locate(l)).toBe(target);
    // Near the end of the table the place counts from the end (the walk stops at the nearer end, #24).
    const late = document.querySelectorAll('button')[4997]!;
    const lateL = (await locatorFor(late))!;
    expect(lateL).toEqual({ selector: '#t > tr:nth-last-of-type(3) > td:nth-of-type(1) > button' });
    expect(await locate(lateL)).toBe(late);
    // A small page still gets the readable locator for the same button.
    setPage(`<table><tbody id="t">${rows.split('</tr>').slice(0, 10).join('</tr>')}</tr></tbody></table>`);
    expect(await locatorFor(document.querySelectorAll('button')[3]!)).toEqual({ role: 'button', name: 'Open 3' });
  });
});
