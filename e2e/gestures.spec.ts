/**
 * Issue #21 e2e: gestures a person makes, through the real dom/tabs tools in the built extension's worker, on a
 * fixture page built with the real libraries from npm (SortableJS, jQuery UI) and the page's own HTML5/canvas/editor
 * handlers (e2e/fixtures/apps/src/gestures.js). Each test asserts the page's own state (read in the page's world)
 * and the text the tool returns — the text the model receives.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { openTab, refIn, tool } from './page-tools.helpers.ts';
import { connectToFakeApi, events, send, waitForStatus } from './support/agent.ts';
import type { RecordedRequest, Turn } from '../test/support/fake-api/turns.ts';

// A query of its own per test: openTab finds the tab by URL, and earlier tests' tabs stay open.
let opened = 0;
const app = (origin: string): string => `${origin}/apps/gestures.html?n=${++opened}`;

const pageState = <T>(page: Page, expr: string): Promise<T> =>
  page.evaluate((e) => {
    const g = (window as unknown as { gestures: Record<string, unknown> }).gestures;
    const v = g[e];
    return (typeof v === 'function' ? (v as () => unknown)() : v) as T;
  }, expr);

test.describe('gestures (#21)', () => {
  test('a SortableJS list reordered by dragging one item onto another', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    // Sortable items (cursor: grab) get refs of their own, so the model can name them.
    expect(snap).toMatch(/- draggable "Apple" \[ref=[a-df-z]{2}e\d+\]/);
    const apple = refIn(snap, 'draggable "Apple"');
    const cherry = refIn(snap, 'draggable "Cherry"');

    const out = await tool(sw, 'dom.drag', { ref: apple, to_ref: cherry, tab_id: tabId });
    expect(await pageState(page, 'sortOrder')).toEqual(['banana', 'cherry', 'apple', 'date']);
    expect(await pageState(page, 'sortEnds')).toEqual([{ oldIndex: 0, newIndex: 2 }]);
    expect(out).toMatch(/^dom\.drag ok — /);
    expect(out).toContain(
      `dragged draggable "Apple" [ref=${apple}] onto draggable "Cherry" [ref=${cherry}] (HTML5 drag and drop,`,
    );
    expect(out).toContain('moved "Apple" from position 1 to 3 in list "Fruits"');
    expect(out).toContain('order before: ["Apple", "Banana", "Cherry", "Date"]');
    expect(out).toContain('order after: ["Banana", "Cherry", "Apple", "Date"]');
    expect(out).toContain('"Order: Apple, Banana, Cherry, Date" → "Order: Banana, Cherry, Apple, Date"');
  });

  test('an HTML5 kanban board: a card dropped into another column, its id carried by the DataTransfer', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const card = refIn(snap, 'draggable "Write tests"');
    const columns = await tool(sw, 'dom.query', { selector: 'section.column', tab_id: tabId });
    const done = refIn(columns, '"Done"');

    const out = await tool(sw, 'dom.drag', { ref: card, to_ref: done, tab_id: tabId });
    expect(await pageState(page, 'board')).toEqual({
      todo: ['card-docs'],
      doing: [],
      done: ['card-ship', 'card-tests'],
    });
    expect(await pageState(page, 'drops')).toEqual([{ card: 'card-tests', column: 'done' }]);
    expect(out).toContain('(HTML5 drag and drop,');
    expect(out).toContain('dropped on');
    expect(out).toContain('(drop effect move)');
    expect(out).toMatch(
      /moved "Write tests" from region "To do" \[ref=[a-df-z]{2}e\d+\] \(position 1\) to region "Done" \[ref=[a-df-z]{2}e\d+\] \(position 2\)/,
    );
    expect(out).toMatch(/order of region "Done" \[ref=[a-df-z]{2}e\d+\] now: \["Ship 1\.0", "Write tests"\]/);
    expect(out).toContain('"Done: Ship 1.0" → "Done: Ship 1.0, Write tests"');

    // A drop where the page does not accept one (its dragover is not cancelled) is said to be refused.
    const heading = await tool(sw, 'dom.query', { selector: 'h1', tab_id: tabId });
    const refused = await tool(sw, 'dom.drag', {
      ref: refIn(snap, 'draggable "Update docs"'),
      to_ref: refIn(heading, 'heading'),
      tab_id: tabId,
    });
    expect(refused).toContain('not dropped: ');
    expect(refused).toContain('does not accept drops');
    expect((await pageState<Record<string, string[]>>(page, 'board')).todo).toEqual(['card-docs']);
  });

  test('a jQuery UI sortable list reordered by a mouse drag', async ({ context, serviceWorker: sw, pages }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const plan = refIn(snap, 'draggable "Plan"');
    const out = await tool(sw, 'dom.drag', { ref: plan, to_ref: refIn(snap, 'draggable "Test"'), tab_id: tabId });
    expect(await pageState(page, 'tasks')).toEqual(['Build', 'Test', 'Plan']);
    expect(out).toContain('(mouse drag,');
    expect(out).toContain('moved "Plan" from position 1 to 3 in list "Tasks"');
    expect(out).toContain('order after: ["Build", "Test", "Plan"]');
  });

  test('a jQuery UI slider set by a mouse drag and by arrow keys', async ({ context, serviceWorker: sw, pages }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    await tool(sw, 'dom.snapshot', { tab_id: tabId });
    // The slider is 200 px wide for 0..100: 80 px to the right is +40.
    const out = await tool(sw, 'dom.drag', { selector: '#volume .ui-slider-handle', dx: 80, dy: 0, tab_id: tabId });
    expect(await pageState(page, 'volume')).toBe(60);
    expect(out).toContain('by (80, 0) px (mouse drag,');
    expect(out).toContain('the dragged element moved on screen by (80, 0) px and stayed in the same place in the page');
    expect(out).toContain('"Volume: 20" → "Volume: 60"');

    const keys = await tool(sw, 'dom.press', {
      selector: '#volume .ui-slider-handle',
      key: 'ArrowRight',
      count: 5,
      tab_id: tabId,
    });
    expect(await pageState(page, 'volume')).toBe(65);
    expect(keys).toContain('"Volume: 60" → "Volume: 65"');
  });

  test('a canvas pie chart clicked on a named slice, relative to the canvas and in the viewport; the screenshot overlay', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const canvas = refIn(snap, '"Budget pie chart"');
    // The pie is centred at (100, 100), radius 90, Rent on the right half, Food bottom-left, Fun top-left.
    const food = await tool(sw, 'dom.click', { ref: canvas, x: 40, y: 150, tab_id: tabId });
    expect(await pageState(page, 'pie')).toEqual(['Food']);
    expect(food).toContain(`clicked clickable "Budget pie chart" [ref=${canvas}] at (40, 150) in it, viewport (`);
    expect(food).toContain('"Clicked: nothing" → "Clicked: Food"');

    const box = await page.locator('#pie').boundingBox();
    const fun = await tool(sw, 'dom.click', { x: Math.round(box!.x + 50), y: Math.round(box!.y + 40), tab_id: tabId });
    expect(await pageState(page, 'pie')).toEqual(['Food', 'Fun']);
    expect(fun).toMatch(
      /clicked .* at viewport \(\d+, \d+\) — clickable "Budget pie chart" \[ref=[a-df-z]{2}e\d+\] is there/,
    );
    expect(fun).toContain('"Clicked: Food" → "Clicked: Fun"');

    const outside = await tool(sw, 'dom.click', { ref: canvas, x: 250, y: 10, tab_id: tabId });
    expect(outside).toContain('Error: ');
    expect(outside).toMatch(
      /is outside <(external-content-[0-9a-f]{8})>clickable "Budget pie chart" \[ref=\w+\]<\/\1>,/,
    );
    expect(outside).toContain('whose box is 200×200 px');

    // A point on a submit button is refused: a click on it by its ref asks the user first, a point click may not.
    const send = await page.locator('#send-order').boundingBox();
    const submit = await tool(sw, 'dom.click', {
      x: Math.round(send!.x + 5),
      y: Math.round(send!.y + 5),
      tab_id: tabId,
    });
    expect(submit).toMatch(
      /^Error: That point is on button "Send order" \[ref=[a-df-z]{2}e\d+\], which submits a form: click it by its ref \(dom\.click\(ref=…\)\), which asks the user first\.$/,
    );
    expect(await pageState(page, 'submitted')).toBeUndefined();

    const shot = JSON.parse(await tool(sw, 'tabs.screenshot', { overlay: 'both', format: 'png', tab_id: tabId })) as {
      output_parts: { type: string; text?: string; image_url?: string }[];
    };
    const text = shot.output_parts[0]!.text!;
    expect(text).toMatch(
      /Drawn on it: \d+ ref boxes labelled with their refs and a grid every 200 px in viewport coordinates \(\d+×\d+; dom\.click\(x=…, y=…\) without a ref takes these\)\./,
    );
    expect(shot.output_parts[1]!.image_url).toMatch(/^data:image\/png;base64,/);
    // The same view without the overlay is another image: the boxes and grid were drawn on it.
    const plain = JSON.parse(await tool(sw, 'tabs.screenshot', { format: 'png', tab_id: tabId })) as typeof shot;
    expect(plain.output_parts[0]!.text).not.toContain('Drawn on it');
    expect(plain.output_parts[1]!.image_url).not.toBe(shot.output_parts[1]!.image_url);
  });

  test('a word selected in an editor and made bold; copy and paste through Otto’s clipboard', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const editor = refIn(snap, 'textbox "Editor"');
    const sel = await tool(sw, 'dom.select_text', { ref: editor, text: 'fox', occurrence: 2, tab_id: tabId });
    expect(sel).toMatch(/^dom\.select_text ok — /);
    expect(sel).toContain(`selected "fox" (occurrence 2) in textbox "Editor" [ref=${editor}]`);
    // The page's own handlers saw a person's selection: selectionchange and mouseup.
    await expect(page.locator('#sel-out')).toHaveText('Selected: fox');
    expect(await pageState(page, 'mouseups')).toEqual(['fox']);

    await tool(sw, 'dom.click', { ref: refIn(snap, 'button "Bold"'), tab_id: tabId });
    expect(await page.locator('#editor').innerHTML()).toBe(
      'The quick brown fox jumps over the lazy dog. The <b>fox</b> sleeps.',
    );

    await tool(sw, 'dom.select_text', { ref: editor, text: 'lazy dog', tab_id: tabId });
    const copy = await tool(sw, 'dom.press', { ref: editor, key: 'Control+C', tab_id: tabId });
    expect(copy).toContain(`copied 8 characters to Otto's clipboard: "lazy dog"`);
    expect(await pageState(page, 'copied')).toEqual(['lazy dog']);
    const paste = await tool(sw, 'dom.press', { ref: refIn(snap, 'textbox "Notes"'), key: 'Control+V', tab_id: tabId });
    expect(paste).toContain('pasted 8 characters into textbox "Notes"');
    await expect(page.locator('#notes')).toHaveValue('lazy dog');
    expect(await pageState(page, 'pasted')).toEqual(['lazy dog']);
  });

  test('a textarea in a shadow root resized by its corner; text in that shadow root selected', async ({
    context,
    serviceWorker: sw,
    pages,
  }) => {
    const { page, tabId } = await openTab(context, sw, app(pages.origin));
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const note = refIn(snap, 'textbox "Long note"');
    const out = await tool(sw, 'dom.drag', { ref: note, resize: true, dx: 100, dy: 40, tab_id: tabId });
    await expect.poll(() => pageState(page, 'size')).toEqual({ width: 300, height: 100 });
    expect(out).toContain(
      `dragged textbox "Long note" [ref=${note}] by its resize corner by (100, 40) px (mouse drag,`,
    );
    expect(out).toContain(
      'resized from 200×60 to 300×100 px (the browser’s own resize grip ignores scripted mouse events, so Otto set the new size as the grip would)',
    );
    expect(out).toContain('"Size: 200×60" → "Size: 300×100"');

    // Text inside the same shadow root is selected like page text.
    const sel = await tool(sw, 'dom.select_text', { selector: 'p.shadow-words', text: 'inside', tab_id: tabId });
    expect(sel).toContain('selected "inside" in paragraph');
    expect(await page.evaluate(() => document.getSelection()!.toString())).toBe('inside');
  });

  test('in frames: select text in a cross-origin frame, copy it, a paste into another origin refused; a point click inside a frame', async ({
    context,
    serviceWorker: sw,
    pages,
    otherOrigin,
  }) => {
    const { page, tabId } = await openTab(
      context,
      sw,
      `${pages.origin}/apps/frames.html?cross=${otherOrigin.port}&n=${++opened}`,
    );
    await expect(page.frameLocator('#cross').locator('#out')).toHaveText('nothing sent');
    await expect(page.frameLocator('#same').locator('#out')).toHaveText('nothing sent');
    const snap = await tool(sw, 'dom.snapshot', { tab_id: tabId });
    const lines = snap.split('\n');
    const crossPart = lines.slice(lines.findIndex((l) => l.includes('Cross origin frame'))).join('\n');
    const samePart = lines.slice(lines.findIndex((l) => l.includes('Same origin frame'))).join('\n');
    const crossMsg = refIn(crossPart, 'textbox "Message"');
    const sameMsg = refIn(samePart, 'textbox "Message"');
    const sendCross = refIn(crossPart, 'button "Send cross"');
    expect(crossMsg).toMatch(/^f\d+[a-z]*e\d+$/);

    await tool(sw, 'dom.type', { ref: crossMsg, text: 'hello world', tab_id: tabId });
    const sel = await tool(sw, 'dom.select_text', { ref: crossMsg, text: 'world', tab_id: tabId });
    expect(sel).toContain(`selected "world" in textbox "Message" [ref=${crossMsg}]`);
    const copy = await tool(sw, 'dom.press', { ref: crossMsg, key: 'Control+C', tab_id: tabId });
    expect(copy).toContain(`copied 5 characters to Otto's clipboard: "world"`);
    const paste = await tool(sw, 'dom.press', { ref: sameMsg, key: 'Control+V', tab_id: tabId });
    expect(paste).toContain(
      `Error: Otto's clipboard holds text copied on ${otherOrigin.origin}; it is not pasted into ${pages.origin}. To put that text here, type it with dom.type`,
    );
    await expect(page.frameLocator('#same').locator('#msg')).toHaveValue('');

    const click = await tool(sw, 'dom.click', { ref: sendCross, x: 4, y: 4, tab_id: tabId });
    expect(click).toContain(`clicked button "Send cross" [ref=${sendCross}] at (4, 4) in it`);
    await expect(page.frameLocator('#cross').locator('#out')).toHaveText('sent hello world from cross');

    const box = await page.locator('#same').boundingBox();
    const inFrame = await tool(sw, 'dom.click', {
      x: Math.round(box!.x + 20),
      y: Math.round(box!.y + 20),
      tab_id: tabId,
    });
    expect(inFrame).toMatch(
      /^Error: The point \(\d+, \d+\) is inside a frame \(iframe "Same origin frame" \[ref=[a-df-z]{2}e\d+\]\): aim at an element inside it instead/,
    );
  });
});

test('through the agent: the model reaches dom.drag with ot.call and reads what moved; the page keeps the new order', async ({
  context,
  panel,
  fakeApi,
  pages,
  serviceWorker: sw,
}) => {
  fakeApi.reset();
  await connectToFakeApi(panel, fakeApi);
  const { page, tabId } = await openTab(context, sw, app(pages.origin));
  // dom.drag is not in the default tool set: the model runs it through ot.call, as ot.help tells it to.
  const drag: Turn = {
    match: (r: RecordedRequest) => {
      if (!/^Page snapshot/.test(r.lastInput)) return false;
      drag.calls = [
        {
          name: 'ot__call',
          arguments: {
            tool: 'dom.drag',
            args: { ref: refIn(r.lastInput, '"Date"'), to_ref: refIn(r.lastInput, '"Apple"') },
          },
        },
      ];
      return true;
    },
  };
  fakeApi.script([
    { match: 'put Date first', calls: [{ name: 'dom__snapshot', arguments: {} }] },
    drag,
    { match: /moved "Date" from position 4 to 1/, text: 'Date is first now.' },
  ]);
  const id = await send(panel, 'put Date first in the fruit list', { tabId });
  await waitForStatus(panel, id, 'completed');
  expect(await pageState(page, 'sortOrder')).toEqual(['date', 'apple', 'banana', 'cherry']);
  const reqs = fakeApi.responsesRequests();
  const inputs = (reqs.at(-1)!.body?.input ?? []) as { type: string; output?: unknown }[];
  const report = String(inputs.filter((i) => i.type === 'function_call_output').at(-1)!.output);
  expect(report).toContain('HTML5 drag and drop');
  expect(report).toContain('order before: ["Apple", "Banana", "Cherry", "Date"]');
  expect(report).toContain('order after: ["Date", "Apple", "Banana", "Cherry"]');
  expect(report).toMatch(/<(external-content-[0-9a-f]{8})>\n[\s\S]*moved "Date"[\s\S]*\n<\/\1>/);
  // Same site: the data-flow guard lets it through without asking.
  expect((await events(panel, id)).some((e) => e.type === 'approval.required')).toBe(false);
});
