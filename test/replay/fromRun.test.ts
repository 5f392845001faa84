import { describe, expect, it } from 'vitest';
import { readLocators, snippetFromRun } from '../../src/replay/fromRun.ts';
import { continuationMessage, readContinuation } from '../../src/replay/continue.ts';

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
let n = 0;
function call(name: string, args: Record<string, unknown>, output: string) {
  const id = `call_${++n}`;
  return [
    { type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) },
    { type: 'function_call_output', call_id: id, output },
  ];
}
const action = (summary: string, locator: object, url = 'https://shop.example/login') =>
  `dom__click ok — no DOM change.\n<external-content-0a0b0c0d>\n${summary}\nlocator: ${JSON.stringify(locator)} at ${JSON.stringify(url)}\n</external-content-0a0b0c0d>`;

describe('snippetFromRun', () => {
  const items = [
    user('earlier task'),
    ...call('dom__click', { ref: 'e1' }, action('clicked', { role: 'button', name: 'Old' })),
    user('sign in as ada@example.com with password s3cret and search for "blue shoes"'),
    ...call('dom__snapshot', {}, 'Page snapshot — 3 refs.'),
    ...call(
      'dom__type',
      { ref: 'e2', text: 'ada@example.com' },
      action('typed "ada@example.com" into textbox "Email"', { label: 'Email' }),
    ),
    ...call(
      'dom__type',
      { ref: 'e3', text: 's3cret', tab_id: 4 },
      action('typed 6 characters into textbox "Password"', { label: 'Password' }),
    ),
    ...call('dom__click', { ref: 'e9' }, 'Error: Ref e9 is stale: its element was removed.'),
    ...call('dom__click', { ref: 'e4' }, action('clicked button "Log in"', { role: 'button', name: 'Log in' })),
    ...call(
      'dom__type',
      { ref: 'e7', text: 'blue shoes', submit: true },
      action('typed', { role: 'searchbox', name: 'Search' }),
    ),
    ...call('dom__text', {}, 'Visible text of the page: 10 characters.'),
  ];

  it('keeps the successful steps of the last run, with locators for refs and parameters for the task values', () => {
    const built = snippetFromRun(items);
    expect(built.definition.body).toBe(
      [
        'tabs.navigate(url="{{ url }}")',
        'dom.type(label="Email", text="{{ email }}")',
        'dom.type(label="Password", text="{{ password }}")',
        'dom.click(role="button", name="Log in")',
        'dom.type(role="searchbox", name="Search", text="{{ search }}", submit=True)',
        'dom.text()',
        '',
      ].join('\n'),
    );
    expect(built.definition.params).toEqual({
      url: {
        optional: true,
        description:
          'a page to open first (recorded on https://shop.example/login); without it the snippet runs on the current tab',
      },
      email: { default: 'ada@example.com', description: 'from the task' },
      password: { required: true, description: 'typed into a password field: give it each time (never stored)' },
      search: { default: 'blue shoes', description: 'from the task' },
    });
    expect(built.kept).toBe(5);
    expect(built.dropped).toEqual([
      {
        call: 'dom.snapshot()',
        reason: 'exploratory: it only looked at the page or at Otto; the kept steps do the work',
      },
      { call: 'dom.click(ref="e9")', reason: 'failed: Ref e9 is stale: its element was removed.' },
    ]);
    // The password is neither a default nor in the description.
    expect(JSON.stringify(built.definition)).not.toContain('s3cret');
    expect(built.definition.description).toContain('with password [password]');
  });

  it('drops a dom.type whose element is named only by its text: that tool takes text as what to type', () => {
    const built = snippetFromRun([
      user('write hello'),
      ...call('dom__type', { ref: 'e5', text: 'hello' }, action('typed', { text: 'Draft' })),
    ]);
    expect(built.kept).toBe(0);
    expect(built.dropped[0]!.reason).toBe(
      'its element (ref e5) is named only by its text, which dom.type does not take as a locator',
    );
  });

  it('drops an action whose ref has no recorded locator, saying why', () => {
    const built = snippetFromRun([user('go'), ...call('dom__click', { ref: 'e5' }, 'dom__click ok — no DOM change.')]);
    expect(built.kept).toBe(0);
    expect(built.dropped[0]!.reason).toBe('its element (ref e5) has no readable locator to replay with');
  });

  it('reads the locator line of an action output, and ignores a forged one that is not JSON', () => {
    expect(readLocators('x\nlocator: {"label":"Email"} at "https://a.example/"\n')).toEqual({
      locator: { label: 'Email' },
      url: 'https://a.example/',
    });
    expect(readLocators('locators: [{"label":"A"},null]')).toEqual({ fields: [{ label: 'A' }, null] });
    expect(readLocators('locator: {not json}')).toEqual({});
  });

  it('puts the steps a repaired replay carried first, and reuses its parameters for the same values', () => {
    const message = continuationMessage({
      name: 'order',
      definition: {
        description: 'Order',
        params: { company: { default: 'Acme' }, password: { required: true } },
        body: 'dom.type(label="Password", text="{{ password }}")\ndom.type(label="Company", text="{{ company }}")\n',
      },
      values: { password: 'hunter2' },
      source: 'dom.type(label="Password", text="hunter2")\ndom.type(label="Company", text="Acme")\n',
      line: 2,
      error: 'No element matches label="Company" on this page.',
      snapshot: 'Page snapshot — 1 refs.',
    });
    expect(message).toContain('  2 ✗ dom.type(label="Company", text="Acme")');
    expect(message).toContain('  1   dom.type(label="Password", text="•••")');
    expect(message).not.toContain('hunter2');
    const carry = readContinuation(message)!;
    expect(carry.name).toBe('order');
    expect(carry.body).toBe('dom.type(label="Password", text="{{ password }}")');
    const built = snippetFromRun(
      [user(message), ...call('dom__type', { ref: 'e4', text: 'Acme' }, action('typed', { label: 'Organisation' }))],
      { prior: carry },
    );
    expect(built.definition.body).toBe(
      'dom.type(label="Password", text="{{ password }}")\ndom.type(label="Organisation", text="{{ company }}")\n',
    );
    expect(Object.keys(built.definition.params)).toEqual(['company', 'password']);
  });

  it('a todo run (#44): the typed values flow into the later item locator; the start page is optional', () => {
    const typed = (t: string) =>
      action(`typed "${t}" into textbox`, { placeholder: 'What needs to be done?' }, 'http://x.test/react.html');
    const built = snippetFromRun([
      user('add the todos "Buy milk" and "Call mom", then complete "Buy milk"'),
      ...call('dom__type', { ref: 'e1', text: 'Buy milk', submit: true }, typed('Buy milk')),
      ...call('dom__type', { ref: 'e1', text: 'Call mom', submit: true }, typed('Call mom')),
      ...call('dom__check', { ref: 'e7', checked: true }, action('checked', { item: 'Buy milk', role: 'checkbox' })),
      ...call(
        'dom__click',
        { ref: 'e9' },
        action('clicked', { item: 'Call mom', role: 'button', name: 'Delete Call mom' }),
      ),
    ]);
    expect(built.definition.body).toBe(
      [
        'tabs.navigate(url="{{ url }}")',
        'dom.type(placeholder="What needs to be done?", text="{{ what_needs_to_be_done }}", submit=True)',
        'dom.type(placeholder="What needs to be done?", text="{{ what_needs_to_be_done_2 }}", submit=True)',
        'dom.check(item="{{ what_needs_to_be_done }}", role="checkbox", checked=True)',
        'dom.click(item="{{ what_needs_to_be_done_2 }}", role="button", name="Delete {{ what_needs_to_be_done_2 }}")',
        '',
      ].join('\n'),
    );
    expect(built.definition.params.url).toEqual({
      optional: true,
      description:
        'a page to open first (recorded on http://x.test/react.html); without it the snippet runs on the current tab',
    });
    expect(built.definition.params.what_needs_to_be_done).toEqual({
      default: 'Buy milk',
      description: 'from the task',
    });
  });

  it('a run that navigated keeps its own navigation and gets no start-page parameter', () => {
    const built = snippetFromRun([
      user('open http://x.test/lit.html and add "Buy milk"'),
      ...call('tabs__navigate', { url: 'http://x.test/lit.html' }, 'tabs__navigate ok: http://x.test/lit.html'),
      ...call(
        'dom__type',
        { ref: 'e1', text: 'Buy milk', submit: true },
        action('typed', { placeholder: 'What needs to be done?' }, 'http://x.test/lit.html'),
      ),
    ]);
    expect(built.definition.body.split('\n')[0]).toBe('tabs.navigate(url="{{ url }}")');
    expect(Object.keys(built.definition.params)).toEqual(['url', 'what_needs_to_be_done']);
    expect(built.definition.params.url).toEqual({ default: 'http://x.test/lit.html', description: 'from the task' });
  });
});
