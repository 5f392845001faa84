/**
 * The `files` pack (#19): Otto's file store — what ot.stats and ot.notify write, downloads, PDFs fetched with
 * web.fetch, files the user picked in the panel — and moving files across the page's edges: downloads (a URL, or a
 * click that starts one) waited for and kept, uploads into a file input or a drop zone. Reading a stored PDF gives
 * its text page by page (pdf.ts). The page itself is reached through the `PageApi` (src/page/api.ts).
 */
import { z } from '../../../shared/zod.ts';
import { REF_RE } from '../../../shared/contentMessages.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { ToolContext, AnyTool } from '../../Tool.ts';
import type { PackSpec } from '../../ToolRegistry.ts';
import { fileStore, type FileInfo } from '../../../storage/files.ts';
import type { PageApi } from '../../../page/api.ts';
import { humanSize, toBase64 } from './bytes.ts';
import { finishDownload } from './downloads.ts';
import { createDownloadClickTool } from './downloadClick.ts';
import { formatDownload } from './formatDownload.ts';
import type { extractPdf } from './pdf.ts';
import { bytesOf, createReadFileTool, getStored, sourceOf } from './readFile.ts';

export const FILES_PACK: PackSpec = {
  name: 'files',
  instructions:
    "Otto's file store and the page's file edges: files.list / files.read (text; PDFs page by page), files.download (a URL) and " +
    'files.download_click (a link or button) wait for the download and keep a copy, files.upload puts a stored file into a file input or drop zone.',
};

const tabId = z.number().int().nonnegative().optional();
const ref = z
  .string()
  .regex(REF_RE, 'a ref looks like e12 (or f3e12 inside a frame)')
  .optional()
  .describe('Ref (kqe12)');
const selector = z.string().min(1).max(2000).optional().describe('CSS selector');
const fileName = z.string().min(1).max(200).describe('A file name from files.list');

export interface FilesToolsOptions {
  /** The page (src/page/api.ts), for files.upload and the console/network capture. */
  page: () => PageApi;
  /** Test seam: the offscreen PDF reader. */
  extract?: typeof extractPdf;
}

const MB = 1024 * 1024;
export const MAX_UPLOAD_BYTES = 25 * MB;

function listLine(f: FileInfo): string {
  return `- ${JSON.stringify(f.name)} — ${f.mime}, ${humanSize(f.size)}, ${sourceOf(f)}, ${new Date(f.updatedAt).toISOString()}`;
}

export function createFilesTools(opts: FilesToolsOptions): AnyTool[] {
  const { page } = opts;
  const keepBytes = (ctx: ToolContext) => (ctx.config.files?.keep_max_mb ?? 20) * MB;
  const waitMs = (ctx: ToolContext) => (ctx.config.files?.wait_seconds ?? 120) * 1000;

  const list = defineTool({
    pack: 'files',
    name: 'list',
    description: "The files in Otto's file store, newest first: name, type, size, where each came from.",
    parameters: z.object({}),
    effect: 'reads',
    flow: FLOW.internal,
    examples: ['files.list()'],
    returns: 'One line per file: name, type, size, origin, time.',
    async execute() {
      const files = await fileStore().list();
      if (!files.length)
        return "Otto's file store is empty. Downloads (files.download), PDFs fetched with web.fetch and files the user picks in the panel land here.";
      return `${files.length} file${files.length === 1 ? '' : 's'} in Otto's file store:\n${files.map(listLine).join('\n')}`;
    },
  });

  const read = createReadFileTool({ page, ...(opts.extract ? { extract: opts.extract } : {}) });

  const download = defineTool({
    pack: 'files',
    name: 'download',
    description:
      "Download a URL with Chrome, wait until it is finished, and report name, size, type and where it was saved; a copy is kept in Otto's file store (up to files.keep_max_mb, default 20 MB) for files.read and files.upload.",
    parameters: z.object({ url: z.string().url().describe('The file to download (http or https)') }),
    effect: 'changes',
    flow: FLOW.requestsUrl,
    // The URL is the call's target (#31): an address on the user's own network asks first, as for web.fetch.
    target: (args) => ({ url: args.url }),
    examples: ["files.download(url='https://example.com/invoice.pdf')"],
    returns: 'Name, size, type, path, source URL, and the name of the kept copy (or why none was kept).',
    async execute(args, ctx) {
      if (!/^https?:/i.test(args.url))
        throw new Error(`files.download takes http or https URLs, got ${args.url.slice(0, 100)}`);
      const id = await chrome.downloads.download({ url: args.url, conflictAction: 'uniquify' });
      return formatDownload(
        await finishDownload(id, { timeoutMs: waitMs(ctx), keepMaxBytes: keepBytes(ctx), signal: ctx.signal }),
      );
    },
  });

  const downloadClick = createDownloadClickTool({ page, keepBytes, waitMs });

  const upload = defineTool({
    pack: 'files',
    name: 'upload',
    description:
      "Put a file from Otto's file store into the page: a file input (by ref or selector; its label or a box holding one works too) gets it as a person's choice would, with input and change events; any other element is treated as a drop zone and gets a real drag-and-drop of the file. The file's origin goes with it: sending a site's file to another site asks the user.",
    parameters: z.object({
      file: fileName,
      ref,
      selector,
      drop: z.boolean().default(false).describe('Drop the file on the element even if it holds a file input'),
      tab_id: tabId,
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    // The file's bytes leave with the call: its origins are judged with the model's context.
    carries: async (args) => (await fileStore().get(args.file))?.origins ?? [],
    examples: ["files.upload(file='cv.pdf', ref='e7')", "files.upload(file='photo.png', selector='.dropzone')"],
    returns:
      'What was set on which input (or dropped where, and whether the page took it), and what changed on the page.',
    async execute(args, ctx) {
      if (!args.ref && !args.selector)
        throw new Error('files.upload needs a target: ref (from dom.snapshot) or selector.');
      const f = await getStored(args.file);
      // The bytes travel to the page as base64 inside one message (the content protocol caps it at 40 M characters).
      if (f.size > MAX_UPLOAD_BYTES)
        throw new Error(
          `${f.name} is ${humanSize(f.size)}: files.upload takes files up to ${MAX_UPLOAD_BYTES / MB} MB.`,
        );
      const p = page();
      const tab = await p.resolveTabId(args.tab_id ?? ctx.tabId);
      const t = args.ref ? { ref: args.ref } : { selector: args.selector! };
      const result = await p.act(tab, {
        type: 'dom.upload',
        ...t,
        files: [{ name: f.name, mime: f.mime, data: toBase64(bytesOf(f)), lastModified: f.updatedAt }],
        ...(args.drop ? { drop: true } : {}),
      });
      return p.formatAction({ ...result, action: 'files.upload' });
    },
  });

  return [list, read, download, downloadClick, upload] as AnyTool[];
}
