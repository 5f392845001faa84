/**
 * dom.read on a tab that shows a PDF (#19): Chrome's PDF viewer has no page text for the content script, so the
 * PDF is fetched again from the tab's URL and read with pdf.js. Whether the tab shows a PDF is asked of its top
 * document (`document.contentType`): the tab is one the run reads already.
 */
import { pdfText } from './pdf.ts';

/** The tab's PDF URL when its top document is a PDF, else undefined. */
export async function pdfUrlOfTab(tabId: number): Promise<string | undefined> {
  if (typeof chrome === 'undefined' || !chrome.scripting?.executeScript) return undefined;
  const [r] = await chrome.scripting
    .executeScript({ target: { tabId, frameIds: [0] }, func: () => [document.contentType, location.href] })
    .catch(() => [] as chrome.scripting.InjectionResult<string[]>[]);
  const [type, url] = (r?.result as string[] | undefined) ?? [];
  return type === 'application/pdf' && url && /^(https?|file):/i.test(url) ? url : undefined;
}

/** The text of the PDF the tab shows, or undefined when it shows none. */
export async function readTabPdf(tabId: number, opts: { maxChars?: number } = {}): Promise<string | undefined> {
  const url = await pdfUrlOfTab(tabId);
  if (!url) return undefined;
  const res = await fetch(url, { credentials: 'include' });
  if (!res.ok)
    throw new Error(
      `The tab shows a PDF, but fetching it again to read it answered HTTP ${res.status} (${url.slice(0, 200)}).`,
    );
  return pdfText(url.slice(0, 300), await res.arrayBuffer(), opts);
}
