/**
 * Secrets text (issue 34): any value round-trips through the stored YAML, and values with invisible characters are
 * refused when saved, in words that say what to do.
 */
import { describe, expect, it } from 'vitest';
import { mergeSecretsText, secretValueProblem } from '../../src/config/secretsText.ts';
import { parseSecretsYaml } from '../../src/config/parse.ts';
import { settingsHandlers } from '../../src/background/settingsHandlers.ts';
import type { PortLike } from '../../src/background/panelPort.ts';
import type { Req } from '../../src/shared/messages.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { memoryStorage } from '../support/memoryStorage.ts';

function values(text: string): Record<string, string> {
  const out = parseSecretsYaml(text);
  if (!out.ok) throw new Error(out.problems.map((p) => p.message).join('\n'));
  return out.value;
}

describe('secrets text', () => {
  it('regression: a value with ":" and a line break is stored so it round-trips, and the next Add still works', () => {
    let text = mergeSecretsText('', { TOKEN: 'user: me\npass: x' });
    text = mergeSecretsText(text, { OTHER: 'plain' });
    expect(values(text)).toEqual({ TOKEN: 'user: me\npass: x', OTHER: 'plain' });
  });

  it('regression: replacing a multi-line value with a single space keeps the space', () => {
    let text = mergeSecretsText('', { A: '\n' });
    text = mergeSecretsText(text, { A: ' ' });
    expect(values(text)).toEqual({ A: ' ' });
  });

  it('regression: a stored flow map `{}` takes values with ":" and line breaks', () => {
    expect(values(mergeSecretsText('{}\n', { K: 'a: b\nc' }))).toEqual({ K: 'a: b\nc' });
  });

  it('keeps comments and removes names', () => {
    const text = mergeSecretsText('# mine\n\nA: "1"\nB: "2"\n', { C: '#3' }, ['A']);
    expect(text).toContain('# mine');
    expect(values(text)).toEqual({ B: '2', C: '#3' });
  });

  it('regression: a key with a zero-width space is refused, naming the character and what to do', () => {
    expect(secretValueProblem('OPENAI_API_KEY', 'sk-abc\u200bdef')).toBe(
      'OPENAI_API_KEY holds an invisible character (zero-width space, U+200B) at position 7: it probably came along with a paste. Copy the value again from its source, or type it, then save.',
    );
    expect(secretValueProblem('K', '\ufeffsk')).toMatch(/BOM/);
    expect(secretValueProblem('K', 'a\u202eb')).toMatch(/text-direction mark/);
    expect(secretValueProblem('K', 'a\u0000b')).toMatch(/control character/);
    expect(secretValueProblem('K', 'line one\nline two\tthree: x')).toBeUndefined();
    expect(secretValueProblem('K', 'ключ-日本-🔑')).toBeUndefined();
  });

  it('secrets.update refuses such a value and stores nothing', async () => {
    const storage = memoryStorage();
    const handlers = settingsHandlers({
      settings: async () => ({ config: DEFAULT_CONFIG, secrets: {} }),
      invalidate: () => undefined,
      registry: () => new ToolRegistry(),
      storage,
    });
    // The port is not used by this handler; the request is typed as the worker receives it (validated).
    const update = (req: Req<'secrets.update'>) => handlers['secrets.update'](req, {} as PortLike);
    await expect(
      update({ type: 'secrets.update', id: '1', set: { OPENAI_API_KEY: 'sk-\u200dx' }, remove: [] }),
    ).rejects.toThrow(/^OPENAI_API_KEY holds an invisible character \(zero-width joiner, U\+200D\)/);
    expect(await storage.get('secrets')).toEqual({});
    const ok = await update({ type: 'secrets.update', id: '2', set: { TOKEN: 'a: b\nc' }, remove: [] });
    expect(ok.names).toEqual(['TOKEN']);
    const again = await update({ type: 'secrets.update', id: '3', set: { NEXT: 'x' }, remove: [] });
    expect(again.names).toEqual(['NEXT', 'TOKEN']);
  });
});
