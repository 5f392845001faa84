/**
 * What the model sees (#14). Two figures:
 *
 * 1. Characters per request that are not the conversation: the tool definitions exactly as sent (Responses API
 *    shape, JSON) in tools mode with the default tool set, plus the instructions (Otto's system block for a typical
 *    tab). Targets: ≤ 12,000 + 1,500. For reference, the definitions with `agent.tool_set: all`.
 *
 * 2. Change-report recall: the built extension in Chromium runs ACTIONS (each with a known effect) on the e2e
 *    fixture pages through the real dom tools, and checks the text the model receives. An action counts as reported
 *    when every pattern of its known effect is in the text; a "no DOM change" report for an action that had an
 *    effect is a false "no change". The one action without an effect must say "no DOM change within N ms".
 *    Targets: 100% reported, 0 false "no change".
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tool } from '../e2e/page-tools.helpers.ts';
import { buildRegistry } from '../src/background/registry.ts';
import { modeDefinitions } from '../src/background/codeMode.ts';
import { systemBlock } from '../src/background/systemBlock.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { flattenToolsForResponsesApi } from '../src/models/flattenTools.ts';
import { wireRewriter } from '../src/tools/wireNames.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'model_view';
export const rounds = 1;

const ROOT = path.resolve(import.meta.dirname, '..');

function definitionChars(toolSet: 'default' | 'all'): number {
  const registry = buildRegistry(DEFAULT_CONFIG);
  return JSON.stringify(flattenToolsForResponsesApi(modeDefinitions(registry, 'tools', toolSet))).length;
}

function instructionChars(): number {
  const registry = buildRegistry(DEFAULT_CONFIG);
  const block = systemBlock({
    conversationId: 'bench',
    tab: {
      title: 'Inbox (3) — Example Mail: messages from your team and more',
      url: 'https://mail.example.com/u/0/#inbox?compose=new',
    },
    date: '2026-11-25',
    mode: 'tools',
  });
  return wireRewriter(registry)(block).length;
}

/** One action with a known effect: a tool call (refs found by `ref` lookups first) and what its report must say. */
interface Action {
  label: string;
  page: string;
  /** `[tool, args]`; string values `@text` are replaced by the ref of the first snapshot/find line containing it. */
  call: [string, Record<string, unknown>];
  expect: RegExp[];
  /** The action has no effect: the report must say so. */
  none?: boolean;
  /** Open the page fresh before this action. */
  fresh?: boolean;
}

