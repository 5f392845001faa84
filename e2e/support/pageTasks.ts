/**
 * Issue #43's fixture tasks, each with the scripted model's minimal solution: what a capable model does knowing only
 * what Otto sends (instructions, the default tool set, ot.call's list of the other tools, tool outputs). A task's
 * `budget` is its minimal number of model requests — a request spent on discovery (ot.help) would show as one more.
 * Run by e2e/page-tasks.spec.ts (asserting each finished in its budget) and bench/pageTasks.bench.ts (reporting the
 * counts, `npm run bench`); both drive the real panel and worker with the fake Responses API.
 *
 * Tools outside the default set are run the way ot.call's description tells the model: `ot__call(tool=…, args=…)`.
 */
import type { Page } from '@playwright/test';
import type { Turn } from '../../test/support/fake-api/turns.ts';
import { call, reading } from './modelTurns.ts';
import { refIn } from '../page-tools.helpers.ts';

/** What a task's check may look at once the run has ended. */
export interface TaskView {
  /** The fixture page the task ran on. */
  page: Page;
  /** The tool outputs the model was sent, in order (a structured output as its JSON). */
  outputs: string[];
  /** How many requests the fixture server had for this path (and query, one of the task's `watch`) during the run. */
  served(pathAndQuery: string): number;
}

export interface PageTask {
  /** Metric-safe name, e.g. `drag_list_item`. */
  name: string;
  /** The fixture's path on the pages server (e2e/fixtures/pages), with a query that makes its tab's URL unique. */
  path: string;
  /** The user's message. */
  ask: string;
  /** Model requests of the minimal solution: the count a regression (one more request) breaks. */
  budget: number;
  /**
   * The tool calls of the minimal solution, one per request before the answer, in wire names; a tool outside the
   * default set run through ot.call as `ot__call:<dotted name>`.
   */
  calls: string[];
  /** The model's turns; `tabId` is the task's tab (a model reads it from a PDF tab's note). */
  turns(): Turn[];
  /** Paths (with query) of the pages server whose requests during the run the check counts. */
  watch?: string[];
  /** Before the run, on the opened page (the user's own state, waiting for the fixture to be ready). */
  prepare?(page: Page): Promise<void>;
  /** Why the task did not finish, or undefined when it did: the page's state and what the model read. */
  unfinished(view: TaskView): Promise<string | undefined>;
}

const ot = (tool: string, args: Record<string, unknown> = {}) => call('ot__call', { tool, args });
const missing = (ok: boolean, what: string): string | undefined => (ok ? undefined : what);

/** Drag a jQuery UI sortable item, bound at load before Otto came: look, drag by refs, done. */
const dragListItem: PageTask = {
  name: 'drag_list_item',
  path: '/apps/reach.html?task=drag',
  ask: 'put Dulci last in the steps',
  budget: 3,
  calls: ['dom__snapshot', 'ot__call:dom.drag'],
  turns: () => [
    { match: 'put Dulci last', calls: [call('dom__snapshot')] },
    reading(/^Page snapshot/, (m) => [
      ot('dom.drag', { ref: refIn(m, 'draggable "Dulci"'), to_ref: refIn(m, 'draggable "Charlie"') }),
    ]),
    { match: /^dom__drag ok/, text: 'Dulci is last now.' },
  ],
  unfinished: async ({ page, outputs }) =>
    missing(
      (await page.locator('#order').textContent()) === 'Order: Bravo, Charlie, Dulci',
      `the order reads ${await page.locator('#order').textContent()}`,
    ) ??
    missing(
      (outputs.at(-1) ?? '').includes('moved "Dulci" from position 1 to 3 in list "Steps"'),
      'the drag report did not say Dulci moved to the end',
    ),
};

/** Hover the SVG target that jumps every 2 s: find it, hover it by ref, read its fill change. */
const hoverMovingTarget: PageTask = {
  name: 'hover_moving_target',
  path: '/apps/pointer.html?task=hover',
  ask: 'hover the target on the game board',
  budget: 3,
  calls: ['ot__call:dom.query', 'ot__call:dom.hover'],
  turns: () => [
    { match: 'hover the target', calls: [ot('dom.query', { selector: 'svg circle' })] },
    reading(/1 element match "svg circle"/, (m) => [ot('dom.hover', { ref: refIn(m, 'clickable "Target"') })]),
    { match: /fill "#9aa5b1" → "#e4572e"/, text: 'The target turns red and shows a tooltip.' },
  ],
  // Right after a jump, as the e2e does: the run has most of 2 s before the next one.
  prepare: async (page) => {
    const moves = () => page.evaluate(() => (window as unknown as { pointer: { moves: number } }).pointer.moves);
    const first = await moves();
    for (let i = 0; i < 250 && (await moves()) === first; i++) await page.waitForTimeout(20);
  },
  unfinished: async ({ page, outputs }) => {
    const log = await page.evaluate(() => (window as unknown as { pointer: { log: string[] } }).pointer.log);
    return (
      missing(log.includes('enter'), `the page heard no pointerenter (log: ${log.join(', ')})`) ??
      missing(/fill "#9aa5b1" → "#e4572e"/.test(outputs.at(-1) ?? ''), 'the hover reported no fill change')
    );
  },
};

