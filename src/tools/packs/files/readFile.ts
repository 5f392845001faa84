/**
 * `files.read` (#19, #43): a file from Otto's file store, or the PDF a tab shows. Text files as text; PDFs page by
 * page, with pages that have no text layer (scans) drawn as images for the model, and any one page drawn on request
 * (`page_image`). A tab's PDF is fetched again from its address with the user's cookies (Chrome's viewer gives a
 * script no page text), as dom.read does.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import type { ToolContext } from '../../Tool.ts';
import { urlLabel } from '../../guard/labels.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';
import { fileStore, type FileInfo } from '../../../storage/files.ts';
import type { FileRecord } from '../../../storage/resultRecords.ts';
import type { PageApi } from '../../../page/api.ts';
import { humanSize, isTextType, looksLikePdf } from './bytes.ts';
import { extractPdf } from './pdf.ts';
import { MAX_SCANNED_IMAGES, pdfOutput, pdfPageOutput, type PdfOutput } from './pdfImages.ts';
import { tabPdfBytes } from './tabPdf.ts';

export interface ReadFileOptions {
  page: () => PageApi;
  /** Test seam: the offscreen PDF reader. */
  extract?: typeof extractPdf;
}

export function sourceOf(f: FileInfo): string {
  if (f.source === 'download') return `downloaded from ${f.url ?? 'the web'}`;
  if (f.source === 'fetch') return `fetched from ${f.url ?? 'the web'}`;
  if (f.source === 'user') return 'picked by the user for this conversation';
  return 'written by Otto';
}

export async function getStored(name: string): Promise<FileRecord> {
  const f = await fileStore().get(name);
  if (!f) {
    const names = (await fileStore().list()).slice(0, 20).map((x) => JSON.stringify(x.name));
    throw new Error(
      `No file named ${JSON.stringify(name)} in Otto's file store.${names.length ? ` Files: ${names.join(', ')}.` : ' It is empty.'} List them with files.list.`,
    );
  }
  return f;
}

export function bytesOf(f: FileRecord): Uint8Array {
  return f.bytes ? new Uint8Array(f.bytes) : new TextEncoder().encode(f.content);
}

const Args = z.object({
  name: z.string().min(1).max(200).optional().describe('A file name from files.list'),
  tab_id: z.number().int().nonnegative().optional().describe('Instead of name: the PDF this tab shows'),
  from_page: z.number().int().min(1).optional().describe('PDF: start at this page'),
  page_image: z.number().int().min(1).optional().describe('PDF: show this page as an image'),
});
type Args = z.infer<typeof Args>;

export function createReadFileTool(opts: ReadFileOptions) {
  const extract = opts.extract ?? extractPdf;

  /** A PDF's pages for the model: one page drawn (`page_image`), or the text with scanned pages drawn. */
  async function readPdf(what: string, call: string, bytes: Uint8Array, args: Args): Promise<PdfOutput> {
    if (args.page_image) {
      const pdf = await extract(bytes, 1, { pages: [args.page_image], scanned: 0 });
      return pdfPageOutput(what, pdf, args.page_image);
    }
    const pdf = await extract(bytes, undefined, { pages: [], scanned: MAX_SCANNED_IMAGES });
    return pdfOutput(what, call, pdf, args.from_page ? { fromPage: args.from_page } : {});
  }

  async function readTab(args: Args, ctx: ToolContext): Promise<PdfOutput> {
    const tabId = await opts.page().resolveTabId(args.tab_id ?? ctx.tabId);
    const pdf = await tabPdfBytes(tabId);
    if (!pdf)
      throw new Error(
        `Tab ${tabId} does not show a PDF. files.read(tab_id=…) reads a tab showing a PDF; read a page with dom.read or dom.snapshot.`,
      );
    const label = urlLabel(pdf.url);
    ctx.flow?.report(label ? [label] : []);
    return readPdf(`in tab ${tabId}`, `files.read(tab_id=${tabId}, page_image=PAGE)`, pdf.bytes, args);
  }

  return defineTool({
    pack: 'files',
    name: 'read',
    description:
      "Read a file from Otto's file store, or the PDF a tab shows (tab_id): text files as text, PDFs page by page with page numbers; a page without a text layer (scanned) comes as an image, and page_image shows any page as one. Long text is stored; page through it with ot.result.",
    parameters: Args,
    effect: 'reads',
    // Its output carries the origins the file came from (a download's site, the tab's site), reported after the read.
    flow: { source: 'reported', sink: 'none' },
    examples: [
      "files.read(name='invoice.pdf')",
      'files.read(tab_id=12, page_image=3)',
      "files.read(name='report.csv')",
    ],
    returns:
      'A head line (name, type, size, origin) and the content inside an <external-content-…> boundary; PDF pages drawn as images follow as images.',
    async execute(args, ctx) {
      if (args.name === undefined && args.tab_id === undefined)
        throw new Error('files.read needs name (a file from files.list) or tab_id (a tab showing a PDF).');
      if (args.name !== undefined && args.tab_id !== undefined)
        throw new Error('files.read takes name or tab_id, not both.');
      if (args.name === undefined) return readTab(args, ctx);
      const f = await getStored(args.name);
      ctx.flow?.report(f.origins ?? []);
      const bytes = bytesOf(f);
      const head = `${f.name} (${f.mime}, ${humanSize(f.size)}, ${sourceOf(f)})`;
      const call = `files.read(name=${JSON.stringify(f.name)}, page_image=PAGE)`;
      if (looksLikePdf(bytes, f.mime)) return readPdf(JSON.stringify(f.name), call, bytes, args);
      if (args.page_image) throw new Error(`${f.name} is not a PDF: page_image applies to PDFs only.`);
      if (!f.bytes) return `${head}\n${wrapUntrusted(f.content || '(empty file)')}`;
      if (!isTextType(f.mime, bytes))
        return `${head}: a binary file Otto cannot show as text. It can be uploaded (files.upload) as it is.`;
      return `${head}\n${wrapUntrusted(new TextDecoder().decode(bytes) || '(empty file)')}`;
    },
  });
}
