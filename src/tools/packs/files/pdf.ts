/**
 * The text of a PDF, page by page (#19), from the worker: pdf.js runs in an offscreen document (src/offscreen/pdf.ts)
 * that the worker opens on first use and closes again after a minute without PDFs, so neither the worker's bundle
 * nor an idle browser carries the library. `pdfText` formats what the model receives: a head line (pages, which
 * have no text layer), then each page under its number inside an untrusted-content boundary.
 */
import { wrapUntrusted } from '../../../content/untrusted.ts';
import { PDF_TARGET, PdfReply, type PdfPage } from '../../../shared/pdfMessages.ts';
import { toBase64 } from './bytes.ts';

const OFFSCREEN_PATH = 'src/offscreen/pdf.html';
const IDLE_CLOSE_MS = 60_000;
export const MAX_PDF_PAGES = 2000;

let creating: Promise<void> | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

async function ensureOffscreen(): Promise<void> {
  const url = chrome.runtime.getURL(OFFSCREEN_PATH);
  const contexts = await chrome.runtime.getContexts?.({
    contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType],
    documentUrls: [url],
  });
  if (contexts?.length) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'Reads the text of PDF files with pdf.js in a Web Worker.',
    })
    .catch((e: unknown) => {
      // Another call created it first.
      if (!/single offscreen document|already/i.test((e as Error).message ?? '')) throw e;
    })
    .finally(() => (creating = undefined));
  await creating;
}

function closeWhenIdle(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void chrome.offscreen.closeDocument().catch(() => undefined), IDLE_CLOSE_MS);
}

export interface PdfText {
  numPages: number;
  pages: PdfPage[];
  title?: string;
}

/** Parses a PDF's bytes in the offscreen reader. Throws a clear error when it is no readable PDF. */
export async function extractPdf(bytes: ArrayBuffer | Uint8Array, maxPages = MAX_PDF_PAGES): Promise<PdfText> {
  await ensureOffscreen();
  closeWhenIdle();
  const raw: unknown = await chrome.runtime.sendMessage({
    target: PDF_TARGET,
    type: 'pdf.text',
    data: toBase64(bytes),
    maxPages,
  });
  closeWhenIdle();
  const reply = PdfReply.safeParse(raw);
  if (!reply.success) throw new Error('The PDF reader sent no usable answer.');
  if (!reply.data.ok) throw new Error(`This PDF could not be read: ${reply.data.error}`);
  const { ok: _ok, ...text } = reply.data;
  return text;
}

/** Pages as the model reads them: `--- page 2 of 3 ---` then its text, or why it has none. */
export function formatPdf(what: string, pdf: PdfText, opts: { fromPage?: number; maxChars?: number } = {}): string {
  const from = Math.max(1, opts.fromPage ?? 1);
  const blank = pdf.pages.filter((p) => !p.text);
  const scanned = blank.filter((p) => p.images).map((p) => p.n);
  const empty = blank.filter((p) => !p.images).map((p) => p.n);
  const withText = pdf.pages.length - blank.length;
  let head = `PDF ${what}${pdf.title ? ` ("${pdf.title.replace(/\s+/g, ' ').slice(0, 200)}")` : ''}: ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}, ${withText} with text`;
  if (scanned.length)
    head += `; no text layer on page${scanned.length > 1 ? 's' : ''} ${scanned.join(', ')} (an image, probably scanned: its text cannot be read)`;
  if (empty.length) head += `; page${empty.length > 1 ? 's' : ''} ${empty.join(', ')} empty`;
  if (!withText) head += '. This PDF has no text layer at all (a scan?): Otto cannot read its words.';
  if (pdf.pages.length < pdf.numPages) head += `; only the first ${pdf.pages.length} pages were read`;
  const max = opts.maxChars ?? Infinity;
  let body = '';
  let cut: number | undefined;
  for (const p of pdf.pages) {
    if (p.n < from) continue;
    const text = p.text || (p.images ? '[no text layer: this page is an image (scanned?)]' : '[empty page]');
    const part = `--- page ${p.n} of ${pdf.numPages} ---\n${text}\n`;
    if (body.length + part.length > max && body) {
      cut = p.n;
      break;
    }
    body += part;
  }
  const more = cut ? `\n[Cut at page ${cut}: read on with from_page=${cut}.]` : '';
  return `${head}\n${wrapUntrusted(body.trimEnd() || '(no pages)')}${more}`;
}

/** `formatPdf(extractPdf(bytes))` in one step. */
export async function pdfText(
  what: string,
  bytes: ArrayBuffer | Uint8Array,
  opts: { fromPage?: number; maxChars?: number } = {},
): Promise<string> {
  return formatPdf(what, await extractPdf(bytes), opts);
}
