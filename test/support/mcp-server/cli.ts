/**
 * Runs the test MCP server standalone: `npx tsx test/support/mcp-server/cli.ts [--port 8765] [--sse | --both]`.
 * Point Otto at it with config `servers: {demo: {url: http://127.0.0.1:8765/mcp}}`.
 */
import '../../../src/shared/zod.ts';
import { startMcpServer, type McpServerMode } from './server.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const mode: McpServerMode = process.argv.includes('--sse')
  ? 'sse'
  : process.argv.includes('--both')
    ? 'both'
    : 'streamable';
const server = await startMcpServer({ port: Number(arg('--port') ?? 8765), mode });
console.log(`Otto test MCP server (${mode}) on ${mode === 'sse' ? server.sseUrl : server.url}`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
