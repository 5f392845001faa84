/**
 * Acting on a tab: route the action to the frame its ref lives in, run it, and report what it changed. A full
 * navigation started by the action (the content script saw the page unload, or the page went away before it could
 * answer) is followed until the new page has loaded, and reported with its URL and title.
 */
import {
  ActionReply,
  LocatorReply,
  WaitReply,
  type Locator,
  type ActionRequest,
  type Changes,
  type ContentRequest,
  type PageDialog,
  REF_RE,
} from '../shared/contentMessages.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import { sleep } from '../shared/sleep.ts';
import { frameOfRef, PAGE_ERROR, PageError, prefixFor, requestContent } from './contentRouter.ts';
import { guardDialogs, takeArmedDialog, type DialogAcceptance } from './dialogs.ts';

export { pageDialogs } from './dialogs.ts';

export interface ActionResult extends ActionReply {
  /** #17: readable locators of the target(s) and the page, asked before the action (locatorsBefore). */
  locator?: Locator;
  fieldLocators?: (Locator | null)[];
  url?: string;
  /** Set when the action led to a full page load. */
  navigation?: { from: string; to: string; title: string; complete: boolean };
  /** The page's dialog report could not be read (its frame navigated or closed first). */
  dialogsLost?: boolean;
}

/** Waits until the tab has finished loading (or the timeout passes). */
export async function waitForLoad(
  tabId: number,
  fromUrl: string | undefined,
  timeoutMs = 15_000,
): Promise<{ url: string; title: string; complete: boolean }> {
  const start = Date.now();
  let sawLoading = false;
  for (;;) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) throw new PageError(`Tab ${tabId} closed during the action.`, PAGE_ERROR.gone);
    const url = tab.url ?? tab.pendingUrl ?? '';
    if (tab.status === 'loading') sawLoading = true;
    const settled = tab.status === 'complete' && (sawLoading || url !== fromUrl || Date.now() - start > 1500);
    if (settled) return { url, title: tab.title ?? '', complete: true };
    if (Date.now() - start > timeoutMs) return { url, title: tab.title ?? '', complete: false };
    await sleep(100);
  }
}

function frameFor(request: { ref?: string }, frameId?: number): number {
  return request.ref ? frameOfRef(request.ref) : (frameId ?? 0);
}

function emptyChanges(): Changes {
  return { added: [], addedCount: 0, removedCount: 0, dialogsOpened: [], dialogsClosed: [], pageDialogs: [] };
}

/**
 * Runs an action (`dom.click`, `dom.type`, `dom.fill_form`, `dom.select`, `dom.check`, `dom.press`, `dom.hover`,
 * `dom.scroll`) in the tab. `frameId` applies to selector targets (refs carry their frame). The page's
 * alert/confirm/prompt are guarded in that frame for the action's duration only (dialogs.ts): cancelled, unless
 * `acceptDialog` (or an acceptance armed with dom.dialogs) names the page's exact question.
 */
export async function act(
  tabId: number,
  request: ActionRequest,
  opts: { frameId?: number; timeoutMs?: number; acceptDialog?: DialogAcceptance } = {},
): Promise<ActionResult> {
  const frameId =
    request.type === 'dom.fill_form'
      ? frameFor(request.fields.find((f) => f.ref) ?? {}, opts.frameId)
      : frameFor(request, opts.frameId);
  const before = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!before)
    throw new PageError(`Tab ${tabId} does not exist (it was closed). List tabs with tabs.list.`, PAGE_ERROR.gone);
  const fromUrl = before.url ?? '';
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const located = await locatorsBefore(tabId, frameId, request);
  const armed = takeArmedDialog(tabId);
  const accept = opts.acceptDialog ?? armed;
  const guarded = await guardDialogs(tabId, frameId, accept, timeoutMs + 5000, async () => {
    try {
      return {
        reply: ActionReply.parse(
          await requestContent(tabId, frameId, { ...request, prefix: prefixFor(frameId) } as ContentRequest, {
            timeoutMs,
          }),
        ) as ActionResult,
      };
    } catch (e) {
      // The page unloaded before the content script could answer: the action navigated.
      if (!(e instanceof PageError) || e.code !== PAGE_ERROR.gone) throw e;
      return { reply: undefined };
    }
  });
  let reply = guarded.result.reply;
  if (!reply) {
    const nav = await waitForLoad(tabId, fromUrl);
    reply = {
      action: request.type,
      summary: `${request.type.slice(4)} done; the page navigated before it could report details`,
      details: {},
      changes: emptyChanges(),
      navigation: { from: fromUrl, to: nav.url, title: nav.title, complete: nav.complete },
    };
  } else if (reply.changes.unloading && frameId === 0) {
    const nav = await waitForLoad(tabId, fromUrl);
    reply.navigation = { from: fromUrl, to: nav.url, title: nav.title, complete: nav.complete };
  }
  reply.changes.pageDialogs = [...guarded.dialogs, ...reply.changes.pageDialogs];
  if (guarded.lost) reply.dialogsLost = true;
  if (located?.locator) reply.locator = located.locator;
  if (located?.fieldLocators) reply.fieldLocators = located.fieldLocators;
  if (located?.url) reply.url = located.url;
  return reply;
}