const ACTIONS: Action[] = [
  {
    label: 'tick a todo (checkbox + counter)',
    page: 'todos',
    fresh: true,
    call: ['dom.check', { ref: '@checkbox "Walk the dog"' }],
    expect: [/changed: checkbox "Walk the dog".*not checked → checked/, /"2 items left" → "1 item left"/],
  },
  {
    label: 'tick the second todo',
    page: 'todos',
    call: ['dom.check', { ref: '@checkbox "Buy milk"' }],
    expect: [/checkbox "Buy milk".*not checked → checked/, /"1 item left" → "0 items left"/],
  },
  {
    label: 'untick a todo',
    page: 'todos',
    call: ['dom.check', { ref: '@checkbox "Walk the dog"', checked: false }],
    expect: [/checkbox "Walk the dog".*checked → not checked/],
  },
  { label: 'delete a todo', page: 'todos', call: ['dom.click', { ref: '@beside "Buy milk"' }], expect: [/removed/] },
  {
    label: 'open the datepicker',
    page: 'flights',
    fresh: true,
    call: ['dom.click', { ref: '@textbox "Depart"' }],
    expect: [/appeared: .*refs: .*clickable "Prev"/],
  },
  {
    label: 'datepicker Next',
    page: 'flights',
    call: ['dom.click', { ref: '@clickable "Next"' }],
    expect: [/January 2027/],
  },
  {
    label: 'datepicker Prev',
    page: 'flights',
    call: ['dom.click', { ref: '@clickable "Prev"' }],
    expect: [/December 2026/],
  },
  {
    label: 'pick a day',
    page: 'flights',
    call: ['dom.click', { ref: '@link "15"' }],
    expect: [/textbox "Depart".*value "" → "12\/15\/2026"/, /"Departure 12\/15\/2026"/, /hidden: /],
  },
  {
    label: 'click below a scroller fold',
    page: 'scroller',
    fresh: true,
    call: ['dom.click', { ref: '@button "Book flight' }],
    expect: [/"Not booked" → "Booked the \$596 flight"/],
  },
  {
    label: 'span Reply',
    page: 'feed',
    fresh: true,
    call: ['dom.click', { ref: '@clickable "Reply"' }],
    expect: [/appeared: .*refs: .*textbox "Reply text"/],
  },
  {
    label: 'span Forward (reveals a composer)',
    page: 'feed',
    call: ['dom.click', { ref: '@clickable "Forward"' }],
    expect: [/shown: .*textbox "To"/],
  },
  {
    label: 'icon-only like',
    page: 'feed',
    call: ['dom.click', { ref: '@<span.act-like>' }],
    expect: [/"Nothing sent" → "Liked"/],
  },
  {
    label: 'type into the composer',
    page: 'feed',
    call: ['dom.type', { ref: '@textbox "To"', text: 'bob' }],
    expect: [/textbox "To".*value "" → "bob"/],
  },
  {
    label: 'span tab Billing',
    page: 'tabs',
    fresh: true,
    call: ['dom.click', { ref: '@clickable "Billing"' }],
    expect: [/shown: .*Card ending 4242/, /hidden: .*Name: Ada Lovelace/],
  },
  {
    label: 'span tab Profile',
    page: 'tabs',
    call: ['dom.click', { ref: '@clickable "Profile"' }],
    expect: [/shown: .*Name: Ada Lovelace/, /hidden: .*Card ending/],
  },
  {
    label: 'update in a microtask',
    page: 'late',
    fresh: true,
    call: ['dom.click', { ref: '@button "Microtask"' }],
    expect: [/→ "Micro done"/],
  },
  {
    label: 'update in an animation frame',
    page: 'late',
    call: ['dom.click', { ref: '@button "Frame"' }],
    expect: [/→ "Frame done"/],
  },
  {
    label: 'update after a 200 ms timer',
    page: 'late',
    call: ['dom.click', { ref: '@button "Timer"' }],
    expect: [/→ "Timer done"/],
  },
  {
    label: 'open a menu (class toggle)',
    page: 'late',
    call: ['dom.click', { ref: '@button "Menu"' }],
    expect: [/collapsed → expanded/, /shown: menu/],
  },
  {
    label: 'close the menu',
    page: 'late',
    call: ['dom.click', { ref: '@button "Menu"' }],
    expect: [/expanded → collapsed/, /hidden: menu/],
  },
  {
    label: 'a button that does nothing',
    page: 'late',
    call: ['dom.click', { ref: '@button "Nothing"' }],
    expect: [/^dom\.click ok — no DOM change within \d+ ms\./],
    none: true,
  },
  {
    label: 'agree enables Continue',
    page: 'late',
    call: ['dom.check', { ref: '@checkbox "I agree"' }],
    expect: [/checkbox "I agree".*not checked → checked/, /button "Continue".*disabled → enabled/],
  },
  {
    label: 'select a size (price line)',
    page: 'late',
    call: ['dom.select', { ref: '@combobox "Size"', value: 'M' }],
    expect: [/value "S" → "M"/, /"Price: 10" → "Price: 12"/],
  },
  {
    label: 'open <details>',
    page: 'late',
    call: ['dom.click', { ref: '@Shipping' }],
    expect: [/shown: .*Ships in 2 days/],
  },
  {
    label: 'toggle aria-pressed',
    page: 'late',
    call: ['dom.click', { ref: '@button "Bold"' }],
    expect: [/not pressed → pressed/],
  },
  {
    label: 'type into a counted textarea',
    page: 'late',
    call: ['dom.type', { ref: '@textbox "Note"', text: 'hello' }],
    expect: [/"0\/100" → "5\/100"/],
  },
  {
    label: 'untick agree disables Continue',
    page: 'late',
    call: ['dom.check', { ref: '@checkbox "I agree"', checked: false }],
    expect: [/button "Continue".*enabled → disabled/],
  },
  {
    label: 'autocomplete suggestions appear',
    page: 'autocomplete',
    fresh: true,
    call: ['dom.type', { ref: '@textbox "City"', text: 'Pa' }],
    expect: [/appeared: .*option "Paris"/],
  },
  {
    label: 'pick a suggestion',
    page: 'autocomplete',
    call: ['dom.click', { ref: '@option "Paris"' }],
    expect: [/textbox "City".*value "Pa" → "Paris"/, /removed/],
  },
  {
    label: 'retype: other suggestions',
    page: 'autocomplete',
    call: ['dom.type', { ref: '@textbox "City"', text: 'Pr' }],
    expect: [/value "Paris" → "Pr"/, /appeared: .*option "Prague"/],
  },
  {
    label: 'reveal details on the dynamic page (300 ms)',
    page: 'dynamic',
    fresh: true,
    call: ['dom.click', { ref: '@button "Show details"' }],
    expect: [/appeared: .*Details loaded/],
  },
  {
    label: 'open a modal dialog',
    page: 'dynamic',
    call: ['dom.click', { ref: '@button "Open dialog"' }],
    expect: [/dialog opened/],
  },
];

