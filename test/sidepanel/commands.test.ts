import { describe, expect, it } from 'vitest';
import {
  MAX_CARDS,
  MAX_STORED_OUTPUT,
  SCRATCH,
  commandsReducer,
  currentCards,
  emptyCommands,
  forStorage,
  runningCard,
  type CommandCard,
  type CommandsState,
} from '../../src/sidepanel/state/commands.ts';
import { appendHistory, MAX_HISTORY, recall } from '../../src/sidepanel/state/history.ts';
import { buildEntries } from '../../src/sidepanel/state/view.ts';
import { chatReducer, emptyChat } from '../../src/sidepanel/state/chat.ts';
import { clip, linkDocs } from '../../src/sidepanel/lib/commandText.ts';
import { tryExample } from '../../src/sidepanel/state/helpBrowser.ts';
import { viewMime } from '../../src/sidepanel/state/data.ts';

const card = (id: string, afterSeq = -1, extra: Partial<CommandCard> = {}): CommandCard => ({
  id,
  text: `cmd ${id}`,
  status: 'running',
  startedAt: 0,
  afterSeq,
  ...extra,
});

const start = (s: CommandsState, c: CommandCard, key = s.current) =>
  commandsReducer(s, { type: 'start', key, card: c });

describe('command cards', () => {
  it('a finished command carries what ran, its output and duration', () => {
    let s = start(emptyCommands(), card('a'));
    expect(runningCard(s)?.id).toBe('a');
    s = commandsReducer(s, {
      type: 'finish',
      key: SCRATCH,
      id: 'a',
      reply: {
        ok: true,
        kind: 'help',
        source: 'ot.help(query="x")',
        output: '# x',
        format: 'yaml',
        calls: 1,
        durationMs: 3.5,
      },
    });
    expect(currentCards(s)[0]).toMatchObject({
      status: 'ok',
      kind: 'help',
      source: 'ot.help(query="x")',
      output: '# x',
      calls: 1,
      durationMs: 3.5,
    });
    expect(runningCard(s)).toBeUndefined();
  });

  it('an aborted command is cancelled; an error keeps line and column; an Error: result is an error', () => {
    const error = (kind: string) => ({
      message: 'line 1, column 4: x',
      reason: 'x',
      kind,
      line: 1,
      column: 4,
      label: null,
    });
    let s = start(start(start(emptyCommands(), card('a')), card('b')), card('c'));
    s = commandsReducer(s, {
      type: 'finish',
      key: SCRATCH,
      id: 'a',
      reply: { ok: false, error: error('aborted') as never, durationMs: 1 },
    });
    s = commandsReducer(s, {
      type: 'finish',
      key: SCRATCH,
      id: 'b',
      reply: { ok: false, error: error('syntax') as never, durationMs: 1 },
    });
    s = commandsReducer(s, {
      type: 'finish',
      key: SCRATCH,
      id: 'c',
      reply: {
        ok: true,
        kind: 'program',
        source: 't()',
        output: 'Error: no such tab',
        format: 'yaml',
        calls: 1,
        durationMs: 1,
      },
    });
    expect(currentCards(s).map((c) => c.status)).toEqual(['cancelled', 'error', 'error']);
    expect(currentCards(s)[1]!.error).toMatchObject({ line: 1, column: 4 });
  });

  it('a request that failed (worker gone) is an error card', () => {
    let s = start(emptyCommands(), card('a'));
    s = commandsReducer(s, { type: 'fail', key: SCRATCH, id: 'a', message: 'Otto restarted' });
    expect(currentCards(s)[0]).toMatchObject({ status: 'error', error: { message: 'Otto restarted', line: null } });
  });

  it('cards are per conversation; the scratch list moves to the conversation a chat message creates', () => {
    let s = start(emptyCommands(), card('a', -1));
    s = commandsReducer(s, { type: 'adopt', to: 'conv1' });
    expect(s.current).toBe('conv1');
    expect(s.lists[SCRATCH]).toBeUndefined();
    expect(currentCards(s).map((c) => c.id)).toEqual(['a']);
    s = commandsReducer(s, { type: 'open', key: 'conv2', cards: [card('z', 3, { status: 'ok' })] });
    expect(currentCards(s).map((c) => c.id)).toEqual(['z']);
    // Reopening keeps this session's cards over what storage had.
    s = commandsReducer(s, { type: 'open', key: 'conv1', cards: [] });
    expect(currentCards(s).map((c) => c.id)).toEqual(['a']);
    s = commandsReducer(s, { type: 'clear', key: 'conv1' });
    expect(currentCards(s)).toEqual([]);
  });

  it('keeps the last MAX_CARDS; storage clips long output and marks running cards interrupted', () => {
    let s = emptyCommands();
    for (let i = 0; i < MAX_CARDS + 5; i++) s = start(s, card(String(i)));
    expect(currentCards(s)).toHaveLength(MAX_CARDS);
    expect(currentCards(s)[0]!.id).toBe('5');
    const stored = forStorage([card('r'), card('o', -1, { status: 'ok', output: 'x'.repeat(MAX_STORED_OUTPUT + 10) })]);
    expect(stored[0]!.status).toBe('interrupted');
    expect(stored[1]).toMatchObject({ status: 'ok', clipped: true });
    expect(stored[1]!.output).toHaveLength(MAX_STORED_OUTPUT);
  });

  it('buildEntries places each card after the item that was last when it ran', () => {
    const user = (seq: number, text: string) => ({
      seq,
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    });
    const chat = chatReducer(emptyChat(), {
      type: 'loaded',
      conversationId: 'c',
      items: [user(0, 'one'), user(1, 'two')],
      active: false,
    });
    const entries = buildEntries(chat, [card('before', -1), card('middle', 0), card('end', 1)]);
    expect(
      entries.map((e) => (e.kind === 'command' ? `cmd:${e.card.id}` : e.kind === 'user' ? e.text : e.kind)),
    ).toEqual(['cmd:before', 'one', 'cmd:middle', 'two', 'cmd:end']);
  });
});

