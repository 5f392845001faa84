/**
 * MCP servers as proxy packs (see README.md): config `servers:` → connections with the official SDK's client
 * (Streamable HTTP, falling back to HTTP+SSE) → one pack per server, source `proxy:<server>`.
 */
export { McpManager, type McpManagerOptions, type ServerStatus, type ToolCache, type CachedTools } from './manager.ts';
export { reviewNotice } from './notice.ts';
export type { PinRecord } from './pins.ts';
export {
  resolveHeaders,
  referencedSecrets,
  serverSpec,
  fingerprint,
  editServerYaml,
  MissingSecretError,
} from './serverConfig.ts';
export { formatCallResult, McpToolError, EMPTY_RESPONSE } from './content.ts';
export { proxyParameters, modelSchema, draftOf } from './inputSchema.ts';
