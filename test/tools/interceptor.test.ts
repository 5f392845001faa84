// docs/specs/003-tool-interceptor.md (tool-execution interceptor), requirement by requirement, translated to Otto's
// TypeScript tools.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { z } from '../../src/shared/zod.ts';
import type { ToolContext, Conveniences } from '../../src/tools/Tool.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolInterceptor, formatArguments, isSensitiveKey, type ToolCallRecord } from '../../src/tools/interceptor.ts';
import { ToolValidationError } from '../../src/tools/validate.ts';
import { makeCtx, newLogger, toolLines } from './helpers.ts';

type Meta = { duration_ms: number; tool_name: string; timestamp: string; [k: string]: unknown };
const metaOf = (r: unknown): Meta => (r as { _execution_metadata: Meta })._execution_metadata;

/** A raw core tool: a plain object with a schema and execute — no logging, validation or metadata of its own. */
function searchTool(execute?: (args: { query: string; limit: number }) => unknown) {
  const calls: unknown[] = [];
  const tool = defineTool({
    pack: 'web',
    name: 'search',
    description: 'Search the web',
    parameters: z.object({ query: z.string(), limit: z.number().int().default(5) }),
    effect: 'reads',
    execute: (args) => {
      calls.push(args);
      return execute ? execute(args) : { results: [`about ${args.query}`], count: args.limit };
    },
  });
  return { tool, calls };
}

/** A fixed clock: start at 1000 ms, every later read +12.3456 ms, so durations are exactly predictable. */
function steppingClock(step = 12.3456) {
  let t = 1000;
  let first = true;
  return () => {
    if (first) {
      first = false;
      return t;
    }
    return (t += step);
  };
}

afterEach(() => vi.restoreAllMocks());

describe('Seed 003 user stories', () => {
  it('Story 1: a raw tool gets validation, logging and metadata automatically', async () => {
    const logger = newLogger();
    const interceptor = new ToolInterceptor({ logger });
    const { tool, calls } = searchTool();

    const result = await interceptor.execute(tool, { query: 'ruby news' }, makeCtx());

    expect(calls).toEqual([{ query: 'ruby news', limit: 5 }]); // validated, default applied
    expect(toolLines(logger)).toEqual([
      '[TOOL EXECUTION] Starting web.search',
      '[TOOL EXECUTION] Arguments: query: ruby news',
      expect.stringMatching(/^\[TOOL EXECUTION\] Completed web\.search \(\d+(\.\d{1,2})?ms\)$/),
    ]);
    expect(result).toMatchObject({ results: ['about ruby news'], count: 5 });
    expect(metaOf(result).tool_name).toBe('web.search');
    await expect(interceptor.execute(tool, { query: 42 }, makeCtx())).rejects.toThrow(
      'Parameter query must be a string',
    );
  });

  it('Story 2: a change to the interceptor applies to every tool at once', async () => {
    const a = searchTool().tool;
    const b = defineTool({
      pack: 'tabs',
      name: 'list',
      description: 'List tabs',
      parameters: z.object({}),
      effect: 'reads',
      execute: () => ({ tabs: [] }),
    });
    const on = new ToolInterceptor({ logger: newLogger() });
    const off = new ToolInterceptor({ logger: newLogger(), config: { enable_metadata: false } });
    for (const tool of [a, b]) {
      const args = tool === a ? { query: 'x' } : {};
      expect(metaOf(await on.execute(tool, args, makeCtx()))).toBeDefined();
      expect(await off.execute(tool, args, makeCtx())).not.toHaveProperty('_execution_metadata');
    }
  });

  it('Story 3: a tool with only execute works standalone and through the interceptor', async () => {
    const { tool } = searchTool();
    const ctx = makeCtx();
    const direct = await tool.execute({ query: 'q', limit: 2 }, ctx);
    expect(direct).toEqual({ results: ['about q'], count: 2 });
    const wrapped = await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q', limit: 2 }, ctx);
    expect(wrapped).toMatchObject({ results: ['about q'], count: 2 });
    expect(metaOf(wrapped)).toBeDefined();
  });
});

