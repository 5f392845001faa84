/**
 * Article extraction for pages fetched by the worker (no DOM there): the HTML is parsed with the light parser
 * (html.ts), cleaned, and the element most likely to hold the article is chosen with a reduced form of Mozilla
 * Readability's scoring — paragraphs score their parent and grandparent by length and commas, class/id names
 * such as `content`/`article` raise a candidate and `comment`/`sidebar`/`footer` lower it, link-heavy blocks
 * count less — then converted by the content script's Markdown converter (src/content/markdown.ts), so `web.fetch`
 * and `dom.read` render Markdown the same way. Links and images are made absolute.
 *
 * Pages with one `<article>` (or a `<main>`) holding enough text use it directly; pages where nothing scores
 * (a form, a short notice) fall back to the body.
 */
import { htmlToMarkdown } from '../../../content/markdown.ts';
import { parseHtml, LightElement, LightParent, LightText, type LightDocument, type LightNode } from './html.ts';

export interface Extracted {
  title: string;
  byline: string;
  siteName: string;
  excerpt: string;
  lang: string;
  /** True when an article-like element was found (false: the whole body). */
  readerable: boolean;
  /** The chosen content as Markdown (with `# title` on top). */
  markdown: string;
  /** The chosen content as plain text (blocks separated by blank lines). */
  text: string;
}

