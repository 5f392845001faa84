// docs/specs/002-ot-tools.md "Runtime Statistics" (ot.stats) through the IndexedDB stats store: recording, periods, the
// tool filter, disabled statistics, the HTML report and its errors, and the rollups against a naive count of the raw
// records.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { StatsError } from '../../src/results/statsLogic.ts';
import { openOttoDB } from '../../src/storage/db.ts';
import { FileStore } from '../../src/storage/files.ts';
import { ResultStore } from '../../src/storage/results.ts';
import { RETENTION_DAYS, StatsStore, toolCallRecorder, type ToolCallInput } from '../../src/storage/statsStore.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2025, 5, 15, 13, 37, 11);

let seq = 0;
async function fixture(opts: { enabled?: () => boolean; now?: () => number } = {}) {
  const db = await openOttoDB(`stats-${++seq}-${Math.random()}`);
  const files = new FileStore(db, { now: () => NOW });
  const stats = new StatsStore(db, { now: () => NOW, files, ...opts });
  return { db, stats, files };
}

const call = (tool: string, agoMs: number, success = true, durationMs = 10): ToolCallInput => ({
  tool,
  ts: NOW - agoMs,
  durationMs,
  success,
  ...(success ? {} : { errorType: 'TimeoutError' }),
  charsIn: 10,
  charsOut: 100,
});

async function statsError(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StatsError);
  return (e as StatsError).message;
}

