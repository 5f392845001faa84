/** docs/specs/004-tool-sdk.md "Pack Access" and "Tool Invocation": getPack, callTool, with the reference's errors. */
import { describe, expect, it } from 'vitest';
import { callTool, getPack, sdk } from '../../src/sdk/index.ts';
import { harness, recordingTool } from './helpers.ts';

function llmHarness(seen: unknown[]) {
  return harness({
    config: { transform: { model: 'gpt-transform' } },
    secrets: { OPENAI_API_KEY: 'sk-test-123' },
    register: (r) => {
      r.registerPack({ name: 'llm' }, [
        recordingTool('llm', 'transform', seen),
        recordingTool('llm', 'classify', seen),
      ]);
    },
  });
}

describe('Requirement: Pack Access', () => {
  it('Scenario: Retrieve pack proxy — callable methods that pass config and secrets to the tool', async () => {
    const seen: unknown[] = [];
    const h = llmHarness(seen);
    const llm = sdk(h.ctx).getPack('llm');
    expect(llm).toBeDefined();
    expect(Object.keys(llm!).sort()).toEqual(['classify', 'transform']);
    expect(await llm!.transform!({ input: 'hello', prompt: 'summarize' })).toBe('summarize: hello');
    // The tool saw the caller's config and secrets.
    expect(seen).toEqual([
      { args: { input: 'hello', prompt: 'summarize' }, model: 'gpt-transform', key: 'sk-test-123' },
    ]);
    // ... and the call went through the interceptor (recorded for statistics).
    expect(h.records.map((r) => [r.tool, r.success])).toEqual([['llm.transform', true]]);
  });

  it('Scenario: Pack not found — getPack("nonexistent") is undefined', () => {
    const h = llmHarness([]);
    expect(getPack(h.ctx, 'nonexistent')).toBeUndefined();
    expect(sdk(h.ctx).getPack('nonexistent')).toBeUndefined();
  });

  it('pack methods take keyword arguments as one object; positional arguments are a TypeError', async () => {
    const h = llmHarness([]);
    const llm = sdk(h.ctx).getPack('llm')!;
    const positional = llm.transform as unknown as (...a: unknown[]) => Promise<unknown>;
    await expect(positional('hello', 'summarize')).rejects.toThrow(TypeError);
    await expect(positional('hello')).rejects.toThrow(/keyword arguments only/);
  });

  it('a pack proxy validates through the interceptor: a missing argument is the reference message', async () => {
    const h = llmHarness([]);
    await expect(sdk(h.ctx).getPack('llm')!.transform!({ input: 'x' })).rejects.toThrow(
      'Missing required parameter: prompt',
    );
  });
});

describe('Requirement: Tool Invocation', () => {
  it('Scenario: Call tool successfully — callTool("llm.transform", {input, prompt}) returns the result', async () => {
    const seen: unknown[] = [];
    const h = llmHarness(seen);
    expect(await callTool(h.ctx, 'llm.transform', { input: 'hello', prompt: 'summarize' })).toBe('summarize: hello');
    expect(await sdk(h.ctx).callTool('llm.transform', { input: 'a', prompt: 'b' })).toBe('b: a');
    expect(seen).toHaveLength(2);
  });

  it('Scenario: Pack not found error — "Pack not found: nonexistent"', async () => {
    const h = llmHarness([]);
    await expect(callTool(h.ctx, 'nonexistent.foo', { arg: 'value' })).rejects.toThrow(
      new Error('Pack not found: nonexistent'),
    );
  });

  it("the reference's other errors: no pack prefix, unknown function with the available ones", async () => {
    const h = llmHarness([]);
    await expect(callTool(h.ctx, 'transform', {})).rejects.toThrow(
      "Tool name must include pack prefix (e.g., 'pack.function'), got: transform",
    );
    await expect(callTool(h.ctx, 'llm.nope', {})).rejects.toThrow(
      "Function 'nope' not found in pack 'llm'. Available: classify, transform",
    );
  });

  it('callTool with positional arguments is a TypeError', async () => {
    const h = llmHarness([]);
    const call = callTool as unknown as (...a: unknown[]) => Promise<unknown>;
    await expect(call(h.ctx, 'llm.transform', 'hello', 'summarize')).rejects.toThrow(TypeError);
    await expect(call(h.ctx, 'llm.transform', 'hello')).rejects.toThrow(TypeError);
  });

  it('without a registry in the context the SDK says what is missing', async () => {
    const h = llmHarness([]);
    const bare = { ...h.ctx, registry: undefined };
    await expect(callTool(bare, 'llm.transform', {})).rejects.toThrow(
      'The Otto SDK has no tool registry: call it with a tool context that carries one (ctx.registry), or pass {registry}',
    );
    // An explicit registry works for a context without one.
    expect(sdk(bare, { registry: h.registry }).getPack('llm')).toBeDefined();
  });
});
