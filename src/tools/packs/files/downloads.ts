/**
 * Downloads (#19): start one (a URL, or a click that makes the page start one), wait until Chrome has finished it,
 * and keep a copy in Otto's file store when it is small enough (config `files.keep_max_mb`, default 20 MB) so other
 * tools can read or upload it. The copy is fetched again by the worker from the download's final URL (an extension
 * cannot read files Chrome saved to disk); where that cannot work (a page-made `blob:` URL, a one-time link) the
 * report says no copy was kept and why.
 */
import { fileStore, safeFileName, type FileInfo } from '../../../storage/files.ts';
import { urlLabel } from '../../guard/labels.ts';
import { errorMessage } from '../../../shared/errorMessage.ts';

export interface DownloadDone {
  id: number;
  name: string;
  size: number;
  mime: string;
  /** Where Chrome saved it. */
  path: string;
  url: string;
  /** Set when the download did not complete. */
  error?: string;
  /** The copy in the file store, or why there is none. */
  kept?: FileInfo;
  notKept?: string;
}

type Item = chrome.downloads.DownloadItem;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The file's name: the last part of where it was saved; a browser automation that names files by id gets the URL's. */
export function nameOf(item: Pick<Item, 'filename' | 'finalUrl' | 'url'>): string {
  const base = item.filename.split(/[/\\]/).pop() ?? '';
  if (base && !UUID.test(base)) return base;
  try {
    const seg = decodeURIComponent(new URL(item.finalUrl || item.url).pathname.split('/').pop() ?? '');
    if (seg) return seg;
  } catch {
    // fall through
  }
  return base || 'download';
}

/** Resolves with the first download Chrome starts after `trigger` ran, or undefined after `startMs`. */
export async function downloadStartedBy(
  trigger: () => Promise<unknown>,
  startMs: number,
  /** After the trigger: true when there is nothing to wait for (the click's file was caught, downloadCatch.ts). */
  settled: () => boolean = () => false,
): Promise<{ id?: number; triggered: unknown }> {
  let listener: ((item: Item) => void) | undefined;
  const started = new Promise<number>((resolve) => {
    listener = (item) => resolve(item.id);
    chrome.downloads.onCreated.addListener(listener);
  });
  try {
    const triggered = await trigger();
    if (settled()) return { triggered };
    const id = await Promise.race([started, new Promise<undefined>((r) => setTimeout(() => r(undefined), startMs))]);
    return { id, triggered };
  } finally {
    if (listener) chrome.downloads.onCreated.removeListener(listener);
  }
}

/** Waits until the download is complete or interrupted (or `timeoutMs` passes), then returns its item. */
export async function waitForDownload(id: number, timeoutMs: number, signal?: AbortSignal): Promise<Item> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [item] = await chrome.downloads.search({ id });
    if (!item) throw new Error(`Download ${id} disappeared (the user removed it from Chrome's downloads).`);
    if (item.state !== 'in_progress') return item;
    if (signal?.aborted) throw new Error('Stopped while waiting for the download.');
    if (Date.now() > deadline) return item;
    await new Promise<void>((resolve) => {
      const onChanged = (d: chrome.downloads.DownloadDelta) => {
        if (d.id === id && d.state) done();
      };
      const timer = setTimeout(() => done(), 500);
      function done() {
        clearTimeout(timer);
        chrome.downloads.onChanged.removeListener(onChanged);
        resolve();
      }
      chrome.downloads.onChanged.addListener(onChanged);
    });
  }
}

/** Fetches a copy of a finished download into the file store when it is small enough. */
async function keepCopy(
  item: Item,
  name: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Pick<DownloadDone, 'kept' | 'notKept'>> {
  const size = item.fileSize > 0 ? item.fileSize : item.totalBytes;
  if (maxBytes <= 0) return { notKept: 'keeping copies is off (files.keep_max_mb: 0)' };
  if (size > maxBytes) return { notKept: `larger than files.keep_max_mb (${Math.round(maxBytes / 1048576)} MB)` };
  const url = item.finalUrl || item.url;
  if (/^blob:/i.test(url))
    return { notKept: 'the page made it in memory (a blob: URL), which Otto cannot fetch again' };
  try {
    const res = await fetch(url, { credentials: 'include', ...(signal ? { signal } : {}) });
    if (!res.ok) return { notKept: `fetching a copy answered HTTP ${res.status}` };
    const bytes = await res.arrayBuffer();
    const mime = item.mime || res.headers.get('content-type') || 'application/octet-stream';
    return await keepBytes(bytes, { name, mime, url, path: item.filename }, maxBytes);
  } catch (e) {
    return { notKept: `fetching a copy failed: ${errorMessage(e)}` };
  }
}

/** Keeps a download's bytes in the file store, labelled with the site they came from. */
export async function keepBytes(
  bytes: ArrayBuffer,
  file: { name: string; mime: string; url: string; path: string },
  maxBytes: number,
): Promise<Pick<DownloadDone, 'kept' | 'notKept'>> {
  if (maxBytes <= 0) return { notKept: 'keeping copies is off (files.keep_max_mb: 0)' };
  if (bytes.byteLength > maxBytes)
    return { notKept: `larger than files.keep_max_mb (${Math.round(maxBytes / 1048576)} MB)` };
  const store = fileStore();
  const label = urlLabel(file.url);
  const kept = await store.saveBytes(await store.freeName(safeFileName(file.name)), bytes, file.mime, {
    source: 'download',
    origins: label ? [label] : [],
    url: file.url,
    path: file.path,
  });
  return { kept };
}

export async function finishDownload(
  id: number,
  opts: { timeoutMs: number; keepMaxBytes: number; signal?: AbortSignal },
): Promise<DownloadDone> {
  const item = await waitForDownload(id, opts.timeoutMs, opts.signal);
  const name = nameOf(item);
  const done: DownloadDone = {
    id,
    name,
    size: item.fileSize > 0 ? item.fileSize : item.bytesReceived,
    mime: item.mime || 'unknown type',
    path: item.filename,
    url: item.finalUrl || item.url,
  };
  if (item.state === 'interrupted') {
    done.error = `the download was interrupted (${item.error ?? 'unknown reason'})`;
    return done;
  }
  if (item.state === 'in_progress') {
    done.error = `still downloading after ${Math.round(opts.timeoutMs / 1000)} s (${item.bytesReceived} of ${item.totalBytes > 0 ? item.totalBytes : '?'} bytes)`;
    return done;
  }
  return { ...done, ...(await keepCopy(item, name, opts.keepMaxBytes, opts.signal)) };
}
