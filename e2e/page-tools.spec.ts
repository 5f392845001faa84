/**
 * Page tools end to end: the built extension in Chromium, driven through the worker's router (the calls the dom/tabs
 * tools make) against fixture apps built from real React, Vue and Lit (e2e/fixtures/apps). Each test takes a
 * snapshot, acts with refs from it, and checks the app's own state.
 */
import { test, expect } from './support/fixtures.ts';
import { call, callError, openTab, refIn, type ActionResult, type Snap } from './page-tools.helpers.ts';

const app = (origin: string, name: string, query = ''): string => `${origin}/apps/${name}.html${query}`;

test.describe('page tools', () => {
  test('React controlled inputs: typing, checkbox, select and submit reach React state', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'react'));
    await expect(page.getByTestId('echo')).toHaveText('Hello, stranger!');

    const s1 = await call<Snap>(sw, 'snapshot', tabId);
    expect(s1.text).toContain('- heading "React form" [level=1]');
    expect(s1.text).toMatch(/- button "Save" \[ref=[a-df-z]{2}e\d+\] \[disabled\]/);
    const name = refIn(s1.text, 'textbox "Name"');

    const typed = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.type', ref: name, text: 'Ada' });
    expect(typed.details.verified).toBe(true);
    await expect(page.getByTestId('echo')).toHaveText('Hello, Ada!');
    // keydown reached React's onKeyDown once per character.
    await expect(page.getByTestId('state')).toContainText('keys=3');

    await call(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(s1.text, 'textbox "Bio"'),
      text: 'Line one\nLine two',
    });
    await expect(page.getByTestId('bio')).toHaveText('Bio: Line one Line two');

    const checked = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.check',
      ref: refIn(s1.text, 'checkbox "I agree"'),
      checked: true,
    });
    expect(checked.details.checked).toBe(true);
    await call(sw, 'act', tabId, { type: 'dom.select', ref: refIn(s1.text, 'combobox "Color"'), values: ['Green'] });
    await expect(page.getByTestId('state')).toContainText('agree=true color=green');

    // A field that reformats what is typed: the report says the value did not land as typed.
    const shout = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(s1.text, 'textbox "Shout"'),
      text: 'abc',
    });
    expect(shout.details).toMatchObject({ verified: false, expected: 'abc', actual: 'ABC' });
    expect(shout.summary).toContain('instead of');

    // Same refs after React re-rendered; Save is enabled now.
    const s2 = await call<Snap>(sw, 'snapshot', tabId);
    expect(refIn(s2.text, 'textbox "Name"')).toBe(name);
    expect(s2.text).toMatch(/- textbox "Name" \[ref=[a-df-z]{2}e\d+\] value="Ada"/);
    expect(s2.text).not.toMatch(/button "Save" \[ref=[a-df-z]{2}e\d+\] \[disabled\]/);
    const saved = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s2.text, 'button "Save"'),
    });
    await expect(page.getByTestId('submitted')).toHaveText('Saved Ada (green)');
    expect(saved.changes.added.join(' ')).toContain('Saved Ada');
    const s3 = await call<Snap>(sw, 'snapshot', tabId);
    expect(s3.text).toContain('- status [new]: Saved Ada (green)');
    await page.close();
  });

  test('Vue v-model and @keyup.enter', async ({ context, serviceWorker: sw, pages }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'vue'));
    await expect(page.getByTestId('count')).toHaveText('1 items');
    const s = await call<Snap>(sw, 'snapshot', tabId);
    const todo = refIn(s.text, 'textbox "New todo"');

    await call(sw, 'act', tabId, { type: 'dom.type', ref: todo, text: 'Walk the dog' });
    await expect(page.getByTestId('vue-state')).toContainText('draft=Walk the dog');
    const pressed = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.press', ref: todo, key: 'Enter' });
    await expect(page.getByTestId('count')).toHaveText('2 items');
    expect(pressed.changes.added.join(' ')).toContain('Walk the dog');

    await call(sw, 'act', tabId, { type: 'dom.type', ref: todo, text: 'Water plants', submit: true });
    await expect(page.locator('li.todo')).toHaveText(['Buy milk', 'Walk the dog', 'Water plants']);

    await call(sw, 'act', tabId, { type: 'dom.select', ref: refIn(s.text, 'combobox "Size"'), values: ['L'] });
    await call(sw, 'act', tabId, { type: 'dom.check', ref: refIn(s.text, 'checkbox "Gift wrap"') });
    // v-model.lazy listens for change: typing commits it.
    await call(sw, 'act', tabId, { type: 'dom.type', ref: refIn(s.text, 'textbox "Lazy note"'), text: 'later' });
    await expect(page.getByTestId('vue-state')).toContainText('size=L gift=true lazy=later');
    await page.close();
  });

  test('Lit components in open shadow roots and a closed shadow root', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'lit'));
    await expect(page.locator('otto-counter').first().locator('#n')).toHaveText('0');
    const s = await call<Snap>(sw, 'snapshot', tabId);
    expect(s.text).toContain('- text: Count: 0');
    expect(s.text).toContain('light child');
    expect(s.text).toContain('- region "Nested card":');
    expect(s.text).toContain('- heading "Card title" [level=2]');
    expect(s.text).toContain('- heading "Closed box" [level=3]');

    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'button "Increment"') });
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'button "Nested +1"') });
    await expect(page.locator('otto-counter').first().locator('#n')).toHaveText('1');
    await expect(page.locator('otto-card otto-counter #n')).toHaveText('1');

    await call(sw, 'act', tabId, { type: 'dom.type', ref: refIn(s.text, 'textbox "Nickname"'), text: 'Zed' });
    await expect(page.locator('otto-field #nick')).toHaveText('Nick: Zed');

    // Inside the closed root: only the extension's openOrClosedShadowRoot reaches it.
    await call(sw, 'act', tabId, { type: 'dom.type', ref: refIn(s.text, 'textbox "Secret code"'), text: '42' });
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'button "Reveal"') });
    await expect(page.locator('secret-box')).toHaveAttribute('data-result', 'revealed 42 (1)');
    const after = await call<Snap>(sw, 'snapshot', tabId);
    expect(after.text).toContain('- text: revealed 42 (1)');
    await page.close();
  });

  test('jQuery-style keyup (which === 13), Backbone-style keypress, a change listener and a contenteditable editor', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'legacy'));
    const s = await call<Snap>(sw, 'snapshot', tabId);

    await call(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(s.text, 'textbox "jQuery todo"'),
      text: 'Milk',
      submit: true,
    });
    await expect(page.locator('#jq-items li')).toHaveText(['Milk']);

    await call(sw, 'act', tabId, { type: 'dom.type', ref: refIn(s.text, 'textbox "Backbone note"'), text: 'hello' });
    await call(sw, 'act', tabId, { type: 'dom.press', ref: refIn(s.text, 'textbox "Backbone note"'), key: 'Enter' });
    await expect(page.locator('#bb-out')).toHaveText('note: hello');

    await call(sw, 'act', tabId, { type: 'dom.type', ref: refIn(s.text, 'textbox "City"'), text: 'Paris' });
    await expect(page.locator('#city-out')).toHaveText('City: Paris');

    const ed = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(s.text, 'textbox "Editor"'),
      text: 'Hello editor',
    });
    expect(ed.details.verified).toBe(true);
    await expect(page.locator('#preview')).toHaveText('Preview: Hello editor');
    await call(sw, 'act', tabId, {
      type: 'dom.type',
      ref: refIn(s.text, 'textbox "Editor"'),
      text: ', again',
      clear: false,
    });
    await expect(page.locator('#preview')).toHaveText('Preview: Hello editor, again');
    await page.close();
  });

  test('same- and cross-origin iframes are stitched in and acted on through frame-prefixed refs', async ({
    context,
    serviceWorker: sw,
    pages,
    otherOrigin,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'frames', `?cross=${otherOrigin.port}`));
    await expect(page.frameLocator('#cross').locator('#out')).toHaveText('nothing sent');
    await expect(page.frameLocator('#same').locator('#out')).toHaveText('nothing sent');

    const s = await call<Snap>(sw, 'snapshot', tabId);
    expect(s.frames).toBe(2);
    expect(s.text).toMatch(
      /- iframe "Same origin frame" \[ref=[a-df-z]{2}e\d+\]:\n {2}- heading "Child same" \[level=2\]/,
    );
    expect(s.text).toMatch(
      /- iframe "Cross origin frame" \[ref=[a-df-z]{2}e\d+\]:\n {2}- heading "Child cross" \[level=2\]/,
    );
    expect(refIn(s.text, 'Send cross')).toMatch(/^f\d+[a-df-z]{2}e\d+$/);
    const lines = s.text.split('\n');
    const crossMsg = refIn(
      lines.slice(lines.findIndex((l) => l.includes('Cross origin frame'))).join('\n'),
      'textbox "Message"',
    );
    expect(crossMsg).toMatch(/^f\d+[a-df-z]{2}e\d+$/);
    expect(refIn(s.text, 'button "Top button"')).toMatch(/^[a-df-z]{2}e\d+$/);

    await call(sw, 'act', tabId, { type: 'dom.type', ref: crossMsg, text: 'hi' });
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'Send cross') });
    await expect(page.frameLocator('#cross').locator('#out')).toHaveText('sent hi from cross');

    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'Send same') });
    await expect(page.frameLocator('#same').locator('#out')).toHaveText('sent  from same');

    // find searches every frame.
    const found = await call<{ matches: { ref?: string; line: string }[] }>(sw, 'find', tabId, {
      role: 'button',
      name: 'send',
    });
    expect(found.matches.map((m) => m.ref)).toEqual(
      expect.arrayContaining([refIn(s.text, 'Send cross'), refIn(s.text, 'Send same')]),
    );
    await page.close();
  });

  test('a long page: budget truncation says what was cut, scrolling loads more, far elements are clicked after scrolling', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'long'));
    const small = await call<Snap>(sw, 'snapshot', tabId, { maxChars: 2000 });
    expect(small.text.length).toBeLessThanOrEqual(2000);
    expect(small.truncated).toBe(true);
    expect(small.note).toMatch(/outline truncated to 2000 chars/);
    expect(small.note).toMatch(/dom\.find/);

    const full = await call<Snap>(sw, 'snapshot', tabId);
    expect(full.truncated).toBe(false);
    const bottom = refIn(full.text, 'button "Bottom button"');
    const clicked = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: bottom });
    expect(clicked.summary).toContain('clicked button "Bottom button"');
    await expect(page.locator('#bottom')).toHaveText('Bottom clicked');

    await call(sw, 'act', tabId, { type: 'dom.scroll', to: 'top' });
    expect(await page.evaluate(() => scrollY)).toBe(0);
    const down = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.scroll', direction: 'down', pages: 2 });
    expect(down.summary).toMatch(/scrolled the page from y=0 to y=\d+/);
    const end = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.scroll', to: 'bottom' });
    expect(end.summary).toContain('scrolled the page');
    await expect(page.locator('#loaded')).not.toHaveText('Loaded 10 items');

    const found = await call<{ matches: { line: string; near?: string }[]; total: number }>(sw, 'find', tabId, {
      text: 'Section 42',
    });
    expect(found.total).toBe(1);
    expect(found.matches[0]!.line).toContain('heading "Section 42"');

    const text = await call<{ text: string; truncated: boolean }>(sw, 'text', tabId, { maxChars: 500 });
    expect(text.truncated).toBe(true);
    expect(text.text.startsWith('Long page\nSection 1')).toBe(true);
    await page.close();
  });

  test('elements that appear after actions: wait_for, [new] marks, dialogs, covered and stale targets', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'dynamic'));
    const s1 = await call<Snap>(sw, 'snapshot', tabId);
    expect(s1.text).toMatch(/- clickable "Clickable card — opens nothing" \[ref=[a-df-z]{2}e\d+\]/);

    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'button "Show details"') });
    const waited = await call<{ met: boolean; elapsedMs: number }>(sw, 'waitFor', tabId, {
      text: 'Details loaded',
      timeoutMs: 3000,
    });
    expect(waited.met).toBe(true);
    const s2 = await call<Snap>(sw, 'snapshot', tabId);
    expect(s2.newRefs).toBe(1);
    expect(s2.text).toMatch(/- button "Confirm order" \[ref=[a-df-z]{2}e\d+\] \[new\]/);
    expect(s2.text).toContain('- text: Details loaded [new]');
    expect(refIn(s2.text, 'button "Show details"')).toBe(refIn(s1.text, 'button "Show details"'));
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s2.text, 'Confirm order') });
    await expect(page.locator('#status')).toHaveText('order confirmed');

    const timeout = await callError(sw, 'waitFor', tabId, { text: 'Never shows', timeoutMs: 300 });
    expect(timeout.message).toMatch(/Timed out after 300 ms waiting for text "Never shows" to appear/);

    // A modal opens: reported; then its backdrop covers the page.
    const opened = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s1.text, 'button "Open dialog"'),
    });
    expect(opened.changes.dialogsOpened).toEqual(['dialog "Terms"']);
    const formatted = await call<string>(sw, 'formatAction', opened);
    expect(formatted).toMatch(/^dom\.click ok — 1 dialog opened/);
    expect(formatted).toMatch(
      /<external-content-[0-9a-f]{8}>[\s\S]*dialog opened: dialog "Terms"[\s\S]*<\/external-content-[0-9a-f]{8}>$/,
    );
    const covered = await callError(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s1.text, 'button "Show details"'),
    });
    expect(covered.message).toMatch(/is covered by .*<div#backdrop\.backdrop> \(part of the open dialog "Terms"/);
    expect(covered.code).toBe('action');
    const s3 = await call<Snap>(sw, 'snapshot', tabId);
    expect(s3.text).toContain('- dialog "Terms" [modal] [new]:');
    const closed = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s3.text, 'button "Close"'),
    });
    expect(closed.changes.dialogsClosed).toEqual(['dialog (removed)']);
    // Escape reaches the page's key handler (here: closes the dialog again).
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'button "Open dialog"') });
    const esc = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.press', key: 'Escape' });
    expect(esc.changes.dialogsClosed).toHaveLength(1);
    await expect(page.locator('#backdrop')).toHaveCount(0);

    // Hover shows a tooltip; double and right clicks reach their handlers.
    const hovered = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.hover',
      ref: refIn(s1.text, 'button "Hover me"'),
    });
    expect(hovered.changes.added.join(' ')).toContain('tooltip "Helpful tooltip"');
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'button "Multi"'), clickCount: 2 });
    await expect(page.locator('#status')).toHaveText('double clicked');
    const right = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s1.text, 'button "Multi"'),
      button: 'right',
    });
    expect(right.summary).toMatch(/^right-clicked button "Multi"/);
    await expect(page.locator('#status')).toHaveText('context menu');
    // Moving on removes the tooltip again (the pointer left the hovered element).
    await expect(page.locator('#tip')).toHaveCount(0);

    // Stale refs: an element that removed itself, and a list that re-rendered.
    const removeRef = refIn(s1.text, 'button "Remove me"');
    await call(sw, 'act', tabId, { type: 'dom.click', ref: removeRef });
    const stale = await callError(sw, 'act', tabId, { type: 'dom.click', ref: removeRef });
    expect(stale.message).toMatch(/Ref [a-df-z]{2}e\d+ is stale.*Take a new snapshot/);
    expect(stale.code).toBe('stale-ref');
    const itemA = refIn(s1.text, 'button "Item A"');
    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'button "Re-render list"') });
    expect((await callError(sw, 'act', tabId, { type: 'dom.click', ref: itemA })).message).toMatch(/stale/);
    const s4 = await call<Snap>(sw, 'snapshot', tabId);
    expect(refIn(s4.text, 'button "Item A"')).not.toBe(itemA);

    await call(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'Clickable card') });
    await expect(page.locator('#status')).toHaveText('card clicked');

    // Navigation: within the document, then to another page (followed until it has loaded).
    const hash = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s1.text, 'link "Jump to later"'),
    });
    expect(hash.changes.navigated?.to).toMatch(/dynamic\.html#later$/);
    const nav = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s1.text, 'link "Go to login"'),
    });
    expect(nav.navigation).toMatchObject({
      to: expect.stringMatching(/\/apps\/login\.html$/),
      title: 'Log in',
      complete: true,
    });
    expect(await call<string>(sw, 'formatAction', nav)).toMatch(
      /^dom\.click ok — the page navigated \(new page loaded\): take a new snapshot/,
    );
    const old = await callError(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s1.text, 'button "Show details"') });
    expect(old.message).toMatch(/this ref is from an earlier page; take a new snapshot/);
    const fresh = await call<Snap>(sw, 'snapshot', tabId);
    expect(fresh.title).toBe('Log in');
    await page.close();
  });

  test('a login form: fill_form with a password, a checkbox and submit; the password never appears in output', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'login'));
    const s = await call<Snap>(sw, 'snapshot', tabId);
    expect(s.text).toMatch(/- textbox "Password" \[ref=[a-df-z]{2}e\d+\] \[required\] \[password\]/);
    const r = await call<ActionResult>(sw, 'act', tabId, {
      type: 'dom.fill_form',
      fields: [
        { ref: refIn(s.text, 'textbox "Email"'), value: 'ada@example.com' },
        { ref: refIn(s.text, 'textbox "Password"'), value: 's3cret-pass' },
        { ref: refIn(s.text, 'checkbox "Remember me"'), value: true },
      ],
      submit: true,
    });
    expect(r.summary).toBe('filled 3 of 3 fields');
    await expect(page.locator('#result')).toHaveText('Welcome, ada@example.com (remembered)');
    expect(JSON.stringify(r)).not.toContain('s3cret-pass');
    const after = await call<Snap>(sw, 'snapshot', tabId);
    expect(after.text).toMatch(/\[password\] value="•+"/);
    expect(after.text).not.toContain('s3cret-pass');
    await page.close();
  });

  test('selects, checkboxes, radios over hidden inputs, an ARIA combobox, and a disabled button', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'forms'));
    const s = await call<Snap>(sw, 'snapshot', tabId);
    const out = page.locator('#out');
    await call(sw, 'act', tabId, { type: 'dom.select', ref: refIn(s.text, 'combobox "Country"'), values: ['Germany'] });
    await call(sw, 'act', tabId, {
      type: 'dom.select',
      ref: refIn(s.text, 'listbox "Toppings"'),
      values: ['Ham', 'Olives'],
    });
    await call(sw, 'act', tabId, { type: 'dom.check', ref: refIn(s.text, 'checkbox "Newsletter"') });
    // The radio inputs are visually hidden; their labels stand in for them.
    expect(s.text).toMatch(/- radio "Pro" \[ref=[a-df-z]{2}e\d+\]/);
    const pro = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.check', ref: refIn(s.text, 'radio "Pro"') });
    expect(pro.details.checked).toBe(true);
    await expect(out).toHaveText(
      JSON.stringify({ country: 'de', toppings: ['Ham', 'Olives'], newsletter: true, plan: 'pro', fruit: '' }),
    );

    const noOption = await callError(sw, 'act', tabId, {
      type: 'dom.select',
      ref: refIn(s.text, 'combobox "Country"'),
      values: ['Atlantis'],
    });
    expect(noOption.message).toMatch(/no option "Atlantis".*"France/);
    const uncheckRadio = await callError(sw, 'act', tabId, {
      type: 'dom.check',
      ref: refIn(s.text, 'radio "Pro"'),
      checked: false,
    });
    expect(uncheckRadio.message).toMatch(/cannot be unchecked/);

    await call(sw, 'act', tabId, { type: 'dom.select', ref: refIn(s.text, 'combobox "Fruit"'), values: ['Pear'] });
    await expect(out).toContainText('"fruit":"pear"');

    const disabled = await callError(sw, 'act', tabId, {
      type: 'dom.click',
      ref: refIn(s.text, 'button "Disabled action"'),
    });
    expect(disabled.message).toMatch(/is disabled/);

    const q = await call<{ matches: { ref: string; line: string; visible: boolean }[]; total: number }>(
      sw,
      'query',
      tabId,
      'input[type=radio]',
    );
    expect(q.total).toBe(2);
    expect(q.matches[0]!.line).toMatch(/radio "Free" \[ref=[a-df-z]{2}e\d+\]/);
    await page.close();
  });

  test('during an action, confirm and prompt are cancelled and alert dismissed unless the question is accepted; natives come back', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'dialogs'));
    const natives = () =>
      page.evaluate(() =>
        [window.alert, window.confirm, window.prompt].map((f) => Function.prototype.toString.call(f)),
      );
    const before = await natives();
    await page.evaluate(() => {
      (window as unknown as { before: unknown[] }).before = [window.alert, window.confirm, window.prompt];
    });
    const s = await call<Snap>(sw, 'snapshot', tabId);
    const del = refIn(s.text, 'button "Delete item"');

    const r1 = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: del });
    expect(r1.changes.pageDialogs).toMatchObject([{ type: 'confirm', message: 'Delete this item?', answer: false }]);
    await expect(page.locator('#status')).toHaveText('Kept');
    const out1 = await call<string>(sw, 'formatAction', r1);
    expect(out1).toMatch(/^dom\.click ok — the page asked 1 question \(confirm\/prompt\) and Otto answered Cancel/);
    expect(out1).toContain('confirm("Delete this item?") → answered Cancel');

    // A different question than the one accepted is still cancelled.
    const r2 = await call<ActionResult>(
      sw,
      'act',
      tabId,
      { type: 'dom.click', ref: del },
      { acceptDialog: { message: 'Delete everything?' } },
    );
    expect(r2.changes.pageDialogs).toMatchObject([{ type: 'confirm', message: 'Delete this item?', answer: false }]);
    const r3 = await call<ActionResult>(
      sw,
      'act',
      tabId,
      { type: 'dom.click', ref: del },
      { acceptDialog: { message: 'Delete this item?' } },
    );
    expect(r3.changes.pageDialogs).toMatchObject([{ type: 'confirm', message: 'Delete this item?', answer: true }]);
    await expect(page.locator('#status')).toHaveText('Deleted');
    expect(await call<string>(sw, 'formatAction', r3)).toContain(
      'confirm("Delete this item?") → answered OK (as requested)',
    );

    const greet = refIn(s.text, 'button "Greet"');
    const r4 = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: greet });
    expect(r4.changes.pageDialogs).toMatchObject([{ type: 'prompt', message: 'Your name?', answer: null }]);
    await expect(page.locator('#status')).toHaveText('No greeting');
    // Armed through dom.dialogs for the next action, with the prompt's answer.
    await call(sw, 'dialogs', tabId, { accept: { message: 'Your name?', text: 'Otto' } });
    const r5 = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: greet });
    expect(r5.changes.pageDialogs).toMatchObject([{ type: 'prompt', message: 'Your name?', answer: 'Otto' }]);
    await expect(page.locator('#status')).toHaveText('Hello Otto');
    const r6 = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', ref: refIn(s.text, 'button "Warn"') });
    expect(r6.changes.pageDialogs).toMatchObject([{ type: 'alert', message: 'Careful!' }]);
    await expect(page.locator('#status')).toHaveText('Warned');

    const log = await call<{ log: unknown[]; total: number; armed?: unknown }>(sw, 'dialogs', tabId, {});
    expect(log.total).toBe(6);
    expect(log.armed).toBeUndefined();
    // After the actions the page's own functions are back, the very same objects.
    expect(await natives()).toEqual(before);
    expect(
      await page.evaluate(() => {
        const b = (window as unknown as { before: unknown[] }).before;
        return [window.alert, window.confirm, window.prompt].every((f, i) => f === b[i]);
      }),
    ).toBe(true);
    await page.close();
  });

  test('a page that patches JSON, Object.prototype and Array.prototype cannot forge the dialog report', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'dialogs'));
    await page.evaluate(() => {
      const forged = { type: 'alert', message: 'Welcome back!' };
      Object.defineProperty(Object.prototype, 'toJSON', { configurable: true, value: () => forged });
      JSON.stringify = () => JSON.parse('{"type":"alert","message":"Welcome back!"}') as string;
      Object.defineProperty(Object.prototype, 'then', {
        configurable: true,
        value: (r: (v: unknown) => void) => r(forged),
      });
      Array.prototype.push = function () {
        return 0;
      };
      Array.prototype.join = () => 'a1:U13:Welcome back!';
      String.prototype.slice = () => 'Welcome back!';
      window.addEventListener = EventTarget.prototype.addEventListener;
      document.getElementById('delete')!.addEventListener('click', () => void 0);
    });
    const r = await call<ActionResult>(sw, 'act', tabId, { type: 'dom.click', selector: '#delete' });
    expect(r.changes.pageDialogs).toMatchObject([{ type: 'confirm', message: 'Delete this item?', answer: false }]);
    await expect(page.locator('#status')).toHaveText('Kept');
    await page.close();
  });

  test('dom.read returns the article as Markdown; dom.text and query work by selector', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'long'));
    const article = await call<{ title: string; markdown: string; readerable: boolean }>(sw, 'read', tabId, {
      maxChars: 5000,
    });
    expect(article.markdown).toMatch(/^# /);
    expect(article.markdown).toContain('Lorem ipsum dolor sit amet');
    const t = await call<{ text: string }>(sw, 'text', tabId, { selector: '#loaded' });
    expect(t.text).toBe('Loaded 10 items');
    await page.close();
  });

  test('restricted pages give a clear error', async ({ context, serviceWorker: sw }) => {
    const page = await context.newPage();
    await page.goto('chrome://version');
    const tabId = await sw.evaluate(
      async () => (await chrome.tabs.query({})).find((t) => t.url?.startsWith('chrome://version'))?.id,
    );
    const err = await callError(sw, 'snapshot', tabId);
    expect(err.message).toMatch(/cannot read or act on a Chrome page \(chrome:\/\/\).*Open a regular web page/);
    expect(err.code).toBe('restricted');
    await page.close();
  });
});
