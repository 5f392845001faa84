/**
 * `ot.health` (docs/specs/002-ot-tools.md, "Health Check"), translated to the browser (docs/specs/README.md): `python`
 * → `browser` (name and version), `cwd` → `extension_id`. Proxy: every configured, enabled MCP server is `connected` or
 * `disconnected` as the MCP layer reports (none yet: disconnected); one that is not connected makes the proxy
 * `degraded`. Disabled servers are listed as `disabled` and do not degrade it.
 */
import { z } from '../../../shared/zod.ts';
import type { OttoConfig } from '../../../config/schema.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import { otTool } from './common.ts';
import { configState } from './config.ts';
import type { ConfigStatus } from '../../../config/status.ts';
import { DEV_VERSION, type ResolvedDeps } from './env.ts';
import type { DepsSummary, OtEnvironment, ServerStatusSource } from './runtime.ts';

export interface HealthReport {
  version: string;
  browser: string;
  extension_id: string;
  registry: { status: 'ok' | 'empty'; tool_count: number };
  proxy: { status: 'ok' | 'degraded'; server_count: number; servers: Record<string, string> };
  /** The SDK's check_deps (when the worker provides it): declared dependencies all ok, or the missing ones. */
  deps?: { status: 'ok' | 'missing'; missing: string[] };
  /** The stored config: ok, warnings (keys ignored) or invalid (nothing is sent), with each problem's line. */
  config?: Record<string, unknown>;
}

export async function health(
  config: Readonly<OttoConfig>,
  registry: ToolRegistry,
  env: OtEnvironment,
  servers: ServerStatusSource,
  checkDeps?: () => Promise<DepsSummary>,
  status?: ConfigStatus,
): Promise<HealthReport> {
  const states: Record<string, string> = {};
  let degraded = false;
  for (const name of Object.keys(config.servers).sort()) {
    const spec = config.servers[name]!;
    if (!spec.enabled) {
      states[name] = 'disabled';
      continue;
    }
    const state = servers.state(name);
    const shown = state === 'connected' ? 'connected' : 'disconnected';
    if (shown !== 'connected') degraded = true;
    states[name] = shown;
  }
  const count = registry.size;
  const deps = checkDeps ? await checkDeps().catch(() => undefined) : undefined;
  return {
    version: env.version() ?? DEV_VERSION,
    browser: await env.browser(),
    extension_id: env.extensionId() ?? 'unknown',
    registry: { status: count > 0 ? 'ok' : 'empty', tool_count: count },
    proxy: { status: degraded ? 'degraded' : 'ok', server_count: Object.keys(states).length, servers: states },
    ...(deps ? { deps: { status: deps.ok ? ('ok' as const) : ('missing' as const), missing: [...deps.missing] } } : {}),
    ...(status ? { config: configState(status) } : {}),
  };
}

export function healthTool(deps: ResolvedDeps) {
  return otTool({
    name: 'health',
    description:
      "Check Otto's health: version, browser and version, extension id, the tool registry (status and tool count), the MCP proxy servers (connected or disconnected; the proxy is degraded when one is not connected) and the stored config (ok, warnings for ignored keys, or invalid with each problem's line).",
    parameters: z.object({}),
    examples: ['ot.health()'],
    returns:
      '{version, browser, extension_id, registry: {status, tool_count}, proxy: {status, server_count, servers}, deps: {status, missing}, config: {status, version, errors, warnings}}',
    run: (_args, ctx) => {
      const check = deps.checkDeps;
      return health(
        ctx.config,
        deps.registry(),
        deps.environment,
        deps.servers,
        check && (() => check(ctx)),
        ctx.configStatus,
      );
    },
  });
}