describe('2.1 parameter validation', () => {
  it('2.1 a missing required parameter is refused with "Missing required parameter: <p>" and the tool does not run', async () => {
    const { tool, calls } = searchTool();
    const err = await new ToolInterceptor({ logger: newLogger() })
      .execute(tool, {}, makeCtx())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolValidationError);
    expect((err as Error).message).toBe('Missing required parameter: query');
    expect(calls).toHaveLength(0);
  });

  const schema = z.object({
    s: z.string(),
    i: z.number().int(),
    n: z.number(),
    a: z.array(z.string()),
    o: z.object({}),
    b: z.boolean(),
  });
  const valid = { s: 'x', i: 1, n: 1.5, a: ['x'], o: {}, b: true };
  it.each([
    ['s', 5, 'Parameter s must be a string'],
    ['i', 1.5, 'Parameter i must be an integer'],
    ['n', '1', 'Parameter n must be a number'],
    ['a', 'x', 'Parameter a must be an array'],
    ['o', [], 'Parameter o must be an object'],
    ['b', 'true', 'Parameter b must be a boolean'],
  ])('2.1 a wrong type for %s (%j) is refused with the reference message', async (key, value, message) => {
    const tool = defineTool({
      pack: 't',
      name: 'types',
      description: '',
      parameters: schema,
      effect: 'reads',
      execute: () => 'ran',
    });
    await expect(
      new ToolInterceptor({ logger: newLogger() }).execute(tool, { ...valid, [key]: value }, makeCtx()),
    ).rejects.toThrow(new ToolValidationError([message]));
  });

  it('2.1 validated arguments reach execute with zod defaults applied', async () => {
    const { tool, calls } = searchTool();
    await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q' }, makeCtx());
    expect(calls).toEqual([{ query: 'q', limit: 5 }]);
  });

  it('2.1 an argument the tool does not have is an error, never silently dropped (issue #31)', async () => {
    const { tool, calls } = searchTool();
    const padding = 'This is a harmless, routine request. '.repeat(25);
    await expect(
      new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q', note: padding }, makeCtx()),
    ).rejects.toThrow('Unknown parameter: note');
    expect(calls).toEqual([]);
  });

  it('2.1 enable_validation=false passes the arguments through untouched', async () => {
    const { tool, calls } = searchTool();
    const args = { query: 42 };
    await new ToolInterceptor({ logger: newLogger(), config: { enable_validation: false } }).execute(
      tool,
      args,
      makeCtx(),
    );
    expect(calls[0]).toBe(args);
  });
});

describe('2.2 / 2.3 before execution', () => {
  it('2.2 start and arguments are logged in the reference format, each value cut to truncate_logs characters', async () => {
    const logger = newLogger();
    const { tool } = searchTool();
    await new ToolInterceptor({ logger, config: { truncate_logs: 10 } }).execute(
      tool,
      { query: 'abcdefghijklmnopqrstuvwxyz', limit: 3 },
      makeCtx(),
    );
    const lines = toolLines(logger);
    expect(lines[0]).toBe('[TOOL EXECUTION] Starting web.search');
    expect(lines[1]).toBe('[TOOL EXECUTION] Arguments: query: abcdefg..., limit: 3');
    expect(logger.entries()[0]!.level).toBe('debug'); // the reference logs these at debug
  });

  it('2.2 log_arguments=false logs the start but not the arguments', async () => {
    const logger = newLogger();
    await new ToolInterceptor({ logger, config: { log_arguments: false } }).execute(
      searchTool().tool,
      { query: 'q' },
      makeCtx(),
    );
    expect(toolLines(logger).some((l) => l.includes('Arguments'))).toBe(false);
    expect(toolLines(logger)[0]).toBe('[TOOL EXECUTION] Starting web.search');
  });

  it('2.2 password-like arguments are never logged', async () => {
    const logger = newLogger();
    const tool = defineTool({
      pack: 'dom',
      name: 'type',
      description: '',
      parameters: z.object({ ref: z.string(), password: z.string() }),
      effect: 'changes',
      execute: () => 'ok',
    });
    await new ToolInterceptor({ logger }).execute(tool, { ref: 'e1', password: 'hunter2' }, makeCtx());
    const text = JSON.stringify(logger.entries());
    expect(text).not.toContain('hunter2');
    expect(toolLines(logger)[1]).toBe('[TOOL EXECUTION] Arguments: ref: e1, password: [redacted]');
  });

  it('2.2 hides secret-named keys by their words, and shows harmless keys that only contain such letters', () => {
    for (const key of [
      'password',
      'api_key',
      'apiKey',
      'X-Api-Key',
      'client_secret',
      'accessToken',
      'Authorization',
      'private_key',
    ])
      expect(isSensitiveKey(key), key).toBe(true);
    for (const key of ['max_tokens', 'passage', 'keyboard', 'bypass_cache', 'author', 'keys', 'prompt'])
      expect(isSensitiveKey(key), key).toBe(false);
    expect(formatArguments({ max_tokens: 800, api_key: 'abc' }, 100)).toBe('max_tokens: 800, api_key: [redacted]');
  });

  it('2.3 the timer is high-resolution (performance.now, not Date)', async () => {
    const spy = vi.spyOn(performance, 'now');
    await new ToolInterceptor({ logger: newLogger() }).execute(searchTool().tool, { query: 'q' }, makeCtx());
    expect(spy).toHaveBeenCalled();
  });
});

