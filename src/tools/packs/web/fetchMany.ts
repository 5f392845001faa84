/**
 * `web.fetch_many(urls)`: several pages at once, with the SDK's `batchExecute` (bounded concurrency, the items'
 * order, `=== <label> ===` sections). Each page is fetched by calling `web.fetch` through the SDK — so through the
 * interceptor, with its validation, host-permission check, logging and statistics — and a page that fails shows its
 * error in its own section without failing the others.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import { batchExecute, sdk } from '../../../sdk/index.ts';
import { FORMATS } from './fetch.ts';

export const DEFAULT_MANY_MAX_CHARS = 20_000;

export const fetchManyParameters = z.object({
  urls: z
    .array(z.union([z.string().min(1), z.tuple([z.string().min(1), z.string()])]))
    .min(1)
    .max(50)
    .describe('The pages: URLs, or [url, label] pairs to name the sections'),
  format: z.enum(FORMATS).default('markdown').describe('"markdown" (default), "text" or "html", as in web.fetch'),
  max_chars: z
    .int()
    .min(1)
    .max(500_000)
    .default(DEFAULT_MANY_MAX_CHARS)
    .describe('Cut each page after this many characters'),
  max_workers: z.int().min(1).max(10).default(5).describe('Pages fetched at the same time'),
});

export const webFetchMany = defineTool({
  pack: 'web',
  name: 'fetch_many',
  description:
    'Fetch several web pages at once (like web.fetch for each) and return them as labelled sections "=== <label> ===", in the order given. A page that fails shows its error in its section.',
  parameters: fetchManyParameters,
  effect: 'reads',
  flow: FLOW.requestsUrl,
  examples: [
    'web.fetch_many(urls=["https://example.com/a", "https://example.com/b"])',
    'web.fetch_many(urls=[["https://example.com/a", "Page A"], ["https://example.com/b", "Page B"]], format="text")',
  ],
  returns: 'One "=== <label> ===" section per URL, separated by blank lines',
  async execute(args, ctx) {
    const { callTool } = sdk(ctx);
    return batchExecute(
      args.urls,
      (url) => callTool('web.fetch', { url, format: args.format, max_chars: args.max_chars }),
      { maxWorkers: args.max_workers, signal: ctx.signal },
    );
  },
});