/** #17: the ref of the one element a readable locator names in the tab's top frame (an error for none or several). */
export async function locateInPage(tabId: number, locator: Locator): Promise<string> {
  const r = LocatorReply.parse(
    await requestContent(
      tabId,
      0,
      { type: 'dom.locator', prefix: prefixFor(0), locator, resolve: true },
      { timeoutMs: 15_000 },
    ),
  );
  if (!r.ref) throw new PageError('The page did not resolve the locator.', PAGE_ERROR.action);
  return r.ref;
}

/**
 * #17: the target's readable locator, asked in its own request before the action (a click that navigates never
 * answers). Top frame only (locators resolve there); any failure just means no locator.
 */
async function locatorsBefore(
  tabId: number,
  frameId: number,
  request: ActionRequest,
): Promise<LocatorReply | undefined> {
  if (frameId !== 0) return undefined;
  // A readable locator already (a snippet replaying): it is its own record, no round trip needed.
  if (request.type !== 'dom.fill_form' && request.locator) return { locator: request.locator, url: '' };
  const pick = (t: { ref?: string | undefined; selector?: string | undefined; locator?: Locator | undefined }) => ({
    ...(t.ref ? { ref: t.ref } : {}),
    ...(t.selector ? { selector: t.selector } : {}),
    ...(t.locator ? { locator: t.locator } : {}),
  });
  const req: ContentRequest =
    request.type === 'dom.fill_form'
      ? { type: 'dom.locator', prefix: prefixFor(0), fields: request.fields.map(pick) }
      : { type: 'dom.locator', prefix: prefixFor(0), ...pick(request) };
  try {
    return LocatorReply.parse(await requestContent(tabId, 0, req, { timeoutMs: 5000 }));
  } catch {
    return undefined;
  }
}

function dialogAnswer(d: PageDialog): string {
  if (d.type === 'alert') return 'dismissed';
  if (d.type === 'beforeunload') return 'Chrome asks the user (Otto never answers it)';
  if (d.type === 'confirm') return d.answer ? 'answered OK (as requested)' : 'answered Cancel';
  return d.answer === null || d.answer === undefined
    ? 'answered Cancel'
    : `answered ${JSON.stringify(d.answer)} (as requested)`;
}

function dialogFacts(dialogs: PageDialog[]): string[] {
  const facts: string[] = [];
  const questions = dialogs.filter((d) => d.type === 'confirm' || d.type === 'prompt');
  const cancelled = questions.filter((d) => d.answer === false || d.answer === null || d.answer === undefined).length;
  const alerts = dialogs.filter((d) => d.type === 'alert').length;
  if (cancelled)
    facts.push(
      `the page asked ${cancelled} question${cancelled === 1 ? '' : 's'} (confirm/prompt) and Otto answered Cancel — to answer OK, name the exact question in dom.click's accept_dialog, or in dom.dialogs(accept=…) before the action (the user is asked first)`,
    );
  if (questions.length > cancelled)
    facts.push(
      `${questions.length - cancelled} page question${questions.length - cancelled === 1 ? '' : 's'} answered OK as requested`,
    );
  if (alerts) facts.push(`the page showed ${alerts} alert${alerts === 1 ? '' : 's'} (dismissed)`);
  if (dialogs.some((d) => d.type === 'beforeunload'))
    facts.push('the page asked to confirm leaving it (Chrome asks the user)');
  return facts;
}

