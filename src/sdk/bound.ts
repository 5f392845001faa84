/**
 * `sdk(ctx)`: the SDK bound to the calling tool's context — the usual way to use it inside `execute(args, ctx)`:
 *
 *   const { getPack, callTool, apiHeaders } = sdk(ctx);
 *   const llm = getPack<'transform'>('llm');
 *   const summary = await llm?.transform({ input: text, prompt: 'Summarize' });
 *
 * Calls go through the interceptor with the context's config, secrets, tab and abort signal.
 */
import type { ToolContext, ToolLookup } from '../tools/Tool.ts';
import { checkDeps, type CheckDepsOptions, type DepsReport } from './deps.ts';
import { callToolIn, getPack, type PackProxy } from './packAccess.ts';
import { sdkRegistry } from './sdkRuntime.ts';
import { apiHeaders, type ApiHeadersOptions } from './secrets.ts';

export interface BoundSdk {
  /** The pack as an object of async methods, or undefined when there is no such pack. */
  getPack<F extends string = string>(name: string): PackProxy<F> | undefined;
  /** Calls `pack.fn` with keyword arguments as one object. */
  callTool(name: string, args?: Record<string, unknown>, ...extra: unknown[]): Promise<unknown>;
  /** Auth headers from a secret; `{}` when it is not set. */
  apiHeaders(secretName: string, options?: ApiHeadersOptions): Record<string, string>;
  /** A secret's value, or undefined. */
  secret(name: string): string | undefined;
  /** The dependency report (secrets checked against this context). */
  checkDeps(tool?: string, options?: Omit<CheckDepsOptions, 'tool' | 'secrets' | 'registry'>): Promise<DepsReport>;
}

export function sdk(
  ctx: Pick<ToolContext, 'callTool' | 'getSecret' | 'registry'>,
  options: { registry?: ToolLookup } = {},
): BoundSdk {
  // The context's registry (the worker's contexts carry one); `options.registry` for code that has none.
  const registry = (): ToolLookup => sdkRegistry(options.registry ?? ctx.registry);
  return {
    getPack: <F extends string = string>(name: string) => getPack<F>(ctx, name, registry()),
    callTool: (name, args, ...extra) =>
      callToolIn(registry(), ctx, name, args === undefined && extra.length === 0 ? [] : [args, ...extra]),
    apiHeaders: (secretName, opts) => apiHeaders(ctx, secretName, opts),
    secret: (name) => ctx.getSecret(name),
    checkDeps: (tool, opts = {}) =>
      checkDeps({ ...opts, registry: registry(), secrets: ctx, ...(tool !== undefined ? { tool } : {}) }),
  };
}
