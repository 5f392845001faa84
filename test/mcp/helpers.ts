/** An Otto-like world for MCP tests: a manager, a registry rebuilt like the worker's, the ot pack, a context. */
import { ConfigSchema, type OttoConfig } from '../../src/config/schema.ts';
import { Logger } from '../../src/shared/log.ts';
import { z } from '../../src/shared/zod.ts';
import type { ToolContext } from '../../src/tools/Tool.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { createToolCaller } from '../../src/tools/dispatch.ts';
import { ToolInterceptor, type ToolCallRecord } from '../../src/tools/interceptor.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { createOtTools, OT_PACK } from '../../src/tools/packs/ot/index.ts';
import { McpManager, type McpManagerOptions } from '../../src/mcp/index.ts';
import { checkDeps } from '../../src/sdk/index.ts';
import { toolContext } from '../support/toolContext.ts';

export const fakeEnv = {
  version: () => '1.2.3',
  extensionId: () => 'abcdefghijklmnopabcdefghijklmnop',
  browser: async () => 'Chromium 140.0.0.0',
  extensionUrl: (path: string) => `chrome-extension://abcdefghijklmnopabcdefghijklmnop/${path}`,
};

export interface World {
  manager: McpManager;
  registry: () => ToolRegistry;
  config: OttoConfig;
  secrets: Record<string, string>;
  records: ToolCallRecord[];
  logger: Logger;
  ctx: ToolContext;
  /** Calls a tool through the interceptor; returns `Error: <message>` for failures, as the model would read it. */
  run(name: string, args?: Record<string, unknown>): Promise<string>;
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
  /** The worker's refreshTools: sync servers, rebuild the registry. */
  refresh(force?: boolean): Promise<void>;
  setServers(servers: Record<string, unknown>): void;
  close(): Promise<void>;
}

export async function world(
  servers: Record<string, unknown>,
  opts: { secrets?: Record<string, string>; manager?: Partial<McpManagerOptions> } = {},
): Promise<World> {
  let config = ConfigSchema.parse({ servers });
  const secrets = { ...opts.secrets };
  const getSecret = (n: string): string | undefined => secrets[n];
  const logger = new Logger({ capacity: 10_000 });
  const records: ToolCallRecord[] = [];
  let changes = 0;
  const manager = new McpManager({ connectBudgetMs: 4000, logger, onChange: () => void changes++, ...opts.manager });
  let registry = new ToolRegistry();
  const interceptor = new ToolInterceptor({ logger, onRecord: (r) => records.push(r) });
  const build = (): void => {
    const r = new ToolRegistry();
    r.registerPack({ name: 'local' }, [
      defineTool({
        pack: 'local',
        name: 'ping',
        description: 'Local tool',
        parameters: z.object({}),
        effect: 'reads',
        execute: () => 'pong',
      }),
    ]);
    r.registerPack(
      OT_PACK,
      createOtTools({
        registry: () => registry,
        environment: fakeEnv,
        servers: manager,
        reload: () => refresh(true),
        checkDeps: (ctx) => checkDeps({ registry, secrets: ctx }),
      }),
    );
    manager.registerPacks(r);
    registry = r;
  };
  const refresh = async (force = false): Promise<void> => {
    await manager.sync(config.servers, getSecret, { force });
    build();
  };
  await refresh();
  // The registry is rebuilt on every refresh: the context calls (and lends the SDK) the current one.
  const ctx: ToolContext = toolContext({
    config,
    getSecret,
    logger,
    callTool: (name, args = {}) => createToolCaller(registry, interceptor)(name, args, ctx),
  });
  Object.defineProperty(ctx, 'registry', { get: () => registry, enumerable: true });
  const call = (name: string, args: Record<string, unknown> = {}): Promise<unknown> => ctx.callTool(name, args);
  return {
    manager,
    registry: () => registry,
    get config() {
      return config;
    },
    secrets,
    records,
    logger,
    ctx,
    call,
    run: (name, args = {}) =>
      call(name, args).then(
        (r) => String(r),
        (e: unknown) => `Error: ${e instanceof Error ? e.message : String(e)}`,
      ),
    refresh,
    setServers(next) {
      config = ConfigSchema.parse({ servers: next });
      (ctx as { config: OttoConfig }).config = config;
    },
    close: () => manager.close(),
    get changes() {
      return changes;
    },
  } as World;
}

/** Strips the untrusted-content boundary (its tag is random). */
export function unwrap(text: string): string {
  return text.replace(/^<external-content-[0-9a-f]+>\n/, '').replace(/\n<\/external-content-[0-9a-f]+>$/, '');
}

export const waitFor = async (check: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};