describe('3 after execution', () => {
  it('3.1 duration is in milliseconds rounded to 2 decimals, the same in the log and the metadata', async () => {
    const logger = newLogger();
    const result = await new ToolInterceptor({ logger, clock: steppingClock() }).execute(
      searchTool().tool,
      { query: 'q' },
      makeCtx(),
    );
    expect(metaOf(result).duration_ms).toBe(12.35);
    expect(toolLines(logger)).toContain('[TOOL EXECUTION] Completed web.search (12.35ms)');
  });

  it('3.1 a real wait is measured', async () => {
    const { tool } = searchTool(async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { ok: true };
    });
    const meta = metaOf(await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q' }, makeCtx()));
    expect(meta.duration_ms).toBeGreaterThanOrEqual(25);
    expect(meta.duration_ms).toBe(Math.round(meta.duration_ms * 100) / 100);
  });

  it('3.2 a result with success=false is logged as Failed with its error', async () => {
    const logger = newLogger();
    const { tool } = searchTool(() => ({ success: false, error: 'quota exceeded' }));
    await new ToolInterceptor({ logger, clock: steppingClock(1) }).execute(tool, { query: 'q' }, makeCtx());
    expect(toolLines(logger)).toContain('[TOOL EXECUTION] Failed web.search (1ms): quota exceeded');
  });

  it('#45: an `Error: …` text is a failure: logged Failed with its message, recorded as ResultError', async () => {
    const logger = newLogger();
    const records: ToolCallRecord[] = [];
    const { tool } = searchTool(() => 'Error: Result expired: 0123456789ab');
    const interceptor = new ToolInterceptor({ logger, clock: steppingClock(1), onRecord: (r) => records.push(r) });
    expect(await interceptor.execute(tool, { query: 'q' }, makeCtx())).toBe('Error: Result expired: 0123456789ab');
    expect(toolLines(logger)).toContain('[TOOL EXECUTION] Failed web.search (1ms): Result expired: 0123456789ab');
    expect(toolLines(logger).some((l) => l.startsWith('[TOOL EXECUTION] Completed'))).toBe(false);
    expect(records).toEqual([
      { tool: 'web.search', durationMs: 1, success: false, errorType: 'ResultError', charsIn: 13, charsOut: 35 },
    ]);
  });

  it('3.3 metadata has duration_ms, tool_name and an ISO 8601 timestamp, and the result keeps its structure', async () => {
    const before = Date.now();
    const result = (await new ToolInterceptor({ logger: newLogger() }).execute(
      searchTool().tool,
      { query: 'q' },
      makeCtx(),
    )) as Record<string, unknown>;
    const meta = metaOf(result);
    expect(Object.keys(result)).toEqual(['results', 'count', '_execution_metadata']);
    expect(typeof meta.duration_ms).toBe('number');
    expect(meta.tool_name).toBe('web.search');
    expect(new Date(meta.timestamp).toISOString()).toBe(meta.timestamp);
    expect(Date.parse(meta.timestamp)).toBeGreaterThanOrEqual(before - 1);
  });

  it("3.3 the tool's own result object is not mutated (a new object is returned)", async () => {
    const shared = Object.freeze({ value: 1 });
    const { tool } = searchTool(() => shared);
    const result = await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q' }, makeCtx());
    expect(result).not.toBe(shared);
    expect(shared).toEqual({ value: 1 });
    expect(metaOf(result)).toBeDefined();
  });

  it('3.3 metadata merges into an existing _execution_metadata', async () => {
    const { tool } = searchTool(() => ({ data: 1, _execution_metadata: { source: 'cache', tool_name: 'old' } }));
    const result = await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q' }, makeCtx());
    expect(metaOf(result)).toMatchObject({ source: 'cache', tool_name: 'web.search' });
    expect(metaOf(result).duration_ms).toEqual(expect.any(Number));
  });

  it.each([
    ['a string', 'plain text'],
    ['an array', [1, 2]],
    ['null', null],
    ['undefined', undefined],
    ['a class instance', new Map([[1, 2]])],
  ])('3.3 a non-object result (%s) is returned as is', async (_label, value) => {
    const { tool } = searchTool(() => value);
    expect(await new ToolInterceptor({ logger: newLogger() }).execute(tool, { query: 'q' }, makeCtx())).toBe(value);
  });

  it('3.3 enable_metadata=false adds no metadata', async () => {
    const result = await new ToolInterceptor({ logger: newLogger(), config: { enable_metadata: false } }).execute(
      searchTool().tool,
      { query: 'q' },
      makeCtx(),
    );
    expect(result).toEqual({ results: ['about q'], count: 5 });
  });

  it('3.4 an error is logged with its message and the first 5 stack lines, then the same error is rethrown', async () => {
    const logger = newLogger();
    const boom = new Error('network down');
    boom.stack = [
      'Error: network down',
      ...Array.from({ length: 8 }, (_, i) => `    at frame${i} (file.ts:${i}:1)`),
    ].join('\n');
    const { tool } = searchTool(() => {
      throw boom;
    });
    await expect(new ToolInterceptor({ logger }).execute(tool, { query: 'q' }, makeCtx())).rejects.toBe(boom);
    const errors = logger.entries({ level: 'error' }).map((e) => e.msg);
    expect(errors[0]).toBe('[TOOL EXECUTION] Error in web.search: network down');
    expect(errors[1]).toBe(
      `[TOOL EXECUTION] Stack trace: ${Array.from({ length: 5 }, (_, i) => `at frame${i} (file.ts:${i}:1)`).join('\n')}`,
    );
    expect(toolLines(logger).some((l) => l.startsWith('[TOOL EXECUTION] Completed'))).toBe(false);
  });

  it('3.4 a thrown non-Error value is logged and rethrown unchanged', async () => {
    const logger = newLogger();
    const { tool } = searchTool(() => Promise.reject('plain string'));
    await expect(new ToolInterceptor({ logger }).execute(tool, { query: 'q' }, makeCtx())).rejects.toBe('plain string');
    expect(toolLines(logger)).toContain('[TOOL EXECUTION] Error in web.search: plain string');
  });

  it('3.4 a validation failure is logged as an error too', async () => {
    const logger = newLogger();
    await expect(new ToolInterceptor({ logger }).execute(searchTool().tool, {}, makeCtx())).rejects.toThrow(
      ToolValidationError,
    );
    expect(toolLines(logger)[0]).toBe('[TOOL EXECUTION] Error in web.search: Missing required parameter: query');
  });
});

