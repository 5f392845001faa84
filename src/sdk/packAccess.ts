/**
 * Pack access and tool calls for tool authors (docs/specs/004-tool-sdk.md, "Pack Access" and "Tool Invocation"). Every
 * call goes through `ctx.callTool` — the interceptor, with the caller's config, secrets, tab and abort signal — never
 * to `tool.execute` directly, so nested calls are validated, logged, timed and counted like the model's own.
 *
 * Keyword-only arguments (the spec's `**kwargs`) are one options object: `pack.fn({a: 1})`. Anything else — a
 * positional value, a second argument — is a `TypeError`, as docs/specs/README.md translates them.
 */
import type { ToolContext, ToolLookup } from '../tools/Tool.ts';
import { sdkRegistry } from './sdkRuntime.ts';
import { isPlainObject } from '../shared/plainObject.ts';

/** What a pack proxy's methods and `callTool` need from the calling tool's context. */
export type CallContext = Pick<ToolContext, 'callTool' | 'registry'>;

/** One tool of a pack proxy: its arguments as one object. */
export type PackMethod = (args?: Record<string, unknown>) => Promise<unknown>;

/**
 * A pack as an object: one async method per tool. Name the functions you use for typed access without `?.`:
 * `getPack<'transform'>(ctx, 'llm')?.transform({...})`.
 */
export type PackProxy<F extends string = string> = { readonly [K in F]: PackMethod };

/** Throws docs/specs/README.md's TypeError for anything but zero or one plain-object argument. */
function keywordArgs(qualified: string, given: readonly unknown[]): Record<string, unknown> {
  if (given.length > 1 || (given.length === 1 && given[0] !== undefined && !isPlainObject(given[0])))
    throw new TypeError(
      `${qualified} takes keyword arguments only, as one object: ${qualified}({name: value, ...}); got ${given.length} positional argument${given.length === 1 ? '' : 's'}`,
    );
  return (given[0] as Record<string, unknown> | undefined) ?? {};
}

/** The functions of a pack (the part after `pack.`), sorted. */
function functionsOf(registry: ToolLookup, pack: string): string[] {
  return (registry.pack(pack)?.tools ?? []).map((q) => q.slice(pack.length + 1));
}

/**
 * `get_pack(name)`: a proxy whose methods call the pack's tools with `ctx`'s config and secrets, or `undefined` when
 * no pack has that name. The methods are the pack's tools when asked for; a tool an MCP server adds later needs a
 * new proxy.
 */
export function getPack<F extends string = string>(
  ctx: CallContext,
  name: string,
  registry?: ToolLookup,
): PackProxy<F> | undefined {
  const reg = sdkRegistry(registry ?? ctx.registry);
  const info = reg.pack(name);
  if (!info) return undefined;
  const proxy: Record<string, PackMethod> = Object.create(null) as never;
  for (const fn of functionsOf(reg, name)) {
    const qualified = `${name}.${fn}`;
    proxy[fn] = (...given: unknown[]) => {
      let args: Record<string, unknown>;
      try {
        args = keywordArgs(qualified, given);
      } catch (error) {
        return Promise.reject(error);
      }
      return ctx.callTool(qualified, args);
    };
  }
  return Object.freeze(proxy) as PackProxy<F>;
}

/**
 * `call_tool("pack.fn", **kwargs)`: calls a tool by qualified name with the reference's errors —
 * `Tool name must include pack prefix (e.g., 'pack.function'), got: <n>`, `Pack not found: <p>`,
 * `Function '<f>' not found in pack '<p>'. Available: a, b`.
 */
export async function callTool(
  ctx: CallContext,
  name: string,
  args?: Record<string, unknown>,
  ...extra: unknown[]
): Promise<unknown> {
  return callToolIn(
    sdkRegistry(ctx.registry),
    ctx,
    name,
    args === undefined && extra.length === 0 ? [] : [args, ...extra],
  );
}

/** `callTool` against an explicit registry, with the arguments as given (for the TypeError check). */
export async function callToolIn(
  registry: ToolLookup,
  ctx: CallContext,
  name: string,
  given: readonly unknown[],
): Promise<unknown> {
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1)
    throw new Error(`Tool name must include pack prefix (e.g., 'pack.function'), got: ${name}`);
  const pack = name.slice(0, dot);
  const fn = name.slice(dot + 1);
  if (!registry.pack(pack)) throw new Error(`Pack not found: ${pack}`);
  if (!registry.get(name))
    throw new Error(
      `Function '${fn}' not found in pack '${pack}'. Available: ${functionsOf(registry, pack).join(', ')}`,
    );
  return ctx.callTool(name, keywordArgs(name, given));
}
