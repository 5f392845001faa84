/**
 * `ot.result` (docs/specs/002-ot-tools.md, "Query Stored Results"): a thin wrapper over the result store
 * (src/storage/results.ts, query logic in src/results/query.ts). Argument errors are raised (the spec's ValueError:
 * `offset must be >= 1 (1-indexed), got 0`, `limit must be >= 1, got 0`, `Invalid search pattern: ...`); an unknown or
 * expired handle is returned as `Error: Result not found: <h>` / `Error: Result expired: <h>`. The span `ot.result`
 * carries handle, offset, limit and search (when given).
 */
import { z } from '../../../shared/zod.ts';
import { ResultQueryError } from '../../../results/query.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';

export function resultTool(deps: ResolvedDeps) {
  return otTool({
    name: 'result',
    description:
      'Read a large tool output that was stored instead of returned (its reply names the handle), by pages of lines; search filters by regex (fuzzy=True: approximate, best first).',
    parameters: z.object({
      handle: z.string().describe('The 12-character handle from the stored result'),
      offset: z.number().int().default(1).describe('First line to return, 1-indexed'),
      limit: z.number().int().default(100).describe('Lines to return'),
      search: z.string().default('').describe('Regex (case-insensitive) to filter lines; "" = all lines'),
      fuzzy: z.boolean().default(false).describe('Fuzzy search, best first'),
      context: z.number().int().default(0).describe('Lines of context around each match'),
      tail: z.number().int().optional().describe('Return the last N lines (of the matches when searching)'),
    }),
    examples: [
      "ot.result(handle='a1b2c3d4e5f6', offset=1, limit=50)",
      "ot.result(handle='a1b2c3d4e5f6', search='error')",
    ],
    returns: '{lines, total_lines, returned, offset, has_more, progress, next_query, ...}',
    spanFields: (a) => ({
      handle: a.handle,
      offset: a.offset,
      limit: a.limit,
      ...(a.search ? { search: a.search } : {}),
    }),
    async run(args) {
      try {
        const { handle, ...params } = args;
        return await deps.stores.queryResult(handle, params);
      } catch (error) {
        if (error instanceof ResultQueryError && (error.code === 'not_found' || error.code === 'expired'))
          return `Error: ${error.message}`;
        throw error;
      }
    },
  });
}