describe('4 configuration', () => {
  it('4 config defaults are validation, logging, metadata and arguments on, truncate_logs 100 (as in the config schema)', () => {
    const expected = {
      enable_validation: true,
      enable_logging: true,
      enable_metadata: true,
      log_arguments: true,
      truncate_logs: 100,
    };
    expect(new ToolInterceptor().config).toEqual(expected);
    expect(DEFAULT_CONFIG.tool_execution).toEqual(expected);
    expect(ToolInterceptor.fromConfig(DEFAULT_CONFIG).config).toEqual(expected);
  });

  it("4 config immutability: settings are frozen and later changes to the caller's object have no effect", async () => {
    const settings = { enable_metadata: true };
    const interceptor = new ToolInterceptor({ config: settings, logger: newLogger() });
    settings.enable_metadata = false;
    expect(Object.isFrozen(interceptor.config)).toBe(true);
    expect(() => {
      (interceptor.config as { enable_logging: boolean }).enable_logging = false;
    }).toThrow(TypeError);
    expect(metaOf(await interceptor.execute(searchTool().tool, { query: 'q' }, makeCtx()))).toBeDefined();
  });

  it('4 an invalid setting is refused with a clear error', () => {
    expect(() => new ToolInterceptor({ config: { truncate_logs: 0 } })).toThrow(
      /Invalid tool_execution config: truncate_logs/,
    );
    expect(() => new ToolInterceptor({ config: { bogus: true } as never })).toThrow(/Invalid tool_execution config/);
  });

  it('4 enable_logging=false writes no [TOOL EXECUTION] lines, even on error', async () => {
    const logger = newLogger();
    const interceptor = new ToolInterceptor({ logger, config: { enable_logging: false } });
    await interceptor.execute(searchTool().tool, { query: 'q' }, makeCtx());
    await interceptor
      .execute(searchTool(() => Promise.reject(new Error('x'))).tool, { query: 'q' }, makeCtx())
      .catch(() => undefined);
    expect(toolLines(logger)).toEqual([]);
  });
});

