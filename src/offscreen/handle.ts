/**
 * What the offscreen document does with each request (main.ts wires it to `chrome.runtime.onMessage`):
 *   html.article — the page parsed with the browser's DOMParser, its article extracted (article.ts, #15);
 *   page.article — dom.read's article of an open page too big to read in its own thread (pageArticle.ts, #24);
 *   pdf.text     — a PDF's text page by page with pdf.js (pdfReader.ts, #19), loaded on the first PDF only, so
 *                  parsing a page does not pay for pdf.js's 1.7 MB.
 */
import type { OffscreenReplies, OffscreenRequest } from '../shared/offscreenMessages.ts';
import { articleOf } from './article.ts';
import { pageArticle } from './pageArticle.ts';

export async function handleOffscreen(req: OffscreenRequest): Promise<OffscreenReplies[OffscreenRequest['type']]> {
  switch (req.type) {
    case 'html.article': {
      const parse = () => new DOMParser().parseFromString(req.html, 'text/html');
      return { ok: true, ...articleOf(parse, req.url, req.format) };
    }
    case 'page.article':
      return pageArticle(req);
    case 'pdf.text':
      return (await import('./pdfReader.ts')).readPdf(req);
  }
}
