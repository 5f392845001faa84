/**
 * Page dialogs belong to the user (issue #26). Otto patches nothing while idle; around each of its own actions it
 * guards the one frame the action runs in (content/dialogGuard.ts in the page's MAIN world), then removes the guard,
 * so `alert`/`confirm`/`prompt` are the page's own natives again. During the action a question is cancelled unless
 * the model asked to accept that exact question (the action's `accept_dialog`, or `dom.dialogs(accept=…)` armed for
 * the tab's next action) — both destructive calls, which the user approves under the `ask` policy.
 *
 * The worker keeps the per-tab log `dom.dialogs` reads (page text: shown to the model inside an untrusted boundary).
 */
import { decodeDialogReport, dialogGuard } from '../content/dialogGuard.ts';
import type { PageDialog } from '../shared/contentMessages.ts';

export interface DialogAcceptance {
  /** The page's question, word for word: only a dialog with exactly this message is answered OK. */
  message: string;
  /** For prompt(): the text to answer with (default: the page's own default value). */
  text?: string | null;
}

export interface DialogsReply {
  log: PageDialog[];
  total: number;
  /** The acceptance waiting for the tab's next action, if any. */
  armed?: DialogAcceptance;
}

export interface GuardOutcome<T> {
  result: T;
  dialogs: PageDialog[];
  /** Set when the guard's report could not be read (the frame navigated or closed first). */
  lost?: boolean;
}

const LOG_MAX = 50;
const logs = new Map<number, { log: PageDialog[]; total: number }>();
const armed = new Map<number, DialogAcceptance>();

export function armDialog(tabId: number, accept: DialogAcceptance): void {
  armed.set(tabId, accept);
}

/** The acceptance armed for this tab, consumed by the action that takes it (one action, matched or not). */
export function takeArmedDialog(tabId: number): DialogAcceptance | undefined {
  const a = armed.get(tabId);
  armed.delete(tabId);
  return a;
}

export function recordDialogs(tabId: number, dialogs: PageDialog[]): void {
  if (!dialogs.length) return;
  const entry = logs.get(tabId) ?? { log: [], total: 0 };
  entry.log.push(...dialogs);
  entry.total += dialogs.length;
  if (entry.log.length > LOG_MAX) entry.log.splice(0, entry.log.length - LOG_MAX);
  logs.set(tabId, entry);
}

/** `dom.dialogs`: the tab's log; optionally arms an acceptance for its next action, or clears the log. */
export async function pageDialogs(
  tabId: number,
  opts: { accept?: DialogAcceptance; clear?: boolean } = {},
): Promise<DialogsReply> {
  if (opts.accept) armDialog(tabId, opts.accept);
  const entry = logs.get(tabId) ?? { log: [], total: 0 };
  const reply: DialogsReply = { log: entry.log.slice(), total: entry.total };
  const a = armed.get(tabId);
  if (a) reply.armed = a;
  if (opts.clear) logs.delete(tabId);
  return reply;
}

function randomEventType(): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return `x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

const GUARD_READ_MS = 3000;

/**
 * Runs `action` with the frame's dialogs guarded: installs the guard (and waits until it is in place: injections
 * into one frame run in order, so an empty isolated-world injection after it returns once it is installed), runs
 * the action, ends the guard, and returns what the page asked and the answers it got.
 */
export async function guardDialogs<T>(
  tabId: number,
  frameId: number,
  accept: DialogAcceptance | undefined,
  maxMs: number,
  action: () => Promise<T>,
): Promise<GuardOutcome<T>> {
  const target = { tabId, frameIds: [frameId] };
  const stopType = randomEventType();
  const guard = chrome.scripting.executeScript({
    target,
    world: 'MAIN',
    injectImmediately: true,
    func: dialogGuard,
    args: [stopType, accept?.message ?? null, accept ? (accept.text ?? null) : null, maxMs],
  });
  const report = guard.then(
    (r) => ({ ok: true as const, raw: r?.[0]?.result as unknown }),
    () => ({ ok: false as const, raw: undefined }),
  );
  await chrome.scripting
    .executeScript({ target, world: 'ISOLATED', injectImmediately: true, func: () => 0 })
    .catch(() => undefined);
  let result: T;
  try {
    result = await action();
  } finally {
    // Dispatched from the isolated world, on an event type the page cannot know: the page sees nothing of it.
    await chrome.scripting
      .executeScript({
        target,
        world: 'ISOLATED',
        injectImmediately: true,
        func: (type: string) => {
          window.dispatchEvent(new Event(type));
        },
        args: [stopType],
      })
      .catch(() => undefined);
  }
  const read = await Promise.race([
    report,
    new Promise<undefined>((r) => setTimeout(() => r(undefined), GUARD_READ_MS)),
  ]);
  if (!read?.ok || typeof read.raw !== 'string') return { result, dialogs: [], lost: true };
  if (!read.raw) return { result, dialogs: [] };
  const url = (await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null))?.url ?? '';
  const dialogs = decodeDialogReport(read.raw, url);
  recordDialogs(tabId, dialogs);
  return { result, dialogs };
}