describe('5 backward compatibility', () => {
  /** A tool that already validates, logs, times and annotates itself, and says so (seed 003, 5.1). */
  const selfServiceTool = (conveniences: Conveniences) => {
    const seen: unknown[] = [];
    const tool = defineTool({
      pack: 'legacy',
      name: 'wrapped',
      description: 'A wrapper that already validates, logs, times and annotates',
      parameters: z.object({ n: z.number() }),
      effect: 'reads',
      conveniences,
      execute(args: { n: number }, ctx: ToolContext) {
        seen.push(args);
        ctx.logger.debug('[LEGACY] wrapped ran');
        return { n: args.n, _execution_metadata: { duration_ms: 7, source: 'self' } };
      },
    });
    return { tool, seen };
  };

  it('5.1 a tool that declares its own conveniences is not double-logged, double-validated or re-annotated', async () => {
    const logger = newLogger();
    const { tool, seen } = selfServiceTool({ validation: true, logging: true, metadata: true, timing: true });
    const raw = { n: 'not a number' };
    const result = await new ToolInterceptor({ logger }).execute(tool, raw, makeCtx({ logger }));
    expect(seen[0]).toBe(raw); // its own validation gets what was sent
    expect(toolLines(logger)).toEqual([]);
    expect(logger.entries().map((e) => e.msg)).toEqual(['[LEGACY] wrapped ran']);
    expect(metaOf(result)).toEqual({ duration_ms: 7, source: 'self' });
  });

  it('5.1 declaring only some conveniences keeps the others: timing kept, metadata merged, logging added', async () => {
    const logger = newLogger();
    const { tool } = selfServiceTool({ timing: true });
    const result = await new ToolInterceptor({ logger }).execute(tool, { n: 1 }, makeCtx());
    expect(metaOf(result)).toMatchObject({ duration_ms: 7, source: 'self', tool_name: 'legacy.wrapped' });
    expect(toolLines(logger)[0]).toBe('[TOOL EXECUTION] Starting legacy.wrapped');
    await expect(new ToolInterceptor({ logger }).execute(tool, { n: 'x' }, makeCtx())).rejects.toThrow(
      'Parameter n must be a number',
    );
  });

  it('5.3 calling a tool directly (outside the interceptor) gets no conveniences', async () => {
    const { tool } = searchTool();
    const ctx = makeCtx();
    const result = await tool.execute({ query: 'q', limit: 1 }, ctx);
    expect(result).not.toHaveProperty('_execution_metadata');
    expect(ctx.logger.entries()).toEqual([]);
  });
});

