/**
 * #43 part 2, "everything the model can read, it can act on", on a page the user opened and worked on before asking
 * (e2e/fixtures/apps/src/reach.js: every handler bound while it loaded, so the listener registry Otto brings later
 * sees none of them). Driven by the scripted model in a run; the tests assert the exact text the model receives and
 * act by the refs it gives: a jQuery UI sortable list whose items show their move cursor only on hover is dragged by
 * ref; one whose items show nothing at all is dragged by the element refs dom.find gives its items; a feed's Like (pointer only on hover) and Reply (pointer) spans get refs and are clicked; a Share span with
 * nothing but a listener is reached through dom.find, which gives its element a ref; a paragraph found by dom.find
 * comes with its element's ref, which dom.select_text takes; a listener-only Dismiss span inside a line of text is
 * clicked by a text locator (a line without a ref names its element); and the counter the user set survives, while nothing
 * the model reads suggests loading the page again.
 */
import { test, expect } from './support/fixtures.ts';
import { send, waitForStatus, connectedTest } from './support/agent.ts';
import { lastOutputs } from './support/modelTurns.ts';
import { openTab, tool } from './page-tools.helpers.ts';
import { tabIdFor } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

/** The text with what varies per run made constant: refs, boundary tags, the server's port, timings. */
function stable(text: string): string {
  return (
    text
      // The boundary's random token first: one like "cde12345" reads as a ref.
      .replace(/external-content-[0-9a-f]{8}/g, 'external-content')
      .replace(/\b(?:f\d+)?[a-df-z]{2}e\d+\b/g, 'REF')
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/\d+ ms\b/g, 'N ms')
  );
}

const LATE =
  'listeners the page added before Otto came are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom__find its text to get a ref for its element';

const NONE =
  "the page's script listeners are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element";

/** A post of the feed as the snapshot shows it: Like (pointer on hover) and Reply (pointer) with refs, Share without. */
function feed(who: string): string {
  return `- article:
  - text: ${who} wrote a post.
  - clickable "Like" [ref=REF]
  - clickable "Reply" [ref=REF]
  - text: Share`;
}

/** The ref on the first line after the one holding `after` that contains `needle`. */
function refAfter(text: string, after: string, needle: string): string {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.includes(after));
  const line = lines.slice(from).find((l) => l.includes(needle));
  const m = line && /\[ref=((?:f\d+)?[a-df-z]{2}e\d+)\]/.exec(line);
  if (from < 0 || !m) throw new Error(`no ref for ${needle} after ${after} in:\n${text}`);
  return m[1]!;
}

/** The element ref dom.find gave the n-th match (`its element: kqe14 <span>`). */
function holderRef(findOutput: string, n = 0): string {
  const all = [...findOutput.matchAll(/its element: ((?:f\d+)?[a-df-z]{2}e\d+) </g)];
  if (!all[n]) throw new Error(`no element ref #${n} in:\n${findOutput}`);
  return all[n][1]!;
}

