// #43 part 1, no request spent on discovery: every tool a page task may need is known from the first request
// (a full definition, or a line in ot.call's description that ot.call accepts as written), the fixed input of a
// tools-mode request stays within 13,500 characters, and ot.help finds tools from several words and synonyms and
// names the tools that go with them.
import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/background/registry.ts';
import { modeDefinitions } from '../../src/background/codeMode.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { BRIEFS } from '../../src/tools/packs/ot/briefs.ts';
import { CALL_LIST_HEADER, PAGE_TASK_PACKS } from '../../src/tools/packs/ot/callList.ts';
import { searchHelp } from '../../src/tools/packs/ot/search.ts';
import { paramDocs } from '../../src/tools/packs/ot/signature.ts';
import { wireRewriter } from '../../src/tools/wireNames.ts';
import { toolContext } from '../support/toolContext.ts';
import { otFixture, tool } from '../packs/otSupport.ts';
import { FIXED_INPUT_BUDGET, fixedInput } from '../support/fixedInput.ts';

const registry = buildRegistry(DEFAULT_CONFIG);
const pageTools = registry.list().filter((t) => PAGE_TASK_PACKS.has(t.pack));

describe('every page-task tool is known from the first request (tools mode, default tool set)', () => {
  const defs = modeDefinitions(registry, 'tools');
  const sent = new Set(defs.map((d) => d.function.name));
  const call = defs.find((d) => d.function.name === registry.apiNameOf('ot.call'))!;
  // `dom__drag(ref|selector?, to_ref?, …): drag onto …` → name and parameter names.
  const listed = new Map<string, string[]>();
  for (const line of call.function.description.split('\n')) {
    const m = /^([A-Za-z0-9_-]+)\(([^)]*)\): \S/.exec(line);
    if (m) listed.set(m[1]!, m[2] ? m[2].split(', ').flatMap((p) => p.replace(/\?$/, '').split('|')) : []);
  }

  it('lists the tools it does not define in ot.call’s description, under a header that says how to call them', () => {
    expect(call.function.description).toContain(wireRewriter(registry)(CALL_LIST_HEADER));
    expect(pageTools.length).toBeGreaterThan(30);
    for (const tool of pageTools) {
      const wire = registry.apiNameOf(`${tool.pack}.${tool.name}`)!;
      expect(sent.has(wire) || listed.has(wire), `${wire} is neither sent nor listed`).toBe(true);
      expect(sent.has(wire) && listed.has(wire), `${wire} is both sent and listed`).toBe(false);
    }
  });

  it('each listed line names the tool as ot.call accepts it and only parameters the tool takes', async () => {
    const ctx = toolContext({ registry });
    for (const [wire, params] of listed) {
      const tool = registry.fromApiName(wire);
      expect(tool, wire).toBeDefined();
      const own = paramDocs(tool!).map((p) => p.name);
      for (const p of params) expect(own, `${wire}: ${p}`).toContain(p);
      // Every required parameter is on the line (an optional tab_id is said once, in the header).
      for (const p of paramDocs(tool!).filter((d) => d.required))
        expect(params, `${wire}: ${p.name}`).toContain(p.name);
      // ot.call runs it by the name on the line: the call reaches the tool itself (no page here, so the page
      // tools say they only run in the extension; the others fail on their own missing arguments or stores).
      const run = ctx.callTool('ot.call', { tool: wire, args: {} });
      await run.then(
        () => undefined,
        (e: unknown) => expect(String(e), wire).not.toMatch(/No tool named/),
      );
    }
  });

  it('a line leaves out what only saved snippets use (testid), as the definitions do; dom.hover and dom.drag name their text locators', () => {
    expect(call.function.description).toContain(
      '\ndom__hover(ref|selector?, item?, role?, name?, label?, placeholder?, text?, x?, y?, hold_ms?, press?): ',
    );
    expect(call.function.description).toContain(
      '\ndom__drag(ref|selector?, text?, to_ref?, to_selector?, to_text?, to_x?, to_y?, dx?, dy?, resize?, method?): ',
    );
    expect(call.function.description).not.toContain('testid');
  });

  it('every page-task tool has a brief: the words a person would use for it', () => {
    for (const tool of pageTools) expect(BRIEFS[`${tool.pack}.${tool.name}`], tool.name).toBeTruthy();
  });

  it('code mode: ot.run’s description gives every page-task tool with its parameters', () => {
    const run = modeDefinitions(registry, 'code')[0]!.function.description;
    for (const tool of pageTools) expect(run).toMatch(new RegExp(`^- ${tool.pack}\\.${tool.name}\\(`, 'm'));
  });

  it('sends Otto’s tools without the bounds zod checks at the call; a call out of bounds still fails', async () => {
    const json = JSON.stringify(defs);
    for (const k of ['"pattern"', '"maxLength"', '"minimum"', '"maxItems"']) expect(json).not.toContain(k);
    const ctx = toolContext({ registry });
    await expect(ctx.callTool('dom.click', { ref: 'not a ref' })).rejects.toThrow(/ref/);
  });
});

