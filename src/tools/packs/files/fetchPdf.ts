/**
 * web.fetch of a PDF (#19): the bytes are fetched (no cookies, like every web.fetch), kept in Otto's file store with
 * the site as their origin, and returned as text page by page, naming the stored copy.
 */
import type { ToolContext } from '../../Tool.ts';
import { urlLabel } from '../../guard/labels.ts';
import { fileStore, safeFileName } from '../../../storage/files.ts';
import { extractPdf, formatPdf } from './pdf.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';

export const FETCH_PDF_MAX_BYTES = 50 * 1024 * 1024;

/**
 * `asked`: the URL the model asked for. After a redirect the final address is the site's words, so the text names the
 * asked one and gives the final one inside the boundary (docs/decisions.md, "Page text stays inside the untrusted
 * boundary").
 */
export async function fetchPdf(
  url: string,
  maxChars: number,
  ctx: Pick<ToolContext, 'signal'>,
  asked = url,
): Promise<string> {
  const res = await fetch(url, { credentials: 'omit', signal: ctx.signal });
  if (!res.ok) throw new Error(`Fetching the PDF answered HTTP ${res.status}: ${url.slice(0, 200)}`);
  const bytes = await res.arrayBuffer();
  if (bytes.byteLength > FETCH_PDF_MAX_BYTES)
    throw new Error(
      `The PDF is larger than ${FETCH_PDF_MAX_BYTES / 1048576} MB; download it with files.download instead.`,
    );
  let kept = '';
  let keptName = '';
  try {
    const store = fileStore();
    const base = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'document.pdf';
    const name = await store.freeName(safeFileName(/\.pdf$/i.test(base) ? base : `${base}.pdf`, 'document.pdf'));
    const label = urlLabel(url);
    await store.saveBytes(name, bytes, 'application/pdf', { source: 'fetch', origins: label ? [label] : [], url });
    kept = `\n[Kept in Otto's file store as ${JSON.stringify(name)} (files.read, files.upload).]`;
    keptName = name;
  } catch {
    // Keeping a copy is a convenience: the text is still returned.
  }
  const redirected = asked.replace(/#.*$/, '') !== url;
  const source = redirected
    ? `Source: ${asked}, redirected to the address below\n${wrapUntrusted(`final url: ${url}`)}`
    : `Source: ${url}`;
  const pdf = await extractPdf(bytes);
  // #43: scanned pages are named with the call that shows them as images (the kept copy's name).
  const scanned = pdf.pages.filter((p) => !p.text && p.images).map((p) => p.n);
  const scans =
    scanned.length && keptName
      ? `\n[No text layer on page${scanned.length > 1 ? 's' : ''} ${scanned.join(', ')}: files.read(name=${JSON.stringify(keptName)}) shows scanned pages as images.]`
      : '';
  return `${source}\n${formatPdf(asked.slice(0, 300), pdf, { maxChars })}${kept}${scans}`;
}
