/**
 * Issue 33: what hostile or large MCP servers cost, with a real SDK server on loopback and the manager.
 *
 *   flood_defs_chars         characters of tool definitions in one request with a 2,000-tool server connected
 *                            (Otto's own packs included), under the request budget
 *   flood_all_chars          the same server's definitions if all were sent (what a request carried before)
 *   flood_list_ms            applying a 2,000-tool list: fingerprints, schema checks, cleaning, proxies
 *   search_ms                mcp.search over the 2,000 deferred tools
 *   fault_ms                 a call whose answer is invalid JSON, from call to error (the timeout is 30 s)
 */
import { startMcpServer } from '../test/support/mcp-server/index.ts';
import { ConfigSchema } from '../src/config/schema.ts';
import { Logger } from '../src/shared/log.ts';
import { McpManager } from '../src/mcp/index.ts';
import { ToolRegistry } from '../src/tools/ToolRegistry.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { createToolCaller } from '../src/tools/dispatch.ts';
import { ToolBudget } from '../src/tools/toolBudget.ts';
import { buildRegistry } from '../src/background/registry.ts';
import { toolContext } from '../test/support/toolContext.ts';
import type { BenchMetric } from './types.ts';

export const name = 'mcp';

const TOOLS = Array.from({ length: 2000 }, (_, i) => ({
  name: i === 1234 ? 'save_note' : `tool_${i}`,
  description: i === 1234 ? 'Save a note to the notebook.' : `Does numbered thing ${i}, one of many similar tools.`,
  inputSchema: { type: 'object' as const, properties: { input: { type: 'string', description: 'What to work on' } } },
  annotations: { readOnlyHint: true },
}));

export async function run(): Promise<BenchMetric[]> {
  const server = await startMcpServer({
    listTools: () => TOOLS,
    raw: ({ name: tool }, _req, res) => {
      if (tool !== 'tool_0') return false;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {not json\n\n');
      return true;
    },
  });
  const budget = new ToolBudget();
  const logger = new Logger({ capacity: 100 });
  const manager = new McpManager({ budget, logger, connectBudgetMs: 30_000 });
  try {
    const config = ConfigSchema.parse({ servers: { flood: { url: server.url, timeout: 30 } } });
    const t0 = performance.now();
    await manager.sync(config.servers, () => undefined);
    const listMs = performance.now() - t0;
    const registry: ToolRegistry = buildRegistry(config, { proxies: manager });
    const groupOf = (d: { function: { name: string } }) => {
      const q = registry.qualifiedNameOf(d.function.name);
      return q ? { group: q.split('.')[0]!, name: q } : undefined;
    };
    const all = registry.definitions();
    const sent = budget.filter(all, groupOf);
    const interceptor = new ToolInterceptor({ logger });
    const ctx = toolContext({ config, logger, registry, interceptor });
    const call = createToolCaller(registry, interceptor);
    const s0 = performance.now();
    await call('mcp.search', { query: 'save a note' }, ctx);
    const searchMs = performance.now() - s0;
    const f0 = performance.now();
    await call('flood.tool_0', {}, ctx).catch(() => undefined);
    const faultMs = performance.now() - f0;
    return [
      { name: 'flood_defs_chars', value: JSON.stringify(sent).length, unit: 'chars', budget: budget.budgetChars },
      { name: 'flood_all_chars', value: JSON.stringify(all).length, unit: 'chars' },
      { name: 'flood_list_ms', value: listMs, unit: 'ms' },
      { name: 'search_ms', value: searchMs, unit: 'ms', budget: 50 },
      { name: 'fault_ms', value: faultMs, unit: 'ms', budget: 1000 },
    ];
  } finally {
    await manager.close();
    await server.close();
  }
}
