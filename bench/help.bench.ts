/**
 * `ot.help` over 2,000 registered tools (100 packs × 20 tools with realistic descriptions, 50 aliases, 50 snippets),
 * called through the interceptor as the model or the command line would. Target: median under 20 ms per query.
 *
 *   cold_index_ms   the first fuzzy query after the tools changed (builds the fuse.js index)
 *   fuzzy_ms        a fuzzy query with a typo, index warm (median of the round's queries)
 *   exact_tool_ms   an exact tool lookup with signature and docs URL
 *   no_match_ms     a query that matches nothing
 */
import { ConfigSchema } from '../src/config/schema.ts';
import { Logger } from '../src/shared/log.ts';
import { z } from '../src/shared/zod.ts';
import { defineTool } from '../src/tools/defineTool.ts';
import { ToolInterceptor } from '../src/tools/interceptor.ts';
import { ToolRegistry } from '../src/tools/ToolRegistry.ts';
import type { AnyTool } from '../src/tools/Tool.ts';
import { createOtTools, OT_PACK } from '../src/tools/packs/ot/index.ts';
import { toolContext } from '../test/support/toolContext.ts';
import type { BenchMetric } from './types.ts';

export const name = 'help';

const PACKS = 100;
const TOOLS_PER_PACK = 20;
const VERBS = ['search', 'fetch', 'list', 'create', 'update', 'delete', 'read', 'write', 'scrape', 'summarize'];
const NOUNS = ['issues', 'pages', 'files', 'records', 'messages', 'events', 'users', 'reports', 'tables', 'links'];
const QUERIES = ['serch isues', 'fecth pages', 'scaffoldl', 'summarise reports', 'pack42 crate', 'delte usres'];

function registryWith2000Tools(): ToolRegistry {
  const registry = new ToolRegistry();
  for (let p = 0; p < PACKS; p++) {
    const pack = `pack${p}`;
    const tools: AnyTool[] = [];
    for (let t = 0; t < TOOLS_PER_PACK; t++) {
      const verb = VERBS[t % VERBS.length]!;
      const noun = NOUNS[(t + p) % NOUNS.length]!;
      tools.push(
        defineTool({
          pack,
          name: `${verb}_${noun}_${t}`,
          description: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun} in service ${p}. Returns matching ${noun} with their ids, titles and timestamps; supports paging with offset and limit.`,
          parameters: z.object({
            query: z.string().describe(`What to ${verb}`),
            limit: z.number().int().default(20).describe('Maximum results'),
          }),
          effect: 'reads',
          examples: [`${pack}.${verb}_${noun}_${t}(query="x")`],
          execute: () => 'ok',
        }) as AnyTool,
      );
    }
    registry.registerPack({ name: pack, instructions: `Service ${p}: ${NOUNS[p % NOUNS.length]} and more.` }, tools);
  }
  registry.registerPack(OT_PACK, createOtTools({ registry: () => registry }));
  return registry;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export async function run(): Promise<BenchMetric[]> {
  const aliases: Record<string, string> = {};
  const snippets: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) {
    aliases[`a${i}`] = `pack${i}.search_issues_0`.replace('issues', NOUNS[i % NOUNS.length]!);
    snippets[`snip${i}`] = {
      description: `Snippet ${i} for ${NOUNS[i % NOUNS.length]}`,
      body: `pack${i}.list_files_2(query="x")`,
    };
  }
  const config = ConfigSchema.parse({ snippets });
  // Aliases are not validated against the registry here; only their names and targets are searched.
  const cfg = { ...config, aliases };
  const registry = registryWith2000Tools();
  const logger = new Logger({ capacity: 1000, console: false });
  const interceptor = new ToolInterceptor({ config: cfg.tool_execution, logger });
  const ctx = toolContext({ config: cfg, logger, registry, interceptor });
  const help = (query: string) => ctx.callTool('ot.help', { query });
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  const cold = await time(() => help('serch isues'));
  const fuzzy: number[] = [];
  const exact: number[] = [];
  const none: number[] = [];
  for (let i = 0; i < 30; i++) {
    fuzzy.push(await time(() => help(QUERIES[i % QUERIES.length]!)));
    exact.push(await time(() => help(`pack${i}.fetch_${NOUNS[(1 + i) % NOUNS.length]}_1`)));
    none.push(await time(() => help('xyznonexistentqqq')));
  }
  // The generated packs plus the ot pack's own tools (however many it has).
  const expected = PACKS * TOOLS_PER_PACK + (registry.pack('ot')?.tools.length ?? 0);
  if (registry.size !== expected) throw new Error(`expected ${expected} tools, got ${registry.size}`);
  return [
    { name: 'cold_index_ms', value: round4(cold), unit: 'ms' },
    { name: 'fuzzy_ms', value: round4(median(fuzzy)), unit: 'ms', budget: 20 },
    { name: 'exact_tool_ms', value: round4(median(exact)), unit: 'ms', budget: 20 },
    { name: 'no_match_ms', value: round4(median(none)), unit: 'ms', budget: 20 },
  ];
}
