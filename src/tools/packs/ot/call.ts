/**
 * `ot.call`: run any registered tool by name — the way to use a tool that is not in the request's tool list (config
 * `agent.tool_set: default` sends only the tools page work needs; `ot.help` names the rest). The call goes through
 * the interceptor like any other (`ctx.callTool`), and it asks for the user's approval exactly when the tool it runs
 * would.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { type ToolContext, callNeedsApproval, type AnyTool } from '../../Tool.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import type { ResolvedDeps } from './env.ts';

export const CALL_TOOL = 'ot.call';

/** The tool a name means: qualified (`ot.stats`), as sent on the wire (`ot__stats`), or an alias. */
function target(registry: ToolRegistry, name: string): AnyTool {
  const tool = registry.resolve(name) ?? registry.fromApiName(name);
  if (!tool) {
    const near = registry.closest(name, 3);
    throw new Error(
      `No tool named ${JSON.stringify(name)}.${near.length ? ` Did you mean ${near.join(', ')}?` : ''} ot.help(query="...") finds tools.`,
    );
  }
  if (tool.pack === 'ot' && tool.name === 'call') throw new Error('ot.call cannot call itself: name the tool to run.');
  return tool;
}

export function callTool(deps: ResolvedDeps): AnyTool {
  const args = z.object({
    tool: z.string().min(1).max(200).describe('Tool name, e.g. ot.stats'),
    args: z.record(z.string(), z.unknown()).default({}).describe('Its arguments as an object'),
  });
  return defineTool({
    pack: 'ot',
    name: 'call',
    description: 'Run a tool by name with its arguments.',
    parameters: args,
    effect: 'changes',
    // The tool it runs is checked and labelled by the guard itself (ctx.callTool carries this call's guard), so
    // ot.call sends nothing of its own and its output's labels are the ones that call recorded.
    flow: { source: 'reported', sink: 'none' },
    examples: ['ot.call(tool="ot.stats", args={})', 'ot.call(tool="dom.hover", args={"ref": "e12"})'],
    returns: 'What the tool returns.',
    async needsApproval(a: z.output<typeof args>, ctx: ToolContext) {
      const tool = target(deps.registry(), a.tool);
      const parsed = tool.parameters.safeParse(a.args);
      return callNeedsApproval(tool, (parsed.success ? parsed.data : a.args) as never, ctx);
    },
    async execute(a: z.output<typeof args>, ctx: ToolContext) {
      const span = ctx.logger.span('ot.call', { tool: a.tool });
      try {
        const tool = target(deps.registry(), a.tool);
        const out = await ctx.callTool(`${tool.pack}.${tool.name}`, a.args);
        span.end({});
        return out;
      } catch (error) {
        span.fail(error);
        throw error;
      }
    },
  }) as unknown as AnyTool;
}
