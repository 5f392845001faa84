/**
 * `dom.read`'s article of an open page too big to read in its own thread (#24): Readability scores the whole document
 * in one synchronous task (~30 ms per thousand elements), so past READER_IN_PAGE_MAX elements the page sends its HTML
 * and the reader runs here. The reply is the one the page would give: the same extractor (readable.ts) on the same
 * markup, with links resolved as the page resolves them.
 *
 * The page's clone and this parse differ in the document URL only (this one's is the offscreen document's): the base
 * is set to the page's, and links that were `#fragment`, which Readability leaves alone when a page has no other
 * base, are put back after it (it would make them absolute against the base here).
 */
import { articleReply, readable } from '../content/readable.ts';
import type { PageArticleReply, PageArticleRequest } from '../shared/offscreenMessages.ts';

const HASH_MARK = 'data-otto-hash';

function setBase(doc: Document, baseUrl: string): void {
  for (const own of doc.querySelectorAll('base')) own.remove();
  const base = doc.createElement('base');
  base.setAttribute('href', baseUrl);
  (doc.head ?? doc.documentElement)?.prepend(base);
}

export function pageArticle(req: Pick<PageArticleRequest, 'page' | 'maxChars'>): PageArticleReply {
  const { html, url, baseUrl } = req.page;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  setBase(doc, baseUrl);
  const keepHashes = baseUrl === url;
  if (keepHashes)
    for (const a of doc.querySelectorAll('a[href^="#"]')) a.setAttribute(HASH_MARK, a.getAttribute('href')!);
  const found = readable(doc);
  if (!found) return { ok: true, article: null };
  for (const a of found.root.querySelectorAll(`a[${HASH_MARK}]`)) {
    a.setAttribute('href', a.getAttribute(HASH_MARK)!);
    a.removeAttribute(HASH_MARK);
  }
  return { ok: true, article: articleReply(found, req.maxChars) };
}
