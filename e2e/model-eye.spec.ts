/**
 * Issue #14 e2e: what the model sees. Each test runs the real `dom` tools in the built extension's worker against a
 * fixture page built like a real widget (a jQuery UI datepicker from npm, span buttons with listeners, a TodoMVC list,
 * a nested scroller, hidden tab panels, late updates, an autocomplete) and asserts on the exact text the tool
 * returns — the text the model receives. Each would fail on the misleading output the issue quotes.
 */
import { test, expect } from './support/fixtures.ts';
import { openTab, refIn, tool } from './page-tools.helpers.ts';
import { connectToFakeApi, send, waitForStatus } from './support/agent.ts';

const app = (origin: string, name: string): string => `${origin}/apps/${name}.html`;

test.describe('what the model sees (#14)', () => {
  test('1, 5: a TodoMVC list — find names the row, not the other todo; the checkbox is named from its label (inferred); items stay items; ticking reports checked and the counter', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'todos'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    // Items kept, the checkbox named from its sibling label and said to be inferred, the textless button hinted.
    expect(snap).toMatch(/- listitem:\n\s+- checkbox "Walk the dog" \[ref=[a-df-z]{2}e\d+\] \[name inferred\]/);
    expect(snap).toMatch(/- checkbox "Buy milk" \[ref=[a-df-z]{2}e\d+\] \[name inferred\]/);
    expect(snap).toMatch(/- button \[ref=[a-df-z]{2}e\d+\] <button\.destroy> beside "Buy milk"/);
    const walkBox = refIn(snap, 'checkbox "Walk the dog"');
    const milkBox = refIn(snap, 'checkbox "Buy milk"');

    const found = await tool(sw, 'dom.find', { text: 'Buy milk', tab_id: tabId });
    // The old answer was "- text: Buy milk (nearest ref: e5)" with e5 the *other* todo's checkbox.
    expect(found).not.toContain('nearest ref');
    expect(found).not.toContain(walkBox);
    expect(found).toContain(milkBox);
    expect(found).toMatch(/Refs: [^.]*e\d+/);

    const checked = await tool(sw, 'dom.check', { ref: milkBox, tab_id: tabId });
    // The old report: "dom.check ok — no visible change."
    expect(checked).not.toContain('no visible change');
    expect(checked).not.toContain('no DOM change');
    expect(checked).toMatch(
      new RegExp(`changed: checkbox "Buy milk" \\[ref=${milkBox}\\] \\[name inferred\\]: not checked → checked`),
    );
    expect(checked).toMatch(/changed: text of .*"2 items left" → "1 item left"/);
    await page.close();
  });

  test('1, 4, 2: a jQuery UI datepicker — Prev/Next (<a> without href) get refs, find points at them, picking a day reports the field value', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'flights'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const depart = refIn(snap, 'textbox "Depart"');
    const opened = await tool(sw, 'dom.click', { ref: depart, tab_id: tabId });
    // What appeared carries the refs of its controls (Prev, Next, the days): no second call needed.
    expect(opened).toMatch(/appeared: .*— refs: [a-df-z]{2}e\d+ clickable "Prev"/);
    expect(opened).toMatch(/clickable "Next"/);

    const found = await tool(sw, 'dom.find', { text: 'Prev', tab_id: tabId });
    // The old answer pointed "Prev" at a day cell (nearest ref: e10). Now the match is the Prev control itself, or
    // the page's own instructions mentioning Prev, which are no control: their own element gets a ref (#43).
    expect(found).not.toContain('nearest ref');
    const prevLine = found.split('\n').find((l) => l.includes('clickable "Prev"'));
    expect(prevLine).toMatch(/^- clickable "Prev" \[ref=[a-df-z]{2}e\d+\]/);
    expect(found).toMatch(
      /- text: Pick the cheapest flight\. Use Prev and Next to change month\. \(its element: [a-df-z]{2}e\d+ <p>\)/,
    );

    const next = refIn(
      await tool(sw, 'dom.find', { role: 'clickable', name: 'Next', tab_id: tabId }),
      'clickable "Next"',
    );
    const moved = await tool(sw, 'dom.click', { ref: next, tab_id: tabId });
    expect(moved).not.toContain('no DOM change');
    expect(moved).toContain('January');
    await expect(page.locator('.ui-datepicker-title')).toContainText('January 2027');

    const days = await tool(sw, 'dom.find', { role: 'link', name: '15', tab_id: tabId });
    const picked = await tool(sw, 'dom.click', { ref: refIn(days, 'link "15"'), tab_id: tabId });
    expect(picked).toMatch(new RegExp(`changed: textbox "Depart" \\[ref=${depart}\\]: value "" → "01/15/2027"`));
    expect(picked).toMatch(/changed: text of .*"No date picked" → "Departure 01\/15\/2027"/);
    await page.close();
  });

  test('3: a button below the fold of a scrolled container is scrolled to and clicked, never "covered by html"', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'scroller'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const book = refIn(snap, 'button "Book flight for $596"');
    const clicked = await tool(sw, 'dom.click', { ref: book, tab_id: tabId });
    expect(clicked).not.toContain('covered by');
    expect(clicked).toMatch(/^dom\.click ok/);
    expect(clicked).toMatch(/changed: text of .*"Not booked" → "Booked the \$596 flight"/);
    await expect(page.locator('#booked')).toHaveText('Booked the $596 flight');
    await page.close();
  });

  test('4, 5, 8: span buttons (listener + pointer cursor, no role) get their own refs, never merged; what appears lists its refs', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'feed'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    // Before: "Page snapshot — 0 refs" or one `clickable "Reply Forward"`.
    expect(snap).not.toMatch(/clickable "Reply Forward"/);
    expect(snap).toMatch(/- clickable "Reply" \[ref=[a-df-z]{2}e\d+\]/);
    expect(snap).toMatch(/- clickable "Forward" \[ref=[a-df-z]{2}e\d+\]/);
    // A listener on an icon-only span: unnamed, so it shows a tag hint.
    expect(snap).toMatch(/- clickable \[ref=[a-df-z]{2}e\d+\] <span\.act-like>/);
    const reply = await tool(sw, 'dom.click', { ref: refIn(snap, 'clickable "Reply"'), tab_id: tabId });
    // The old line was `appeared: div "to: … subject: …"` with no refs.
    expect(reply).toMatch(
      /appeared: .*"to: Ada, subject: Re: the engine.*— refs: [a-df-z]{2}e\d+ textbox "Reply text", [a-df-z]{2}e\d+ button "Send"/,
    );
    const fwd = await tool(sw, 'dom.click', { ref: refIn(snap, 'clickable "Forward"'), tab_id: tabId });
    expect(fwd).toMatch(/shown: .*— refs: [a-df-z]{2}e\d+ textbox "To"/);
    await page.close();
  });

  test('6, 4, 2: tabs made of spans — find reports matches in the hidden panel and why; switching tabs reports shown/hidden', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'tabs'));
    const found = await tool(sw, 'dom.find', { text: 'Card ending', tab_id: tabId });
    // Before: "No match for text ..." with no hint that the text exists behind a tab.
    expect(found).toMatch(/^No visible match for text "Card ending"\. 1 more match in hidden elements/);
    expect(found).toMatch(/- hidden: 1 in .*<div#billing\.panel> \(has display:none\)/);
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const billing = refIn(snap, 'clickable "Billing"');
    const switched = await tool(sw, 'dom.click', { ref: billing, tab_id: tabId });
    expect(switched).not.toContain('no visible change');
    expect(switched).toMatch(/shown: .*"Card ending 4242.*— refs: [a-df-z]{2}e\d+ button "Update card"/);
    expect(switched).toMatch(/hidden: .*"Name: Ada Lovelace"/);
    await page.close();
  });

  test('2, 7: late updates (microtask, frame, timer, class toggle) are reported; a no-op says "no DOM change within N ms"; wait_for says already present and what matched', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'late'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    for (const [button, text] of [
      ['Microtask', 'Micro done'],
      ['Frame', 'Frame done'],
      ['Timer', 'Timer done'],
    ] as const) {
      const out = await tool(sw, 'dom.click', { ref: refIn(snap, `button "${button}"`), tab_id: tabId });
      expect(out, button).toMatch(new RegExp(`changed: text of .*→ "${text}"`));
    }
    const menu = await tool(sw, 'dom.click', { ref: refIn(snap, 'button "Menu"'), tab_id: tabId });
    expect(menu).toMatch(/changed: button "Menu" \[ref=[a-df-z]{2}e\d+\]: collapsed → expanded/);
    expect(menu).toMatch(/shown: menu.*— refs: [a-df-z]{2}e\d+ menuitem "Rename", [a-df-z]{2}e\d+ menuitem "Delete"/);
    const noop = await tool(sw, 'dom.click', { ref: refIn(snap, 'button "Nothing"'), tab_id: tabId });
    expect(noop).toMatch(/^dom\.click ok — no DOM change within \d+ ms\./);

    // "Saved" is in the page's own instructions: the wait must not claim it "appeared after 0 ms".
    const already = await tool(sw, 'dom.wait_for', { text: 'Saved', tab_id: tabId });
    expect(already).toMatch(/^Already present — nothing was waited for/);
    expect(already).toContain('matched paragraph');
    expect(already).toContain('Instructions: wait until the status says Saved.');
    await tool(sw, 'dom.click', { ref: refIn(snap, 'button "Save"'), tab_id: tabId });
    const scoped = await tool(sw, 'dom.wait_for', { text: 'Saved', root: '#status', tab_id: tabId });
    expect(scoped).toMatch(/^Condition met after \d+ ms/);
    expect(scoped).toContain('"Saved"');
    await page.close();
  });

  test('2: a page timer of exactly the 300 ms minimum window, set by the click, is always inside the report', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    // "Show details" fills #details from a 300 ms timer. The window used to end on a 30 ms poll that Chrome ran
    // before the page's timer about one time in three ("no DOM change within 304 ms"); eight clicks in a row made
    // that fail with a probability of about 96%.
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'dynamic'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const show = refIn(snap, 'button "Show details"');
    for (let i = 0; i < 8; i++) {
      const out = await tool(sw, 'dom.click', { ref: show, tab_id: tabId });
      expect(out, `click ${i + 1}`).not.toContain('no DOM change');
      expect(out, `click ${i + 1}`).toMatch(/appeared: .*"Details loaded"/);
    }
    await page.close();
  });

  test('2: an autocomplete — picking a suggestion reports the field value and the list closing', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin, 'autocomplete'));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const city = refIn(snap, 'textbox "City"');
    const typed = await tool(sw, 'dom.type', { ref: city, text: 'Pa', tab_id: tabId });
    expect(typed).toMatch(/appeared: .*option "Paris"/);
    const s2 = await tool(sw, 'dom.find', { text: 'Prague', tab_id: tabId });
    expect(s2).toContain('No match');
    const paris = refIn(await tool(sw, 'dom.find', { text: 'Paris', tab_id: tabId }), 'option "Paris"');
    const picked = await tool(sw, 'dom.click', { ref: paris, tab_id: tabId });
    expect(picked).not.toContain('no visible change');
    expect(picked).toMatch(new RegExp(`changed: textbox "City" \\[ref=${city}\\]: value "Pa" → "Paris"`));
    await expect(page.locator('#city')).toHaveValue('Paris');
    await page.close();
  });
});

