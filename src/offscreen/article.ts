/**
 * The article of a page `web.fetch` fetched (#15), from its parsed Document: Otto's one extractor (readable.ts:
 * Mozilla Readability, then htmlToMarkdown.ts — what `dom.read` uses) with the page's URL as base, so relative links
 * and images come out absolute. A page Readability finds no article in (a form, a short notice, a list of links) gives
 * its `main` (or body) instead, with scripts, hidden elements and page chrome (navigation, banners, footers,
 * sidebars) left out.
 *
 * The offscreen document parses the HTML with DOMParser (inert: no script runs, nothing loads) and calls
 * `articleOf` with that parse; unit tests call it with happy-dom's.
 */
import { articleMarkdown, readable } from '../content/readable.ts';
import { htmlToMarkdown } from '../shared/htmlToMarkdown.ts';
import type { Article, ArticleRequest } from '../shared/offscreenMessages.ts';
import { plainText } from './plainText.ts';

export type ArticleFormat = ArticleRequest['format'];

/** Not content in a page without an article. */
const CHROME_SELECTOR = [
  ...['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed'],
  ...['input', 'select', 'textarea', 'button', 'dialog', 'nav', 'aside', 'footer', '[hidden]', '[aria-hidden="true"]'],
  ...['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar'].map(
    (r) => `[role="${r}"]`,
  ),
].join(',');

/**
 * Makes `url` (or the page's own `<base href>`, resolved against it) the document's base, which Readability and the
 * fallback resolve links against. Without it they would resolve against the offscreen document's own URL.
 */
function setBase(doc: Document, url: string): void {
  const own = doc.querySelector('base[href]');
  let base = url;
  try {
    base = new URL(own?.getAttribute('href') ?? '', url).href;
  } catch {
    // An unusable <base href> or URL: keep the URL as it is.
  }
  const el = own ?? doc.createElement('base');
  el.setAttribute('href', base);
  if (!own) (doc.head ?? doc.documentElement)?.prepend(el);
}

/**
 * Links into the page itself (its URL, whatever its `<base>`) go back to `#fragment`, which htmlToMarkdown.ts writes as plain text, as `dom.read` does:
 * an absolute URL on every footnote marker costs the model tokens and leads nowhere new.
 */
function inPageLinksAsFragments(root: Element, url: string): void {
  const page = url.replace(/#.*$/, '');
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href')!;
    const hash = href.indexOf('#');
    if (hash > 0 && href.slice(0, hash) === page) a.setAttribute('href', href.slice(hash));
  }
}

/** Relative `href`/`src` made absolute against the document's base (Readability does this for its article). */
function absolutize(root: Element): void {
  const fix = (el: Element, attr: 'href' | 'src', value: string): void => {
    if (value.startsWith('#') || /^(data|javascript|mailto|tel):/i.test(value)) return;
    try {
      el.setAttribute(attr, new URL(value, el.ownerDocument.baseURI).href);
    } catch {
      // Left as it is.
    }
  };
  for (const a of root.querySelectorAll('a[href]')) fix(a, 'href', a.getAttribute('href')!);
  for (const img of root.querySelectorAll('img')) {
    const src = img.getAttribute('src') || img.getAttribute('data-src') || img.getAttribute('data-original');
    if (src) fix(img, 'src', src);
  }
}

function meta(doc: Document, ...keys: string[]): string {
  for (const el of doc.querySelectorAll('meta[content]')) {
    const key = (el.getAttribute('property') ?? el.getAttribute('name') ?? '').toLowerCase();
    const value = el.getAttribute('content')!.trim();
    if (value && keys.includes(key)) return value;
  }
  return '';
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * "Article | Site": the part a heading of the page repeats. Readability keeps the whole title when the part before
 * the separator is four words or fewer; a matching `<h1>` settles it (as web.fetch's title always did).
 */
function titleOf(title: string, headings: ReadonlySet<string>): string {
  const parts = title.split(/\s+[|\-–—»:]\s+/).filter(Boolean);
  return (parts.length > 1 && parts.find((p) => headings.has(p))) || title;
}

function withTitle(title: string, text: string): string {
  return title ? `${title}\n\n${text}`.trim() : text;
}

/** A page without an article: its `main` (or body) without page chrome, the title as heading. */
function pageContent(doc: Document, format: ArticleFormat): Article {
  const title = squash(doc.title);
  for (const el of [...doc.querySelectorAll(CHROME_SELECTOR)]) el.remove();
  for (const el of [...doc.querySelectorAll('[style]')])
    if (/(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(el.getAttribute('style')!)) el.remove();
  const main = [...doc.querySelectorAll('main, [role="main"]')].find((m) => squash(m.textContent ?? '').length >= 140);
  const root = main ?? doc.body ?? doc.documentElement;
  if (!root) return { ...metadata(doc), title, readerable: false, content: '' };
  absolutize(root);
  // The title heading once: a leading h1 that repeats it goes.
  const h1 = root.querySelector('h1');
  if (h1 && title && squash(h1.textContent ?? '') === title) h1.remove();
  const content =
    format === 'text'
      ? withTitle(title, plainText(root))
      : title
        ? `# ${title}\n\n${htmlToMarkdown(root)}`.trim()
        : htmlToMarkdown(root);
  return { ...metadata(doc), title, readerable: false, content };
}

function metadata(doc: Document): Omit<Article, 'title' | 'readerable' | 'content'> {
  return {
    byline: meta(doc, 'author', 'article:author'),
    siteName: meta(doc, 'og:site_name', 'application-name'),
    excerpt: meta(doc, 'og:description', 'description', 'twitter:description'),
    lang: doc.documentElement?.getAttribute('lang') ?? '',
  };
}

/**
 * The article of a fetched page, in `format`. `parse` gives the page's Document; it is called again (a fresh,
 * unchanged Document) only for a page without an article, since Readability changes the one it reads — parsing
 * twice for those few pages costs less than copying every page's document beforehand.
 */
export function articleOf(parse: () => Document, url: string, format: ArticleFormat): Article {
  const doc = parse();
  setBase(doc, url);
  const headings = new Set([...doc.querySelectorAll('h1')].map((h) => squash(h.textContent ?? '')));
  const found = readable(doc);
  if (!found) {
    const fresh = parse();
    setBase(fresh, url);
    return pageContent(fresh, format);
  }
  inPageLinksAsFragments(found.root, url);
  const title = titleOf(squash(found.title), headings);
  const content =
    format === 'text' ? withTitle(title, plainText(found.root)) : articleMarkdown({ title, root: found.root });
  const { root: _root, ...info } = found;
  return { ...info, title, readerable: true, content };
}
