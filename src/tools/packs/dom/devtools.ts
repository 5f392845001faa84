/**
 * `dom.console` and `dom.network` (#19): the page's last console messages and uncaught errors, and its last
 * requests, as captured in the page's own world (content/contentDevCapture.ts) without the debugger (which would show
 * the user a bar). When the capture began is stated: from the page's start, or late (then earlier console messages are
 * unknown, and the answer says how to get them). Everything the page logged or requested is page data and reaches
 * the model inside an untrusted-content boundary.
 */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW } from '../../guard/flow.ts';
import type { AnyTool } from '../../Tool.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';
import type { DevLog, DevRequest } from '../../../content/contentDevCapture.ts';
import type { PageApi } from '../../../page/api.ts';

const tabId = z.number().int().nonnegative().optional();

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/**
 * When an entry happened (#43): its own time since the page's navigation began, and how long before this read — so
 * an error two seconds after load reads two seconds after the load's, and the model can tell what came after its
 * own last action.
 */
export const when = (t: number, now: number): string => `${secs(t)} (${secs(Math.max(0, now - t))} ago)`;

/** The sentence that says from when the log is complete. */
export function captureNote(log: DevLog, what: 'console' | 'requests'): string {
  if (log.mode === 'load')
    return `Captured since the page started (${secs(log.startedAt)} after its navigation began).`;
  const late =
    log.asked === 'load'
      ? `Capture began late: ${secs(log.startedAt)} after this page started, after ${log.scriptsBefore} of its scripts; reload the tab (tabs.reload) to try to capture from the start.`
      : `Capture began late: ${secs(log.startedAt)} after this page started, when Otto first looked; Otto watches this tab from now on, so reload it (tabs.reload) to capture from the start.`;
  return what === 'console'
    ? `${late} Console messages from before are not known.`
    : `${late} Requests from before come from the browser's timing (no method for fetch/XHR).`;
}

function size(n: number): string {
  if (n < 0) return '? B';
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

export function failed(r: DevRequest): boolean {
  return r.status === 0 || r.status >= 400;
}

export function formatConsole(log: DevLog, limit: number, levels?: readonly string[]): string {
  const all = levels?.length ? log.console.filter((e) => levels.includes(e.level)) : log.console;
  const shown = all.slice(-limit);
  const errors = log.console.filter((e) => e.level === 'error' || e.level === 'uncaught').length;
  // The page's address is the page's words (its path, query and fragment): inside the boundary, on the first line.
  const page = `page: ${log.url.slice(0, 300)}`;
  const head = `Console of the page named below: ${log.console.length} message${log.console.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'} or uncaught)${shown.length < all.length ? `, the last ${shown.length} shown` : ''}${log.consoleDropped ? `; ${log.consoleDropped} older ones dropped` : ''}. ${captureNote(log, 'console')}`;
  if (!shown.length)
    return `${head}\nNo console messages${levels?.length ? ` at level ${levels.join('/')}` : ''}.\n${wrapUntrusted(page)}`;
  const lines = shown.map((e) => `[${e.level}] ${when(e.t, log.now)} ${e.text}${e.source ? ` (${e.source})` : ''}`);
  return `${head}\n${wrapUntrusted([page, ...lines].join('\n'))}`;
}

export function formatNetwork(log: DevLog, limit: number, failedOnly: boolean): string {
  const reqs = failedOnly ? log.requests.filter(failed) : log.requests;
  const bad = reqs.filter(failed);
  const ok = reqs.filter((r) => !failed(r)).sort((a, b) => b.t - a.t);
  const ordered = [...bad.sort((a, b) => b.t - a.t), ...ok].slice(0, limit);
  const page = `page: ${log.url.slice(0, 300)}`;
  const head = `Requests of the page named below: ${log.requests.length} (${log.requests.filter(failed).length} failed)${ordered.length < reqs.length ? `, ${ordered.length} shown` : ''}; failed first, then newest first. ${captureNote(log, 'requests')}`;
  if (!ordered.length) return `${head}\nNo requests${failedOnly ? ' failed' : ''}.\n${wrapUntrusted(page)}`;
  const lines = ordered.map(
    (r) =>
      `${failed(r) ? 'FAILED ' : ''}${r.method} ${r.url.slice(0, 500)} → ${r.status === -1 ? '?' : r.status === 0 ? `no answer${r.error ? ` (${r.error.slice(0, 200)})` : ''}` : r.status} · ${r.type} · ${r.ms} ms · ${size(r.size)} · at ${when(r.t, log.now)}`,
  );
  return `${head}\n${wrapUntrusted([page, ...lines].join('\n'))}`;
}

export function createDevTools(page: () => PageApi): AnyTool[] {
  const devlog = async (id: number | undefined, ctxTab: number | undefined): Promise<DevLog> => {
    const p = page();
    if (!p.devlog) throw new Error('The console and network tools need the extension (no page router here).');
    return p.devlog(await p.resolveTabId(id ?? ctxTab));
  };

  const consoleTool = defineTool({
    pack: 'dom',
    name: 'console',
    description:
      "The page's last console messages and uncaught errors (level, time, text, source line), without the debugger. Says whether capture began with the page or late (then reload the tab to see its start).",
    parameters: z.object({
      level: z
        .array(z.enum(['log', 'info', 'warn', 'error', 'debug', 'uncaught']))
        .max(6)
        .optional()
        .describe('Only these levels (uncaught = errors nobody caught)'),
      limit: z.number().int().min(1).max(200).default(50).describe('At most this many, the latest'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ['dom.console()', "dom.console(level=['error', 'uncaught'])"],
    returns:
      'A head line (counts, since when captured), then one line per message inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      return formatConsole(await devlog(args.tab_id, ctx.tabId), args.limit, args.level);
    },
  });

  const network = defineTool({
    pack: 'dom',
    name: 'network',
    description:
      "The page's recent requests, failed ones first: method, URL, status, type, duration, size, time (no bodies), without the debugger.",
    parameters: z.object({
      failed_only: z.boolean().default(false).describe('Only failed requests (status 0 or ≥ 400)'),
      limit: z.number().int().min(1).max(300).default(50).describe('At most this many'),
      tab_id: tabId,
    }),
    effect: 'reads',
    flow: FLOW.readsPage,
    examples: ['dom.network()', 'dom.network(failed_only=True)'],
    returns:
      'A head line (counts, since when captured), then one line per request inside an <external-content-…> boundary.',
    async execute(args, ctx) {
      return formatNetwork(await devlog(args.tab_id, ctx.tabId), args.limit, args.failed_only);
    },
  });

  return [consoleTool, network] as AnyTool[];
}
