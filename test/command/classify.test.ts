import { describe, expect, it } from 'vitest';
import {
  classifyInput,
  commandSource,
  helpCommandToSource,
  runCommandInput,
  type CommandVocabulary,
  type SnippetMap,
} from '../../src/command/index.ts';
import { catchCommandErrorAsync, recordingCall } from './helpers.ts';

const snippets: SnippetMap = { brv: { params: { topic: {} }, body: 'web.fetch(url="https://s.test/?q={{ topic }}")' } };
const vocabulary: CommandVocabulary = {
  packs: ['ot', 'web', 'llm', 'dom'],
  aliases: { ws: 'web.fetch', 'old.fetch': 'web.fetch' },
  snippets,
};

describe('classifyInput', () => {
  const command = [
    'ot.help(query="dom")',
    '  ot.tools()  ',
    'web.fetch(\n  url="https://x"\n)',
    'x = dom.text(ref="e4")\nllm.transform(input=x, prompt="sum")',
    '# first a comment\not.version()',
    'ws(url="x")',
    'old.fetch(url="x")',
    'ot.help(query="unclosed"',
    '/help',
    '/help dom click',
    '  /help   ',
    '$brv topic=x',
    '$brv\ntopic: x',
    '$unknown',
    '$typo k=v',
  ];
  const chat = [
    'hello there',
    'what does ot.help do?',
    'web.fetch the page please',
    'unknown.tool(a=1)',
    'print(x=1)',
    '/helpme',
    '/other',
    '$5 is the price',
    '$foo is great',
    '',
    'ot',
    'x = 1',
    '"ot.help()"',
  ];
  for (const text of command)
    it(`command: ${JSON.stringify(text)}`, () => expect(classifyInput(text, vocabulary)).toBe('command'));
  for (const text of chat)
    it(`chat: ${JSON.stringify(text)}`, () => expect(classifyInput(text, vocabulary)).toBe('chat'));

  it('accepts packs as any iterable', () => {
    expect(classifyInput('ot.help()', { packs: new Set(['ot']), aliases: {}, snippets: {} })).toBe('command');
    expect(classifyInput('ot.help()', { packs: new Set(), aliases: {}, snippets: {} })).toBe('chat');
  });
});

describe('command mode', () => {
  it('/help x maps to ot.help(query="x")', () => {
    expect(helpCommandToSource('/help web fetch')).toBe('ot.help(query="web fetch")');
    expect(helpCommandToSource('/help "quoted"')).toBe('ot.help(query="\\"quoted\\"")');
    expect(helpCommandToSource('/help')).toBe('ot.help()');
    expect(helpCommandToSource('help')).toBeNull();
  });

  it('commandSource tells help, snippet and program apart', () => {
    expect(commandSource('/help dom')).toEqual({ kind: 'help', source: 'ot.help(query="dom")' });
    expect(commandSource('$brv topic=go', snippets)).toEqual({
      kind: 'snippet',
      source: 'web.fetch(url="https://s.test/?q=go")',
      snippet: 'brv',
    });
    expect(commandSource('ot.tools()')).toEqual({ kind: 'program', source: 'ot.tools()' });
  });

  it('runCommandInput runs /help through call', async () => {
    const { call, calls } = recordingCall();
    const result = await runCommandInput('/help dom', { call });
    expect(calls.map((c) => [c.name, c.args])).toEqual([['ot.help', { query: 'dom' }]]);
    expect(result.value).toBe('<ot.help>');
    expect(result.command.kind).toBe('help');
  });

  it('runCommandInput runs snippets and programs with aliases', async () => {
    const { call, calls } = recordingCall();
    await runCommandInput('$brv topic=x', { call, snippets: snippets });
    await runCommandInput('ws(url="y")', { call, aliases: { ws: 'web.fetch' } });
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['web.fetch', { url: 'https://s.test/?q=x' }],
      ['web.fetch', { url: 'y' }],
    ]);
  });

  it('runCommandInput labels snippet errors', async () => {
    const { call } = recordingCall();
    const error = await catchCommandErrorAsync(() =>
      runCommandInput('$bad', { call, snippets: { bad: { body: 'web.fetch(1)' } } }),
    );
    expect(error.message).toBe(
      "snippet 'bad', line 1, column 11: positional arguments are not allowed: 'web.fetch' takes keyword arguments only (write name=value)",
    );
  });
});
