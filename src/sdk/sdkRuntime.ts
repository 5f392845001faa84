/**
 * What the SDK needs besides the calling tool's context: the browser's permission API (to check `requires(...)`
 * declarations) and where browser APIs live (for `browserApi(...)`). Both are the browser's own — `chrome.permissions`
 * and `globalThis` — read when asked, so there is nothing to configure. The registry comes with the ToolContext
 * (`ctx.registry`) or as an argument; secrets, the abort signal and the interceptor come with the context too.
 */
import type { ToolLookup } from '../tools/Tool.ts';

/** The part of `chrome.permissions` the SDK uses (injectable for tests). */
export interface PermissionsLike {
  contains(query: { permissions?: string[]; origins?: string[] }): Promise<boolean>;
}

/** The registry a call names, or a clear error naming what is missing. */
export function sdkRegistry(registry: ToolLookup | undefined): ToolLookup {
  if (!registry)
    throw new Error(
      'The Otto SDK has no tool registry: call it with a tool context that carries one (ctx.registry), or pass {registry}',
    );
  return registry;
}

const chromePermissions = (): PermissionsLike | undefined => {
  const c = (globalThis as { chrome?: { permissions?: PermissionsLike } }).chrome;
  return c?.permissions && typeof c.permissions.contains === 'function' ? c.permissions : undefined;
};

/** Outside the extension (node tests, the docs generator) nothing can be checked, so everything counts as granted. */
const grantAll: PermissionsLike = { contains: () => Promise.resolve(true) };

export function sdkPermissions(explicit?: PermissionsLike): PermissionsLike {
  return explicit ?? chromePermissions() ?? grantAll;
}
