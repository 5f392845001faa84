/**
 * A download click that fetches its file once (#43). A portal's "Download" button usually sends the tab to an
 * address answered as an attachment; Chrome saves that file, and Otto, which cannot read what Chrome saved, used to
 * fetch it a second time for its copy (the portal served the invoice twice). Now, for the click, the tab's top
 * frame cancels the cross-document GET navigation the click starts (the Navigation API's `navigate` event, before
 * any request is made) and hands its address to the worker, which fetches it once with the user's cookies:
 *   - an attachment, or a file that is not a web page: its bytes are the copy, and Chrome saves the same bytes
 *     (a `data:` URL), so the user still finds it in Downloads;
 *   - a web page: the tab is sent there after all (that page is then asked for twice; the report says so).
 * Anything else the click does (a `blob:` link, a new window, a form POST) is left to the browser as before.
 */
import { toBase64 } from './bytes.ts';

/** Installed in the top frame's isolated world before the click: catches the first GET navigation off the page. */
export function armCatch(ms: number): void {
  type Slot = { url?: string; off?: () => void };
  const g = globalThis as unknown as { __ottoDownloadCatch?: Slot };
  g.__ottoDownloadCatch?.off?.();
  const nav = (globalThis as unknown as { navigation?: EventTarget }).navigation;
  if (!nav) return;
  const slot: Slot = {};
  const onNavigate = (e: Event): void => {
    const n = e as Event & {
      cancelable: boolean;
      hashChange: boolean;
      formData: FormData | null;
      navigationType: string;
      destination: { url: string; sameDocument: boolean };
    };
    // Only the browser's own event: a page dispatching a forged one cannot make Otto fetch an address of its choice.
    if (!n.isTrusted || slot.url || !n.cancelable || n.hashChange || n.formData || n.destination.sameDocument) return;
    if (n.navigationType !== 'push' && n.navigationType !== 'replace') return;
    if (!/^https?:/i.test(n.destination.url)) return;
    slot.url = n.destination.url;
    n.preventDefault();
  };
  nav.addEventListener('navigate', onNavigate);
  const timer = setTimeout(() => slot.off?.(), ms);
  slot.off = () => {
    clearTimeout(timer);
    nav.removeEventListener('navigate', onNavigate);
  };
  g.__ottoDownloadCatch = slot;
}

/** Read after the click: the caught address (or null), and the catch removed. */
export function takeCatch(): string | null {
  const g = globalThis as unknown as { __ottoDownloadCatch?: { url?: string; off?: () => void } };
  const slot = g.__ottoDownloadCatch;
  slot?.off?.();
  delete g.__ottoDownloadCatch;
  return slot?.url ?? null;
}

async function inTopFrame<T>(tabId: number, func: (...a: never[]) => T, args: unknown[] = []): Promise<T | undefined> {
  const [r] = await chrome.scripting
    .executeScript({ target: { tabId, frameIds: [0] }, func: func as () => T, args: args as [] })
    .catch(() => [] as chrome.scripting.InjectionResult<T>[]);
  return r?.result as T | undefined;
}

/** Arms the catch in the tab for `ms` (a page Otto may not script is left alone: no catch, the old path). */
export const armDownloadCatch = (tabId: number, ms: number): Promise<void> =>
  inTopFrame(tabId, armCatch as (...a: never[]) => void, [ms]).then(() => undefined);

/** The address the click tried to leave for, if it was caught. */
export const takeDownloadCatch = async (tabId: number): Promise<string | undefined> =>
  (await inTopFrame(tabId, takeCatch)) ?? undefined;

/** The file name a response gives (`Content-Disposition`), else the URL's last path segment. */
export function fileNameOf(disposition: string | null, url: string): string {
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition ?? '');
  if (plain) return (plain[2] ?? plain[1]!).trim();
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'download';
  } catch {
    return 'download';
  }
}

/** Whether an answer is a file to save rather than a page to show: an attachment, or not HTML. */
export function isAttachment(disposition: string | null, mime: string): boolean {
  if (/^\s*attachment/i.test(disposition ?? '')) return true;
  return !/^(text\/html|application\/xhtml\+xml)/i.test(mime);
}

/** Above this, Chrome is given the URL instead of the bytes (a `data:` URL past ~2 MB is refused). */
export const DATA_URL_MAX_BYTES = 1.5 * 1024 * 1024;

export type Caught =
  | { kind: 'file'; url: string; name: string; mime: string; bytes: ArrayBuffer }
  | { kind: 'page'; url: string }
  | { kind: 'failed'; url: string; status: number };

/** Fetches the caught address once, with the user's cookies as the tab would have sent them. */
export async function fetchCaught(url: string, signal?: AbortSignal): Promise<Caught> {
  const res = await fetch(url, { credentials: 'include', ...(signal ? { signal } : {}) });
  const final = res.url || url;
  if (!res.ok) return { kind: 'failed', url: final, status: res.status };
  const disposition = res.headers.get('content-disposition');
  const mime = (res.headers.get('content-type') ?? '').split(';')[0]!.trim() || 'application/octet-stream';
  if (!isAttachment(disposition, mime)) {
    await res.body?.cancel().catch(() => undefined);
    return { kind: 'page', url: final };
  }
  return { kind: 'file', url: final, name: fileNameOf(disposition, final), mime, bytes: await res.arrayBuffer() };
}

/**
 * Saves a caught file where Chrome saves downloads, from the bytes in hand (no second request), or from its URL
 * when it is too big for a `data:` URL. Resolves with Chrome's download id.
 */
export async function saveCaught(file: Extract<Caught, { kind: 'file' }>, name: string): Promise<number> {
  const url =
    file.bytes.byteLength <= DATA_URL_MAX_BYTES ? `data:${file.mime};base64,${toBase64(file.bytes)}` : file.url;
  return chrome.downloads.download({ url, filename: name, conflictAction: 'uniquify' });
}