/** A tab showing a PDF whose page 3 is scanned: look (the note names the call), read it, answer. */
function answerFromPdf(): PageTask {
  let answer = '';
  return {
    name: 'answer_from_scanned_pdf',
    path: '/files/report.pdf?task=answer',
    ask: 'how much is due on this invoice?',
    budget: 3,
    calls: ['dom__snapshot', 'ot__call:files.read'],
    turns: () => [
      { match: 'how much is due', calls: [call('dom__snapshot')] },
      reading(/^Tab \d+ shows a PDF/, (m) => [
        ot('files.read', { tab_id: Number(/files__read\(tab_id=(\d+)\)/.exec(m)![1]) }),
      ]),
      {
        respond: (r) => {
          answer = `Total due: ${/Total due: ([^\\\n]+)/.exec(r.rawBody)?.[1] ?? '?'}`;
          return { text: answer };
        },
      },
    ],
    unfinished: async ({ outputs }) => {
      const read = outputs.at(-1) ?? '';
      return (
        missing(answer === 'Total due: 1,234.56 EUR', `the answer was "${answer}"`) ??
        missing(
          /^\[\{"type":"input_text","text":"PDF in tab \d+: 3 pages, 2 with text; no text layer on page 3 \(an image, probably scanned: shown as an image after the text\)\\n/.test(
            read,
          ),
          `files.read's head line is not the PDF's: ${read.slice(0, 200)}`,
        ) ??
        missing(
          /"Page 3 of 3 of PDF in tab \d+ as an image \(768×993 px, about \d+ KB\):"\},\{"type":"input_image"/.test(
            read,
          ),
          'page 3 was not shown as an image',
        )
      );
    },
  };
}

/** The portal's download button: look, download by ref (the file fetched once, the page not loaded again), done. */
const downloadFromPortal: PageTask = {
  name: 'download_from_portal',
  path: '/files/portal.html?task=download',
  ask: 'download the invoice from the portal',
  budget: 3,
  calls: ['dom__snapshot', 'ot__call:files.download_click'],
  watch: ['/files/report.pdf?download&portal', '/files/portal.html?task=download'],
  turns: () => [
    { match: 'download the invoice', calls: [call('dom__snapshot')] },
    reading(/^Page snapshot/, (m) => [ot('files.download_click', { ref: refIn(m, 'button "Download invoice"') })]),
    { match: /^Downloaded\./, text: 'The invoice is downloaded.' },
  ],
  unfinished: async ({ outputs, served }) =>
    missing(
      /^Downloaded\.\nname: report\.pdf\nsize: 3\.4 KB \(3509 bytes\)\ntype: application\/pdf\n[\s\S]*\n\ndom__click ok — no DOM change within \d+ ms\.\n<(external-content-[0-9a-f]{8})>\nclicked button "Download invoice" \[ref=\w+\]\n/.test(
        outputs.at(-1) ?? '',
      ),
      `the download report reads: ${outputs.at(-1)}`,
    ) ??
    missing(served('/files/report.pdf?download&portal') === 1, 'the invoice was not fetched exactly once') ??
    missing(served('/files/portal.html?task=download') === 0, 'the portal loaded again'),
};

/** The feed's Like span, its listener bound at load before Otto came (pointer only on hover): look, click, done. */
const likeOnFeed: PageTask = {
  name: 'like_feed_post',
  path: '/apps/reach.html?task=like',
  ask: 'like the post by Charles',
  budget: 3,
  calls: ['dom__snapshot', 'dom__click'],
  turns: () => [
    { match: 'like the post', calls: [call('dom__snapshot')] },
    reading(/^Page snapshot/, (m) => {
      const lines = m.split('\n');
      const from = lines.findIndex((l) => l.includes('Charles wrote'));
      return [call('dom__click', { ref: refIn(lines.slice(from).join('\n'), 'clickable "Like"') })];
    }),
    { match: /^dom__click ok/, text: "Liked Charles's post." },
  ],
  // The user's own work before asking, which loading the page again would lose.
  prepare: async (page) => page.click('#inc'),
  unfinished: async ({ page, outputs }) =>
    missing((await page.locator('#status').textContent()) === "Liked Charles's post", 'the post is not liked') ??
    missing(
      (outputs.at(-1) ?? '').includes(
        `changed: text of paragraph "Liked Charles's post" <p#status>: "Nothing yet" → "Liked Charles's post"`,
      ),
      'the click report did not name the status change',
    ) ??
    missing((await page.locator('#count').textContent()) === 'Count: 1', "the user's counter was reset"),
};

/** The five tasks, fresh (a task may keep what its model said). */
export function pageTasks(): PageTask[] {
  return [dragListItem, hoverMovingTarget, answerFromPdf(), downloadFromPortal, likeOnFeed];
}
