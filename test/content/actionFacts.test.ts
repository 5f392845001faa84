// @vitest-environment happy-dom
/**
 * Issue #42: what the content script says about an action's target — the words the effect classifier reads and what
 * the card shows of what the action would send or change — on widgets built like a webmail's and a shop's, and the
 * classifier's verdict on that description (end to end in the page: e2e/task-scope.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { describeTarget } from '../../src/content/targetFacts.ts';
import { effectsOf } from '../../src/tools/guard/effect.ts';
import { setPage } from './helpers.ts';

const el = (selector: string) => document.querySelector(selector)!;
const kinds = (tool: string, selector: string, args: Record<string, unknown> = {}) =>
  effectsOf({ tool, args, element: describeTarget(el(selector)) });

describe('actionFacts', () => {
  it('a script Send button outside any form: its words, and the compose fields it would send', () => {
    setPage(`<div class="compose">
      <label for="to">To</label><input id="to" type="email">
      <label for="subject">Subject</label><input id="subject">
      <label for="body">Message</label><textarea id="body"></textarea>
      <button type="button" id="send" class="btn btn-primary">Send</button></div>`);
    (el('#to') as HTMLInputElement).value = 'attacker@evil.example';
    (el('#body') as HTMLTextAreaElement).value = 'Your code is 739214.';
    expect(describeTarget(el('#send'))).toMatchObject({
      role: 'button',
      name: 'Send',
      text: 'Send',
      hints: 'send btn btn primary',
      context: ['To: attacker@evil.example', 'Message: Your code is 739214.'],
    });
    expect(kinds('dom.click', '#send')).toEqual(['send']);
  });

  it('a trash icon span with a title, in an email row', () => {
    setPage(`<ul><li class="mail-row"><span class="from">Alice</span> — <span>Lunch on Friday?</span>
      <span class="icon trash-icon" title="Delete" data-id="1">🗑</span></li></ul>`);
    const d = describeTarget(el('.trash-icon'));
    expect(d.hints).toContain('Delete');
    expect(d.context).toEqual(['Alice — Lunch on Friday? 🗑']);
    expect(kinds('dom.click', '.trash-icon')).toEqual(['delete']);
  });

  it('the forwarding checkbox and its Save, with the values they would save', () => {
    setPage(`<section><label><input id="fwd" type="checkbox"> Forward all mail to</label>
      <input id="fwd-to" aria-label="Forwarding address" value="attacker@evil.example">
      <button id="save">Save</button></section>`);
    expect(describeTarget(el('#fwd'))).toMatchObject({ role: 'checkbox', checked: false });
    expect(kinds('dom.check', '#fwd', { checked: true })).toEqual(['settings']);
    expect(describeTarget(el('#save')).context).toEqual([
      'Forward all mail to: off',
      'Forwarding address: attacker@evil.example',
    ]);
    expect(kinds('dom.click', '#save')).toEqual(['settings']);
  });

  it('Buy now in an item card names the item and its price', () => {
    setPage(`<ul><li class="card item"><span>Desk lamp</span> <span>$39.00</span>
      <button class="buy">Buy now</button></li></ul>`);
    expect(describeTarget(el('.buy')).context).toEqual(['Desk lamp $39.00 Buy now']);
    expect(kinds('dom.click', '.buy')).toEqual(['buy']);
  });

  it('benign: a row holding icons is not its icons; a folder, a tab and a search ask nothing', () => {
    setPage(`<nav><a href="#trash" id="trash">Trash</a><button role="tab" id="settings">Settings</button></nav>
      <ul><li id="row"><span>Alice — Lunch</span><span class="icon trash-icon" title="Delete">🗑</span></li></ul>
      <form method="get" action="/search"><input type="search" id="q" name="q"><button id="go">Search</button></form>`);
    expect(describeTarget(el('#row')).hints ?? '').not.toContain('Delete');
    expect(kinds('dom.click', '#row')).toEqual([]);
    expect(kinds('dom.click', '#trash')).toEqual([]);
    expect(kinds('dom.click', '#settings')).toEqual([]);
    expect(kinds('dom.click', '#go')).toEqual([]);
    expect(kinds('dom.type', '#q', { text: 'lamp', submit: true })).toEqual([]);
  });

  it('a password field’s value is never shown, only that there is one', () => {
    setPage(`<form method="post" action="/login"><label for="u">User</label><input id="u" value="ada">
      <label for="p">Password</label><input id="p" type="password" value="hunter2"><button id="in">Sign in</button></form>`);
    expect(describeTarget(el('#in')).context).toEqual(['User: ada', 'Password: (a password)']);
  });

  it('a neutral OK in a dialog: the dialog’s title (aria-labelledby) says it deletes', () => {
    setPage(`<div role="dialog" aria-labelledby="t"><h2 id="t">Delete this conversation?</h2>
      <p>It cannot be undone.</p><button id="ok" class="btn">OK</button><button id="no">Cancel</button></div>`);
    expect(describeTarget(el('#ok')).heading).toBe('Delete this conversation?');
    expect(kinds('dom.click', '#ok')).toEqual(['delete']);
  });

  it('a "Continue" script button in a compose box headed "New message" sends', () => {
    setPage(`<section class="compose"><h2>New message</h2><div class="box">
      <label for="to">Recipient address</label><input id="to"><textarea id="b" aria-label="Text"></textarea>
      <span role="button" id="go" onclick="post()">Continue</span></div></section>`);
    expect(describeTarget(el('#go')).heading).toBe('New message');
    expect(kinds('dom.click', '#go')).toEqual(['send']);
  });

  it('an unlabelled icon button next to To and Message fields sends (the fields say what it sits with)', () => {
    setPage(`<div><label for="to">To</label><input id="to" value="attacker@evil.example">
      <label for="m">Message</label><textarea id="m">the code</textarea><div id="ic" class="x1 y2" role="button"></div></div>`);
    expect(kinds('dom.click', '#ic')).toEqual(['send']);
  });

  it('benign: Next in a pager under the Inbox heading, OK on a cookie notice ask nothing', () => {
    setPage(`<main><h1>Inbox</h1><ul><li>Alice — Lunch</li></ul><button id="next">Next</button></main>
      <div role="dialog" aria-label="We use cookies"><button id="ok">OK</button></div>`);
    expect(describeTarget(el('#next')).heading).toBe('Inbox');
    expect(kinds('dom.click', '#next')).toEqual([]);
    expect(kinds('dom.click', '#ok')).toEqual([]);
  });
});
