/**
 * One PDF page drawn as an image (#43), for `files.read` on a scanned page (no text layer) or when the model asks to
 * see a page. pdf.js draws into a canvas of this document (an offscreen document has a DOM, the service worker has
 * none); the page is scaled to fit `maxWidth` × `maxHeight` px, painted on white (a PDF page's paper), and encoded
 * as JPEG, as screenshots are.
 */
import type { PDFPageProxy } from 'pdfjs-dist';

export interface PageImage {
  url: string;
  width: number;
  height: number;
}

/** The scale that fits a page of `w` × `h` points in the box (never above 2× its natural size). */
export function fitScale(w: number, h: number, maxWidth: number, maxHeight: number): number {
  return Math.min(2, maxWidth / w, maxHeight / h);
}

export async function renderPageImage(page: PDFPageProxy, maxWidth: number, maxHeight: number): Promise<PageImage> {
  const natural = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: fitScale(natural.width, natural.height, maxWidth, maxHeight) });
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.floor(viewport.width));
  canvas.height = Math.max(1, Math.floor(viewport.height));
  // `print`: pdf.js then draws in plain tasks; with `display` it waits for animation frames, which a hidden
  // offscreen document never gets (the render hung).
  await page.render({ canvas, viewport, background: 'white', intent: 'print' }).promise;
  const url = canvas.toDataURL('image/jpeg', 0.85);
  // Free the bitmap now rather than when the collector comes by (a page at 1000 px is ~5 MB of pixels).
  canvas.width = canvas.height = 0;
  return { url, width: viewport.width | 0, height: viewport.height | 0 };
}
