/**
 * #43 part 1, no request spent on discovery: the first request the built extension sends already names every tool
 * of Otto's page-task packs — a full definition, or a line in ot.call's description with the parameters — within
 * 13,500 characters of fixed input (tool definitions + instructions, as sent). The scripted model calls a listed tool
 * (dom.console) in its first response the way that line says, with no ot.help request: the task takes two requests.
 */
import { test, expect } from './support/fixtures.ts';
import { send, waitForStatus, connectedTest } from './support/agent.ts';
import { call, lastOutputs } from './support/modelTurns.ts';
import { openTab } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

connectedTest(
  'the first request lists every page tool; a listed tool runs through ot.call in the first response, two requests in all',
  async ({ context, panel, fakeApi, pages }) => {
    const url = `${pages.origin}/files/broken.html`;
    const { page, tabId } = await openTab(context, panel, url);
    fakeApi.script([
      { match: 'what does the console say', calls: [call('ot__call', { tool: 'dom__console', args: {} })] },
      { text: 'The console has no messages yet.' },
    ]);
    const id = await send(panel, 'what does the console say', { tabId });
    await waitForStatus(panel, id, 'completed', 60_000);

    const requests = fakeApi.responsesRequests();
    expect(requests).toHaveLength(2);
    const first = requests[0]!.body as unknown as {
      tools: { name: string; description: string }[];
      instructions: string;
    };
    const names = first.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['dom__snapshot', 'dom__click', 'ot__call', 'ot__help']));
    expect(names).not.toContain('dom__console');
    const listing = first.tools.find((t) => t.name === 'ot__call')!.description;
    for (const line of [
      'Not in your list; run as ot__call(tool="dom__drag", args={...}). Page tools also take tab_id; ot__help(query="dom__drag") explains one:',
      'dom__console(level?, limit?): console messages, uncaught errors',
      'dom__network(failed_only?, limit?): requests made: URL, status, failures',
      'files__read(name?, from_page?, page_image?): read a stored file or a PDF tab: text; a page as an image',
      'tabs__screenshot(format?, quality?, detail?, overlay?): image of what the tab shows',
    ])
      expect(listing.split('\n')).toContain(line);
    // Every line names a tool of a page-task pack as ot.call takes it: `pack__fn(`.
    for (const pack of ['dom', 'tabs', 'files', 'web', 'llm'])
      expect(listing).toMatch(new RegExp(`^${pack}__[a-z_]+\\(`, 'm'));
    const fixed = JSON.stringify(first.tools).length + first.instructions.length;
    expect(fixed).toBeLessThanOrEqual(13_500);

    // No discovery request: the one call is the listed tool, and its output is the console's.
    const calls = ((requests[1]!.body?.input ?? []) as { type: string; name?: string }[]).filter(
      (i) => i.type === 'function_call',
    );
    expect(calls.map((c) => c.name)).toEqual(['ot__call']);
    const [out] = lastOutputs(fakeApi);
    expect(out).toMatch(/^Console of the page named below: 0 messages \(0 errors or uncaught\)\. Capture began late/);
    await page.close();
  },
);

connectedTest(
  'ot.help finds tools from several words and from a synonym, and names the tools that go with them',
  async ({ panel, fakeApi }) => {
    fakeApi.script([
      {
        match: 'which tools',
        calls: [call('ot__help', { query: 'console errors network requests' }), call('ot__help', { query: 'pdf' })],
      },
      { text: 'dom.console, dom.network; files.download then files.read.' },
    ]);
    const id = await send(panel, 'which tools read errors and PDFs?');
    await waitForStatus(panel, id, 'completed', 60_000);
    const [several, pdf] = lastOutputs(fakeApi);
    // In the names the model calls (wire names), best first.
    expect(several!.split('\n').slice(0, 6)).toEqual([
      '# Search results for "console errors network requests"',
      '',
      '## Tools',
      '',
      expect.stringMatching(/^- dom__network: The page's recent requests/),
      expect.stringMatching(/^- dom__console: The page's last console messages and uncaught errors/),
    ]);
    const lines = pdf!.split('\n');
    expect(lines.slice(0, 4)).toEqual(['# Search results for "pdf"', '', '## Tools', '']);
    expect(lines[4]).toMatch(/^- files__read: /);
    expect(lines[5]).toMatch(/^- files__download: /);
    expect(pdf).toMatch(/\n## Goes with\n\n- files__list \(with files__read\): /);
    expect(lines.at(-1)).toBe('Tools not in your tool list run as `ot__call(tool="<name>", args={...})`.');
  },
);
