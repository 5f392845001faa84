/**
 * The main article of the page as Markdown: Otto's one extractor (readable.ts: Mozilla Readability, then
 * htmlToMarkdown.ts) on a clone of the document, so the page is never touched. Pages without an article fall back to
 * the visible text of `main` (or the body).
 *
 * Readability is ~35 kB, so it is not in the always-injected content script: the worker injects reader.iife.ts
 * into the frame on the first `dom.read`, which registers `readArticle` here under READER_KEY.
 */
import { countElementsUpTo } from './flatTree.ts';
import { articleReply, readable, type Readable } from './readable.ts';
import { visibleText } from './text.ts';
import { READER_MAX_ELEMENTS, textArticle, textRoot } from './textArticle.ts';

export interface Article {
  title: string;
  byline: string;
  siteName: string;
  excerpt: string;
  lang: string;
  markdown: string;
  /** Readability found an article (false: the text of main/body instead). */
  readerable: boolean;
  truncated: boolean;
  chars: number;
  /** Why the reader was not used (a page too large for it). */
  note?: string;
}

export function readArticle(maxChars: number): Article {
  const tooBig = countElementsUpTo(document, READER_MAX_ELEMENTS + 1) > READER_MAX_ELEMENTS;
  const article: Readable | null = tooBig ? null : readable(document.cloneNode(true) as Document);
  if (article) return articleReply(article, maxChars);
  return textArticle(visibleText(textRoot(), maxChars), tooBig);
}
