/**
 * The tools `otto mcp` lists (#29): the same definitions the panel's model gets in tools mode (the default tool set,
 * wire names such as `dom__snapshot`, descriptions in those names), built here in Node from the packs Otto ships, so
 * `tools/list` answers at once without waiting for the browser. `llm.*` is left out: there the outside agent is the
 * model, and Otto holds no API key for a second one.
 */
import '../../shared/zod.ts';
import { buildRegistry } from '../../background/registry.ts';
import { modeDefinitions } from '../../background/codeMode.ts';
import { DEFAULT_CONFIG } from '../../config/schema.ts';
import type { ToolRegistry } from '../../tools/ToolRegistry.ts';
import type { BaseTool } from '../../tools/Tool.ts';

/** Types only from tools/ here (docs/architecture.md): the one-line check `readsOnly` makes. */
const readsOnly = (tool: Pick<BaseTool, 'effect'>): boolean => tool.effect === 'reads';

/** What every major MCP client accepts as a tool name. */
export const MCP_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** Packs whose tools reach beyond the browser's pages (the web). */
const OPEN_WORLD = new Set(['web', 'tabs']);

export function bridgeRegistry(): ToolRegistry {
  return buildRegistry(DEFAULT_CONFIG);
}

export function mcpTools(registry: ToolRegistry = bridgeRegistry()): McpToolDefinition[] {
  const out: McpToolDefinition[] = [];
  for (const def of modeDefinitions(registry, 'tools', 'default')) {
    const name = def.function.name;
    const qualified = registry.qualifiedNameOf(name);
    const tool = qualified ? registry.get(qualified) : undefined;
    if (!tool || !qualified || tool.pack === 'llm') continue;
    if (!MCP_TOOL_NAME.test(name)) throw new Error(`tool name '${name}' is not valid for MCP clients`);
    const params = (def.function.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>;
    out.push({
      name,
      title: qualified,
      description: def.function.description,
      inputSchema: { ...params, type: 'object' },
      annotations: {
        title: qualified,
        readOnlyHint: readsOnly(tool),
        // A tool that changes anything may change something the user cares about (submit, navigate away, close):
        // Otto asks the user in the panel before those calls, whatever the client does with the hint.
        destructiveHint: !readsOnly(tool),
        idempotentHint: readsOnly(tool),
        openWorldHint: OPEN_WORLD.has(tool.pack),
      },
    });
  }
  return out;
}