function refOn(text: string, needle: string): string | undefined {
  for (const line of text.split('\n')) {
    if (!line.includes(needle)) continue;
    const m = /\[ref=((?:f\d+)?[a-z]*e\d+)\]/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

async function recall(): Promise<{ reported: number; falseNone: number; total: number; misses: string[] }> {
  const pagesDir = path.join(ROOT, 'e2e/fixtures/pages');
  if (!existsSync(path.join(pagesDir, 'apps/late.html'))) {
    const setup = (await import('../e2e/fixtures/globalSetup.ts')).default;
    await setup();
  }
  const server = await startStaticServer(pagesDir);
  const ext = await openExtension(name, 'http://127.0.0.1:9/v1');
  let reported = 0;
  let falseNone = 0;
  const misses: string[] = [];
  try {
    const tabs = new Map<string, number>();
    for (const a of ACTIONS) {
      if (a.fresh || !tabs.has(a.page)) {
        const p = await ext.context.newPage();
        await p.goto(`${server.origin}/apps/${a.page}.html`);
        await p.waitForLoadState('load');
        const url = p.url();
        const id = await ext.sw.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
        tabs.set(a.page, id!);
      }
      const tabId = tabs.get(a.page)!;
      const args: Record<string, unknown> = { ...a.call[1], tab_id: tabId };
      for (const [k, v] of Object.entries(args)) {
        if (typeof v !== 'string' || !v.startsWith('@')) continue;
        const snap = await tool(ext.sw, 'dom.snapshot', { tab_id: tabId });
        const ref = refOn(snap, v.slice(1));
        if (!ref) throw new Error(`${a.label}: no ref for ${v} in\n${snap}`);
        args[k] = ref;
      }
      const out = await tool(ext.sw, a.call[0], args);
      const ok = a.expect.every((re) => re.test(out));
      if (ok) reported++;
      else misses.push(`${a.label}:\n${out}`);
      if (!a.none && /no DOM change/.test(out)) falseNone++;
    }
  } finally {
    await ext.close();
    await server.close();
  }
  if (misses.length) console.error(`[model_view] missed:\n${misses.join('\n---\n')}`);
  return { reported, falseNone, total: ACTIONS.length, misses };
}

export async function run(): Promise<BenchMetric[]> {
  const defs = definitionChars('default');
  const instr = instructionChars();
  const r = await recall();
  return [
    { name: 'tool_definition_chars', value: defs, unit: 'chars', budget: 12_250 }, // #43: 13,500 with the instructions (fixed_input)
    { name: 'instruction_chars', value: instr, unit: 'chars', budget: 1_500 },
    { name: 'per_request_chars', value: defs + instr, unit: 'chars', budget: 13_500 },
    { name: 'all_tools_definition_chars', value: definitionChars('all'), unit: 'chars' },
    { name: 'change_actions', value: r.total, unit: 'actions' },
    { name: 'change_recall', value: Math.round((r.reported / r.total) * 1000) / 10, unit: '%' },
    { name: 'false_no_change', value: r.falseNone, unit: 'actions', budget: 0 },
  ];
}
