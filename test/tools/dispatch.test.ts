// Calling tools by name: every route (qualified, alias, API name, nested ctx.callTool) goes through the interceptor.
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import type { ToolContext } from '../../src/tools/Tool.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { createToolCaller, UnknownToolError } from '../../src/tools/dispatch.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { makeCtx, newLogger, toolLines } from './helpers.ts';

function setup() {
  const registry = new ToolRegistry();
  const upper = defineTool({
    pack: 'text',
    name: 'upper',
    description: 'Upper-case a string',
    parameters: z.object({ s: z.string() }),
    effect: 'reads',
    execute: ({ s }) => ({ value: s.toUpperCase() }),
  });
  const shout = defineTool({
    pack: 'text',
    name: 'shout',
    description: 'Upper-case and add !, via text.upper',
    parameters: z.object({ s: z.string() }),
    effect: 'reads',
    execute: async ({ s }, ctx) => {
      const inner = (await ctx.callTool('text.upper', { s })) as { value: string };
      return { value: `${inner.value}!`, innerHadMetadata: '_execution_metadata' in inner };
    },
  });
  registry.registerPack({ name: 'text' }, [upper, shout]);
  registry.setAliases({ up: 'text.upper' });
  const logger = newLogger();
  const call = createToolCaller(registry, new ToolInterceptor({ logger }));
  const ctx: ToolContext = makeCtx({ callTool: (name, args) => call(name, args, ctx) });
  return { call, ctx, logger };
}

describe('createToolCaller', () => {
  it('resolves qualified names, aliases and API names, always through the interceptor', async () => {
    const { call, ctx, logger } = setup();
    for (const name of ['text.upper', 'up', 'text__upper']) {
      expect(await call(name, { s: 'a' }, ctx)).toMatchObject({
        value: 'A',
        _execution_metadata: { tool_name: 'text.upper' },
      });
    }
    expect(toolLines(logger).filter((l) => l === '[TOOL EXECUTION] Starting text.upper')).toHaveLength(3);
    await expect(call('up', {}, ctx)).rejects.toThrow('Missing required parameter: s');
  });

  it('nested ctx.callTool goes through the interceptor too', async () => {
    const { call, ctx, logger } = setup();
    expect(await call('text.shout', { s: 'hi' }, ctx)).toMatchObject({ value: 'HI!', innerHadMetadata: true });
    expect(toolLines(logger).filter((l) => l.includes('Starting'))).toEqual([
      '[TOOL EXECUTION] Starting text.shout',
      '[TOOL EXECUTION] Starting text.upper',
    ]);
  });

  it('an unknown tool fails with the closest real names', async () => {
    const { call, ctx } = setup();
    const err = await call('text.uper', {}, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownToolError);
    expect((err as Error).message).toBe('Unknown tool: text.uper. Did you mean: text.upper, text.shout?');
    await expect(call('zzzzzzzzzz', {}, ctx)).rejects.toThrow(
      'Unknown tool: zzzzzzzzzz. Use ot.tools() to list the available tools.',
    );
  });
});
