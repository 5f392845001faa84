/**
 * Code mode: `ot.run` runs a command-language program with every call through the interceptor, returns only the last
 * value, records the round trips avoided and characters kept out; `modeDefinitions` gives the model the right tools
 * for config `agent.mode`. Approval of the calls inside a program is the agent's (test/agent/callTarget.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { otFixture, realStores, tool } from './otSupport.ts';
import { z } from '../../src/shared/zod.ts';
import { CommandError } from '../../src/command/index.ts';
import { CODE_TOOL_DESCRIPTION } from '../../src/tools/packs/ot/index.ts';
import { modeDefinitions, packSummary } from '../../src/background/codeMode.ts';
import type { SavingInput } from '../../src/storage/statsStore.ts';
import type { OtStores } from '../../src/tools/packs/ot/index.ts';

function withSavings(stores: OtStores): { stores: OtStores; savings: SavingInput[] } {
  const savings: SavingInput[] = [];
  return {
    savings,
    stores: {
      ...stores,
      recordSaving: async (s) => {
        savings.push(s);
        await stores.recordSaving(s);
      },
    },
  };
}

describe('ot.run (code mode)', () => {
  it('runs a chain in one call and returns only the last value, formatted', async () => {
    const { stores, savings } = withSavings(realStores().stores);
    const f = otFixture({}, { stores });
    const out = await f.call('ot.run', { code: 'a = demo.foo(n=3)\nb = demo.bar(n=4)\n{"a": a, "b": b}' });
    expect(out).toBe('a: {foo: 3}\nb: bar:4');
    expect(savings).toHaveLength(1);
    expect(savings[0]).toMatchObject({ source: 'code_mode', tool: 'ot.run', roundTripsAvoided: 1 });
  });

  it('every call goes through the interceptor (validation, logging); results passed on lose _execution_metadata', async () => {
    const seen: unknown[] = [];
    const f = otFixture();
    f.registry.registerPack({ name: 'spy' }, [
      tool('spy', 'take', 'Records its input', {
        parameters: z.object({ input: z.unknown() }),
        execute: (a: { input: unknown }) => {
          seen.push(a.input);
          return 'taken';
        },
      } as never),
    ]);
    expect(await f.call('ot.run', { code: 'spy.take(input=demo.foo(n=1))' })).toBe('taken');
    expect(seen).toEqual([{ foo: 1 }]);
    const lines = f.logger
      .entries()
      .map((e) => e.msg)
      .filter((m) => m.startsWith('[TOOL EXECUTION] Starting'));
    expect(lines).toEqual([
      '[TOOL EXECUTION] Starting ot.run',
      '[TOOL EXECUTION] Starting demo.foo',
      '[TOOL EXECUTION] Starting spy.take',
    ]);
    // Validation applies inside programs too.
    await expect(f.call('ot.run', { code: 'demo.foo(n="x")' })).rejects.toThrow(
      /ot\.run, line 1, column 1: demo\.foo failed: Parameter n must be an integer/,
    );
  });

  it('records round trips avoided (calls − 1) and characters kept out (all call output − returned output)', async () => {
    const { stores, savings } = withSavings(realStores().stores);
    const f = otFixture({}, { stores });
    f.registry.registerPack({ name: 'big' }, [
      tool('big', 'text', 'Lots of text', { execute: () => 'x'.repeat(5000) }),
      tool('big', 'count', 'Counts characters', {
        parameters: z.object({ input: z.string() }),
        execute: (a: { input: string }) => String(a.input.length),
      } as never),
    ]);
    expect(await f.call('ot.run', { code: 'big.count(input=big.text())' })).toBe('5000');
    expect(savings).toEqual([
      { source: 'code_mode', tool: 'ot.run', roundTripsAvoided: 1, charsKeptOut: 5000 + 4 - 4 },
    ]);
    // A single call avoids nothing.
    await f.call('ot.run', { code: 'big.count(input="abc")' });
    expect(savings[1]).toMatchObject({ roundTripsAvoided: 0, charsKeptOut: 0 });
  });

  it('feeds ot.stats: round trips avoided and characters kept out become time_saved_ms and context_saved', async () => {
    const s = realStores();
    await s.stats.recordModelRequest({ model: 'gpt-test', inputTokens: 10, outputTokens: 5, latencyMs: 1000 });
    const f = otFixture({}, { stores: s.stores });
    f.registry.registerPack({ name: 'big' }, [
      tool('big', 'text', 'Lots of text', { execute: () => 'y'.repeat(4000) }),
    ]);
    await f.call('ot.run', { code: 't = big.text()\nu = big.text()\ndemo.bar(n=1)' });
    const r = parse((await f.call('ot.stats')) as string) as { context_saved: number; time_saved_ms: number };
    expect(r.context_saved).toBe(Math.round((8000 - 0) / 4));
    expect(r.time_saved_ms).toBeGreaterThan(0);
  });

  it('records nothing with stats disabled', async () => {
    const { stores, savings } = withSavings(realStores().stores);
    const f = otFixture({ stats: { enabled: false } }, { stores });
    await f.call('ot.run', { code: 'demo.foo(n=1)\ndemo.foo(n=2)' });
    expect(savings).toEqual([]);
  });

  it('errors name the line and column; an unknown tool stops the program before anything runs', async () => {
    const f = otFixture();
    const ran: string[] = [];
    f.registry.registerPack({ name: 'log' }, [tool('log', 'mark', 'Marks', { execute: () => ran.push('x') })]);
    const err = await f.call('ot.run', { code: 'log.mark()\nlog.nope()' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).message).toBe(
      'ot.run, line 2, column 1: unknown tool \'log.nope\'; search with ot.help(query="log.nope")',
    );
    expect(ran).toEqual([]);
    await expect(f.call('ot.run', { code: 'demo.foo(n=1' })).rejects.toThrow(/^ot\.run, line 1, column 13: /);
  });

  it('accepts aliases and $snippets from config, and can use the discovery tools', async () => {
    const f = otFixture({
      aliases: { df: 'demo.foo' },
      snippets: { twice: { params: { n: { default: 2 } }, body: 'demo.bar(n={{ n }})' } },
    });
    expect(await f.call('ot.run', { code: 'df(n=7)' })).toBe('{foo: 7}');
    expect(await f.call('ot.run', { code: '$twice n=9' })).toBe('bar:9');
    expect(await f.call('ot.run', { code: 'ot.tools(pattern="demo", info="list")' })).toBe('[demo.bar, demo.foo]');
  });

  it('JSON output with output.format json', async () => {
    const f = otFixture({ output: { format: 'json' } });
    expect(await f.call('ot.run', { code: '[demo.foo(n=1), 2]' })).toBe('[{"foo":1},2]');
  });
});

describe('modeDefinitions (config agent.mode)', () => {
  const f = otFixture();
  const names = (defs: { function: { name: string } }[]) => defs.map((d) => d.function.name);

  it('tools: tool_set all sends every tool except ot.run', () => {
    const defs = modeDefinitions(f.registry, 'tools', 'all');
    expect(names(defs)).not.toContain('ot__run');
    expect(defs).toHaveLength(f.registry.size - 1);
  });

  it("tools: the default tool set keeps Otto's other tools for ot.help + ot.call, sends other packs whole, and speaks in wire names", () => {
    const defs = modeDefinitions(f.registry, 'tools');
    const sent = names(defs);
    expect(sent).toEqual(
      expect.arrayContaining(['ot__help', 'ot__call', 'ot__result', 'brave__search', 'github__search']),
    );
    expect(sent).not.toContain('ot__run');
    expect(sent).not.toContain('ot__stats');
    expect(sent).not.toContain('web__fetch');
    const call = defs.find((d) => d.function.name === 'ot__call')!;
    // Descriptions name tools as the model calls them; ot.call's lists the tools of Otto's packs not sent (#43).
    expect(call.function.description).toContain('ot__call(tool=');
    expect(call.function.description).toContain("\nweb__fetch(url): a URL's content without a tab");
    expect(call.function.description).not.toMatch(/\bot\.call\b/);
  });

  it('code: only ot.run, its description listing the packs and how to discover the rest', () => {
    const defs = modeDefinitions(f.registry, 'code');
    expect(names(defs)).toEqual(['ot__run']);
    const description = defs[0]!.function.description;
    expect(description.startsWith(CODE_TOOL_DESCRIPTION)).toBe(true);
    expect(description).toContain('ot.help(query="...")');
    expect(description).toContain('- brave: search, web_search');
    expect(description).toContain('- ot: aliases, call, config, health, help, notify, packs, reload, … (15 tools)');
    expect(defs[0]!.function.parameters).toMatchObject({ type: 'object', required: ['code'] });
    // The registry's own definition is not changed.
    expect(f.registry.definitions((_t, q) => q === 'ot.run')[0]!.function.description).toBe(CODE_TOOL_DESCRIPTION);
  });

  it('both: every tool plus ot.run', () => {
    const defs = modeDefinitions(f.registry, 'both');
    expect(defs).toHaveLength(f.registry.size);
    expect(names(defs)).toContain('ot__run');
    expect(packSummary(f.registry).split('\n')).toHaveLength(f.registry.packs().length + 1);
  });
});
