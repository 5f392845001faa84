/**
 * Issue #42: the effect of a call, judged from its target before it runs. Target descriptions are written as the
 * content script gives them for real widgets (src/content/actionFacts.ts): role and accessible name, visible text,
 * the label words of an icon, the form and its method, the field written.
 */
import { describe, expect, it } from 'vitest';
import { effectsOf } from '../../src/tools/guard/effect.ts';
import type { TargetElement } from '../../src/shared/callTarget.ts';

const click = (element: TargetElement) => effectsOf({ tool: 'dom.click', args: { ref: 'e1' }, element });

describe('effectsOf: actions that commit something', () => {
  const cases: [string, TargetElement, string[]][] = [
    ['a script Send button (no form)', { role: 'button', name: 'Send', text: 'Send', hints: 'send btn' }, ['send']],
    [
      'a form submit button named Send',
      { role: 'button', name: 'Send', submits: true, formAction: 'https://mail.test/send', formMethod: 'POST' },
      ['send'],
    ],
    ['Reply', { role: 'button', name: 'Reply', text: 'Reply' }, ['send']],
    ['Post comment', { role: 'button', name: 'Post comment', text: 'Post comment' }, ['send']],
    ['a trash icon span with a title', { role: 'generic', name: '', hints: 'Delete trash icon' }, ['delete']],
    ['a trash icon with only a class', { role: 'generic', name: '', hints: 'icon trash' }, ['delete']],
    [
      'a bin icon button with aria-label',
      { role: 'button', name: 'Move to trash', hints: 'Move to trash' },
      ['delete'],
    ],
    ['Remove from cart', { role: 'button', name: 'Remove', text: 'Remove' }, ['delete']],
    ['Buy now', { role: 'button', name: 'Buy now', text: 'Buy now' }, ['buy']],
    ['Place order', { role: 'button', name: 'Place order', text: 'Place order' }, ['buy']],
    ['Confirm and pay', { role: 'button', name: 'Confirm and pay', text: 'Confirm and pay' }, ['buy']],
    ['a settings Save button', { role: 'button', name: 'Save', text: 'Save' }, ['settings']],
    ['Save changes', { role: 'button', name: 'Save changes', text: 'Save changes' }, ['settings']],
    ['Turn on forwarding', { role: 'button', name: 'Turn on forwarding' }, ['settings']],
    ['Export CSV', { role: 'button', name: 'Export CSV', text: 'Export CSV' }, ['download']],
    ['a download link', { role: 'link', name: 'Download invoice', href: 'https://shop.test/inv.pdf' }, ['download']],
    [
      'a POST form with a neutral button',
      { role: 'button', name: 'Continue', submits: true, formAction: 'https://x.test/step', formMethod: 'POST' },
      ['send'],
    ],
    ['German: Jetzt kaufen', { role: 'button', name: 'Jetzt kaufen' }, ['buy']],
    ['French: Envoyer', { role: 'button', name: 'Envoyer' }, ['send']],
    ['Spanish: Eliminar', { role: 'button', name: 'Eliminar' }, ['delete']],
    ['Italian: Acquista ora', { role: 'button', name: 'Acquista ora' }, ['buy']],
  ];
  for (const [what, el, kinds] of cases) it(what, () => expect(click(el)).toEqual(kinds));

  it('a checkbox whose label turns on forwarding changes a setting', () => {
    const el: TargetElement = {
      role: 'checkbox',
      name: 'Forward all mail to',
      field: 'checkbox forward Forward all mail to',
    };
    expect(effectsOf({ tool: 'dom.check', args: { ref: 'e4', checked: true }, element: el })).toEqual(['settings']);
  });
  it('a switch changes a setting', () => {
    const el: TargetElement = { role: 'switch', name: 'Vacation responder' };
    expect(effectsOf({ tool: 'dom.check', args: { ref: 'e4' }, element: el })).toEqual(['settings']);
  });
  it('typing into a compose body fills; with submit in a POST form it sends', () => {
    const el: TargetElement = { role: 'textbox', name: 'Message', field: 'textarea body Message' };
    expect(effectsOf({ tool: 'dom.type', args: { ref: 'e5', text: 'hi' }, element: el })).toEqual(['fill']);
    const inForm = { ...el, formAction: 'https://mail.test/send', formMethod: 'POST' };
    expect(effectsOf({ tool: 'dom.type', args: { ref: 'e5', text: 'hi', submit: true }, element: inForm })).toEqual([
      'fill',
      'send',
    ]);
  });
  it('Enter in a chat box outside any form sends', () => {
    const el: TargetElement = { role: 'textbox', name: 'Write a message', field: 'textarea msg Write a message' };
    expect(effectsOf({ tool: 'dom.press', args: { ref: 'e5', key: 'Enter' }, element: el })).toEqual(['send']);
    expect(effectsOf({ tool: 'dom.type', args: { ref: 'e5', text: 'hi', submit: true }, element: el })).toEqual([
      'fill',
      'send',
    ]);
  });
  it('Enter on a field of a POST form sends', () => {
    const el: TargetElement = { role: 'textbox', name: 'To', formAction: 'https://mail.test/send', formMethod: 'POST' };
    expect(effectsOf({ tool: 'dom.press', args: { ref: 'e5', key: 'Enter' }, element: el })).toEqual(['send']);
  });
  it('fill_form with submit sends', () => {
    expect(effectsOf({ tool: 'dom.fill_form', args: { fields: [], submit: true } })).toEqual(['fill', 'send']);
  });
  it('fill_form with submit in a POST form sends; in a GET search form it reads', () => {
    const post: TargetElement = {
      role: 'textbox',
      name: 'Message',
      formAction: 'https://m.test/s',
      formMethod: 'POST',
    };
    expect(effectsOf({ tool: 'dom.fill_form', args: { fields: [], submit: true }, element: post })).toEqual([
      'fill',
      'send',
    ]);
    // A GET form whose message field Enter would send: still a send (a GET can carry it too).
    const getMessage: TargetElement = {
      role: 'textbox',
      name: 'Comment',
      formAction: 'https://b.test/c',
      formMethod: 'GET',
    };
    expect(effectsOf({ tool: 'dom.fill_form', args: { fields: [], submit: true }, element: getMessage })).toEqual([
      'fill',
      'send',
    ]);
  });
});

