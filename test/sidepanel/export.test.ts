import { describe, expect, it } from 'vitest';
import { exportJson, exportMarkdown, withEscapedForms, type ExportInput } from '../../src/background/exportHandlers.ts';
import { mergeSecretsYaml } from '../../src/background/settingsHandlers.ts';
import type { ItemRecord } from '../../src/storage/records.ts';

const SECRET = 'tok-"quoted"\\secret-123';
const KEY = 'sk-live-abcdefghijklmnop';
const items = (list: Record<string, unknown>[]): ItemRecord[] =>
  list.map((item, seq) => ({ conversationId: 'c', seq, createdAt: 0, item }));

const input: ExportInput = {
  conversation: { id: 'c', title: `About ${KEY}`, createdAt: 0, updatedAt: 0 },
  items: items([
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: `use ${SECRET} and ${KEY}` }] },
    {
      type: 'reasoning',
      id: 'rs',
      summary: [{ type: 'summary_text', text: 'thinking' }],
      encrypted_content: 'OPAQUE-BLOB',
    },
    {
      type: 'function_call',
      id: 'fc',
      call_id: 'k',
      name: 'tabs__list',
      arguments: `{"token":"${SECRET.replace(/["\\]/g, '\\$&')}"}`,
    },
    { type: 'function_call_output', call_id: 'k', output: '{"tabs":[]}' },
    { type: 'message', id: 'm', role: 'assistant', content: [{ type: 'output_text', text: `Done with ${SECRET}.` }] },
    { type: 'otto.note', kind: 'stopped', reason: 'aborted', text: 'Stopped by the user.' },
  ]),
  secrets: withEscapedForms([SECRET, KEY]),
  qualifiedName: (n) => (n === 'tabs__list' ? 'tabs.list' : undefined),
  exportedAt: 0,
};

describe('conversation export', () => {
  it('Markdown: readable, tool calls named, secrets redacted', () => {
    const md = exportMarkdown(input);
    expect(md.filename).toMatch(/^otto-about-.*\.md$/);
    expect(md.text).toContain('## You');
    expect(md.text).toContain('### Tool call: `tabs.list` (ok)');
    expect(md.text).toContain('Stopped by the user.');
    expect(md.text).not.toContain('tok-');
    expect(md.text).not.toContain(KEY);
    expect(md.text).toContain('[redacted]');
    expect(md.filename).not.toContain('sk-live');
  });

  it('JSON: every string redacted (even where JSON escapes the secret), no encrypted reasoning', () => {
    const json = exportJson(input);
    expect(json.text).not.toContain('tok-');
    expect(json.text).not.toContain('secret-123');
    expect(json.text).not.toContain(KEY);
    expect(json.text).not.toContain('OPAQUE-BLOB');
    const data = JSON.parse(json.text) as { items: { item: Record<string, unknown> }[] };
    expect(data.items).toHaveLength(6);
    expect(data.items[2]!.item.tool).toBe('tabs.list');
  });
});

describe('mergeSecretsYaml', () => {
  it('sets, replaces and removes names, keeping the rest', () => {
    const out = mergeSecretsYaml('# keys\n\nA: one\nB: two # fr\n', { B: 'deux', C: 'trois' }, ['A']);
    // Values are always double-quoted (any value round-trips, #34); a line's comment stays.
    expect(out).toBe('# keys\n\nB: "deux" # fr\nC: "trois"\n');
    expect(mergeSecretsYaml('', { OPENAI_API_KEY: 'sk-x' }, [])).toBe('OPENAI_API_KEY: "sk-x"\n');
  });
});
