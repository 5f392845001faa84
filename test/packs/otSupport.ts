/** Shared fixtures for the ot pack tests: a registry with sample packs, the ot pack over fakes, a context, a caller. */
import { ConfigSchema, type OttoConfig } from '../../src/config/schema.ts';
import { Logger } from '../../src/shared/log.ts';
import { z } from '../../src/shared/zod.ts';
import type { ToolContext, AnyTool } from '../../src/tools/Tool.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { ToolRegistry, type PackSource } from '../../src/tools/ToolRegistry.ts';
import { createOtTools, OT_PACK, type OtDeps, type OtEnvironment } from '../../src/tools/packs/ot/index.ts';
import { openOttoDB } from '../../src/storage/db.ts';
import { ResultStore } from '../../src/storage/results.ts';
import { StatsStore } from '../../src/storage/statsStore.ts';
import { FileStore } from '../../src/storage/files.ts';
import type { OtStores } from '../../src/tools/packs/ot/index.ts';
import { toolContext } from '../support/toolContext.ts';

export const fakeEnv: OtEnvironment = {
  version: () => '1.2.3',
  extensionId: () => 'abcdefghijklmnopabcdefghijklmnop',
  browser: async () => 'Chromium 140.0.7339.185',
  extensionUrl: (path) => `chrome-extension://abcdefghijklmnopabcdefghijklmnop/${path}`,
};

export function tool(pack: string, name: string, description: string, over: Partial<AnyTool> = {}): AnyTool {
  return defineTool({
    pack,
    name,
    description,
    parameters: z.object({}),
    effect: 'reads',
    execute: () => `${pack}.${name} ran`,
    ...over,
  } as unknown as AnyTool) as AnyTool;
}

/** brave (web_search, search), demo (foo, bar), tabs-like sample, and a proxy pack `github`. */
export function samplePacks(registry: ToolRegistry): void {
  registry.registerPack({ name: 'brave', instructions: 'Web search with Brave. Prefer brave.search for facts.' }, [
    tool('brave', 'search', 'Search the web with Brave.\nReturns titles and URLs.', {
      parameters: z.object({
        query: z.string().describe('What to search for'),
        count: z.number().int().default(10).describe('Number of results'),
      }),
      returns: 'A list of {title, url, snippet}.',
      examples: ['brave.search(query="otto extension", count=5)'],
    }),
    tool('brave', 'web_search', 'Search the web (alias-friendly name).', {
      parameters: z.object({ query: z.string().describe('Query') }),
    }),
  ]);
  registry.registerPack({ name: 'demo' }, [
    tool('demo', 'foo', 'Get foo for n items', {
      parameters: z.object({ n: z.number().int() }),
      execute: (a: { n: number }) => ({ foo: a.n }),
    } as never),
    tool('demo', 'bar', 'Get bar for n items', {
      parameters: z.object({ n: z.number().int() }),
      execute: (a: { n: number }) => `bar:${a.n}`,
    } as never),
  ]);
  registry.registerPack({ name: 'web' }, [
    tool('web', 'fetch', 'Fetch a web page and return its text.', {
      parameters: z.object({ url: z.string().describe('The URL') }),
    }),
  ]);
  registry.registerPack({ name: 'firecrawl', instructions: 'Crawl and scrape sites.' }, [
    tool('firecrawl', 'scrape', 'Scrape one page as markdown.'),
    tool('firecrawl', 'scaffold', 'Scaffold a crawl job.'),
  ]);
  registry.registerPack({ name: 'github', source: 'proxy:github' as PackSource }, [
    tool('github', 'search', 'Search GitHub code.', {
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Search query' },
          repo: { type: 'string', description: 'owner/name to search in' },
          limit: { type: 'integer', default: 10, description: 'Max results' },
        },
        required: ['query'],
      },
      parameters: z.object({ query: z.string(), repo: z.string().optional(), limit: z.number().int().optional() }),
    }),
  ]);
}

export interface OtFixture {
  registry: ToolRegistry;
  interceptor: ToolInterceptor;
  config: OttoConfig;
  logger: Logger;
  ctx: ToolContext;
  /** Calls a tool through the interceptor, as the model or the command line would. */
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
}

export function otFixture(
  configInput: Record<string, unknown> = {},
  deps: Partial<OtDeps> = {},
  withSamples = true,
): OtFixture {
  const config = ConfigSchema.parse(configInput);
  const registry = new ToolRegistry();
  if (withSamples) samplePacks(registry);
  registry.registerPack(OT_PACK, createOtTools({ registry: () => registry, environment: fakeEnv, ...deps }));
  registry.setAliases(config.aliases);
  const logger = new Logger({ capacity: 10_000 });
  const interceptor = new ToolInterceptor({ config: config.tool_execution, logger });
  const ctx: ToolContext = toolContext({ config, logger, registry, interceptor });
  return { registry, interceptor, config, logger, ctx, call: (name, args = {}) => ctx.callTool(name, args) };
}

let dbCounter = 0;

/** Real stores (results, stats, files) over a fresh IndexedDB (fake-indexeddb), with a movable clock. */
export function realStores(): {
  stores: OtStores;
  results: ResultStore;
  stats: StatsStore;
  files: FileStore;
  clock: { now: number };
} {
  const db = openOttoDB(`otto-ot-test-${++dbCounter}-${Date.now()}`);
  const clock = { now: Date.now() };
  const now = () => clock.now;
  const files = new FileStore(db, { now });
  const results = new ResultStore(db, { now });
  const stats = new StatsStore(db, { now, files });
  const stores: OtStores = {
    queryResult: (h, p) => results.queryResult(h, p),
    computeStats: (o) => stats.computeStats({ now: clock.now, ...o }),
    recordSaving: (s) => stats.recordSaving(s),
    getFile: (n) => files.get(n),
    saveFile: (n, c, m) => files.save(n, c, m),
  };
  return { stores, results, stats, files, clock };
}
