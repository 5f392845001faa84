/**
 * MCP servers as proxy packs (see README.md): config `servers:` → connections with the official SDK's client
 * (Streamable HTTP, falling back to HTTP+SSE) → one pack per server, source `proxy:<server>`.
 */
export {
  McpManager,
  type McpManagerOptions,
  type ServerState,
  type ServerStatus,
  type ServerTestInput,
  type ServerTestResult,
  type ToolCache,
  type CachedTools,
  type ToolView,
} from './manager.ts';
export { reviewNotice } from './notice.ts';
export type { PinRecord } from './pins.ts';
export {
  connectServer,
  describeError,
  shouldFallBack,
  McpConnection,
  type TransportKind,
  type McpToolInfo,
} from './client.ts';
export {
  resolveHeaders,
  referencedSecrets,
  serverSpec,
  fingerprint,
  editServerYaml,
  MissingSecretError,
  type ServerSpec,
} from './config.ts';
export { formatCallResult, resultText, McpToolError, EMPTY_RESPONSE } from './content.ts';
export { proxyParameters, modelSchema, toIssues, draftOf } from './schema.ts';
export { proxyTool } from './proxyTool.ts';
