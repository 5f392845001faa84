/**
 * Otto's PDF reader (#19), in the offscreen document (main.ts loads this module on the first PDF). pdf.js parses
 * in its own Web Worker (the service worker cannot start one, and the library is too big for the worker's bundle);
 * pdf.js 6 has no `isEvalSupported` option any more because it builds no functions from strings at all (MV3 forbids
 * eval; test/build/pdfNoEval.test.ts checks the library files). Nothing is rendered: only each page's text layer is
 * read, and whether the page paints an image (a scan). Pages are drawn as images only when the request asks
 * (`render`: pages by number, and scanned pages up to a count; pdfPageImage.ts).
 */
import { getDocument, GlobalWorkerOptions, OPS, PDFWorker } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PdfPage, PdfReply, PdfRequest } from '../shared/offscreenMessages.ts';
import { renderPageImage } from './pdfPageImage.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

function decode(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);

// One pdf.js worker for the document's life: starting one per PDF cost as much as the parse itself.
let worker: PDFWorker | undefined;

export async function readPdf(req: PdfRequest): Promise<PdfReply> {
  worker ??= PDFWorker.create({});
  const task = getDocument({
    worker,
    data: decode(req.data),
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const pages: PdfPage[] = [];
    const last = Math.min(doc.numPages, Math.max(req.maxPages, ...(req.render?.pages ?? [])));
    let scannedLeft = req.render?.scanned ?? 0;
    for (let n = 1; n <= last; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
        else if (item.str && !text.endsWith(' ')) text += ' ';
      }
      text = text.replace(/[ \t]+\n/g, '\n').trim();
      let images = false;
      if (!text) {
        const ops = await page.getOperatorList();
        images = ops.fnArray.some((f) => IMAGE_OPS.has(f));
      }
      const asked = req.render?.pages.includes(n);
      const scan = !text && images && scannedLeft > 0;
      if (scan && !asked) scannedLeft--;
      const image =
        req.render && (asked || scan)
          ? await renderPageImage(page, req.render.maxWidth, req.render.maxHeight)
          : undefined;
      pages.push({ n, text, images, ...(image ? { image } : {}) });
      page.cleanup();
    }
    const meta = await doc.getMetadata().catch(() => undefined);
    const title = (meta?.info as { Title?: unknown } | undefined)?.Title;
    return { ok: true, numPages: doc.numPages, pages, ...(typeof title === 'string' && title ? { title } : {}) };
  } finally {
    await task.destroy();
  }
}
