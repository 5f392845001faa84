/**
 * The text of a PDF, page by page (#19), from the worker: pdf.js runs in Otto's offscreen document
 * (src/offscreen/, opened on first use and closed by itself after a minute without requests), so neither the
 * worker's bundle nor an idle browser carries the library. `formatPdf` formats what the model receives: a head line
 * (pages, which have no text layer), then each page under its number inside an untrusted-content boundary.
 */
import { wrapUntrusted } from '../../../shared/untrusted.ts';
import { askOffscreen } from '../../../offscreen/offscreenClient.ts';
import type { PdfPage } from '../../../shared/offscreenMessages.ts';
import { toBase64 } from './bytes.ts';

export const MAX_PDF_PAGES = 2000;
/** A page drawn as an image fits this box (px): the short side a model looks at closely is 768 px (scaleImage.ts). */
export const PAGE_IMAGE_BOX = { maxWidth: 768, maxHeight: 1024 } as const;

/** Pages to draw as images: these by number, and up to `scanned` pages that have no text layer but an image. */
export interface PdfRender {
  pages: number[];
  scanned: number;
}

export interface PdfText {
  numPages: number;
  pages: PdfPage[];
  title?: string;
}

/** Parses a PDF's bytes in the offscreen reader. Throws a clear error when it is no readable PDF. */
export async function extractPdf(
  bytes: ArrayBuffer | Uint8Array,
  maxPages = MAX_PDF_PAGES,
  render?: PdfRender,
): Promise<PdfText> {
  const reply = await askOffscreen({
    type: 'pdf.text',
    data: toBase64(bytes),
    maxPages,
    ...(render ? { render: { ...render, ...PAGE_IMAGE_BOX } } : {}),
  });
  if (!reply.ok) throw new Error(`This PDF could not be read: ${reply.error}`);
  const { ok: _ok, ...text } = reply;
  return text;
}

/** Pages as the model reads them: `--- page 2 of 3 ---` then its text, or why it has none. */
export function formatPdf(what: string, pdf: PdfText, opts: { fromPage?: number; maxChars?: number } = {}): string {
  const from = Math.max(1, opts.fromPage ?? 1);
  const blank = pdf.pages.filter((p) => !p.text);
  const scanned = blank.filter((p) => p.images).map((p) => p.n);
  const empty = blank.filter((p) => !p.images).map((p) => p.n);
  const withText = pdf.pages.length - blank.length;
  // The document's title is its author's words: named inside the boundary, on the block's first line.
  const title = pdf.title ? `title: ${pdf.title.replace(/\s+/g, ' ').slice(0, 200)}\n` : '';
  let head = `PDF ${what}${title ? ' (its title is the first line below)' : ''}: ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}, ${withText} with text`;
  const drawn = scanned.length > 0 && blank.every((p) => !p.images || p.image);
  if (scanned.length)
    head += `; no text layer on page${scanned.length > 1 ? 's' : ''} ${scanned.join(', ')} (an image, probably scanned: ${drawn ? 'shown as an image after the text' : 'its text cannot be read'})`;
  if (empty.length) head += `; page${empty.length > 1 ? 's' : ''} ${empty.join(', ')} empty`;
  if (!withText && !drawn) head += '. This PDF has no text layer at all (a scan?): Otto cannot read its words.';
  if (pdf.pages.length < pdf.numPages) head += `; only the first ${pdf.pages.length} pages were read`;
  const max = opts.maxChars ?? Infinity;
  let body = '';
  let cut: number | undefined;
  for (const p of pdf.pages) {
    if (p.n < from) continue;
    const shown = p.image ? '; it is shown as an image after this text' : '';
    const text = p.text || (p.images ? `[no text layer: this page is an image (scanned?)${shown}]` : '[empty page]');
    const part = `--- page ${p.n} of ${pdf.numPages} ---\n${text}\n`;
    if (body.length + part.length > max && body) {
      cut = p.n;
      break;
    }
    body += part;
  }
  const more = cut ? `\n[Cut at page ${cut}: read on with from_page=${cut}.]` : '';
  return `${head}\n${wrapUntrusted(title + (body.trimEnd() || '(no pages)'))}${more}`;
}
