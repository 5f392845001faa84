/**
 * Dependency declarations and checks (docs/specs/004-tool-sdk.md, "Dependency Checking"), translated to what a browser
 * tool can lack (docs/specs/README.md): an extension permission, a host permission, a secret, a browser API.
 *
 *   const tool = requires(secret('BRAVE_API_KEY'), host('https://api.search.brave.com/*'))(defineTool({...}));
 *
 * `requires(...)` returns the tool with its requirements attached (discoverable by `checkDeps`) and a guard: when a
 * requirement is missing at call time, the call fails with a `MissingDependencyError` that names it and says how to
 * fix it, instead of an obscure CORS or 401 error later. `hostOf('url')` is checked per call against the origin of
 * the URL argument(s). `checkDeps()` reports every declared dependency of every registered tool as `ok` or
 * `missing` (with the fix); `checkDeps({tool})` one tool (or one pack).
 */
import { type ToolContext, qualifiedNameOf, type AnyTool, type ToolLookup } from '../tools/Tool.ts';
import { sdkPermissions, sdkRegistry, type PermissionsLike } from './sdkRuntime.ts';
import type { SecretSource } from './secrets.ts';

export type Requirement =
  | { readonly kind: 'permission'; readonly name: string; readonly fix?: string }
  | { readonly kind: 'host'; readonly origins: readonly string[]; readonly fix?: string }
  | { readonly kind: 'host'; readonly fromArg: string; readonly fix?: string }
  | { readonly kind: 'secret'; readonly name: string; readonly fix?: string }
  | { readonly kind: 'api'; readonly path: string; readonly fix?: string; readonly minChrome?: number };

export type DependencyKind = Requirement['kind'];

export interface DepStatus {
  kind: DependencyKind;
  /** What is needed: `downloads`, `https://api.example.com/*`, `BRAVE_API_KEY`, `chrome.offscreen`. */
  name: string;
  status: 'ok' | 'missing';
  /** How to fix it (missing only). */
  fix?: string;
  /** E.g. that a per-URL requirement is checked again on every call. */
  note?: string;
  /**
   * Browser APIs: the version of the browser that provides it (`Chromium 140.0.7339.185`) — the translation of the
   * spec's CLI version check; a `minChrome` requirement is checked against it.
   */
  version?: string;
}

export interface ToolDeps {
  /** Qualified name. */
  tool: string;
  ok: boolean;
  dependencies: DepStatus[];
}

export interface DepsReport {
  /** True when nothing declared is missing. */
  ok: boolean;
  /** Tools with at least one declared dependency, sorted by name. */
  tools: ToolDeps[];
  /** One line per missing dependency: `<tool>: <kind> <name> — <fix>`. */
  missing: string[];
}

/** An extension permission from the manifest (`downloads`, `offscreen`, ...). */
export function permission(name: string, fix?: string): Requirement {
  return fix ? { kind: 'permission', name, fix } : { kind: 'permission', name };
}

/** Host permission for fixed match patterns (`https://api.example.com/*`). */
export function host(...origins: string[]): Requirement {
  if (!origins.length) throw new Error('host() needs at least one match pattern');
  return { kind: 'host', origins };
}

/** Host permission for the origin of the URL(s) in argument `arg` (a string, a list, or [url, label] pairs). */
export function hostOf(arg: string): Requirement {
  return { kind: 'host', fromArg: arg };
}

/** A secret the user sets in Settings → Secrets. */
export function secret(name: string, fix?: string): Requirement {
  return fix ? { kind: 'secret', name, fix } : { kind: 'secret', name };
}

/**
 * A browser API, as a dotted path from the global object (`chrome.offscreen`, `navigator.gpu`); optionally the
 * oldest Chrome major version that has it (`{minChrome: 116}`), checked against the running browser's version.
 */
export function browserApi(path: string, options: string | { fix?: string; minChrome?: number } = {}): Requirement {
  const { fix, minChrome } = typeof options === 'string' ? { fix: options, minChrome: undefined } : options;
  return { kind: 'api', path, ...(fix ? { fix } : {}), ...(minChrome !== undefined ? { minChrome } : {}) };
}

