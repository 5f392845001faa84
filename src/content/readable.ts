/**
 * Otto's one article extractor: Mozilla Readability on a Document, its article converted with htmlToMarkdown.ts. Used
 * by `dom.read` on a clone of the open page (read.ts, in the page's frame; a big page's HTML in the offscreen document,
 * src/offscreen/pageArticle.ts, #24) and by `web.fetch` on a fetched page parsed
 * with DOMParser (src/offscreen/article.ts), so both tools find the same article and render it the same way.
 *
 * Readability changes the document it reads: callers pass a document they own (a clone, or a freshly parsed one).
 */
import { Readability } from '@mozilla/readability';
import type { ReadReply } from '../shared/contentMessages.ts';
import { htmlToMarkdown } from '../shared/htmlToMarkdown.ts';

export interface Readable {
  title: string;
  byline: string;
  siteName: string;
  excerpt: string;
  lang: string;
  /** The article element Readability built (owned by `doc`, detached from its tree). */
  root: Element;
}

/** Below this many characters of text, what Readability kept is not taken for an article. */
export const MIN_ARTICLE_CHARS = 100;

/** The article of `doc`, or null when Readability finds none worth the name (then `doc` is changed anyway). */
export function readable(doc: Document): Readable | null {
  let parsed: ReturnType<Readability<Element>['parse']>;
  try {
    // The element itself, not its HTML: converting it directly saves a serialisation and a second parse.
    parsed = new Readability<Element>(doc, { charThreshold: 250, serializer: (el) => el as Element }).parse();
  } catch {
    return null;
  }
  if (!parsed?.content || (parsed.textContent ?? '').trim().length <= MIN_ARTICLE_CHARS) return null;
  return {
    title: parsed.title ?? doc.title,
    byline: parsed.byline ?? '',
    siteName: parsed.siteName ?? '',
    excerpt: parsed.excerpt ?? '',
    lang: parsed.lang ?? doc.documentElement?.lang ?? '',
    root: parsed.content,
  };
}

/** The article as Markdown with `# title` on top (unless it starts with a level-1 heading already). */
export function articleMarkdown(article: Pick<Readable, 'title' | 'root'>): string {
  const md = htmlToMarkdown(article.root);
  const title = article.title.trim();
  return md.startsWith('# ') || !title ? md : `# ${title}\n\n${md}`;
}

/** dom.read's reply for an article found, cut to `maxChars` (in the page, read.ts, or off it, offscreen/pageArticle.ts). */
export function articleReply(article: Readable, maxChars: number): ReadReply {
  const full = articleMarkdown(article);
  return {
    title: article.title,
    byline: article.byline,
    siteName: article.siteName,
    excerpt: article.excerpt,
    lang: article.lang,
    markdown: full.length > maxChars ? full.slice(0, maxChars) : full,
    readerable: true,
    truncated: full.length > maxChars,
    chars: full.length,
  };
}
