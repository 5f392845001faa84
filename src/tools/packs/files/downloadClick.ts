/**
 * `files.download_click` (#19, #43): click a link or button that downloads a file, and report the file. The click's
 * navigation off the page is caught and its file fetched once (downloadCatch.ts); a download Chrome starts by itself
 * (a `blob:` link, a new window) is waited for as before. A download never reads as a page load: the page stays.
 */
import { z } from '../../../shared/zod.ts';
import { REF_RE } from '../../../shared/contentMessages.ts';
import { safeFileName } from '../../../storage/files.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { ToolContext } from '../../Tool.ts';
import type { PageApi } from '../../../page/api.ts';
import {
  downloadStartedBy,
  finishDownload,
  keepBytes,
  nameOf,
  waitForDownload,
  type DownloadDone,
} from './downloads.ts';
import { armDownloadCatch, fetchCaught, saveCaught, takeDownloadCatch, type Caught } from './downloadCatch.ts';
import { formatDownload } from './formatDownload.ts';

type ActionResult = Awaited<ReturnType<PageApi['act']>>;

export interface DownloadClickOptions {
  page: () => PageApi;
  keepBytes: (ctx: ToolContext) => number;
  waitMs: (ctx: ToolContext) => number;
}

/** A download is no page load: a "navigation" that ended on the same address is dropped from the click's report. */
function withoutFalseNavigation(r: ActionResult): ActionResult {
  if (!r.navigation || r.navigation.to !== r.navigation.from) return r;
  const { navigation: _n, ...rest } = r;
  return rest;
}

/** The caught file: Chrome saves the bytes in hand, and they are the store's copy. */
async function saveFile(file: Extract<Caught, { kind: 'file' }>, ctx: ToolContext, o: DownloadClickOptions) {
  const id = await saveCaught(file, safeFileName(file.name));
  const item = await waitForDownload(id, o.waitMs(ctx), ctx.signal);
  const name = nameOf({ filename: item.filename, finalUrl: file.url, url: file.url });
  const done: DownloadDone = {
    id,
    name,
    size: file.bytes.byteLength,
    mime: file.mime,
    path: item.filename,
    url: file.url,
  };
  if (item.state === 'interrupted') done.error = `Chrome could not save it (${item.error ?? 'unknown reason'})`;
  return { ...done, ...(await keepBytes(file.bytes, { ...done, path: item.filename }, o.keepBytes(ctx))) };
}

export function createDownloadClickTool(o: DownloadClickOptions) {
  return defineTool({
    pack: 'files',
    name: 'download_click',
    description:
      'Click a link or button that downloads a file, wait until it is saved, and report name, size, type and where it was saved (a copy is kept in the file store, as files.download). The page stays as it is; the file is fetched once.',
    parameters: z.object({
      ref: z
        .string()
        .regex(REF_RE, 'a ref looks like e12 (or f3e12 inside a frame)')
        .optional()
        .describe('Ref (kqe12)'),
      selector: z.string().min(1).max(2000).optional().describe('CSS selector'),
      wait_start_ms: z
        .number()
        .int()
        .min(500)
        .max(60_000)
        .default(10_000)
        .describe('How long to wait for the download to start'),
      tab_id: z.number().int().nonnegative().optional().describe('Default: the current tab'),
    }),
    effect: 'changes',
    flow: FLOW.actsOnPage,
    examples: ["files.download_click(ref='e14')"],
    returns: 'The click, then name, size, type, path and the kept copy; or that the click started no download.',
    async execute(args, ctx) {
      if (!args.ref && !args.selector)
        throw new Error('files.download_click needs a target: ref (from dom.snapshot) or selector.');
      const p = o.page();
      const tab = await p.resolveTabId(args.tab_id ?? ctx.tabId);
      const t = args.ref ? { ref: args.ref } : { selector: args.selector! };
      await armDownloadCatch(tab, args.wait_start_ms + 40_000);
      let caught: string | undefined;
      const { id, triggered } = await downloadStartedBy(
        async () => {
          try {
            return await p.act(tab, { type: 'dom.click', ...t, button: 'left', clickCount: 1 });
          } finally {
            // Removed whatever the click did: a failed click must not leave the user's next navigation caught.
            caught = await takeDownloadCatch(tab);
          }
        },
        args.wait_start_ms,
        () => caught !== undefined,
      );
      const acted = triggered as ActionResult;
      const clicked = p.formatAction(caught !== undefined || id !== undefined ? withoutFalseNavigation(acted) : acted);
      if (caught !== undefined) {
        const got = await fetchCaught(caught, ctx.signal);
        if (got.kind === 'failed')
          throw new Error(
            `The click asked for a file and the site answered HTTP ${got.status}: nothing was downloaded.\n${clicked}`,
          );
        if (got.kind === 'page') {
          await chrome.tabs.update(tab, { url: got.url });
          throw new Error(
            `The click led to a web page, not a file: nothing was downloaded, and the tab was sent on to that page (Otto asked for it once to tell). Take a new snapshot.\n${clicked}`,
          );
        }
        return `${formatDownload(await saveFile(got, ctx, o))}\n\n${clicked}`;
      }
      if (id === undefined)
        throw new Error(`The click started no download within ${args.wait_start_ms} ms.\n${clicked}`);
      const done = await finishDownload(id, {
        timeoutMs: o.waitMs(ctx),
        keepMaxBytes: o.keepBytes(ctx),
        signal: ctx.signal,
      });
      return `${formatDownload(done)}\n\n${clicked}`;
    },
  });
}
