/**
 * An MCP server's tool as an Otto tool in the pack `<server>`: its JSON Schema shown to the model as is
 * (`inputSchema`), enforced by the interceptor through `proxyParameters` (no eval), its result formatted by
 * content.ts and delimited as untrusted (a server's text is data, not instructions). A tool is read-only only when
 * the server says so (`annotations.readOnlyHint`); anything else may change the world and goes through approvals.
 */
import { defineTool } from '../tools/defineTool.ts';
import type { AnyTool } from '../tools/Tool.ts';
import type { ToolContext } from '../tools/context.ts';
import { modelSchema, proxyParameters } from './schema.ts';
import type { McpToolInfo } from './client.ts';

/** Runs a tool on a server and returns the formatted text (the manager's `call`). */
export type ProxyCall = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<string>;

export function proxyTool(server: string, info: McpToolInfo, call: ProxyCall): AnyTool {
  const title = info.annotations?.title ?? info.title;
  const description = info.description?.trim() || title || `${info.name} (from the MCP server ${server})`;
  return defineTool({
    pack: server,
    name: info.name,
    description,
    parameters: proxyParameters(info.inputSchema, `${server}.${info.name}`),
    inputSchema: modelSchema(info.inputSchema),
    readOnly: info.annotations?.readOnlyHint === true,
    execute: (args, ctx) => call(server, info.name, args as Record<string, unknown>, ctx),
  }) as AnyTool;
}