connectedTest(
  "a page worked on before Otto came: hover-cursor items dragged by ref, feed spans clicked by ref, sign-less items, spans and text reached through dom.find and a text locator, and the user's counter kept",
  async ({ context, panel, fakeApi, pages }) => {
    const url = `${pages.origin}/apps/reach.html`;
    const page = await context.newPage();
    await page.goto(url);
    // The user's own work on the page before asking: loading it again would reset this.
    for (let i = 0; i < 3; i++) await page.click('#inc');
    await expect(page.locator('#count')).toHaveText('Count: 3');
    let first = '';
    const tabId = await tabIdFor(panel, url);
    fakeApi.script([
      { match: 'put Dulci last', calls: [{ name: 'dom__snapshot', arguments: {} }] },
      {
        respond: (req) => {
          first = req.lastInput;
          return {
            calls: [
              {
                name: 'dom__drag',
                arguments: {
                  ref: refAfter(first, 'Steps', 'draggable "Dulci"'),
                  to_ref: refAfter(first, 'Steps', 'draggable "Charlie"'),
                },
              },
            ],
          };
        },
      },
      // The model reads the ref of Charles's Like from the snapshot it got before the drag.
      {
        respond: () => ({
          calls: [{ name: 'dom__click', arguments: { ref: refAfter(first, 'Charles', 'clickable "Like"') } }],
        }),
      },
      { calls: [{ name: 'dom__find', arguments: { text: 'Share' } }] },
      { respond: (req) => ({ calls: [{ name: 'dom__click', arguments: { ref: holderRef(req.lastInput, 1) } }] }) },
      { calls: [{ name: 'dom__find', arguments: { text: 'brown fox' } }] },
      {
        respond: (req) => ({
          calls: [{ name: 'dom__select_text', arguments: { ref: holderRef(req.lastInput), text: 'brown fox' } }],
        }),
      },
      // Chores show no sign at all: dom.find gives each item's element a ref, and dom.drag takes those.
      { calls: [{ name: 'dom__find', arguments: { role: 'listitem' } }] },
      {
        respond: (req) => ({
          calls: [
            { name: 'dom__drag', arguments: { ref: holderRef(req.lastInput, 0), to_ref: holderRef(req.lastInput, 2) } },
          ],
        }),
      },
      // A line with no ref is a locator as it reads: the Dismiss span by its text.
      { calls: [{ name: 'dom__click', arguments: { text: 'Dismiss' } }] },
      { calls: [{ name: 'dom__snapshot', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const id = await send(panel, 'put Dulci last, like and share the post by Charles, select "brown fox"', { tabId });
    await waitForStatus(panel, id, 'completed', 90_000);
    const all = lastOutputs(fakeApi);
    expect(all.length, all.join('\n=====\n')).toBe(11);
    const [before, drag, like, findShare, share, findFox, select, findItems, chores, dismiss, after] = all.map(
      stable,
    ) as [string, string, string, string, string, string, string, string, string, string, string];
    // The facts line says what Otto cannot see and where to turn, never to load the page again.
    expect(before).toBe(`Page snapshot — 8 refs; scrolled to 0 of 1024px, more below; ${LATE}.
<external-content>
title: Reach
url: http://HOST/apps/reach.html
- heading "Reach" [level=1]
- text: Dismiss · Tip: drag the steps to reorder them.
- heading "Counter" [level=2]
- text: Count: 3
- button "Add one" [ref=REF] [focused]
- heading "Steps" [level=2]
- draggable "Dulci" [ref=REF]
- draggable "Bravo" [ref=REF]
- draggable "Charlie" [ref=REF]
- text: Order: Dulci, Bravo, Charlie
- listitem: Wash
- listitem: Dry
- listitem: Fold
- text: Chores: Wash, Dry, Fold
- heading "Feed" [level=2]
${feed('Ada')}
${feed('Charles')}
- text: Nothing yet
- heading "Story" [level=2]
- text: The quick brown fox jumps over the lazy dog.
- text: Selected: (none)
</external-content>`);
    expect(before).not.toMatch(/reload|navigate|same URL|open .* again/i);

    // jQuery UI's sortable, bound at load, reordered by the refs its hover-only move cursor earned.
    expect(drag).toMatch(/^dom__drag ok — /);
    expect(drag).toContain('dragged draggable "Dulci" [ref=REF] onto draggable "Charlie" [ref=REF] (mouse drag,');
    expect(drag).toContain(
      'moved "Dulci" from position 1 to 3 in list "Steps" [ref=REF]\norder before: ["Dulci", "Bravo", "Charlie"]\norder after: ["Bravo", "Charlie", "Dulci"]\n',
    );
    expect(drag).toContain(
      'changed: text of paragraph "Order: Bravo, Charlie, Dulci" <p#order>: "Order: Dulci, Bravo, Charlie" → "Order: Bravo, Charlie, Dulci"',
    );

    // Like shows its pointer only on hover: it has a ref, and the click reaches the page's load-time listener.
    expect(like).toMatch(/^dom__click ok — 1 changed\.\n<external-content>\nclicked clickable "Like" \[ref=REF\]\n/);
    expect(like).toContain(
      `changed: text of paragraph "Liked Charles's post" <p#status>: "Nothing yet" → "Liked Charles's post"`,
    );

    // Share shows nothing but its listener: no ref in the snapshot, and dom.find gives its element one.
    expect(findShare).toBe(`2 matches for text "Share". Refs: REF, REF.
<external-content>
- text: Share (its element: REF <span>; its row has: REF clickable "Like", REF clickable "Reply") — in article, under heading "Feed" [level=2]
- text: Share (its element: REF <span>; its row has: REF clickable "Like", REF clickable "Reply") — in article, under heading "Feed" [level=2]
</external-content>`);
    expect(share).toMatch(/^dom__click ok — 1 changed\.\n<external-content>\nclicked span "Share" \[ref=REF\]\n/);
    expect(share).toContain(
      `changed: text of paragraph "Shared Charles's post" <p#status>: "Liked Charles's post" → "Shared Charles's post"`,
    );

    // A paragraph's text comes with its element's ref, which dom.select_text takes.
    expect(findFox).toBe(`1 match for text "brown fox". Refs: REF.
<external-content>
- text: The quick brown fox jumps over the lazy dog. (its element: REF <p>) — under heading "Story" [level=2]
</external-content>`);
    expect(select).toMatch(
      /^dom__select_text ok — 1 changed\.\n<external-content>\nselected "brown fox" in paragraph "The quick brown fox jumps over the lazy dog\." \[ref=REF\]\nchanged: text of paragraph "Selected: brown fox" <p#selected>: "Selected: \(none\)" → "Selected: brown fox"\n/,
    );

    // The chores show no sign at all (jQuery UI's own mousedown listener sits on the list): dom.find by role gives
    // each item, with its text, its element's ref, and dom.drag by those refs reorders the list.
    expect(findItems).toBe(`3 matches for role listitem. Refs: REF, REF, REF.
<external-content>
- listitem: Wash (its element: REF <li>) — under heading "Steps" [level=2]
- listitem: Dry (its element: REF <li>) — under heading "Steps" [level=2]
- listitem: Fold (its element: REF <li>) — under heading "Steps" [level=2]
</external-content>`);
    expect(chores).toMatch(
      /^dom__drag ok — 2 changed\.\n<external-content>\ndragged listitem "Wash" \[ref=REF\] onto listitem "Fold" \[ref=REF\] \(mouse drag, /,
    );
    // Where jQuery UI puts it depends on the drop point (the gestures' business); that it moved is this test's.
    expect(chores).toContain('moved "Wash" from position 1 to ');
    expect(chores).toContain('order before: ["Wash", "Dry", "Fold"]\n');
    await expect(page.locator('#chores-order')).not.toHaveText('Chores: Wash, Dry, Fold');

    // A line without a ref is a locator as it reads: text="Dismiss" names the span whose own text it is, the click
    // reaches its load-time listener, and the step is recorded with that locator.
    expect(dismiss).toMatch(
      /^dom__click ok — 1 removed, 1 changed\.\n<external-content>\nclicked span "Dismiss" \[ref=REF\]\n/,
    );
    expect(dismiss).toContain('\nlocator: {"text":"Dismiss"}\n');
    await expect(page.locator('#tip')).toHaveCount(0);

    // The user's counter survived the whole task, and the last snapshot still suggests no reload.
    expect(after).toContain(`; ${LATE}.\n`);
    expect(after).toContain('- text: Count: 3\n');
    expect(after).toContain(
      '- draggable "Bravo" [ref=REF]\n- draggable "Charlie" [ref=REF]\n- draggable "Dulci" [ref=REF]\n',
    );
    expect(after).not.toMatch(/reload|navigate|same URL/i);
    expect(after).not.toContain('Dismiss');
    await expect(page.locator('#count')).toHaveText('Count: 3');
    expect(await page.evaluate(() => (window as unknown as { reach: { count: number } }).reach.count)).toBe(3);
    await page.close();
  },
);

test('outside a run (no listener registry at all): the same refs from what the page shows, a note that points at dom.find, and a heading named by role and name', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  const { page, tabId } = await openTab(context, sw, `${pages.origin}/apps/reach.html`);
  await page.click('#inc');
  const snap = stable(await tool(sw, 'dom.snapshot', { tab_id: tabId }));
  expect(snap.split('\n')[0]).toBe(`Page snapshot — 8 refs; scrolled to 0 of 1024px, more below; ${NONE}.`);
  expect(snap).toContain(
    '- draggable "Dulci" [ref=REF]\n- draggable "Bravo" [ref=REF]\n- draggable "Charlie" [ref=REF]\n',
  );
  expect(snap).toContain(`${feed('Ada')}\n${feed('Charles')}\n`);
  // A structure line without a ref is a locator too: the Story heading by role and name.
  const scrolled = await tool(sw, 'dom.click', { role: 'heading', name: 'Story', tab_id: tabId });
  expect(stable(scrolled)).toBe(`dom.click ok — no DOM change within N ms.
<external-content>
clicked heading "Story" [ref=REF]
locator: {"role":"heading","name":"Story"}
</external-content>`);
  await expect(page.locator('#count')).toHaveText('Count: 1');
  await page.close();
});

test('lines without a ref named by their text in every target-taking tool: a SortableJS item dragged onto another by text, a phrase selected by its text alone, a shared word refused with refs to narrow it', async ({
  context,
  serviceWorker: sw,
  pages,
}) => {
  const { page, tabId } = await openTab(context, sw, `${pages.origin}/apps/text-targets.html`);
  // The snapshot shows the items and paragraphs as lines without refs: SortableJS listens on the list, and nothing
  // on an item shows it can be dragged.
  const snap = stable(await tool(sw, 'dom.snapshot', { tab_id: tabId }));
  expect(snap.split('\n').slice(4).join('\n')).toBe(`- heading "Text targets" [level=1]
- listitem: Kiwi
- listitem: Lemon
- listitem: Mango
- text: The quick brown fox jumps over the lazy dog.
- text: A lazy afternoon.
- text: Selected: (none)
</external-content>`);
  // Each line is a target as it reads: what to drag and where to drop it, by text.
  const drag = stable(await tool(sw, 'dom.drag', { text: 'Kiwi', to_text: 'Mango', tab_id: tabId }));
  expect(drag).toMatch(
    /^dom\.drag ok — 1 changed\.\n<external-content>\ndragged listitem "Kiwi" \[ref=REF\] onto listitem "Mango" \[ref=REF\] \(HTML5 drag and drop, /,
  );
  expect(drag).toContain(
    'moved "Kiwi" from position 1 to 3 in <div#root> [ref=REF] headed "Text targets"\norder before: ["Kiwi", "Lemon", "Mango"]\norder after: ["Lemon", "Mango", "Kiwi"]\n',
  );
  expect(drag).toContain('\nlocator: {"text":"Kiwi"}\n</external-content>');
  expect(
    await page.evaluate(() => (window as unknown as { textTargets: { order: string[] } }).textTargets.order),
  ).toEqual(['Lemon', 'Mango', 'Kiwi']);
  // A word two paragraphs share names neither: the answer gives both refs and says how to narrow it.
  const many = stable(await tool(sw, 'dom.select_text', { text: 'lazy', tab_id: tabId }));
  expect(many)
    .toBe(`Error: 2 elements match text="lazy": REF, REF. A locator must name exactly one: give more of the text (a phrase only that element shows), or act by one of these refs.
<external-content>
- paragraph "The quick brown fox jumps over the lazy dog." [ref=REF]
- paragraph "A lazy afternoon." [ref=REF]
</external-content>`);
  const select = stable(await tool(sw, 'dom.select_text', { text: 'lazy dog', tab_id: tabId }));
  expect(select).toBe(`dom.select_text ok — 1 changed.
<external-content>
selected "lazy dog" in paragraph "The quick brown fox jumps over the lazy dog." [ref=REF]
changed: text of paragraph "Selected: lazy dog" <p#selected>: "Selected: (none)" → "Selected: lazy dog"
locator: {"text":"lazy dog"}
</external-content>`);
  await expect(page.locator('#selected')).toHaveText('Selected: lazy dog');
  const hover = stable(await tool(sw, 'dom.hover', { text: 'Lemon', tab_id: tabId }));
  expect(hover.replace(/in \d+ steps/, 'in N steps')).toBe(`dom.hover ok — no DOM change within N ms.
<external-content>
hovered listitem "Lemon" [ref=REF]; moved there in N steps
locator: {"text":"Lemon"}
</external-content>`);
  await page.close();
});
