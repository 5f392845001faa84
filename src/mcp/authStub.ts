/**
 * Build-time stand-in for the MCP SDK's OAuth client (`client/auth.js`, aliased in vite.config.ts). The SDK's
 * transports only reach it when given an `authProvider`; Otto authenticates MCP servers with headers from its
 * secrets and never passes one (src/mcp/client.ts), so ~17 KB of OAuth discovery and PKCE stays out of the worker.
 * If a future change passes an authProvider, these throw a clear error instead of failing silently.
 */
const NOT_BUNDLED = 'MCP OAuth is not bundled in Otto: authenticate the server with a header (see the MCP settings).';

export class UnauthorizedError extends Error {
  constructor(message?: string) {
    super(message ?? 'Unauthorized');
    this.name = 'UnauthorizedError';
  }
}

export function auth(): Promise<never> {
  return Promise.reject(new UnauthorizedError(NOT_BUNDLED));
}

export function extractWWWAuthenticateParams(): never {
  throw new UnauthorizedError(NOT_BUNDLED);
}