/** An action's report for the model: Otto's facts first, page-derived text inside an untrusted boundary. */
export function formatAction(r: ActionResult): string {
  const c = r.changes;
  const facts: string[] = [];
  if (r.navigation)
    facts.push(
      r.navigation.complete
        ? 'the page navigated (new page loaded): take a new snapshot'
        : 'the page is still loading after navigating',
    );
  else if (c.navigated) facts.push('the URL changed (same-document navigation)');
  if (c.dialogsOpened.length) facts.push(`${c.dialogsOpened.length} dialog opened`);
  if (c.dialogsClosed.length) facts.push(`${c.dialogsClosed.length} dialog closed`);
  facts.push(...dialogFacts(c.pageDialogs));
  if (r.dialogsLost && r.navigation) facts.push('the page navigated before Otto could read whether it showed a dialog');
  if (c.addedCount) facts.push(`${c.addedCount} elements appeared`);
  if (c.removedCount) facts.push(`${c.removedCount} removed`);
  if (c.note) facts.push(c.note);
  if (c.shown?.length) facts.push(`${c.shown.length} shown`);
  if (c.hidden?.length) facts.push(`${c.hidden.length} hidden`);
  if (c.changed?.length) facts.push(`${c.changed.length} changed`);
  const lines: string[] = [r.summary];
  if (r.navigation)
    lines.push(`navigated: ${r.navigation.from} → ${r.navigation.to} (${JSON.stringify(r.navigation.title)})`);
  else if (c.navigated) lines.push(`url: ${c.navigated.from} → ${c.navigated.to}`);
  for (const d of c.dialogsOpened) lines.push(`dialog opened: ${d}`);
  for (const d of c.dialogsClosed) lines.push(`dialog closed: ${d}`);
  for (const d of c.pageDialogs)
    lines.push(
      d.type === 'beforeunload'
        ? `beforeunload → ${dialogAnswer(d)}`
        : `${d.type}(${JSON.stringify(d.message)}) → ${dialogAnswer(d)}`,
    );
  for (const a of c.added) lines.push(`appeared: ${a}`);
  if (c.addedCount > c.added.length) lines.push(`appeared: … ${c.addedCount - c.added.length} more`);
  for (const x of c.shown ?? []) lines.push(`shown: ${x}`);
  for (const x of c.hidden ?? []) lines.push(`hidden: ${x}`);
  for (const x of c.changed ?? []) lines.push(`changed: ${x}`);
  if (c.focus) lines.push(`focus: ${c.focus}`);
  const fields = r.details.fields;
  if (Array.isArray(fields)) for (const f of fields) lines.push(`- ${String(f)}`);
  lines.push(...locatorLines(r));
  // Focus alone is a change too, but not of the DOM: say so rather than "no change".
  const none = c.observedMs !== undefined ? `no DOM change within ${c.observedMs} ms` : 'no DOM change';
  return `${r.action} ok — ${facts.length ? facts.join(', ') : none}.\n${wrapUntrusted(lines.join('\n'))}`;
}

/**
 * The target's readable locator (#17) and the page it was on, as JSON on lines of their own: the model may act
 * with it, and "Save as snippet" (src/replay/) reads it back from the stored output. Inside the page-text boundary:
 * names come from the page.
 */
export function locatorLines(r: ActionResult): string[] {
  const at = r.url ? ` at ${JSON.stringify(r.url)}` : '';
  if (r.locator) return [`locator: ${JSON.stringify(r.locator)}${at}`];
  if (r.fieldLocators?.length) return [`locators: ${JSON.stringify(r.fieldLocators)}${at}`];
  return [];
}

/** Waits in the page for text, a ref or a selector to appear or disappear. */
export async function waitFor(
  tabId: number,
  opts: {
    text?: string;
    ref?: string;
    selector?: string;
    root?: string;
    state?: 'appear' | 'disappear';
    timeoutMs?: number;
    frameId?: number;
  },
): Promise<WaitReply> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const refForFrame = opts.ref ?? (opts.root && REF_RE.test(opts.root) ? opts.root : undefined);
  const frameId = refForFrame ? frameOfRef(refForFrame) : (opts.frameId ?? 0);
  const req: ContentRequest = {
    type: 'dom.wait_for',
    ...(opts.root ? { root: opts.root } : {}),
    prefix: prefixFor(frameId),
    timeoutMs,
    ...(opts.text ? { text: opts.text } : {}),
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.selector ? { selector: opts.selector } : {}),
    ...(opts.state ? { state: opts.state } : {}),
  };
  return WaitReply.parse(await requestContent(tabId, frameId, req, { timeoutMs: timeoutMs + 5000 }));
}