describe('ot.stats scenarios (seed 002)', () => {
  it('Get all-time stats: total_calls, success_rate, context_saved, time_saved_ms, tools', async () => {
    const { stats } = await fixture();
    await stats.recordToolCall(call('dom.click', 1000));
    await stats.recordToolCall(call('dom.click', 2000, false));
    await stats.recordToolCall(call('web.fetch', 40 * DAY));
    await stats.recordModelRequest({
      model: 'gpt-5-mini',
      inputTokens: 1000,
      outputTokens: 100,
      latencyMs: 2000,
      ts: NOW - 5000,
    });
    await stats.recordSaving({ source: 'result_store', tool: 'web.fetch', charsKeptOut: 40_000, ts: NOW - 40 * DAY });
    await stats.recordSaving({ source: 'code_mode', roundTripsAvoided: 2, ts: NOW - 1000 });
    const r = await stats.computeStats();
    expect(r.period).toBe('all');
    expect(r.total_calls).toBe(3);
    expect(r.success_count).toBe(2);
    expect(r.error_count).toBe(1);
    expect(r.success_rate).toBe(66.7);
    expect(r.context_saved).toBe(10_000);
    expect(r.time_saved_ms).toBeGreaterThan(2 * 2000 * 0.95);
    expect(r.time_saved_ms).toBeLessThan(2 * 2000 * 1.05);
    expect(r.tools.map((t) => [t.tool, t.total_calls])).toEqual([
      ['dom.click', 2],
      ['web.fetch', 1],
    ]);
    expect(r.estimates).toMatch(/characters kept out/);
    expect(r.start_time).toBe(new Date(Math.floor((NOW - 40 * DAY) / DAY) * DAY).toISOString());
    expect(r.end_time).toBe(new Date(NOW).toISOString());
  });

  it('Filter by period: day = 24 h, week = 7 d, month = 30 d, all', async () => {
    const { stats } = await fixture();
    const ages = [HOUR, 23 * HOUR, 25 * HOUR, 6 * DAY, 8 * DAY, 29 * DAY, 31 * DAY, 300 * DAY];
    for (const a of ages) await stats.recordToolCall(call('t.x', a));
    const count = async (period: string): Promise<number> => (await stats.computeStats({ period })).total_calls;
    expect(await count('day')).toBe(2);
    expect(await count('week')).toBe(4);
    expect(await count('month')).toBe(6);
    expect(await count('all')).toBe(8);
    const day = await stats.computeStats({ period: 'day' });
    expect(day.start_time).toBe(new Date(NOW - DAY).toISOString());
  });

  it('window edges: the start is inclusive, and the partial first hour and first day are counted exactly', async () => {
    const { stats } = await fixture();
    // NOW is 13:37:11 UTC. day starts at 13:37:11 yesterday: its first partial hour is read from raw records.
    for (const period of [DAY, 7 * DAY, 30 * DAY]) {
      await stats.recordToolCall(call('edge.in', period)); // exactly at the start
      await stats.recordToolCall(call('edge.in', period - 60_000)); // inside the partial first hour
      await stats.recordToolCall(call('edge.in', period - 2 * HOUR)); // inside the partial first day
      await stats.recordToolCall(call('edge.out', period + 1)); // 1 ms before the start
      await stats.recordToolCall(call('edge.out', period + 60_000)); // same hour, before the start
    }
    const tools = async (period: string) =>
      (await stats.computeStats({ period })).tools.map((t) => [t.tool, t.total_calls]);
    expect(await tools('day')).toEqual([['edge.in', 3]]);
    expect(await tools('week')).toEqual([
      ['edge.in', 6],
      ['edge.out', 2],
    ]);
    expect(await tools('month')).toEqual([
      ['edge.in', 9],
      ['edge.out', 4],
    ]);
    expect(await tools('all')).toEqual([
      ['edge.in', 9],
      ['edge.out', 6],
    ]);
  });

  it('Filter by tool: only that tool', async () => {
    const { stats } = await fixture();
    await stats.recordToolCall(call('brave.search', 1000));
    await stats.recordToolCall(call('brave.search', 2000, false));
    await stats.recordToolCall(call('dom.click', 3000));
    for (const period of ['day', 'all']) {
      const r = await stats.computeStats({ tool: 'brave.search', period });
      expect(r.tool).toBe('brave.search');
      expect(r.total_calls).toBe(2);
      expect(r.tools.map((t) => t.tool)).toEqual(['brave.search']);
    }
    expect((await stats.computeStats({ tool: '' })).total_calls).toBe(3);
    expect((await stats.computeStats({ tool: 'nope.none' })).total_calls).toBe(0);
  });

  it('Generate HTML report: saved as a file record, named in html_report', async () => {
    const { stats, files } = await fixture();
    await stats.recordToolCall(call('dom.click', 1000));
    await stats.recordToolCall(call('web.fetch', 2 * HOUR, false, 500));
    const r = await stats.computeStats({ output: 'stats.html', period: 'week' });
    expect(r.html_report).toBe('stats.html');
    const file = await files.get('stats.html');
    expect(file?.mime).toBe('text/html');
    const html = file!.content;
    expect(html).toMatch(/<svg\b/);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('web.fetch');
    expect((await files.list()).map((f) => f.name)).toEqual(['stats.html']);
    expect((await stats.computeStats()).html_report).toBeNull();
  });

  it('Stats disabled: the exact error, and nothing is recorded', async () => {
    let enabled = false;
    const { stats } = await fixture({ enabled: () => enabled });
    await stats.recordToolCall(call('dom.click', 1000));
    await stats.recordModelRequest({ model: 'm', inputTokens: 1, outputTokens: 1, latencyMs: 1 });
    await stats.recordSaving({ source: 'result_store', charsKeptOut: 1 });
    expect(await statsError(stats.computeStats())).toBe('Error: Statistics collection is disabled in configuration');
    expect(await statsError(stats.computeStats({ period: 'invalid' }))).toBe(
      'Error: Statistics collection is disabled in configuration',
    );
    enabled = true;
    expect((await stats.computeStats()).total_calls).toBe(0);
    expect((await stats.computeStats()).model_requests).toBe(0);
    expect(await statsError(stats.computeStats({ enabled: false }))).toBe(
      'Error: Statistics collection is disabled in configuration',
    );
  });

  it.each([
    ['', 'the name is empty'],
    [
      'reports/stats.html',
      "path separators are not allowed: files are kept in Otto's storage (open or download them from the panel)",
    ],
    [
      '..\\stats.html',
      "path separators are not allowed: files are kept in Otto's storage (open or download them from the panel)",
    ],
    ['stats.txt', 'the name must end in .html'],
    ['stats', 'the name must end in .html'],
    [`${'x'.repeat(96)}.html`, 'the name is longer than 100 characters'],
    ['CON.html', "'CON' is a reserved file name"],
    ['lpt1.html', "'lpt1' is a reserved file name"],
    ['a:b.html', 'the name contains a character not allowed in file names: ":"'],
    ['.html', "names starting with '.' are not allowed"],
    [' stats.html', 'the name starts or ends with a space'],
  ])('HTML write error: %j → Error: Cannot write to ...', async (name, reason) => {
    const { stats, files } = await fixture();
    expect(await statsError(stats.computeStats({ output: name }))).toBe(`Error: Cannot write to '${name}': ${reason}`);
    expect(await files.list()).toEqual([]);
  });

  it('HTML write error: a failing write reports its reason', async () => {
    const { db } = await fixture();
    const failing = new FileStore(db);
    failing.save = () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    const stats = new StatsStore(db, { now: () => NOW, files: failing });
    expect(await statsError(stats.computeStats({ output: 'report.html' }))).toBe(
      "Error: Cannot write to 'report.html': The quota has been exceeded.",
    );
  });

  it('Invalid period: the exact error', async () => {
    const { stats } = await fixture();
    expect(await statsError(stats.computeStats({ period: 'invalid' }))).toBe(
      "Error: Invalid period 'invalid'. Valid: day, week, month, all. Example: ot.stats(period='day')",
    );
  });
});

