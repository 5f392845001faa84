export {
  startMcpServer,
  TEST_TOOLS,
  type RunningMcpServer,
  type McpServerOptions,
  type McpServerMode,
  type CallRecord,
} from './server.ts';
