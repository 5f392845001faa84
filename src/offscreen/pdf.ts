/**
 * Otto's PDF reader (#19): an offscreen document the worker opens when it needs the text of a PDF. pdf.js parses
 * in its own Web Worker (the service worker cannot start one, and the library is too big for the worker's bundle);
 * pdf.js 6 has no `isEvalSupported` option any more because it builds no functions from strings at all (MV3 forbids
 * eval; test/build/pdfNoEval.test.ts checks the library files). Nothing is rendered: only each page's text layer is
 * read, and whether the page paints an image (a scan).
 */
import { getDocument, GlobalWorkerOptions, OPS, PDFWorker } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { PDF_TARGET, PdfRequest, type PdfPage, type PdfReply } from '../shared/pdfMessages.ts';

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

async function extract(req: PdfRequest): Promise<PdfReply> {
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
    const last = Math.min(doc.numPages, req.maxPages);
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
      pages.push({ n, text, images });
      page.cleanup();
    }
    const meta = await doc.getMetadata().catch(() => undefined);
    const title = (meta?.info as { Title?: unknown } | undefined)?.Title;
    return { ok: true, numPages: doc.numPages, pages, ...(typeof title === 'string' && title ? { title } : {}) };
  } finally {
    await task.destroy();
  }
}

chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse: (r: PdfReply) => void) => {
  if ((raw as { target?: unknown } | null)?.target !== PDF_TARGET) return false;
  if (sender.id !== chrome.runtime.id) return false;
  const parsed = PdfRequest.safeParse(raw);
  if (!parsed.success) {
    sendResponse({ ok: false, error: 'malformed PDF request' });
    return false;
  }
  extract(parsed.data).then(sendResponse, (e: unknown) =>
    sendResponse({ ok: false, error: (e as Error)?.message ?? String(e) }),
  );
  return true;
});
