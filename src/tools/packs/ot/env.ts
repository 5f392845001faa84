/**
 * The default environment and stores of the `ot` pack, read lazily so the pack also loads outside the extension
 * (tests, the docs generator): chrome.* and navigator are touched only when a tool asks.
 */
import { resultStore, type ResultStore } from '../../../storage/results.ts';
import { statsStore, type StatsStore } from '../../../storage/statsStore.ts';
import { getFile, saveFile } from '../../../storage/files.ts';
import { type OtDeps, type OtEnvironment, type OtStores, type ServerStatusSource } from './runtime.ts';

export const DEV_VERSION = '0.0.0-dev';

type UAData = {
  brands?: { brand: string; version: string }[];
  getHighEntropyValues?: (hints: string[]) => Promise<{ fullVersionList?: { brand: string; version: string }[] }>;
};

/** Picks the real browser out of the UA brand list (skipping GREASE entries like "Not.A/Brand"). */
export function pickBrand(
  list: readonly { brand: string; version: string }[],
): { brand: string; version: string } | undefined {
  const real = list.filter((b) => !/not.?a.?brand/i.test(b.brand));
  return real.find((b) => b.brand !== 'Chromium') ?? real[0];
}

/** `Chromium 140.0.7339.185` from navigator.userAgentData (full version when available), else from userAgent. */
export async function detectBrowser(nav: { userAgent?: string; userAgentData?: UAData } | undefined): Promise<string> {
  const data = nav?.userAgentData;
  if (data) {
    try {
      const high = await data.getHighEntropyValues?.(['fullVersionList']);
      const full = high?.fullVersionList && pickBrand(high.fullVersionList);
      if (full) return `${full.brand} ${full.version}`;
    } catch {
      // Falls back to the low-entropy brands.
    }
    const low = data.brands && pickBrand(data.brands);
    if (low) return `${low.brand} ${low.version}`;
  }
  const ua = nav?.userAgent ?? '';
  const m = /(Edg|OPR|Chrome|Chromium|Firefox|Version)\/(\S+)/.exec(ua);
  if (m) {
    const name = { Edg: 'Microsoft Edge', OPR: 'Opera', Version: 'Safari' }[m[1] as string] ?? m[1];
    return `${name} ${m[2]}`;
  }
  return ua || 'unknown';
}

const chromeRuntime = (): typeof chrome.runtime | undefined =>
  typeof chrome !== 'undefined' && chrome.runtime ? chrome.runtime : undefined;

export const browserEnvironment: OtEnvironment = {
  version() {
    try {
      return chromeRuntime()?.getManifest?.().version || undefined;
    } catch {
      return undefined;
    }
  },
  extensionId: () => chromeRuntime()?.id || undefined,
  browser: () => detectBrowser(typeof navigator === 'undefined' ? undefined : (navigator as never)),
  extensionUrl(path) {
    const rt = chromeRuntime();
    if (rt?.getURL) return rt.getURL(path);
    return `chrome-extension://${rt?.id ?? '<extension-id>'}/${path.replace(/^\//, '')}`;
  },
};

/** The pack's stores over a result store and a statistics store (the worker passes its own). */
export function storesOver(results: () => ResultStore, stats: () => StatsStore): OtStores {
  return {
    queryResult: (handle, params) => results().queryResult(handle, params),
    computeStats: (opts) => stats().computeStats(opts),
    recordSaving: (saving) => stats().recordSaving(saving),
    getFile: (name) => getFile(name),
    saveFile: (name, content, mime) => saveFile(name, content, mime),
  };
}

/** Outside the worker (tests, the docs generator): the stores on the default database. */
export const defaultStores: OtStores = storesOver(resultStore, statsStore);

/** Until an MCP layer reports, every configured server is disconnected. */
export const noServers: ServerStatusSource = { state: () => undefined };

/** Resolves each dependency at the moment a tool uses it: the one given, else the default. */
export function resolveDeps(deps: OtDeps) {
  return {
    registry: deps.registry,
    get environment(): OtEnvironment {
      return deps.environment ?? browserEnvironment;
    },
    get stores(): OtStores {
      return deps.stores ?? defaultStores;
    },
    get servers(): ServerStatusSource {
      return deps.servers ?? noServers;
    },
    get reload(): (() => Promise<void>) | undefined {
      return deps.reload;
    },
    get checkDeps(): OtDeps['checkDeps'] {
      return deps.checkDeps;
    },
    get snippetStore(): OtDeps['snippetStore'] {
      return deps.snippetStore;
    },
  };
}
export type ResolvedDeps = ReturnType<typeof resolveDeps>;
