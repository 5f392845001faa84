/**
 * Calling a tool by name: resolve it through the registry (qualified name, alias or API name), then run it through
 * the interceptor — never around it. An unknown name fails with the closest real names, so the model can correct
 * itself in one step. This is what `ToolContext.callTool` is bound to.
 */
import type { ToolContext } from './Tool.ts';
import type { ExecuteOptions, ToolInterceptor } from './interceptor.ts';
import type { ToolRegistry } from './ToolRegistry.ts';

export class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError';
  constructor(
    readonly toolName: string,
    readonly suggestions: readonly string[],
  ) {
    super(
      suggestions.length
        ? `Unknown tool: ${toolName}. Did you mean: ${suggestions.join(', ')}?`
        : `Unknown tool: ${toolName}. Use ot.tools() to list the available tools.`,
    );
  }
}

export type ToolCaller = (name: string, args: unknown, ctx: ToolContext, options?: ExecuteOptions) => Promise<unknown>;

export function createToolCaller(registry: ToolRegistry, interceptor: ToolInterceptor): ToolCaller {
  return (name, args, ctx, options) => {
    const tool = registry.resolve(name);
    if (!tool) return Promise.reject(new UnknownToolError(name, registry.closest(name)));
    return interceptor.execute(tool, args, ctx, options);
  };
}