/** The running browser's name and version from `navigator` (userAgentData when it has the full version). */
export function browserVersion(globals: unknown): { name: string; version: string; major: number } | undefined {
  const nav = lookupPath(globals, 'navigator') as
    { userAgent?: string; userAgentData?: { brands?: { brand: string; version: string }[] } } | undefined;
  const brand = nav?.userAgentData?.brands?.find((b) => /^(Chromium|Google Chrome)$/.test(b.brand));
  const fromUa = /(Chromium|Chrome)\/(\d+(?:\.\d+)*)/.exec(nav?.userAgent ?? '');
  // The user agent carries the full version where userAgentData only has the major one.
  const version = fromUa?.[2] ?? brand?.version;
  if (!version) return undefined;
  const name = brand?.brand ?? (fromUa?.[1] === 'Chromium' ? 'Chromium' : 'Chrome');
  return { name, version, major: Number.parseInt(version, 10) };
}

export class MissingDependencyError extends Error {
  override readonly name = 'MissingDependencyError';
  constructor(
    readonly tool: string,
    readonly missing: readonly DepStatus[],
  ) {
    super(`${tool} cannot run: ${missing.map((m) => `${describeMissing(m)}${m.fix ? `. ${m.fix}` : ''}`).join('; ')}`);
  }
}

const declared = new WeakMap<object, readonly Requirement[]>();

/** The requirements declared on a tool with `requires(...)` (empty when none). */
export function requirementsOf(tool: object): readonly Requirement[] {
  return declared.get(tool) ?? [];
}

/**
 * Declares what a tool needs. Returns a new tool (the original is not changed) that carries the requirements and
 * checks them before each call; stacking `requires(a)(requires(b)(tool))` keeps both.
 */
export function requires(...reqs: Requirement[]): <T extends AnyTool>(tool: T) => T {
  return <T extends AnyTool>(tool: T): T => {
    const all = [...requirementsOf(tool), ...reqs];
    const inner = tool.execute.bind(tool);
    const name = qualifiedNameOf(tool);
    async function execute(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
      const missing = (await checkRequirements(all, ctx, args)).filter((d) => d.status === 'missing');
      if (missing.length) throw new MissingDependencyError(name, missing);
      return inner(args as never, ctx);
    }
    // A tool is a plain object (defineTool): the wrapper is a frozen copy with the checking execute.
    const wrapped = Object.freeze({ ...tool, execute }) as T;
    declared.set(wrapped, all);
    return wrapped;
  };
}

/** The match pattern for a URL's origin (`https://example.com/*`; ports are not part of match patterns). */
export function originPattern(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return `${u.protocol}//${u.hostname}/*`;
  } catch {
    return undefined;
  }
}

function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) {
    if (
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !/^https?:/i.test(value[1])
    )
      return [value[0]];
    return value.flatMap(urlsIn);
  }
  return [];
}

function lookupPath(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    try {
      cur = (cur as Record<string, unknown>)[part];
    } catch {
      return undefined;
    }
  }
  return cur;
}

const SITE_ACCESS = 'chrome://extensions → Otto → Details → Site access';

function describeMissing(d: DepStatus): string {
  switch (d.kind) {
    case 'permission':
      return `Otto lacks the "${d.name}" permission`;
    case 'host':
      return `Otto has no host permission for ${d.name}`;
    case 'secret':
      return `the secret ${d.name} is not set`;
    case 'api':
      return `this browser has no ${d.name}`;
  }
}

function defaultFix(kind: DependencyKind, name: string): string {
  switch (kind) {
    case 'permission':
      return `Grant the "${name}" permission to Otto (it must be listed in the manifest's permissions or optional_permissions)`;
    case 'host':
      return `Allow Otto on ${name === '<all_urls>' ? 'all sites' : name}: ${SITE_ACCESS}`;
    case 'secret':
      return `Add ${name} in Settings → Secrets, then run ot.reload()`;
    case 'api':
      return `Use a recent Chrome or Chromium that provides ${name}`;
  }
}

async function contains(
  perms: PermissionsLike,
  query: { permissions?: string[]; origins?: string[] },
): Promise<boolean> {
  try {
    return await perms.contains(query);
  } catch {
    return false; // an unknown permission name or a malformed pattern is not granted
  }
}

export interface CheckOptions {
  permissions?: PermissionsLike;
  /** Where `browserApi` paths are looked up (default: globalThis). */
  globals?: unknown;
}

