/** A registry + interceptor + context, as the worker builds them, for SDK and MCP tests. */
import { ConfigSchema, type OttoConfig } from '../../src/config/schema.ts';
import { Logger } from '../../src/shared/log.ts';
import { z } from '../../src/shared/zod.ts';
import type { ToolContext, AnyTool } from '../../src/tools/Tool.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolInterceptor, type ToolCallRecord } from '../../src/tools/interceptor.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { toolContext } from '../support/toolContext.ts';

export interface Harness {
  registry: ToolRegistry;
  interceptor: ToolInterceptor;
  config: OttoConfig;
  logger: Logger;
  records: ToolCallRecord[];
  ctx: ToolContext;
  secrets: Record<string, string>;
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
}

export interface HarnessOptions {
  config?: Record<string, unknown>;
  secrets?: Record<string, string>;
  register?: (registry: ToolRegistry) => void;
  signal?: AbortSignal;
}

/** Builds the harness; its context carries the registry, so the SDK finds packs (`sdk(h.ctx)`). */
export function harness(opts: HarnessOptions = {}): Harness {
  const config = ConfigSchema.parse(opts.config ?? {});
  const registry = new ToolRegistry();
  opts.register?.(registry);
  const logger = new Logger({ capacity: 10_000 });
  const records: ToolCallRecord[] = [];
  const interceptor = new ToolInterceptor({ config: config.tool_execution, logger, onRecord: (r) => records.push(r) });
  const secrets = { ...opts.secrets };
  // A getter, not a copy: tests set secrets after building the harness.
  const ctx = toolContext({
    config,
    logger,
    registry,
    interceptor,
    getSecret: (name) => secrets[name],
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return {
    registry,
    interceptor,
    config,
    logger,
    records,
    ctx,
    secrets,
    call: (name, args = {}) => ctx.callTool(name, args),
  };
}

/** A tool that records what it received (arguments, the config it saw, a secret it read). */
export function recordingTool(pack: string, name: string, seen: unknown[], over: Partial<AnyTool> = {}): AnyTool {
  return defineTool({
    pack,
    name,
    description: `${pack}.${name} for tests`,
    parameters: z.object({ input: z.string(), prompt: z.string() }),
    effect: 'reads',
    execute: (args: { input: string; prompt: string }, ctx: ToolContext) => {
      seen.push({ args, model: ctx.config.transform.model, key: ctx.getSecret('OPENAI_API_KEY') });
      return `${args.prompt}: ${args.input}`;
    },
    ...over,
  } as never) as AnyTool;
}
