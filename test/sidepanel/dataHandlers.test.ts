import { describe, expect, it } from 'vitest';
import { dataHandlers } from '../../src/background/dataHandlers.ts';
import { openOttoDB } from '../../src/storage/db.ts';
import { FileStore } from '../../src/storage/files.ts';
import { ResultStore } from '../../src/storage/results.ts';
import { StatsStore } from '../../src/storage/statsStore.ts';
import { ConfigSchema } from '../../src/config/schema.ts';
import type { Settings } from '../../src/background/settings.ts';

let n = 0;
function setup(configInput: unknown = {}) {
  const db = openOttoDB(`otto-data-handlers-${++n}-${Date.now()}`);
  const files = new FileStore(db);
  const results = new ResultStore(db);
  const stats = new StatsStore(db, { files });
  const settings: Settings = { config: ConfigSchema.parse(configInput), secrets: {} };
  const h = dataHandlers({
    settings: async () => settings,
    redact: (t) => t.replaceAll('tok-secret-1', '[redacted]'),
    stats: () => stats,
    files: () => files,
    results: () => results,
  });
  const call = <T>(type: string, extra: Record<string, unknown> = {}) =>
    (h as unknown as Record<string, (r: unknown) => Promise<T>>)[type]!({ type, id: 'x', ...extra });
  return { files, results, stats, call };
}

describe('panel data requests', () => {
  it('stats.summary has the figures of ot.stats and the timeline', async () => {
    const { stats, call } = setup();
    await stats.recordToolCall({ tool: 'tabs.list', durationMs: 4, success: true, charsIn: 2, charsOut: 30 });
    await stats.recordToolCall({
      tool: 'tabs.list',
      durationMs: 6,
      success: false,
      errorType: 'Error',
      charsIn: 2,
      charsOut: 9,
    });
    await stats.recordModelRequest({ model: 'gpt-test', inputTokens: 50, outputTokens: 7, latencyMs: 120 });
    const s = await call<{
      enabled: boolean;
      report: {
        total_calls: number;
        success_rate: number;
        model_requests: number;
        tools: { tool: string; total_calls: number }[];
      };
      timeline: { calls: number }[];
    }>('stats.summary', { period: 'day' });
    expect(s.enabled).toBe(true);
    expect(s.report).toMatchObject({ total_calls: 2, success_rate: 50, model_requests: 1 });
    expect(s.report.tools).toEqual([expect.objectContaining({ tool: 'tabs.list', total_calls: 2 })]);
    expect(s.timeline.reduce((a, b) => a + b.calls, 0)).toBe(2);
    await expect(call('stats.summary', { period: 'year' })).rejects.toThrow(/period/i);
  });

  it('files.list names configured topic files and whether they exist; files.get redacts', async () => {
    const { files, call } = setup({
      notify: {
        topics: [
          { pattern: 'a*', file: '~/notes/a.yaml' },
          { pattern: 'b*', file: 'b.yaml' },
        ],
      },
    });
    await files.save('a.yaml', '---\nmessage: tok-secret-1\n', 'text/yaml');
    await files.save('report.html', '<svg></svg>', 'text/html');
    const list = await call<{ files: { name: string }[]; topics: unknown[] }>('files.list');
    expect(list.files.map((f) => f.name).sort()).toEqual(['a.yaml', 'report.html']);
    expect(list.files[0]).not.toHaveProperty('content');
    expect(list.topics).toEqual([
      { pattern: 'a*', file: 'a.yaml', exists: true },
      { pattern: 'b*', file: 'b.yaml', exists: false },
    ]);
    const a = await call<{ content: string; mime: string }>('files.get', { name: 'a.yaml' });
    expect(a).toMatchObject({ mime: 'text/yaml', content: '---\nmessage: [redacted]\n' });
    await expect(call('files.get', { name: 'nope.txt' })).rejects.toThrow('File not found: nope.txt');
    expect(await call('files.delete', { name: 'a.yaml' })).toEqual({ deleted: true });
    expect(await call('files.delete', { name: 'a.yaml' })).toEqual({ deleted: false });
  });

  it('results.list / results.get (cut to maxChars) / results.delete', async () => {
    const { results, call } = setup();
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const ref = await results.store(text, { tool: 'tabs.list' });
    const list = await call<{ handle: string; tool: string; totalLines: number }[]>('results.list');
    expect(list).toEqual([expect.objectContaining({ handle: ref.handle, tool: 'tabs.list', totalLines: 500 })]);
    const whole = await call<{ text: string; truncated: boolean; totalChars: number }>('results.get', {
      handle: ref.handle,
    });
    expect(whole).toMatchObject({ text, truncated: false, totalChars: text.length });
    const cut = await call<{ text: string; truncated: boolean }>('results.get', { handle: ref.handle, maxChars: 20 });
    expect(cut).toMatchObject({ text: text.slice(0, 20), truncated: true });
    expect(await call('results.delete', { handle: ref.handle })).toEqual({ deleted: true });
    await expect(call('results.get', { handle: ref.handle })).rejects.toThrow(`Result not found: ${ref.handle}`);
  });
});