describe('recording', () => {
  it('stores every tool call with tool, ts, duration, success, error type, chars in/out', async () => {
    const { stats, db } = await fixture();
    await stats.recordToolCall({
      tool: 'dom.type',
      durationMs: 12.34,
      success: false,
      errorType: 'ToolValidationError',
      charsIn: 42,
      charsOut: 7,
    });
    await stats.recordToolCall({ tool: 'dom.type', durationMs: 1, success: true, charsIn: 1, charsOut: 1, ts: 5 });
    const all = await db.getAll('statsToolCalls');
    expect(all[0]).toEqual({
      id: expect.any(Number),
      tool: 'dom.type',
      ts: NOW,
      duration_ms: 12.34,
      success: false,
      error_type: 'ToolValidationError',
      chars_in: 42,
      chars_out: 7,
    });
    expect(all[1]).toMatchObject({ ts: 5, success: true, error_type: null });
  });

  it('stores every model request with model, tokens in/out, cached input tokens and latency', async () => {
    const { stats, db } = await fixture();
    await stats.recordModelRequest({ model: 'gpt-5', inputTokens: 10, outputTokens: 20, latencyMs: 300 });
    await stats.recordModelRequest({
      model: 'gpt-5',
      inputTokens: 4000,
      outputTokens: 20,
      cachedTokens: 3072,
      latencyMs: 300,
    });
    expect(await db.getAll('statsModelRequests')).toEqual([
      {
        id: expect.any(Number),
        model: 'gpt-5',
        ts: NOW,
        input_tokens: 10,
        output_tokens: 20,
        cached_tokens: 0,
        latency_ms: 300,
      },
      {
        id: expect.any(Number),
        model: 'gpt-5',
        ts: NOW,
        input_tokens: 4000,
        output_tokens: 20,
        cached_tokens: 3072,
        latency_ms: 300,
      },
    ]);
    // #23: the report says how much of the input the prompt cache served.
    const row = (await stats.computeStats()).models?.find((m) => m.model === 'gpt-5');
    expect(row).toMatchObject({ input_tokens: 4010, cached_tokens: 3072 });
  });

  it('accepts the interceptor record shape as is (onRecord: r => void stats.recordToolCall(r))', async () => {
    const { stats } = await fixture();
    const interceptorRecord = { tool: 'ot.help', durationMs: 0.5, success: true, charsIn: 12, charsOut: 900 } as const;
    await stats.recordToolCall(interceptorRecord);
    expect((await stats.computeStats()).total_chars_out).toBe(900);
  });

  it('the result store reports characters kept out of context into context_saved', async () => {
    const { db, stats } = await fixture();
    const results = new ResultStore(db, {
      now: () => NOW,
      onSaving: (s) =>
        stats.recordSaving({ source: 'result_store', tool: s.tool, charsKeptOut: s.charsKeptOut, ts: s.ts }),
    });
    const text = 'w'.repeat(100_000);
    const ref = await results.storeIfLarge(text, { tool: 'web.fetch' });
    const kept = text.length - JSON.stringify(ref).length;
    const r = await stats.computeStats({ period: 'day' });
    expect(r.context_saved).toBe(Math.round(kept / 4));
    expect((await stats.computeStats({ tool: 'web.fetch' })).context_saved).toBe(Math.round(kept / 4));
    expect((await stats.computeStats({ tool: 'dom.click' })).context_saved).toBe(0);
  });

  it('prunes raw records and hourly rollups older than the retention, keeping all-time totals', async () => {
    const { stats, db } = await fixture();
    await stats.recordToolCall(call('old.tool', (RETENTION_DAYS + 5) * DAY));
    await stats.recordToolCall(call('new.tool', HOUR));
    await stats.prune(NOW);
    expect((await db.getAll('statsToolCalls')).map((r) => r.tool)).toEqual(['new.tool']);
    expect((await db.getAll('statsRollups')).filter((r) => r.res === 'h').map((r) => r.name)).toEqual(['new.tool']);
    const all = await stats.computeStats();
    expect(all.tools.map((t) => t.tool).sort()).toEqual(['new.tool', 'old.tool']);
  });

  it('clear removes every statistic', async () => {
    const { stats } = await fixture();
    await stats.recordToolCall(call('a.b', 1));
    await stats.clear();
    expect((await stats.computeStats()).total_calls).toBe(0);
  });
});