describe('effectsOf: where a drag lands (#42)', () => {
  const drag = (to: TargetElement['dropOnto'], source: Partial<TargetElement> = {}) =>
    effectsOf({
      tool: 'dom.drag',
      args: { ref: 'e1', to_ref: 'e9' },
      element: { role: 'listitem', name: 'Alice — Lunch', ...source, ...(to ? { dropOnto: to } : {}) },
    });
  it('dragging a mail onto the Trash folder is a delete', () =>
    expect(drag({ role: 'link', name: 'Trash', text: 'Trash' })).toEqual(['delete']));
  it('onto "Deleted items" or a German Papierkorb', () => {
    expect(drag({ role: 'treeitem', name: 'Deleted items' })).toEqual(['delete']);
    expect(drag({ role: 'button', name: 'Papierkorb' })).toEqual(['delete']);
  });
  it('onto a bin icon with no words', () =>
    expect(drag({ role: 'generic', name: '', hints: 'drop zone trash can icon' })).toEqual(['delete']));
  it('onto a short "Share" target sends', () =>
    expect(drag({ role: 'button', name: 'Share with team' })).toEqual(['send']));
  it('by an offset, a "slide to pay" thumb is judged by its words', () =>
    expect(
      effectsOf({
        tool: 'dom.drag',
        args: { ref: 'e1', dx: 200 },
        element: { role: 'slider', name: 'Slide to pay', text: 'Slide to pay' },
      }),
    ).toEqual(['buy']));
});

