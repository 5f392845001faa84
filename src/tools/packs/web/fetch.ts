/**
 * `web.fetch(url, format, max_chars)`: one page over HTTP from the worker, built only with the SDK — `safeRequest`
 * for the request and its error messages, `requires(hostOf('url'))` for the host permission (a site Otto may not
 * read fails with a message naming the permission, not an opaque network error). HTML is reduced to its article
 * as Markdown or text, or returned raw; JSON, XML and plain text come back as they are; binary content is
 * summarised. The worker has no DOMParser: the page is parsed, and its article found, in Otto's offscreen document
 * by the extractor `dom.read` uses (src/offscreen/article.ts). The page text is delimited as untrusted. Output longer than config `output.max_inline_size` is
 * kept in the result store by the tool host, and the model pages through it with `ot.result`.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { ToolContext } from '../../Tool.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';
import { hostOf, requires, safeRequest, type FullResponse } from '../../../sdk/index.ts';
import { askOffscreen } from '../../../offscreen/offscreenClient.ts';
import { fetchPdf } from '../files/fetchPdf.ts';
import { localDestination, requireWebUrl, webUrlParam } from '../../urlPolicy.ts';

export const FORMATS = ['markdown', 'text', 'html'] as const;
export type FetchFormat = (typeof FORMATS)[number];
export const DEFAULT_MAX_CHARS = 100_000;
export const FETCH_TIMEOUT_MS = 30_000;
/** Bytes read at most per page (a 5 MB HTML page is already far beyond any article). */
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;

const ACCEPT =
  'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,application/xml;q=0.8,*/*;q=0.5';

export const fetchParameters = z.object({
  url: webUrlParam('web.fetch', 'The page to fetch: an http or https URL'),
  format: z
    .enum(FORMATS)
    .default('markdown')
    .describe(
      '"markdown" = the article as Markdown (default), "text" = the article as plain text, "html" = the raw HTML',
    ),
  max_chars: z
    .int()
    .min(1)
    .max(2_000_000)
    .default(DEFAULT_MAX_CHARS)
    .describe('Cut the content after this many characters'),
});

export type FetchArgs = z.output<typeof fetchParameters>;

/** Checks the URL before anything is fetched: http(s) only, and well-formed. */
export function checkUrl(url: string): URL {
  return requireWebUrl(url, 'web.fetch');
}

/**
 * Redirects are re-checked (OWASP's SSRF advice): a public page that redirects into the user's own network is not
 * read, whatever it says. (The extension's fetch cannot stop before following — `redirect: 'manual'` hides the
 * Location — so the check is on the final URL, and nothing from it reaches the model.)
 */
export function checkFinalUrl(requested: URL, finalUrl: string, localHosts: readonly string[]): void {
  let final: URL;
  try {
    final = new URL(finalUrl);
  } catch {
    return;
  }
  if (final.origin === requested.origin) return;
  if (final.protocol !== 'http:' && final.protocol !== 'https:')
    throw new Error(`web.fetch: ${requested.href} redirected to a ${final.protocol} URL; not read.`);
  const local = localDestination(final, localHosts);
  if (local)
    throw new Error(
      `web.fetch: ${requested.href} redirected to ${final.origin}, ${local.reason} on the user's own network; not read. Fetch that address directly if it is really meant (the user is asked first).`,
    );
}

function isHtml(contentType: string, text: string): boolean {
  if (/html/i.test(contentType)) return true;
  return !contentType && /^\s*(<!doctype html|<html)/i.test(text);
}

/** The article of an HTML page, as Markdown or text, found in the offscreen document. */
async function readArticle(html: string, url: string, format: 'markdown' | 'text'): Promise<string> {
  const reply = await askOffscreen({ type: 'html.article', html, url, format });
  if (!reply.ok) throw new Error(`web.fetch could not parse the page at ${url}: ${reply.error}`);
  return reply.content;
}

/**
 * The source line. The address the model asked for is its own words; where a redirect led is the site's choice
 * (page text), so it is named inside the boundary, on the block's first line.
 */
function sourceOf(res: FullResponse, requested: string | undefined): { head: string; inside: string[] } {
  if (!requested || requested.replace(/#.*$/, '') === res.url) return { head: `Source: ${res.url}`, inside: [] };
  return { head: `Source: ${requested}, redirected to the address below`, inside: [`final url: ${res.url}`, ''] };
}

/** The page as the requested format, cut to `max`, with a first line naming the source. */
export async function renderPage(
  res: FullResponse,
  format: FetchFormat,
  max: number,
  requested?: string,
): Promise<string> {
  const type = res.contentType.split(';')[0]!.trim() || 'unknown type';
  const source = sourceOf(res, requested);
  if (res.binary)
    return `${source.head}\n[Binary content: ${type}, ${res.bytes} bytes]${source.inside.length ? `\n${wrapUntrusted(source.inside[0]!)}` : ''}`;
  const raw = res.text ?? '';
  const body = format !== 'html' && isHtml(res.contentType, raw) ? await readArticle(raw, res.url, format) : raw;
  const total = body.length;
  const cut = total > max ? body.slice(0, max) : body;
  const head = `${source.head} (${type}, ${total} characters${res.truncated ? `, page cut at ${FETCH_MAX_BYTES} bytes` : ''})`;
  const more =
    total > max
      ? `\n[Truncated: showing ${max} of ${total} characters. Fetch again with a larger max_chars to read further.]`
      : '';
  return `${head}\n${wrapUntrusted([...source.inside, cut || '(empty page)'].join('\n'))}${more}`;
}

export async function fetchPage(
  args: FetchArgs,
  ctx: Pick<ToolContext, 'signal'> & { config?: Pick<ToolContext['config'], 'approvals'> },
): Promise<string> {
  const url = checkUrl(args.url);
  const [ok, data] = await safeRequest<FullResponse>(url.href, {
    parse: 'full',
    timeout: FETCH_TIMEOUT_MS,
    maxBytes: FETCH_MAX_BYTES,
    signal: ctx.signal,
    headers: { Accept: ACCEPT },
    credentials: 'omit',
    redirect: 'follow',
  });
  if (!ok) throw new Error(data);
  checkFinalUrl(url, data.url, ctx.config?.approvals.local_hosts ?? []);
  // A PDF is read page by page and kept in the file store (#19).
  if (data.binary && data.status < 400 && /pdf/i.test(data.contentType))
    return fetchPdf(data.url, args.max_chars, ctx, url.href);
  return renderPage(data, args.format, args.max_chars, url.href);
}

export const webFetch = requires(hostOf('url'))(
  defineTool({
    pack: 'web',
    name: 'fetch',
    description:
      'Fetch a web page by URL and return its main content: the article as Markdown (default), as plain text, or the raw HTML. JSON, XML and plain text are returned as they are; PDFs page by page (kept in the file store); other binary files are only described.\nNeeds Otto to have host permission for the site. Long pages are stored; page through them with ot.result.',
    parameters: fetchParameters,
    effect: 'reads',
    flow: FLOW.requestsUrl,
    // Reading the web changes nothing; a URL on the user's own network asks (judged from the target's URL).
    target: (args) => ({ url: args.url }),
    examples: [
      'web.fetch(url="https://example.com/article")',
      'web.fetch(url="https://example.com", format="text", max_chars=5000)',
    ],
    returns: 'A "Source: <final URL> (<type>, <n> characters)" line, then the content between untrusted-content tags',
    execute: (args, ctx) => fetchPage(args, ctx),
  }),
);