describe('input history', () => {
  it('appends, folds a repeat of the newest, keeps the last MAX_HISTORY', () => {
    expect(appendHistory(['a'], 'a')).toEqual(['a']);
    expect(appendHistory(['a'], 'b')).toEqual(['a', 'b']);
    const long = Array.from({ length: MAX_HISTORY }, (_, i) => String(i));
    expect(appendHistory(long, 'new')).toHaveLength(MAX_HISTORY);
    expect(appendHistory(long, 'new').at(-1)).toBe('new');
  });

  it('Up goes to older entries, Down back to newer ones and then to the draft', () => {
    const h = ['ot.version()', 'hello', '/help tabs'];
    expect(recall(h, null, 'up', '')).toEqual({ index: 2, text: '/help tabs' });
    expect(recall(h, 2, 'up', '')).toEqual({ index: 1, text: 'hello' });
    expect(recall(h, 0, 'up', '')).toBeUndefined();
    expect(recall(h, 1, 'down', 'draft')).toEqual({ index: 2, text: '/help tabs' });
    expect(recall(h, 2, 'down', 'draft')).toEqual({ index: null, text: 'draft' });
    expect(recall(h, null, 'down', '')).toBeUndefined();
    expect(recall([], null, 'up', '')).toBeUndefined();
  });
});

describe('panel text helpers', () => {
  it('clip leaves short output alone and cuts long output to its first lines', () => {
    expect(clip('a\nb')).toBeUndefined();
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    expect(clip(long)!.split('\n')).toHaveLength(20);
    expect(clip('x'.repeat(10_000))).toHaveLength(2400);
  });

  it('linkDocs turns bare links to the bundled docs into autolinks, nothing else', () => {
    const url = `chrome-extension://${'a'.repeat(32)}/docs/tools/tabs.html`;
    expect(linkDocs(`## Docs\n\n${url}`)).toBe(`## Docs\n\n<${url}>`);
    expect(linkDocs('see https://example.com/docs/x')).toBe('see https://example.com/docs/x');
    expect(linkDocs(`chrome-extension://${'b'.repeat(32)}/src/x.html`)).toBe(
      `chrome-extension://${'b'.repeat(32)}/src/x.html`,
    );
  });

  it('tryExample: the first example, else the required arguments with placeholders of their type', () => {
    expect(tryExample({ name: 'tabs.list', examples: ['tabs.list()'], params: [] })).toBe('tabs.list()');
    const p = (name: string, type: string, required: boolean) => ({ name, type, required, hasDefault: !required });
    expect(
      tryExample({
        name: 'tabs.open',
        examples: [],
        params: [p('url', 'str', true), p('n', 'int | None', true), p('active', 'bool', false)],
      }),
    ).toBe('tabs.open(url="", n=0)');
  });

  it('files open as HTML only when they are HTML', () => {
    expect(viewMime('text/html')).toBe('text/html');
    expect(viewMime('text/html; charset=utf-8')).toBe('text/html');
    expect(viewMime('text/yaml')).toBe('text/plain');
    expect(viewMime('application/json')).toBe('text/plain');
  });
});
