// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { setPage, snap } from './helpers.ts';

describe('snapshot: roles, names, states', () => {
  it('renders landmarks, headings, links, controls and text', () => {
    setPage(`
      <header><nav aria-label="Main"><a href="/home">Home</a> <a href="https://other.example/x">Elsewhere</a></nav></header>
      <main>
        <h1>Sign in</h1>
        <p>Welcome back. Please enter your details.</p>
        <form>
          <label for="email">Email</label><input id="email" type="email" required value="a@b.c">
          <label>Password <input type="password" value="hunter2"></label>
          <label><input type="checkbox" checked> Remember me</label>
          <select aria-label="Country"><option value="fr">France</option><option value="de" selected>Germany</option></select>
          <textarea placeholder="Comment"></textarea>
          <button type="submit" disabled>Sign in</button>
        </form>
        <img src="x.png" alt="Logo">
        <img src="y.png" alt="">
      </main>`);
    const text = snap();
    expect(text).toContain('- navigation "Main":');
    expect(text).toMatch(/- link "Home" \[ref=[a-df-z]{2}e\d+\] -> \/home/);
    expect(text).toMatch(/- link "Elsewhere" \[ref=[a-df-z]{2}e\d+\] -> https:\/\/other\.example\/x/);
    expect(text).toContain('- heading "Sign in" [level=1]');
    expect(text).toContain('- text: Welcome back. Please enter your details.');
    expect(text).toMatch(/- textbox "Email" \[ref=[a-df-z]{2}e\d+\] \[required\] value="a@b.c"/);
    expect(text).toMatch(/- textbox "Password" \[ref=[a-df-z]{2}e\d+\] \[password\] value="•••••••"/);
    expect(text).not.toContain('hunter2');
    expect(text).toMatch(/- checkbox "Remember me" \[ref=[a-df-z]{2}e\d+\] \[checked\]/);
    expect(text).toMatch(/- combobox "Country" \[ref=[a-df-z]{2}e\d+\] value="Germany" options=\["France","Germany"\]/);
    expect(text).toMatch(/- textbox "Comment" \[ref=[a-df-z]{2}e\d+\]/);
    expect(text).toMatch(/- button "Sign in" \[ref=[a-df-z]{2}e\d+\] \[disabled\]/);
    expect(text).toContain('- img "Logo"');
    // Label text is the control's name, not repeated as text.
    expect(text).not.toContain('- text: Email');
    expect(text).not.toContain('- text: Remember me');
  });

  it('computes names from aria-labelledby, aria-label, title, alt inside links and placeholder', () => {
    setPage(`
      <span id="lbl">Search the site</span>
      <input aria-labelledby="lbl">
      <button aria-label="Close dialog">×</button>
      <a href="/p"><img src="p.png" alt="Profile picture"></a>
      <button title="Settings"><svg></svg></button>
      <input placeholder="Your name">
      <div role="button" tabindex="0">Custom <b>button</b></div>`);
    const text = snap();
    expect(text).toMatch(/- textbox "Search the site" \[ref=/);
    expect(text).toMatch(/- button "Close dialog" \[ref=/);
    expect(text).toMatch(/- link "Profile picture" \[ref=[a-df-z]{2}e\d+\] -> \/p/);
    expect(text).toMatch(/- button "Settings" \[ref=/);
    expect(text).toMatch(/- textbox "Your name" \[ref=/);
    expect(text).toMatch(/- button "Custom button" \[ref=/);
  });

  it('reports expanded, selected, pressed, readonly, focused and heading levels', () => {
    setPage(`
      <button aria-expanded="false">Menu</button>
      <button aria-pressed="true">Bold</button>
      <div role="tablist"><div role="tab" aria-selected="true" tabindex="0">One</div><div role="tab" tabindex="-1">Two</div></div>
      <input id="ro" readonly value="fixed">
      <h3>Deep</h3><div role="heading" aria-level="5">Aria heading</div>
      <input id="f">`);
    (document.getElementById('f') as HTMLInputElement).focus();
    const text = snap();
    expect(text).toMatch(/- button "Menu" \[ref=[a-df-z]{2}e\d+\] \[collapsed\]/);
    expect(text).toMatch(/- button "Bold" \[ref=[a-df-z]{2}e\d+\] \[pressed\]/);
    expect(text).toMatch(/- tab "One" \[ref=[a-df-z]{2}e\d+\] \[selected\]/);
    expect(text).toMatch(/- textbox \[ref=[a-df-z]{2}e\d+\] \[readonly\] value="fixed"/);
    expect(text).toContain('- heading "Deep" [level=3]');
    expect(text).toContain('- heading "Aria heading" [level=5]');
    expect(text).toMatch(/- textbox \[ref=[a-df-z]{2}e\d+\] \[focused\]/);
  });

  it('skips hidden content and keeps aria-hidden interactive elements actionable', () => {
    setPage(`
      <div style="display:none"><button>Ghost</button></div>
      <div style="display:none"><div><a href="/h">Hidden link</a></div></div>
      <p style="visibility:hidden">Invisible text</p>
      <p aria-hidden="true">Decoration</p>
      <div aria-hidden="true"><button>Still clickable</button></div>
      <details><summary>More</summary><a href="/inside">Inside closed details</a></details>
      <input type="hidden" value="secret">
      <script>var x = 1;</script>`);
    const text = snap();
    expect(text).not.toContain('Ghost');
    expect(text).not.toContain('Hidden link');
    expect(text).not.toContain('Invisible text');
    expect(text).not.toContain('Decoration');
    expect(text).toMatch(/- button "Still clickable" \[ref=/);
    expect(text).toMatch(/- button "More" \[ref=[a-df-z]{2}e\d+\] \[collapsed\]/);
    expect(text).not.toContain('Inside closed details');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('var x');
  });

  it('walks open shadow roots and slots', () => {
    setPage(`<x-card><span slot="title">Slotted title</span></x-card>`);
    const host = document.querySelector('x-card')!;
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = `<h2><slot name="title"></slot></h2><button>Shadow button</button>`;
    const text = snap();
    expect(text).toContain('- heading "Slotted title" [level=2]');
    expect(text).toMatch(/- button "Shadow button" \[ref=[a-df-z]{2}e\d+\]/);
  });

  it('renders tables as rows and dialogs as containers', () => {
    setPage(`
      <table><caption>Prices</caption><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3 €</td></tr></table>
      <div role="dialog" aria-modal="true" aria-label="Confirm"><p>Delete it?</p><button>Yes</button></div>`);
    const text = snap();
    expect(text).toContain('- table "Prices":');
    expect(text).toContain('- row: Item | Price');
    expect(text).toContain('- row: Tea | 3 €');
    expect(text).toContain('- dialog "Confirm" [modal]:');
    expect(text).toMatch(/ {2}- text: Delete it\?\n {2}- button "Yes" \[ref=/);
  });

  it('uses a root given as an element', () => {
    setPage(`<nav><a href="/a">A</a></nav><main id="m"><button>Only me</button></main>`);
    const text = snap(document.getElementById('m')!);
    expect(text).toContain('- main:');
    expect(text).toContain('Only me');
    expect(text).not.toContain('- link "A"');
  });

  it('marks cursor:pointer and tabindex elements clickable, and a label standing in for a hidden checkbox', () => {
    setPage(`
      <div style="cursor:pointer"><span>Card title</span></div>
      <span tabindex="0">Focusable</span>
      <label for="cb">Accept terms</label><input id="cb" type="checkbox" style="display:none">`);
    const text = snap();
    expect(text).toMatch(/- clickable "Card title" \[ref=/);
    expect(text).toMatch(/- clickable "Focusable" \[ref=/);
    expect(text).toMatch(/- checkbox "Accept terms" \[ref=[a-df-z]{2}e\d+\]/);
  });
});