/**
 * Checks requirements for one call (`args` given: `hostOf` checks the URLs in it) or in general (`args` omitted:
 * `hostOf` checks `<all_urls>` and notes that each URL is checked when called).
 */
export async function checkRequirements(
  reqs: readonly Requirement[],
  secrets: SecretSource | undefined,
  args?: Record<string, unknown>,
  options: CheckOptions = {},
): Promise<DepStatus[]> {
  const perms = sdkPermissions(options.permissions);
  const out: DepStatus[] = [];
  const push = (kind: DependencyKind, name: string, ok: boolean, fix: string | undefined, note?: string): void => {
    const d: DepStatus = { kind, name, status: ok ? 'ok' : 'missing' };
    if (!ok) d.fix = fix ?? defaultFix(kind, name);
    if (note) d.note = note;
    out.push(d);
  };
  for (const req of reqs) {
    switch (req.kind) {
      case 'permission':
        push('permission', req.name, await contains(perms, { permissions: [req.name] }), req.fix);
        break;
      case 'secret':
        push('secret', req.name, !!secrets?.getSecret(req.name), req.fix);
        break;
      case 'api': {
        const globals = options.globals ?? globalThis;
        const browser = browserVersion(globals);
        const present = lookupPath(globals, req.path) !== undefined;
        const recentEnough = req.minChrome === undefined || (browser !== undefined && browser.major >= req.minChrome);
        const fix =
          req.fix ??
          (req.minChrome !== undefined && !recentEnough ? `Use Chrome ${req.minChrome} or newer` : undefined);
        push('api', req.path, present && recentEnough, fix);
        if (browser) out[out.length - 1]!.version = `${browser.name} ${browser.version}`;
        break;
      }
      case 'host':
        if ('origins' in req) {
          for (const o of req.origins) push('host', o, await contains(perms, { origins: [o] }), req.fix);
        } else if (args === undefined) {
          push(
            'host',
            '<all_urls>',
            await contains(perms, { origins: ['<all_urls>'] }),
            req.fix ?? `Allow Otto on the sites it should fetch (or on all sites): ${SITE_ACCESS}`,
            `each URL in '${req.fromArg}' is checked when called`,
          );
        } else {
          const patterns = [
            ...new Set(
              urlsIn(args[req.fromArg])
                .map(originPattern)
                .filter((p) => p !== undefined),
            ),
          ];
          for (const p of patterns) push('host', p, await contains(perms, { origins: [p] }), req.fix);
        }
        break;
    }
  }
  return out;
}

export interface CheckDepsOptions extends CheckOptions {
  /** A qualified tool name (`web.fetch`) or a pack name (`web`); default: every registered tool. */
  tool?: string;
  /** The tools to check: the calling context's registry (`ctx.registry`) or the worker's. */
  registry: ToolLookup | undefined;
  /** Where secrets are looked up (a ToolContext); without it every secret counts as missing. */
  secrets?: SecretSource;
}

/**
 * `check_deps()` / `check_deps(tool=...)`: every declared dependency of every registered tool (or of one tool or
 * pack) as `ok` or `missing`, with how to fix what is missing. Tools that declare nothing are left out.
 */
export async function checkDeps(options: CheckDepsOptions): Promise<DepsReport> {
  const registry = sdkRegistry(options.registry);
  let tools: AnyTool[];
  if (options.tool === undefined) tools = registry.list();
  else {
    const one = registry.resolve(options.tool);
    const pack = registry.pack(options.tool);
    if (one) tools = [one];
    else if (pack) tools = pack.tools.map((q) => registry.get(q)!).filter(Boolean);
    else throw new Error(`Tool not found: ${options.tool}`);
  }
  const { secrets } = options;
  const report: DepsReport = { ok: true, tools: [], missing: [] };
  for (const tool of tools) {
    const reqs = requirementsOf(tool);
    if (!reqs.length) continue;
    const dependencies = await checkRequirements(reqs, secrets, undefined, options);
    const name = qualifiedNameOf(tool);
    const ok = dependencies.every((d) => d.status === 'ok');
    report.tools.push({ tool: name, ok, dependencies });
    for (const d of dependencies)
      if (d.status === 'missing') report.missing.push(`${name}: ${d.kind} ${d.name} — ${d.fix ?? ''}`.trimEnd());
    if (!ok) report.ok = false;
  }
  return report;
}