test.describe('what a request carries (#14 items 9, 10)', () => {
  test('a short system block with the tab as data, at most 12,000 characters of tool definitions, wire names everywhere, and ot__call for a tool not sent', async ({
    context,
    panel,
    fakeApi,
    pages,
  }) => {
    fakeApi.reset();
    await connectToFakeApi(panel, fakeApi);
    const { page, tabId } = await openTab(context, panel.context().serviceWorkers()[0]!, app(pages.origin, 'todos'));
    fakeApi.script([
      { match: 'what can you do', calls: [{ name: 'ot__help', arguments: {} }] },
      { match: /# Otto help/, calls: [{ name: 'ot__call', arguments: { tool: 'ot__version', args: {} } }] },
      { match: /\d+\.\d+\.\d+/, text: 'Done.' },
    ]);
    const id = await send(panel, 'what can you do here?', { tabId });
    await waitForStatus(panel, id, 'completed');
    const reqs = fakeApi.responsesRequests();
    expect(reqs).toHaveLength(3);
    const first = reqs[0]!.body as { instructions?: string; tools?: { name: string; description?: string }[] };

    // Item 10: instructions exist, are short, carry the date and the tab (inside a boundary), and the loop.
    const instructions = first.instructions ?? '';
    expect(instructions.length).toBeLessThanOrEqual(1500);
    expect(instructions).toContain('You are Otto');
    const d = new Date();
    const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(instructions).toContain(`Today is ${today}.`);
    expect(instructions).toMatch(
      new RegExp(
        `<(external-content-[0-9a-f]{8})>title: todos \\| url: ${page.url().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}</\\1>`,
      ),
    );
    expect(instructions).toContain('1. dom__snapshot');
    // The tools page work needs, and the rest listed in ot__call: the fixed input within 13,500 characters (#43).
    const toolChars = JSON.stringify(first.tools).length;
    expect(toolChars + instructions.length).toBeLessThanOrEqual(13_500);
    const names = (first.tools ?? []).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['dom__snapshot', 'dom__find', 'dom__click', 'ot__help', 'ot__call']));
    expect(names).not.toContain('ot__stats');
    expect(names).not.toContain('web__fetch_many');
    // Item 9: descriptions name tools as the model calls them.
    const described = JSON.stringify(first.tools);
    expect(described).not.toMatch(/\b(dom|tabs|ot)\.(snapshot|find|query|list|help|call|result)\b/);
    expect(described).toContain('dom__snapshot');

    // ot.help's output, as the model received it: wire names, and the tools not sent named with how to call them.
    const helpOut = String(
      ((reqs[1]!.body?.input ?? []) as { type: string; output?: unknown }[])
        .filter((i) => i.type === 'function_call_output')
        .at(-1)!.output,
    );
    expect(helpOut).toContain("## Not in the model's tool list");
    expect(helpOut).toContain('ot__call(tool="...", args={...})');
    expect(helpOut).toContain('ot__stats');
    expect(helpOut).not.toMatch(/\bot\.stats\b/);
    await page.close();
  });
});
