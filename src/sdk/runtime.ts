/**
 * What the SDK needs from outside a tool call: the registry (to find packs and tools), and the browser's permission
 * API (to check `requires(...)` declarations). The worker configures it once at start-up (`configureSdk`); tests pass
 * their own. Everything else — config, secrets, the abort signal, the interceptor — comes with the ToolContext a
 * tool receives, so the SDK never reaches around the one path by which tools run.
 */
import type { ToolRegistry } from '../tools/ToolRegistry.ts';

/** The part of `chrome.permissions` the SDK uses (injectable for tests). */
export interface PermissionsLike {
  contains(query: { permissions?: string[]; origins?: string[] }): Promise<boolean>;
}

export interface SdkRuntime {
  /** The registry in force (the worker rebuilds it when config changes, so this is a getter). */
  registry?: () => ToolRegistry;
  /** Default: `chrome.permissions` when it exists, else "everything granted" (node, the docs generator). */
  permissions?: PermissionsLike;
  /** Where to look up browser APIs for `browserApi(...)` requirements. Default: globalThis. */
  globals?: () => unknown;
  /** The secrets in force, for `checkDeps()` called without a tool context (ot.health passes its context). */
  secrets?: () => Promise<Readonly<Record<string, string>>>;
}

let runtime: SdkRuntime = {};

/** Called by the worker (src/background/index.ts); later calls merge over earlier ones. */
export function configureSdk(next: SdkRuntime): void {
  runtime = { ...runtime, ...next };
}

/** For tests: forget what configureSdk set. */
export function resetSdk(): void {
  runtime = {};
}

export function sdkRuntime(): SdkRuntime {
  return runtime;
}

/** The registry, or a clear error naming what is missing. */
export function sdkRegistry(explicit?: ToolRegistry): ToolRegistry {
  const registry = explicit ?? runtime.registry?.();
  if (!registry)
    throw new Error('The Otto SDK has no tool registry: the worker calls configureSdk({registry}) at start-up');
  return registry;
}

const chromePermissions = (): PermissionsLike | undefined => {
  const c = (globalThis as { chrome?: { permissions?: PermissionsLike } }).chrome;
  return c?.permissions && typeof c.permissions.contains === 'function' ? c.permissions : undefined;
};

/** Outside the extension (node tests, the docs generator) nothing can be checked, so everything counts as granted. */
const grantAll: PermissionsLike = { contains: () => Promise.resolve(true) };

export function sdkPermissions(explicit?: PermissionsLike): PermissionsLike {
  return explicit ?? runtime.permissions ?? chromePermissions() ?? grantAll;
}

export function sdkGlobals(): unknown {
  return runtime.globals?.() ?? globalThis;
}
