/**
 * The one builder of tool contexts for tests (#15 step 7): a ToolContext as the worker's tool host builds one — config,
 * secrets, logger, abort signal — and, given a registry, `callTool` through a real interceptor and `ctx.registry` for
 * the SDK. Tests override what they need (`tabId`, `flow`, a stub `callTool`) instead of writing a context by hand.
 */
import { DEFAULT_CONFIG, type OttoConfig } from '../../src/config/schema.ts';
import { Logger } from '../../src/shared/log.ts';
import type { ToolContext } from '../../src/tools/Tool.ts';
import { createToolCaller } from '../../src/tools/dispatch.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import type { ToolRegistry } from '../../src/tools/ToolRegistry.ts';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export interface ToolContextOptions extends Partial<Writable<Omit<ToolContext, 'registry'>>> {
  /** The registry the context carries (`ctx.registry`), through which `callTool` runs its nested calls. */
  registry?: ToolRegistry;
  /** The secrets `getSecret` answers from (default: none set). */
  secrets?: Readonly<Record<string, string>>;
  /** Nested calls go through this interceptor (default: one over `config.tool_execution` and the context's logger). */
  interceptor?: ToolInterceptor;
}

/**
 * A context for one test. With `registry`, `callTool` runs tools through the interceptor with this same context (as
 * the worker does); without it, a nested call fails saying so, unless the test gives its own `callTool`.
 */
export function toolContext(opts: ToolContextOptions = {}): ToolContext {
  const { secrets = {}, interceptor, ...over } = opts;
  const config: Readonly<OttoConfig> = over.config ?? DEFAULT_CONFIG;
  const logger = over.logger ?? new Logger();
  const registry = over.registry;
  const call = registry
    ? createToolCaller(registry, interceptor ?? ToolInterceptor.fromConfig(config, { logger }))
    : undefined;
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    config,
    getSecret: (name) => secrets[name],
    logger,
    callTool: call
      ? (name, args = {}) => call(name, args, ctx)
      : () => Promise.reject(new Error('callTool not wired in this test')),
    ...over,
  };
  return ctx;
}