const REMOVE_ALWAYS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'link',
  'meta',
  'input',
  'select',
  'textarea',
  'button',
  'dialog',
  'head',
]);
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|cookie|consent|newsletter|subscribe|share|promo/i;
const MAYBE = /and|article|body|column|content|main|mathjax|shadow/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const NEVER_UNLIKELY = new Set([
  'html',
  'body',
  'article',
  'main',
  'a',
  'table',
  'tbody',
  'thead',
  'tr',
  'td',
  'th',
  'pre',
  'code',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const PAGE_CHROME = new Set(['nav', 'aside', 'footer']);
const SCORED = new Set(['p', 'pre', 'td', 'blockquote']);

function meta(doc: LightDocument, ...keys: string[]): string {
  for (const el of doc.getElementsByTagName('meta')) {
    const key = (el.getAttribute('property') ?? el.getAttribute('name') ?? '').toLowerCase();
    if (keys.includes(key)) {
      const v = (el.getAttribute('content') ?? '').trim();
      if (v) return v;
    }
  }
  return '';
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function isHidden(el: LightElement): boolean {
  if (el.hasAttribute('hidden')) return true;
  if (el.getAttribute('aria-hidden') === 'true' && !el.getElementsByTagName('img').length) return true;
  return /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(el.getAttribute('style') ?? '');
}

function remove(el: LightNode): void {
  el.parentNode?.removeChild(el);
}

function classWeight(el: LightElement): number {
  let w = 0;
  for (const name of [el.className, el.id]) {
    if (!name) continue;
    if (NEGATIVE.test(name)) w -= 25;
    if (POSITIVE.test(name)) w += 25;
  }
  return w;
}

function innerText(el: LightParent): string {
  return squash(el.textContent);
}

interface Stats {
  /** Characters of text (whitespace runs counted once). */
  text: number;
  /** Characters of link text (in-page `#` links count 0.3). */
  links: number;
  commas: number;
  p: number;
  img: number;
}

/**
 * Text, link text, commas, paragraphs and images of every element, in one bottom-up pass: scoring and tidying ask
 * for these for thousands of elements, and walking each subtree every time made large pages (Wikipedia) slow.
 */
function computeStats(root: LightParent): Map<LightElement, Stats> {
  const stats = new Map<LightElement, Stats>();
  const visit = (n: LightNode, inLink: number): Stats => {
    const s: Stats = { text: 0, links: 0, commas: 0, p: 0, img: 0 };
    if (n instanceof LightText) {
      const t = n.data.replace(/\s+/g, ' ');
      s.text = t === ' ' ? 0 : t.length;
      s.links = s.text * inLink;
      s.commas = t.match(/[,，、]/g)?.length ?? 0;
      return s;
    }
    if (!(n instanceof LightParent)) return s;
    let weight = inLink;
    if (n instanceof LightElement && n.localName === 'a')
      weight = (n.getAttribute('href') ?? '').startsWith('#') ? 0.3 : 1;
    for (let c = n.firstChild; c; c = c.nextSibling) {
      const cs = visit(c, weight);
      s.text += cs.text;
      s.links += cs.links;
      s.commas += cs.commas;
      s.p += cs.p;
      s.img += cs.img;
    }
    if (n instanceof LightElement) {
      if (n.localName === 'p') s.p++;
      if (n.localName === 'img') s.img++;
      stats.set(n, s);
    }
    return s;
  };
  visit(root, 0);
  return stats;
}

const NO_STATS: Stats = { text: 0, links: 0, commas: 0, p: 0, img: 0 };

function density(s: Stats): number {
  return s.text ? Math.min(1, s.links / s.text) : 0;
}

/** Removes what is never content, hidden elements, and (outside articles) blocks whose names say "not content". */
function clean(doc: LightDocument): void {
  for (const el of [...doc.descendants()]) {
    if (!el.parentNode) continue; // already gone with an ancestor
    const tag = el.localName;
    if (REMOVE_ALWAYS.has(tag) || isHidden(el)) {
      remove(el);
      continue;
    }
    const role = el.getAttribute('role') ?? '';
    if (/^(navigation|banner|contentinfo|complementary|search|dialog|alertdialog|menu|menubar)$/.test(role)) {
      remove(el);
      continue;
    }
    if (NEVER_UNLIKELY.has(tag)) continue;
    const names = `${el.className} ${el.id}`;
    if (names.trim() && UNLIKELY.test(names) && !MAYBE.test(names) && !el.closest('table') && !el.closest('code'))
      remove(el);
  }
}

/** Readability's scoring, reduced: returns the best candidate element, or undefined when nothing scored. */
function bestCandidate(body: LightParent): LightElement | undefined {
  const stats = computeStats(body);
  const st = (el: LightElement): Stats => stats.get(el) ?? NO_STATS;
  const scores = new Map<LightElement, number>();
  const init = (el: LightElement): number => {
    let s = classWeight(el);
    switch (el.localName) {
      case 'div':
        s += 5;
        break;
      case 'pre':
      case 'td':
      case 'blockquote':
        s += 3;
        break;
      case 'address':
      case 'ol':
      case 'ul':
      case 'dl':
      case 'dd':
      case 'dt':
      case 'li':
      case 'form':
        s -= 3;
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
      case 'th':
        s -= 5;
        break;
    }
    return s;
  };
  for (const el of body.descendants()) {
    // Paragraph-like: p/pre/td/blockquote, and divs holding text directly (many sites never use <p>).
    const direct =
      el.localName === 'div' && [...el.childNodes].some((c) => c instanceof LightText && c.data.trim().length > 25);
    if (!SCORED.has(el.localName) && !direct) continue;
    const { text, commas } = st(el);
    if (text < 25) continue;
    const score = 1 + commas + Math.min(3, Math.floor(text / 100));
    let level = 0;
    for (let a = el.parentNode; a instanceof LightElement && level < 5; a = a.parentNode, level++) {
      if (!scores.has(a)) scores.set(a, init(a));
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(a, scores.get(a)! + score / divider);
    }
  }
  let best: LightElement | undefined;
  let bestScore = 0;
  for (const [el, raw] of scores) {
    if (el.localName === 'body' || el.localName === 'html') continue;
    const score = raw * (1 - density(st(el)));
    if (score > bestScore) {
      best = el;
      bestScore = score;
    }
  }
  if (!best) return undefined;
  // Siblings that scored nearly as well belong to the article too (text split over several containers).
  const parent = best.parentNode;
  if (parent instanceof LightElement && parent.localName !== 'body') {
    const threshold = Math.max(10, bestScore * 0.2);
    const strong = parent.children.filter(
      (c) => c !== best && (scores.get(c) ?? 0) * (1 - density(st(c))) >= threshold,
    );
    if (strong.length) return parent;
  }
  return best;
}

/** Drops link farms, share bars and similar from inside the chosen content. */
function tidyContent(root: LightElement): void {
  const stats = computeStats(root);
  for (const el of [...root.descendants()].reverse()) {
    if (
      !el.parentNode ||
      !['div', 'section', 'ul', 'ol', 'aside', 'nav', 'footer', 'header', 'form'].includes(el.localName)
    )
      continue;
    if (PAGE_CHROME.has(el.localName)) {
      remove(el);
      continue;
    }
    // Stats from before this pass: removals inside an element make it look bigger than it is, never smaller.
    const s = stats.get(el) ?? NO_STATS;
    if (s.commas >= 10) continue;
    const weight = classWeight(el);
    const d = density(s);
    if (
      weight < 0 ||
      (d > 0.2 && weight < 25 && s.text < 500 && el.localName !== 'ul' && el.localName !== 'ol') ||
      d > 0.5 ||
      (s.img > 1 && s.p === 0 && s.text < 100 && !el.closest('figure'))
    )
      remove(el);
  }
}

function absolutize(root: LightParent, base: string | undefined): void {
  if (!base) return;
  const fix = (el: LightElement, attr: string): void => {
    const v = el.getAttribute(attr);
    if (!v || v.startsWith('#') || /^(data|javascript|mailto|tel):/i.test(v)) return;
    try {
      el.attributes.set(attr, new URL(v, base).href);
    } catch {
      // Leave what cannot be resolved.
    }
  };
  for (const a of root.getElementsByTagName('a')) fix(a, 'href');
  for (const img of root.getElementsByTagName('img')) {
    if (!img.getAttribute('src')) {
      const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-original');
      if (lazy) img.attributes.set('src', lazy);
    }
    fix(img, 'src');
  }
}

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'dl',
  'li',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'table',
  'tr',
  'figure',
  'figcaption',
  'address',
  'hr',
  'form',
  'fieldset',
  'details',
  'summary',
  'body',
  'caption',
]);

/** Plain text with block boundaries as blank lines, list items on their own lines, table cells split by ` | `. */
export function plainText(root: LightParent): string {
  let out = '';
  const walk = (n: LightNode, pre: boolean): void => {
    if (n instanceof LightText) {
      out += pre ? n.data : n.data.replace(/\s+/g, ' ');
      return;
    }
    if (!(n instanceof LightParent)) return;
    const tag = n instanceof LightElement ? n.localName : '';
    if (tag === 'br') {
      out += '\n';
      return;
    }
    if (tag === 'td' || tag === 'th') out += ' | ';
    const block = BLOCKS.has(tag);
    if (block) out += tag === 'li' || tag === 'tr' ? '\n' : '\n\n';
    if (tag === 'li') out += '- ';
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c, pre || tag === 'pre');
    if (block && tag !== 'li' && tag !== 'tr') out += '\n\n';
  };
  walk(root, false);
  return out
    .split('\n')
    .map((l) =>
      l
        .replace(/^[ \t]*\|[ \t]*/, '')
        .replace(/[ \t]+$/, '')
        .replace(/^[ \t]+(?=\S)/, (m) => (m.includes('\t') ? m : '')),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function pickTitle(doc: LightDocument): string {
  const og = meta(doc, 'og:title', 'twitter:title');
  if (og) return squash(og);
  const title = doc.title;
  const h1s = doc.getElementsByTagName('h1').map(innerText).filter(Boolean);
  if (title) {
    // "Article title | Site" → the part that matches a heading, else the longest part.
    const parts = title.split(/\s+[|\-–—»:]\s+/).filter(Boolean);
    if (parts.length > 1) {
      const match = parts.find((p) => h1s.includes(p));
      if (match) return match;
      if (h1s.length === 1 && title.includes(h1s[0]!)) return h1s[0]!;
      return parts.reduce((a, b) => (b.length > a.length ? b : a));
    }
    return title;
  }
  return h1s[0] ?? '';
}

/** Extracts the article of an HTML page. `baseUrl` (the page's final URL) makes links and images absolute. */
export function extractArticle(html: string, baseUrl?: string): Extracted {
  const doc = parseHtml(html);
  const title = pickTitle(doc);
  const byline = meta(doc, 'author', 'article:author', 'byl', 'parsely-author');
  const siteName = meta(doc, 'og:site_name', 'application-name');
  const excerpt = meta(doc, 'og:description', 'description', 'twitter:description');
  const lang = doc.documentElement?.getAttribute('lang') ?? '';
  const baseHref = doc.getElementsByTagName('base')[0]?.getAttribute('href');
  let base = baseUrl;
  try {
    if (baseHref) base = new URL(baseHref, baseUrl).href;
  } catch {
    // keep baseUrl
  }
  clean(doc);
  const body = doc.body ?? doc.documentElement ?? doc;

  let root: LightElement | undefined;
  const articles = body.getElementsByTagName('article').filter((a) => innerText(a).length >= 200);
  if (articles.length === 1) root = articles[0];
  if (!root) root = body.getElementsByTagName('main').find((m) => innerText(m).length >= 200);
  if (!root) root = bestCandidate(body);
  const readerable = !!root && innerText(root).length >= 140;
  const content: LightParent = readerable ? root! : body;
  if (content instanceof LightElement) tidyContent(content);
  else for (const el of (content as LightParent).children) tidyContent(el);
  // Outside an article, page chrome goes too.
  if (!readerable)
    for (const el of [...content.descendants()]) if (PAGE_CHROME.has(el.localName) && el.parentNode) remove(el);
  absolutize(content, base);

  // The title heading once: drop a leading h1 that repeats it.
  const firstHeading = content.querySelector('h1');
  if (firstHeading && title && innerText(firstHeading) === title) remove(firstHeading);
  const md = htmlToMarkdown(content as unknown as Node);
  const markdown = title ? `# ${title}\n\n${md}`.trim() : md;
  const text = plainText(content);
  return {
    title,
    byline,
    siteName,
    excerpt,
    lang,
    readerable,
    markdown,
    text: title ? `${title}\n\n${text}`.trim() : text,
  };
}