describe('Technical constraints', () => {
  it('Thread safety: 100 concurrent calls share no state', async () => {
    const logger = newLogger();
    const shared = { tag: 'shared' };
    const tool = defineTool({
      pack: 'calc',
      name: 'echo',
      description: '',
      parameters: z.object({ i: z.number().int(), wait: z.number() }),
      effect: 'reads',
      execute: async ({ i, wait }) => {
        await new Promise((r) => setTimeout(r, wait));
        return i % 2 === 0 ? shared : { i };
      },
    });
    const interceptor = new ToolInterceptor({ logger });
    const waits = Array.from({ length: 100 }, (_, i) => (i * 37) % 23);
    const results = (await Promise.all(
      waits.map((wait, i) => interceptor.execute(tool, { i, wait }, makeCtx())),
    )) as Record<string, unknown>[];

    results.forEach((result, i) => {
      expect(metaOf(result).tool_name).toBe('calc.echo');
      expect(metaOf(result).duration_ms).toBeGreaterThanOrEqual(waits[i]! - 2);
      if (i % 2 === 1) expect(result.i).toBe(i);
    });
    expect(new Set(results).size).toBe(100); // every caller got its own object, even for the shared result
    expect(shared).toEqual({ tag: 'shared' });
    const lines = toolLines(logger);
    expect(lines.filter((l) => l.startsWith('[TOOL EXECUTION] Starting')).length).toBe(100);
    expect(lines.filter((l) => l.startsWith('[TOOL EXECUTION] Completed')).length).toBe(100);
    for (let i = 0; i < 100; i++) expect(lines).toContain(`[TOOL EXECUTION] Arguments: i: ${i}, wait: ${waits[i]}`);
  });

  it('Performance: interceptor overhead stays under 1 ms per call with everything on', async () => {
    const { tool } = searchTool();
    const interceptor = new ToolInterceptor({ logger: newLogger() });
    const ctx = makeCtx();
    const n = 2000;
    for (let i = 0; i < 200; i++) await interceptor.execute(tool, { query: 'warm' }, ctx);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await interceptor.execute(tool, { query: `q${i}` }, ctx);
    const wrapped = (performance.now() - t0) / n;
    const t1 = performance.now();
    for (let i = 0; i < n; i++) await tool.execute({ query: `q${i}`, limit: 5 }, ctx);
    const direct = (performance.now() - t1) / n;
    expect(wrapped - direct).toBeLessThan(1);
  });
});

describe('Hooks', () => {
  it('Stats hook: onRecord gets tool, duration, success, error type and chars in/out for every call', async () => {
    const records: ToolCallRecord[] = [];
    const interceptor = new ToolInterceptor({
      logger: newLogger(),
      onRecord: (r) => records.push(r),
      clock: steppingClock(2),
    });
    await interceptor.execute(searchTool(() => 'abc').tool, { query: 'q' }, makeCtx());
    await interceptor.execute(searchTool().tool, {}, makeCtx()).catch(() => undefined);
    await interceptor.execute(searchTool(() => ({ success: false, error: 'no' })).tool, { query: 'q' }, makeCtx());
    expect(records[0]).toEqual({ tool: 'web.search', durationMs: 2, success: true, charsIn: 13, charsOut: 3 });
    expect(records[1]).toMatchObject({
      tool: 'web.search',
      success: false,
      errorType: 'ToolValidationError',
      charsIn: 2,
      charsOut: 0,
    });
    expect(records[2]).toMatchObject({ success: false, errorType: 'ResultError' });
  });

  it('Stats hook: a failing onRecord never fails the call', async () => {
    const logger = newLogger();
    const interceptor = new ToolInterceptor({
      logger,
      onRecord: () => {
        throw new Error('db closed');
      },
    });
    await expect(interceptor.execute(searchTool().tool, { query: 'q' }, makeCtx())).resolves.toBeDefined();
    expect(logger.entries({ level: 'warn' })[0]!.msg).toContain('Statistics hook failed for web.search: db closed');
  });

  it('Abort: a call whose signal is already aborted never reaches the tool', async () => {
    const { tool, calls } = searchTool();
    const controller = new AbortController();
    controller.abort();
    await expect(
      new ToolInterceptor({ logger: newLogger() }).execute(
        tool,
        { query: 'q' },
        makeCtx({ signal: controller.signal }),
      ),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(calls).toHaveLength(0);
  });

  it('Gate: runs after validation with the parsed arguments; a refusal stops the tool and is recorded', async () => {
    const { tool, calls } = searchTool();
    const records: ToolCallRecord[] = [];
    const interceptor = new ToolInterceptor({ logger: newLogger(), onRecord: (r) => records.push(r) });
    const seen: unknown[] = [];
    await interceptor.execute(tool, { query: 'q' }, makeCtx(), { gate: (_t, args) => void seen.push(args) });
    expect(seen).toEqual([{ query: 'q', limit: 5 }]);
    const denied = Object.assign(new Error('Denied by user'), { name: 'ApprovalDenied' });
    await expect(
      interceptor.execute(tool, { query: 'q' }, makeCtx(), { gate: () => Promise.reject(denied) }),
    ).rejects.toBe(denied);
    expect(calls).toHaveLength(1);
    expect(records[1]).toMatchObject({ success: false, errorType: 'ApprovalDenied' });
  });
});
