/**
 * The URLs an answer shows as links (issue #42 part 3), found the way the panel reads the answer: with marked's lexer
 * (GFM, as src/sidepanel/lib/markdownToHtml.ts renders it), so that inline links, images, `<autolinks>`, `www.`
 * autolinks, reference-style links and raw `<a href>` / `<img src>` in HTML are all found — a URL with parentheses
 * (`…/Foo_(bar)`) too — and plain-text URLs by pattern besides (text in a code span, a terminal that makes URLs
 * clickable). Only http(s) URLs count; the panel asks before any other link it has no verdict for.
 */
import { Marked, type Token } from 'marked';

const md = new Marked({ gfm: true, breaks: false, async: false });

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
const TRAILING = /[.,;:!?*_~]+$/;
const HTML_URL = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const HTTP = /^https?:\/\//i;

/** The http(s) URLs of a text by pattern, as written (trailing punctuation dropped). */
export function urlsIn(text: string): string[] {
  return [...new Set((text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(TRAILING, '')))];
}

/** `&amp;` and numeric entities in an HTML attribute, as the browser reads them. */
function unescapeHtml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The URLs of links and images in an answer, as marked reads them, then those in its plain text. */
export function answerUrls(text: string): string[] {
  const found: string[] = [];
  try {
    md.walkTokens(md.lexer(text), (t: Token) => {
      if ((t.type === 'link' || t.type === 'image') && typeof t.href === 'string') found.push(t.href);
      else if (t.type === 'html' && typeof t.raw === 'string')
        for (const m of t.raw.matchAll(HTML_URL)) found.push(unescapeHtml(m[1] ?? m[2] ?? m[3] ?? ''));
    });
  } catch {
    // A text marked cannot read: the pattern below still finds its URLs.
  }
  const links = found.filter((u) => HTTP.test(u));
  // The pattern's reading of a URL marked read whole (cut at a parenthesis, with `&amp;`) is the same link.
  const plain = urlsIn(text).filter((u) => !links.some((l) => l.startsWith(unescapeHtml(u))));
  return [...new Set([...links, ...plain])];
}
