/**
 * The reading tools of the `dom` pack (#45): dom.snapshot, dom.find, dom.query, dom.text and dom.read. They change
 * nothing on the page; everything they return from it sits inside one untrusted-content boundary.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { pdfTabNoteOf, readTabPdf } from '../files/tabPdf.ts';
import { readOffPage } from './readOffPage.ts';
import { formatFind, formatQuery, formatRead, formatText } from './formatReplies.ts';
import { ref, selector, tabId, target, UNTRUSTED_NOTE, type DomKit } from './domToolKit.ts';

function snapshotTool({ page, tab }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'snapshot',
    description:
      'The page as an outline of what a person sees: roles, names, values, states, headings, links. ' +
      'Every visible control has a ref (e12) to act on, valid while its element lives; frames and shadow DOM included; elements new since the last snapshot are marked [new].' +
      UNTRUSTED_NOTE,
    parameters: z.object({
      root: z.string().min(1).max(2000).optional().describe('Only this part of the page: a ref or a CSS selector'),
      max_chars: z
        .number()
        .int()
        .min(500)
        .max(200_000)
        .default(40_000)
        .describe('Character budget; a longer outline says what was cut'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ['dom.snapshot()', "dom.snapshot(root='e7', max_chars=5000)"],
    returns:
      'A line of facts (refs, new elements, frames, scroll position) and the outline inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      const p = page();
      const t = await tab(args, ctx);
      const s = await p.snapshot(t, {
        maxChars: args.max_chars,
        ...(args.root ? { root: args.root } : {}),
      });
      // A PDF in Chrome's viewer has no outline: say what the tab is and how to read it (#43).
      return (s.refs === 0 && (await pdfTabNoteOf(t))) || p.formatSnapshot(s);
    },
  });
}

function findTool({ page, tab }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'find',
    description:
      'Search the page by text, role or name: only the matching lines with their refs and context, and how many matches are hidden. Cheaper than a snapshot.' +
      UNTRUSTED_NOTE,
    parameters: z.object({
      text: z.string().min(1).max(500).optional().describe('Text to look for (case-insensitive)'),
      role: z
        .string()
        .min(1)
        .max(50)
        .optional()
        .describe('Role: button, link, textbox, checkbox, combobox, heading, ...'),
      name: z.string().min(1).max(500).optional().describe('Part of the accessible name'),
      limit: z.number().int().min(1).max(200).default(20).describe('At most this many matches'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ["dom.find(text='Sign in')", "dom.find(role='textbox', name='email')"],
    returns:
      'The number of matches and their refs, then the matching lines with context inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      if (!args.text && !args.role && !args.name) throw new Error('dom.find needs text, role or name.');
      const what = [
        args.text && `text ${JSON.stringify(args.text)}`,
        args.role && `role ${args.role}`,
        args.name && `name ${JSON.stringify(args.name)}`,
      ]
        .filter(Boolean)
        .join(', ');
      const r = await page().find(await tab(args, ctx), {
        limit: args.limit,
        ...(args.text ? { text: args.text } : {}),
        ...(args.role ? { role: args.role } : {}),
        ...(args.name ? { name: args.name } : {}),
      });
      return formatFind(r, what);
    },
  });
}

function queryTool({ page, tab }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'query',
    description:
      'Run a CSS selector over the page (shadow roots and frames included) and get every match with a ref, its role, name, states and whether it is visible.' +
      UNTRUSTED_NOTE,
    parameters: z.object({
      selector: z.string().min(1).max(2000).describe('CSS selector'),
      limit: z.number().int().min(1).max(500).default(50).describe('At most this many matches'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ["dom.query(selector='table.results tr')", "dom.query(selector='input[type=email]')"],
    returns: 'The number of matches and their refs, then one line per match inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      return formatQuery(await page().query(await tab(args, ctx), args.selector, { limit: args.limit }), args.selector);
    },
  });
}

function textTool({ page, tab }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'text',
    description:
      'The visible text of an element (ref or selector) or of the whole page, with line breaks where blocks end.' +
      UNTRUSTED_NOTE,
    parameters: z.object({
      ref,
      selector,
      max_chars: z.number().int().min(100).max(1_000_000).default(20_000).describe('Character budget'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ["dom.text(ref='e4')", 'dom.text(max_chars=5000)'],
    returns: 'The character count (and whether it was cut), then the text inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      const t = await tab(args, ctx);
      const r = await page().text(t, { maxChars: args.max_chars, ...target(args) });
      if (!r.text.trim()) {
        const pdf = await pdfTabNoteOf(t);
        if (pdf) return pdf;
      }
      return formatText(r, args.ref ? args.ref : args.selector ? JSON.stringify(args.selector) : 'the page');
    },
  });
}

function readTool({ page, tab }: DomKit) {
  return defineTool({
    pack: 'dom',
    name: 'read',
    description:
      'The main article of the page as Markdown (Mozilla Readability): title, byline and body without navigation, ads and sidebars. ' +
      'A tab showing a PDF gives its text page by page.' +
      UNTRUSTED_NOTE,
    parameters: z.object({
      max_chars: z.number().int().min(100).max(1_000_000).default(50_000).describe('Character budget for the Markdown'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ['dom.read()', 'dom.read(max_chars=10000)'],
    returns:
      'Whether the page reads as an article and its size, then title, byline and Markdown inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      const t = await tab(args, ctx);
      // A PDF in Chrome's viewer has no page text: its file is read instead (#19).
      const pdf = await readTabPdf(t, { maxChars: args.max_chars });
      if (pdf !== undefined) return pdf;
      return formatRead(await page().read(t, { maxChars: args.max_chars, offPage: readOffPage }));
    },
  });
}

export function createReadingTools(kit: DomKit): AnyTool[] {
  return [snapshotTool(kit), findTool(kit), queryTool(kit), textTool(kit), readTool(kit)] as AnyTool[];
}
