/**
 * `otto mcp` (#29): an MCP server (the official SDK's server side) whose tools are Otto's, run in the user's own
 * browser through the relay. `tools/list` answers at once from the packs Otto ships; a call waits for the user's
 * yes on the connect page, then runs in the extension through the same interceptor, approvals, tab scope and
 * data-flow guard as a panel run.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { BridgeClient } from '../../shared/bridgeProtocol.ts';
import { mcpTools, type McpToolDefinition } from './listedTools.ts';
import { errorResult, type Relay } from './relay.ts';

export const SERVER_INFO = { name: 'otto', version: '0.1.0' };

const INSTRUCTIONS =
  "Otto's tools act in the user's own browser, in the tabs the user shared. Start with dom__snapshot to see the " +
  'page (elements carry refs such as e12), then act with dom__click / dom__type by ref. The user approves risky ' +
  'actions in Otto’s side panel; a denied call returns an error saying so. Large results come back as a handle ' +
  'to page through with ot__result.';

/** The client as it introduced itself, bounded; a client that said nothing is "An MCP client". */
export function clientOf(server: Server): BridgeClient {
  const info = server.getClientVersion();
  const name =
    (info?.name ?? '')
      .replace(/\p{Cc}/gu, '')
      .trim()
      .slice(0, 100) || 'An MCP client';
  const version = info?.version ? String(info.version).slice(0, 50) : undefined;
  return version ? { name, version } : { name };
}

export function createMcpServer(relay: () => Relay, tools: McpToolDefinition[] = mcpTools()): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const known = new Set(tools.map((t) => t.name));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args = {} } = req.params;
    const result = known.has(name)
      ? await relay().call(name, args)
      : errorResult(`unknown tool '${name}'. Call tools/list for Otto's tools.`);
    return { ...result };
  });
  return server;
}

export type { Transport };
