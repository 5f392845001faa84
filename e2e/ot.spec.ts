/**
 * Issue 7 e2e: command mode in the real worker. `command.run` executes the command language with every call through
 * the interceptor — no model, no API key — and ot.help links to Otto's own bundled tool reference pages.
 */
import { test, expect, panelRequest } from './support/fixtures.ts';

interface RunReply {
  ok: boolean;
  kind?: string;
  source?: string;
  output?: string;
  calls?: number;
  error?: { message: string; kind: string; line: number | null; column: number | null };
}

const CONFIG = [
  'aliases:',
  '  tl: tabs.list',
  'snippets:',
  '  find:',
  '    description: Find tools by name',
  '    params:',
  '      q: {required: true, description: What to look for}',
  '    body: ot.help(query="{{ q }}", info="list")',
  'notify:',
  '  topics:',
  '    - {pattern: "notes*", file: notes.yaml}',
  '',
].join('\n');

const run = (panel: Parameters<typeof panelRequest>[0], text: string) =>
  panelRequest<RunReply>(panel, { type: 'command.run', text });

test.beforeEach(async ({ panel }) => {
  // No API key at all: command mode must not need one.
  await panelRequest(panel, { type: 'config.save', yaml: CONFIG });
  await panelRequest(panel, { type: 'secrets.save', yaml: '{}\n' });
  expect(await panelRequest(panel, { type: 'secrets.get_names' })).toMatchObject({ names: [] });
});

test('command.run ot.tools(info="list") lists the registered tools, with no API key configured', async ({ panel }) => {
  const r = await run(panel, 'ot.tools(info="list")');
  expect(r).toMatchObject({ ok: true, kind: 'program', calls: 1 });
  for (const name of ['ot.help', 'ot.tools', 'tabs.list', 'llm.transform']) expect(r.output).toContain(name);
});

test('ot.help(query="tabz") finds the tabs tools by fuzzy search; /help is the same command', async ({ panel }) => {
  const r = await run(panel, 'ot.help(query="tabz")');
  expect(r.ok).toBe(true);
  expect(r.output).toContain('# Search results for "tabz"');
  expect(r.output).toContain('- tabs.list: List open tabs');
  expect(r.output).toContain('## Packs\n\n- tabs (9 tools)');
  const slash = await run(panel, '/help tabz');
  expect(slash).toMatchObject({ ok: true, kind: 'help', source: 'ot.help(query="tabz")', output: r.output });
});

test('a $snippet expands and runs; an alias calls its tool', async ({ panel, pages }) => {
  const snippet = await run(panel, '$find q=tabs');
  expect(snippet).toMatchObject({ ok: true, kind: 'snippet', source: 'ot.help(query="tabs", info="list")' });
  expect(snippet.output).toContain('tabs.list');

  const page = await panel.context().newPage();
  await page.goto(`${pages.origin}/child.html`);
  try {
    const alias = await run(panel, 'tl()');
    expect(alias).toMatchObject({ ok: true, kind: 'program', calls: 1 });
    expect(alias.output).toContain(`${pages.origin}/child.html`);
    expect(alias.output).not.toContain('_execution_metadata');
    // Variables and nested calls across lines; the last value is the result.
    const prog = await run(panel, 't = tl()\not.help(query="tl", info="list")');
    expect(prog).toMatchObject({ ok: true, calls: 2, output: 'tl' });
  } finally {
    await page.close();
  }
});

test('a bad command names the line and column; the snippet errors are the reference strings', async ({ panel }) => {
  const syntax = await run(panel, 'ot.version()\not.help(query="x"');
  expect(syntax).toMatchObject({ ok: false, error: { kind: 'syntax', line: 2, column: 18 } });
  const unknown = await run(panel, 'tabs.lst()');
  expect(unknown.error?.message).toBe(
    'line 1, column 1: unknown tool \'tabs.lst\'; search with ot.help(query="tabs.lst")',
  );
  expect((await run(panel, '$find')).error?.message).toBe("Snippet 'find' requires parameter 'q'");
  expect((await run(panel, '$nope')).error?.message).toBe("Unknown snippet 'nope'. Available: find");
});

test('classify and vocabulary let the panel tell commands from chat', async ({ panel }) => {
  const kind = async (text: string) =>
    (await panelRequest<{ kind: string }>(panel, { type: 'command.classify', text })).kind;
  expect(await kind('ot.tools()')).toBe('command');
  expect(await kind('tl()')).toBe('command');
  expect(await kind('$find q=x')).toBe('command');
  expect(await kind('/help')).toBe('command');
  expect(await kind('please list my tabs')).toBe('chat');
  const vocab = await panelRequest<{
    packs: string[];
    aliases: Record<string, string>;
    snippets: Record<string, string>;
  }>(panel, {
    type: 'command.vocabulary',
  });
  expect(vocab.packs).toEqual(expect.arrayContaining(['ot', 'tabs', 'llm']));
  expect(vocab.aliases).toEqual({ tl: 'tabs.list' });
  expect(vocab.snippets).toEqual({ find: 'Find tools by name' });
});

test('ot.help links to the bundled tool reference, which the extension serves', async ({
  panel,
  extensionId,
  context,
}) => {
  const r = await run(panel, 'ot.help(query="tabs.list")');
  const url = `chrome-extension://${extensionId}/docs/tools/tabs.html`;
  expect(r.output).toContain(`## Docs\n\n${url}`);
  expect((await run(panel, '/help llm')).output).toContain(
    `chrome-extension://${extensionId}/docs/tools/transform.html`,
  );
  const detail = await panelRequest<{ docsUrl: string; signature: string }>(panel, {
    type: 'help.tool',
    name: 'tabs.open',
  });
  expect(detail).toMatchObject({ docsUrl: url, signature: 'tabs.open(url: str, active: bool = True)' });

  const doc = await context.newPage();
  await doc.goto(url);
  await expect(doc.locator('h1')).toHaveText('The tabs pack');
  await expect(doc.locator('#list')).toContainText('tabs.list');
  await doc.goto(`chrome-extension://${extensionId}/docs/tools/transform.html`);
  await expect(doc.locator('#transform')).toContainText('llm.transform');
  await doc.close();
});

test('ot.health, ot.version, ot.config, ot.notify and ot.reload in the real worker', async ({ panel, extensionId }) => {
  const health = (await run(panel, 'ot.health()')).output!;
  expect(health).toContain(`extension_id: ${extensionId}`);
  expect(health).toMatch(/browser: (Chromium|Google Chrome) \d+/);
  expect(health).toMatch(/registry: \{status: ok, tool_count: \d+\}/);
  expect((await run(panel, 'ot.version()')).output).toBe('0.1.0');
  expect((await run(panel, 'ot.config()')).output).toContain('aliases: {tl: tabs.list}');
  expect((await run(panel, 'ot.notify(topic="notes", message="hello from e2e")')).output).toBe(
    'OK: notes -> notes.yaml',
  );
  expect((await run(panel, 'ot.notify(topic="other", message="x")')).output).toBe('SKIP: no matching topic');

  // ot.reload re-reads config and secrets and rebuilds the tools; everything still answers afterwards.
  expect((await run(panel, 'ot.reload()')).output).toBe('OK: Configuration reloaded');
  expect((await run(panel, 'tl()')).ok).toBe(true);
});