describe('rollups answer like a count of the raw records', () => {
  it('for any records, period and tool filter', async () => {
    const tools = ['a.one', 'b.two', 'c.three'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tool: fc.constantFrom(...tools),
            // Uniform over 45 days, or close to a window's start (where raw records, hourly and daily rollups meet).
            ago: fc.oneof(
              fc.integer({ min: 0, max: 45 * DAY }),
              fc
                .constantFrom(DAY, 7 * DAY, 30 * DAY)
                .chain((edge) => fc.integer({ min: -2 * HOUR, max: 26 * HOUR }).map((after) => edge - after)),
            ),
            success: fc.boolean(),
            duration: fc.integer({ min: 0, max: 5000 }),
          }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 0, max: 2 * DAY }),
        fc.constantFrom('day', 'week', 'month', 'all'),
        fc.option(fc.constantFrom(...tools), { nil: undefined }),
        async (records, shift, period, tool) => {
          const now = NOW + shift;
          const { stats } = await fixture({ now: () => now });
          const inputs = records.map((r) => ({ ...call(r.tool, 0, r.success, r.duration), ts: now - r.ago }));
          // Half one by one, half as a batch: both paths must roll up alike.
          const half = inputs.length >> 1;
          for (const r of inputs.slice(0, half)) await stats.recordToolCall(r);
          await stats.recordBatch({ toolCalls: inputs.slice(half) });
          const span = { day: DAY, week: 7 * DAY, month: 30 * DAY, all: Infinity }[period];
          const inWindow = inputs.filter((r) => now - r.ts! <= span && (tool === undefined || r.tool === tool));
          const report = await stats.computeStats({ period, tool, now });
          expect(report.total_calls).toBe(inWindow.length);
          expect(report.error_count).toBe(inWindow.filter((r) => !r.success).length);
          expect(report.total_duration_ms).toBe(inWindow.reduce((s, r) => s + r.durationMs, 0));
          const perTool = Object.fromEntries(report.tools.map((t) => [t.tool, t.total_calls]));
          const expected: Record<string, number> = {};
          for (const r of inWindow) expected[r.tool] = (expected[r.tool] ?? 0) + 1;
          expect(perTool).toEqual(expected);
          const agg = await stats.aggregate({ period, tool, now });
          expect(agg.timeline.reduce((s, b) => s + b.calls, 0)).toBe(inWindow.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('toolCallRecorder', () => {
  it('is a synchronous sink that records in the background and reports failures instead of rejecting', async () => {
    const { stats } = await fixture();
    const errors: unknown[] = [];
    const sink = toolCallRecorder(stats, (e) => errors.push(e));
    expect(sink({ tool: 'dom.click', durationMs: 1, success: true, charsIn: 1, charsOut: 1 })).toBeUndefined();
    await vi.waitFor(async () => expect((await stats.computeStats()).total_calls).toBe(1));
    const broken = new StatsStore(Promise.reject(new Error('no database')));
    toolCallRecorder(broken, (e) => errors.push(e))({
      tool: 'x.y',
      durationMs: 1,
      success: true,
      charsIn: 0,
      charsOut: 0,
    });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect((errors[0] as Error).message).toBe('no database');
  });
});

describe('writing statistics in the background (flushDelayMs)', () => {
  it('records made within the delay are written together, in one transaction, stamped when they were recorded', async () => {
    let t = NOW;
    const { db, stats } = await fixture({ now: () => t });
    const delayed = new StatsStore(db, { now: () => t, flushDelayMs: 40 });
    const spy = vi.spyOn(db, 'transaction');
    const a = delayed.recordToolCall({ tool: 'dom.click', durationMs: 5, success: true, charsIn: 1, charsOut: 2 });
    t += 7;
    const b = delayed.recordModelRequest({ model: 'gpt-x', inputTokens: 10, outputTokens: 2, latencyMs: 300 });
    const c = delayed.recordSaving({ source: 'result_store', tool: 'web.fetch', charsKeptOut: 1000 });
    expect(spy).not.toHaveBeenCalled(); // nothing written between the steps
    await Promise.all([a, b, c]);
    expect(spy.mock.calls.filter(([, mode]) => mode === 'readwrite')).toHaveLength(1);
    const calls = await db.getAll('statsToolCalls');
    expect(calls.map((r) => r.ts)).toEqual([NOW]);
    expect((await db.getAll('statsModelRequests')).map((r) => r.ts)).toEqual([NOW + 7]);
    // Another store over the same database sees them.
    expect((await stats.computeStats({ period: 'day', now: t })).total_calls).toBe(1);
  });

  it('a read writes what waits first: ot.stats right after a call counts it', async () => {
    const { db } = await fixture();
    const delayed = new StatsStore(db, { now: () => NOW, flushDelayMs: 60_000 });
    void delayed.recordToolCall({ tool: 'tabs.list', durationMs: 3, success: true, charsIn: 0, charsOut: 10 });
    const report = await delayed.computeStats({ period: 'day', now: NOW });
    expect(report.total_calls).toBe(1);
    expect(report.tools.map((r) => r.tool)).toEqual(['tabs.list']);
  });

  it('a failed write rejects every record that waited for it, and the next flush goes ahead', async () => {
    const { db } = await fixture();
    const delayed = new StatsStore(db, { now: () => NOW, flushDelayMs: 10 });
    const original = db.transaction.bind(db);
    const spy = vi.spyOn(db, 'transaction').mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const a = delayed.recordToolCall({ tool: 'a.b', durationMs: 1, success: true, charsIn: 0, charsOut: 0 });
    const b = delayed.recordToolCall({ tool: 'c.d', durationMs: 1, success: true, charsIn: 0, charsOut: 0 });
    await expect(a).rejects.toThrow(/quota/);
    await expect(b).rejects.toThrow(/quota/);
    spy.mockImplementation(original as never);
    await delayed.recordToolCall({ tool: 'e.f', durationMs: 1, success: true, charsIn: 0, charsOut: 0 });
    expect((await db.getAll('statsToolCalls')).map((r) => r.tool)).toEqual(['e.f']);
  });
});