describe('the fixed input of a request', () => {
  it(`tools mode stays within ${FIXED_INPUT_BUDGET.toLocaleString('en')} characters; code mode is smaller`, () => {
    const tools = fixedInput(registry, 'tools');
    const code = fixedInput(registry, 'code');
    console.log(`fixed input: tools ${JSON.stringify(tools)}, code ${JSON.stringify(code)}`);
    expect(tools.total).toBeLessThanOrEqual(FIXED_INPUT_BUDGET);
    expect(code.total).toBeLessThan(tools.total);
  });
});

describe('ot.help finds tools from several words and from synonyms', () => {
  const QUERIES: [string, string][] = [
    ['console errors network requests', 'dom.console'],
    ['console errors network requests', 'dom.network'],
    ['errors', 'dom.console'],
    ['log', 'dom.console'],
    ['failed requests', 'dom.network'],
    ['pdf', 'files.read'],
    ['pdf', 'files.download'],
    ['download pdf', 'files.download'],
    ['read a pdf', 'files.read'],
    ['invoice attachment', 'files.download_click'],
    ['upload cv', 'files.upload'],
    ['drag', 'dom.drag'],
    ['move item', 'dom.drag'],
    ['reorder list', 'dom.drag'],
    ['resize textarea', 'dom.drag'],
    ['hover', 'dom.hover'],
    ['mouse pointer', 'dom.hover'],
    ['tooltip', 'dom.hover'],
    ['highlight text', 'dom.select_text'],
    ['screenshot', 'tabs.screenshot'],
    ['image', 'tabs.screenshot'],
    ['picture of the page', 'tabs.screenshot'],
    ['go back', 'tabs.back'],
    ['switch tab', 'tabs.activate'],
    ['article text', 'dom.read'],
    ['css selector', 'dom.query'],
    ['summarize text', 'llm.transform'],
  ];
  const top = (q: string) =>
    searchHelp(registry, {}, {}, q)
      .filter((h) => h.kind === 'tool')
      .slice(0, 3)
      .map((h) => h.name);

  it.each(QUERIES)('%s → %s in the top three', (query, expected) => {
    expect(top(query)).toContain(expected);
  });
});

describe('ot.help: exact answers, and the tools that go together', () => {
  const f = otFixture({}, {}, false);
  f.registry.registerPack({ name: 'dom' }, [
    tool('dom', 'console', 'The page’s console messages and uncaught errors.'),
    tool('dom', 'network', 'The page’s recent requests, failed ones first.'),
    tool('dom', 'click', 'Click an element.'),
  ]);
  f.registry.registerPack({ name: 'files' }, [
    tool('files', 'read', 'Read a stored file: text, or a PDF page by page.'),
    tool('files', 'download', 'Download a URL into the file store.'),
    tool('files', 'list', 'The files in the store.'),
  ]);

  it('several words: the tools matching any of them, the ones matching more first', async () => {
    expect(await f.call('ot.help', { query: 'console errors network requests' })).toBe(
      [
        '# Search results for "console errors network requests"',
        '',
        '## Tools',
        '',
        '- dom.network: The page’s recent requests, failed ones first.',
        '- dom.console: The page’s console messages and uncaught errors.',
        // One word of four ("requests") is in its description: a hit too, ranked last.
        '- ot.stats: Usage statistics: tool calls, success rate, durations, model requests, and the context and time saved (large results stored, model round trips avoided by code mode).',
        '',
        'Tools not in your tool list run as `ot.call(tool="<name>", args={...})`.',
      ].join('\n'),
    );
  });

  it('a synonym: "pdf" finds files.read and files.download, and names files.list that goes with them', async () => {
    expect(await f.call('ot.help', { query: 'pdf' })).toBe(
      [
        '# Search results for "pdf"',
        '',
        '## Tools',
        '',
        '- files.read: Read a stored file: text, or a PDF page by page.',
        '- files.download: Download a URL into the file store.',
        '',
        '## Goes with',
        '',
        '- files.list (with files.read): The files in the store.',
        '',
        'Tools not in your tool list run as `ot.call(tool="<name>", args={...})`.',
      ].join('\n'),
    );
  });

  it('a tool’s page names the tools that go with it', async () => {
    const page = String(await f.call('ot.help', { query: 'dom.console' }));
    expect(page).toContain('\n## Goes with\n\ndom.network\n\n## Docs\n');
  });
});
