/**
 * The registration window (#19/#14), remembered across worker restarts. Per watched tab: the URL prefix its
 * page-start script is registered for, and until when a commit elsewhere may still carry it (no `until`: registered
 * now). A tab Otto is not working on that commits a matching URL in a window is disarmed (page/pageDevCapture.ts).
 *
 * The list lives in `chrome.storage.session` and not only in memory: Chrome keeps a registration when the worker
 * stops (idle 30 s, or killed), and the commit that carries it wakes a fresh worker. That worker must still know the
 * window to disarm the tab; an in-memory list would be empty there. At start (`closeAllAtStart`) every window that
 * was live is closed with the same grace as an unregistering, since the registration is removed then too.
 */
import { z } from '../shared/zod.ts';

const STORE_KEY = 'otto.devWindows';
/** How long after its registration goes a window still counts: a commit whose event reaches the worker late. */
export const WINDOW_GRACE_MS = 10_000;

const Stored = z.array(
  z.object({ tabId: z.number().int(), prefix: z.string().min(1), until: z.number().optional() }).strict(),
);
type Window = { prefix: string; until?: number };

const windows = new Map<number, Window>();
let loaded: Promise<void> | undefined;

function area(): chrome.storage.StorageArea | undefined {
  return (globalThis as { chrome?: typeof chrome }).chrome?.storage?.session;
}

/** Reads the stored list once per worker; a stored value of the wrong shape counts as none. */
export function loadWindows(): Promise<void> {
  loaded ??= (async () => {
    const got = (await area()
      ?.get(STORE_KEY)
      .catch(() => undefined)) as Record<string, unknown> | undefined;
    const parsed = Stored.safeParse(got?.[STORE_KEY] ?? []);
    if (!parsed.success) return;
    // What this worker noted before the read finished wins over the stored entry for the same tab.
    for (const { tabId, prefix, until } of parsed.data)
      if (!windows.has(tabId)) windows.set(tabId, until === undefined ? { prefix } : { prefix, until });
  })();
  return loaded;
}

/** Writes the whole list (it holds one entry per watched tab that loaded in the last seconds: a handful at most). */
async function save(): Promise<void> {
  const list = [...windows].map(([tabId, w]) => ({ tabId, ...w }));
  await area()
    ?.set({ [STORE_KEY]: list })
    .catch(() => undefined);
}

/** A registration for `tabId`'s next load, for URLs starting with `prefix`: stored before the caller registers. */
export async function openWindow(tabId: number, prefix: string): Promise<void> {
  await loadWindows();
  windows.set(tabId, { prefix });
  await save();
}

/** `tabId`'s registration goes: its window stays for the grace. */
export async function closeWindow(tabId: number, now = Date.now()): Promise<void> {
  await loadWindows();
  const w = windows.get(tabId);
  if (!w || w.until !== undefined) return;
  w.until = now + WINDOW_GRACE_MS;
  await save();
}

/** At worker start, with every registration removed: the windows that were live close (with the grace). */
export async function closeAllAtStart(now = Date.now()): Promise<void> {
  await loadWindows();
  let changed = false;
  for (const w of windows.values())
    if (w.until === undefined) {
      w.until = now + WINDOW_GRACE_MS;
      changed = true;
    }
  if (changed) await save();
}

/** When the last window that is open or in its grace ends (undefined: none). */
export async function windowsEnd(): Promise<number | undefined> {
  await loadWindows();
  let end: number | undefined;
  for (const w of windows.values()) end = Math.max(end ?? 0, w.until ?? Infinity);
  return end;
}

/** Whether `url` (any port) falls in a live or just-closed registration window; drops the windows that ended. */
export async function inRegistrationWindow(url: string, now = Date.now()): Promise<boolean> {
  await loadWindows();
  let key: string;
  try {
    const u = new URL(url);
    key = `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  } catch {
    return false;
  }
  let hit = false;
  let ended = false;
  for (const [tabId, w] of windows) {
    if (w.until !== undefined && w.until < now) {
      windows.delete(tabId);
      ended = true;
    } else if (key.startsWith(w.prefix)) hit = true;
  }
  if (ended) await save();
  return hit;
}

/** Tests: forget this worker's copy, as a restart does (the stored list stays). */
export function forgetInMemory(): void {
  windows.clear();
  loaded = undefined;
}
