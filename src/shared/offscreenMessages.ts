/**
 * Worker ⇄ offscreen document (src/offscreen/): the one document Otto opens for what a service worker cannot do —
 * read a PDF with pdf.js (#19), parse a fetched HTML page with the browser's DOMParser (#15). The worker sends a
 * request with `chrome.runtime.sendMessage`; the document answers with the reply of that request's type. Both sides
 * validate: the document the request, the worker the reply (`OFFSCREEN_REPLIES[type]`).
 */
import { PageHtml, ReadReply } from './contentMessages.ts';
import { z } from './zod.ts';

export const OFFSCREEN_TARGET = 'otto-offscreen';

export const PdfRequest = z.object({
  target: z.literal(OFFSCREEN_TARGET),
  type: z.literal('pdf.text'),
  /** The PDF's bytes, base64. */
  data: z.string(),
  maxPages: z.number().int().min(1).max(5000),
  /**
   * Pages to render as images too (#43): `pages` by number, and up to `scanned` of the pages read that have no text
   * layer but paint an image (a scan). Each image fits in `maxWidth` × `maxHeight` CSS px (JPEG).
   */
  render: z
    .object({
      pages: z.array(z.number().int().min(1)).max(20),
      scanned: z.number().int().min(0).max(20),
      maxWidth: z.number().int().min(100).max(4000),
      maxHeight: z.number().int().min(100).max(4000),
    })
    .optional(),
});
export type PdfRequest = z.infer<typeof PdfRequest>;

export const ARTICLE_FORMATS = ['markdown', 'text'] as const;

export const ArticleRequest = z.object({
  target: z.literal(OFFSCREEN_TARGET),
  type: z.literal('html.article'),
  html: z.string(),
  /** The page's final URL: relative links and images are made absolute against it (or its `<base href>`). */
  url: z.string(),
  format: z.enum(ARTICLE_FORMATS),
});
export type ArticleRequest = z.infer<typeof ArticleRequest>;

/** dom.read's article of an open page too big to read in its own thread (#24): the same reply as in the page. */
export const PageArticleRequest = z.object({
  target: z.literal(OFFSCREEN_TARGET),
  type: z.literal('page.article'),
  page: PageHtml,
  maxChars: z.number().int().min(100).max(1_000_000),
});
export type PageArticleRequest = z.infer<typeof PageArticleRequest>;

export const OffscreenRequest = z.discriminatedUnion('type', [PdfRequest, ArticleRequest, PageArticleRequest]);
export type OffscreenRequest = z.infer<typeof OffscreenRequest>;

const Failed = z.object({ ok: z.literal(false), error: z.string() });

export const PdfPage = z.object({
  n: z.number().int(),
  text: z.string(),
  /** The page paints an image: with no text, it is most likely a scan. */
  images: z.boolean(),
  /** The page rendered (when asked): a `data:image/jpeg;base64,…` URL and its size in px. */
  image: z
    .object({
      url: z.string().startsWith('data:image/'),
      width: z.number().int(),
      height: z.number().int(),
    })
    .optional(),
});
export type PdfPage = z.infer<typeof PdfPage>;

export const PdfReply = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    numPages: z.number().int(),
    pages: z.array(PdfPage),
    title: z.string().optional(),
  }),
  Failed,
]);
export type PdfReply = z.infer<typeof PdfReply>;

export const Article = z.object({
  title: z.string(),
  byline: z.string(),
  siteName: z.string(),
  excerpt: z.string(),
  lang: z.string(),
  /** Readability found an article (false: the page's main content or body, page chrome removed). */
  readerable: z.boolean(),
  /** The article in the requested format, its title on top (`# title` in Markdown). */
  content: z.string(),
});
export type Article = z.infer<typeof Article>;

export const ArticleReply = z.discriminatedUnion('ok', [Article.extend({ ok: z.literal(true) }), Failed]);
export type ArticleReply = z.infer<typeof ArticleReply>;

/** `article: null`: Readability found none; the page then gives its visible text (it needs the live layout). */
export const PageArticleReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), article: z.nullable(ReadReply) }),
  Failed,
]);
export type PageArticleReply = z.infer<typeof PageArticleReply>;

/** The reply schema of each request type: the worker validates what comes back with it. */
export const OFFSCREEN_REPLIES = {
  'pdf.text': PdfReply,
  'html.article': ArticleReply,
  'page.article': PageArticleReply,
} as const;
export type OffscreenReplies = { [K in OffscreenRequest['type']]: z.infer<(typeof OFFSCREEN_REPLIES)[K]> };