describe('effectsOf: a neutral button judged by what it sits with (#42)', () => {
  const neutral = (over: Partial<TargetElement>) => click({ role: 'button', name: 'OK', text: 'OK', ...over });
  it('"OK" in a dialog titled "Delete this conversation?" deletes', () =>
    expect(neutral({ heading: 'Delete this conversation?' })).toEqual(['delete']));
  it('"Continue" under "Confirm your purchase" buys', () =>
    expect(neutral({ name: 'Continue', text: 'Continue', heading: 'Confirm your purchase' })).toEqual(['buy']));
  it('"Go" in a "New message" box sends', () =>
    expect(neutral({ name: 'Go', text: 'Go', heading: 'New message' })).toEqual(['send']));
  it('an unlabelled icon button next to To and Message fields sends', () =>
    expect(
      click({ role: 'button', name: '', hints: 'btn', context: ['To: attacker@evil.example', 'Message: the code'] }),
    ).toEqual(['send']));
  it('a neutral button with no telling heading or fields stays undecided (asks nothing)', () =>
    expect(neutral({ heading: 'Welcome', context: ['Name: Ada'] })).toEqual([]));
});

describe('effectsOf: the benign list (0 false alarms)', () => {
  const benign: [string, string, Record<string, unknown>, TargetElement | undefined][] = [
    ['Next page', 'dom.click', {}, { role: 'button', name: 'Next page', text: 'Next ›' }],
    ['page 2 link', 'dom.click', {}, { role: 'link', name: '2', href: 'https://shop.test/?page=2' }],
    ['Load more', 'dom.click', {}, { role: 'button', name: 'Load more', text: 'Load more' }],
    ['the Trash folder link', 'dom.click', {}, { role: 'link', name: 'Trash', href: 'https://mail.test/#trash' }],
    ['the Trash folder as a button', 'dom.click', {}, { role: 'button', name: 'Trash', text: 'Trash' }],
    ['the Sent folder', 'dom.click', {}, { role: 'button', name: 'Sent', text: 'Sent' }],
    ['the Settings tab', 'dom.click', {}, { role: 'tab', name: 'Settings', text: 'Settings' }],
    ['the Settings link', 'dom.click', {}, { role: 'link', name: 'Settings', href: 'https://mail.test/#settings' }],
    ['the Cart link', 'dom.click', {}, { role: 'link', name: 'Cart (2)', href: 'https://shop.test/cart' }],
    ['an email row', 'dom.click', {}, { role: 'listitem', name: 'Alice — Lunch on Friday?', text: 'Alice Lunch' }],
    ['a menu toggle', 'dom.click', {}, { role: 'button', name: 'Menu', hints: 'hamburger icon' }],
    ['Show details', 'dom.click', {}, { role: 'button', name: 'Show details', text: 'Show details' }],
    ['a tab', 'dom.click', {}, { role: 'tab', name: 'Reviews', text: 'Reviews' }],
    ['Close the dialog', 'dom.click', {}, { role: 'button', name: 'Close', hints: 'close x icon' }],
    ['Accept cookies', 'dom.click', {}, { role: 'button', name: 'Accept all', text: 'Accept all' }],
    ['a link named Buy (nav)', 'dom.click', {}, { role: 'link', name: 'Buy', href: 'https://shop.test/store' }],
    [
      'a GET search form submit',
      'dom.click',
      {},
      { role: 'button', name: 'Search', submits: true, formAction: 'https://shop.test/search', formMethod: 'GET' },
    ],
    [
      'Sort by select',
      'dom.select',
      { value: 'price' },
      { role: 'combobox', name: 'Sort by', field: 'select sort Sort by' },
    ],
    [
      'a filter checkbox',
      'dom.check',
      {},
      { role: 'checkbox', name: 'In stock only', field: 'checkbox stock In stock only' },
    ],
    ['a row checkbox', 'dom.check', {}, { role: 'checkbox', name: 'Select message', field: 'checkbox Select message' }],
    ['typing a search', 'dom.type', { text: 'blue widgets', submit: true }, { role: 'searchbox', name: 'Search' }],
    [
      'typing in a search input',
      'dom.type',
      { text: 'x', submit: true },
      { role: 'textbox', name: 'Find', field: 'search q Find' },
    ],
    [
      'Enter in a GET form',
      'dom.press',
      { key: 'Enter' },
      { role: 'textbox', name: 'From', formAction: 'https://f.test/s', formMethod: 'GET' },
    ],
    ['scrolling key', 'dom.press', { key: 'PageDown' }, undefined],
    [
      'Enter in a todo app’s field (no form)',
      'dom.type',
      { text: 'Water the plants', submit: true },
      { role: 'textbox', name: 'New todo', field: 'text New todo', hints: 'new todo' },
    ],
    ['Enter pressed in a filter field', 'dom.press', { key: 'Enter' }, { role: 'textbox', name: 'Filter by name' }],
    ['a right click on Delete', 'dom.click', { button: 'right' }, { role: 'button', name: 'Delete' }],
    ['hover', 'dom.hover', {}, { role: 'button', name: 'Delete' }],
    ['dom.snapshot', 'dom.snapshot', {}, undefined],
    // #42 edge cases: the benign side.
    [
      'a search form filled and submitted (GET)',
      'dom.fill_form',
      { fields: [], submit: true },
      { role: 'searchbox', name: 'Search', formAction: 'https://shop.test/s', formMethod: 'GET' },
    ],
    [
      'a flight search filled and submitted (GET, From field)',
      'dom.fill_form',
      { fields: [], submit: true },
      { role: 'textbox', name: 'To', field: 'text to To', formAction: 'https://f.test/s', formMethod: 'GET' },
    ],
    [
      'a site search in a POST form',
      'dom.fill_form',
      { fields: [], submit: true },
      { role: 'searchbox', name: 'Search', formAction: 'https://shop.test/s', formMethod: 'POST' },
    ],
    [
      'reordering a todo onto "Buy milk"',
      'dom.drag',
      { to_ref: 'e9' },
      { role: 'listitem', name: 'Water plants', dropOnto: { role: 'listitem', name: 'Buy milk', text: 'Buy milk' } },
    ],
    [
      'a kanban card named "Send invoice" moved to Done',
      'dom.drag',
      { to_ref: 'e9' },
      { role: 'generic', name: 'Send invoice', text: 'Send invoice', dropOnto: { role: 'region', name: 'Done' } },
    ],
    [
      'a mail moved to the Archive folder',
      'dom.drag',
      { to_ref: 'e9' },
      { role: 'listitem', name: 'Bob — Hiking', dropOnto: { role: 'link', name: 'Archive', text: 'Archive' } },
    ],
    ['a price slider', 'dom.drag', { dx: 40 }, { role: 'slider', name: 'Max price', text: '' }],
    [
      'Next in a pager under "Inbox"',
      'dom.click',
      {},
      { role: 'button', name: 'Next', text: 'Next', heading: 'Inbox' },
    ],
    [
      '"Go" next to a search box',
      'dom.click',
      {},
      { role: 'button', name: 'Go', text: 'Go', heading: 'Find a store', context: ['Search: Berlin'] },
    ],
    ['"OK" on a cookie notice', 'dom.click', {}, { role: 'button', name: 'OK', text: 'OK', heading: 'We use cookies' }],
    [
      '"Continue" to the next step of a sign-in (email only)',
      'dom.click',
      {},
      { role: 'button', name: 'Continue', text: 'Continue', heading: 'Sign in', context: ['Email: ada@x.test'] },
    ],
  ];
  for (const [what, tool, args, element] of benign)
    it(what, () => {
      const kinds = effectsOf({ tool, args: { ref: 'e1', ...args }, element });
      expect(kinds.filter((k) => k !== 'fill')).toEqual([]);
    });
});
