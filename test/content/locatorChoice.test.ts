// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { locate, locatorFor } from '../../src/content/locator.ts';
import { matchLocator } from '../../src/content/locatorRules.ts';
import { setPage } from './helpers.ts';

const SR_ONLY = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)';

/** React's TodoMVC: a visually hidden label for the new-todo field; items with a sibling <label> (no for=). */
const REACT = `
  <header><h1>todos</h1>
    <input id="todo-input" class="new-todo" placeholder="What needs to be done?">
    <label for="todo-input" style="${SR_ONLY}">New Todo Input</label>
  </header>
  <ul class="todo-list">
    <li><div class="view"><input class="toggle" type="checkbox" data-testid="todo-item-toggle"><label>Buy milk</label><button class="destroy"></button></div></li>
    <li><div class="view"><input class="toggle" type="checkbox" data-testid="todo-item-toggle"><label>Call mom</label><button class="destroy"></button></div></li>
  </ul>`;

/** Another build: no hidden label, the items' markup differs. */
const VANILLA = `
  <section><h1>todos</h1><input class="new" placeholder="What needs to be done?"></section>
  <ul><li data-id="1"><span><input type="checkbox"></span> <label>Call mom</label></li>
      <li data-id="2"><span><input type="checkbox"></span> <label>Buy milk</label></li></ul>`;

describe("locators chosen by what holds, checked by Playwright's rules (#44)", () => {
  it('names the new-todo field by its placeholder, not by a label no one sees', async () => {
    setPage(REACT);
    const field = document.getElementById('todo-input')!;
    // Playwright's getByLabel does find it by the hidden label, in this build only.
    expect(matchLocator({ label: 'New Todo Input' })).toEqual([field]);
    expect(await locatorFor(field)).toEqual({ placeholder: 'What needs to be done?' });
    setPage(VANILLA);
    expect(await locate({ placeholder: 'What needs to be done?' })).toBe(document.querySelector('input.new'));
  });

  it('a <label> beside a checkbox with no for= labels nothing: the box is named inside its item, by its text', async () => {
    setPage(REACT);
    const box = document.querySelectorAll('input.toggle')[0]!;
    expect(matchLocator({ label: 'Buy milk' })).toEqual([]);
    expect(await locatorFor(box)).toEqual({ item: 'Buy milk', role: 'checkbox' });
    setPage(VANILLA);
    expect(await locate({ item: 'Buy milk', role: 'checkbox' })).toBe(
      document.querySelectorAll('li')[1]!.querySelector('input'),
    );
  });

  it('the resolver is as strict as the locator: a looser match than Playwright would make is an error', async () => {
    setPage(REACT);
    await expect(locate({ label: 'Buy milk' })).rejects.toThrow(/^No element matches label="Buy milk" on this page\./);
    // Two items hold "Buy": the item names both, so its checkbox is two elements.
    setPage(REACT.replace('Call mom', 'Buy bread'));
    await expect(locate({ item: 'Buy', role: 'checkbox' })).rejects.toThrow(
      /^2 elements match item="Buy" role="checkbox"/,
    );
  });

  it('text matches the innermost element holding it; hidden copies count, as in Playwright', () => {
    setPage(`<button><span>Clear completed</span></button><template><b>Clear completed</b></template>
      <div style="display:none"><i>Clear completed</i></div>`);
    expect(matchLocator({ text: 'clear COMPLETED' }).map((e) => e.localName)).toEqual(['span', 'i']);
    // Role matching leaves out what assistive technology cannot see.
    setPage(`<button>Save</button><button style="display:none">Save</button><button aria-hidden="true">Save</button>`);
    expect(matchLocator({ role: 'button', name: 'save' })).toHaveLength(1);
  });

  it('a test id is compared whole, with its case', () => {
    setPage(`<button data-testid="add-row">+</button><button data-testid="add-rows">++</button>`);
    expect(matchLocator({ testid: 'add-row' })).toHaveLength(1);
    expect(matchLocator({ testid: 'Add-row' })).toHaveLength(0);
  });
});
