/**
 * dom.read on a tab that shows a PDF (#19): Chrome's PDF viewer has no page text for the content script, so the
 * PDF is fetched again from the tab's URL and read with pdf.js. Whether the tab shows a PDF is asked of its top
 * document (`document.contentType`): the tab is one the run reads already. dom.snapshot and dom.text on such a tab
 * give a note that names files.read instead of an empty page (pdfTabNote).
 */
import { extractPdf, formatPdf } from './pdf.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';

/** The tab's PDF URL when its top document is a PDF, else undefined. */
export async function pdfUrlOfTab(tabId: number): Promise<string | undefined> {
  if (typeof chrome === 'undefined' || !chrome.scripting?.executeScript) return undefined;
  const [r] = await chrome.scripting
    .executeScript({ target: { tabId, frameIds: [0] }, func: () => [document.contentType, location.href] })
    .catch(() => [] as chrome.scripting.InjectionResult<string[]>[]);
  const [type, url] = (r?.result as string[] | undefined) ?? [];
  return type === 'application/pdf' && url && /^(https?|file):/i.test(url) ? url : undefined;
}

/** The bytes of the PDF the tab shows (fetched again from its URL with the user's cookies), or undefined. */
export async function tabPdfBytes(tabId: number): Promise<{ url: string; bytes: Uint8Array } | undefined> {
  const url = await pdfUrlOfTab(tabId);
  if (!url) return undefined;
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok)
    throw new Error(
      `The tab shows a PDF, but fetching it again to read it answered HTTP ${res.status} (${url.slice(0, 200)}).`,
    );
  return { url, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/**
 * The text of the PDF the tab shows, or undefined when it shows none. Scanned pages (no text layer) are named with the
 * files.read call that shows them as images (#43).
 */
export async function readTabPdf(tabId: number, opts: { maxChars?: number } = {}): Promise<string | undefined> {
  const pdf = await tabPdfBytes(tabId);
  if (!pdf) return undefined;
  const text = await extractPdf(pdf.bytes);
  const scanned = text.pages.filter((p) => !p.text && p.images).map((p) => p.n);
  const hint = scanned.length
    ? `\n[No text layer on page${scanned.length > 1 ? 's' : ''} ${scanned.join(', ')}: files.read(tab_id=${tabId}) shows scanned pages as images; files.read(tab_id=${tabId}, page_image=${scanned[0]}) shows page ${scanned[0]}.]`
    : '';
  return formatPdf(pdf.url.slice(0, 300), text, opts) + hint;
}

/**
 * What dom.snapshot and dom.text say on a tab showing a PDF (#43): the viewer's pages are no part of the page's
 * outline or text, so instead of "(nothing visible)" the model learns what the tab is and the call that reads it. The
 * first line is Otto's words only; the file's address is the site's, inside the boundary.
 */
export function pdfTabNote(tabId: number, url: string): string {
  return (
    `Tab ${tabId} shows a PDF in Chrome's PDF viewer: its pages are not part of the page (no outline, refs or text here). ` +
    `Read it with files.read(tab_id=${tabId}): the text page by page, and pages without a text layer (scanned) as images; ` +
    `files.read(tab_id=${tabId}, page_image=N) shows page N as an image. The file's address:\n` +
    wrapUntrusted(`url: ${url.slice(0, 500)}`)
  );
}

/** The note when the tab shows a PDF, else undefined (a cheap check: the top document's content type). */
export async function pdfTabNoteOf(tabId: number): Promise<string | undefined> {
  const url = await pdfUrlOfTab(tabId);
  return url && pdfTabNote(tabId, url);
}
