/**
 * The main article of the page as Markdown: Mozilla Readability on a clone of the document (the page is never
 * touched), its HTML parsed inertly and converted with markdown.ts. Pages without an article fall back to the
 * visible text of `main` (or the body).
 *
 * Readability is ~35 kB, so it is not in the always-injected content script: the worker injects reader.iife.ts
 * into the frame on the first `dom.read`, which registers `readArticle` here under READER_KEY.
 */
import { Readability } from '@mozilla/readability';
import { countElementsUpTo } from './env.ts';
import { htmlToMarkdown } from './markdown.ts';
import { visibleText } from './text.ts';

export { READER_KEY } from './readerKey.ts';

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

/**
 * Readability clones and scores the whole document in one go (no way to slice it): past this many elements that
 * would hold the page's main thread for seconds, so such pages get their visible text instead, with a note.
 */
export const READER_MAX_ELEMENTS = 25_000;

export function readArticle(maxChars: number): Article {
  let parsed: ReturnType<Readability<string>['parse']> = null;
  const tooBig = countElementsUpTo(document, READER_MAX_ELEMENTS + 1) > READER_MAX_ELEMENTS;
  try {
    if (!tooBig) {
      const clone = document.cloneNode(true) as Document;
      parsed = new Readability(clone, { charThreshold: 250 }).parse();
    }
  } catch {
    parsed = null;
  }
  if (parsed?.content && (parsed.textContent ?? '').trim().length > 100) {
    const body = new DOMParser().parseFromString(parsed.content, 'text/html').body;
    const md = htmlToMarkdown(body);
    const head = parsed.title ? `# ${parsed.title.trim()}\n\n` : '';
    const full = md.startsWith('# ') ? md : head + md;
    return {
      title: parsed.title ?? document.title,
      byline: parsed.byline ?? '',
      siteName: parsed.siteName ?? '',
      excerpt: parsed.excerpt ?? '',
      lang: parsed.lang ?? document.documentElement.lang ?? '',
      markdown: full.length > maxChars ? full.slice(0, maxChars) : full,
      readerable: true,
      truncated: full.length > maxChars,
      chars: full.length,
    };
  }
  const main = document.querySelector('main, [role="main"]') ?? document.body;
  const text = visibleText(main ?? document, maxChars);
  const out: Article = {
    title: document.title,
    byline: '',
    siteName: '',
    excerpt: '',
    lang: document.documentElement.lang ?? '',
    markdown: text.text,
    readerable: false,
    truncated: text.truncated,
    chars: text.chars,
  };
  if (tooBig)
    out.note = `the page has more than ${READER_MAX_ELEMENTS.toLocaleString('en-US')} elements, too many for the article reader without freezing it, so this is its visible text`;
  return out;
}
