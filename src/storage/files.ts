/**
 * Generic files kept in IndexedDB (`files` store): Otto has no file system, so what the reference wrote to disk — the
 * `ot.stats` HTML report, later `ot.notify` topic files — is a named record here that the panel can open and
 * download. Names are flat (no folders) and must also be usable as a download file name on any OS.
 */
import type { IDBPDatabase } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { FileRecord } from './resultRecords.ts';

type Db = IDBPDatabase<OttoDB>;

export type FileInfo = Omit<FileRecord, 'content' | 'bytes'>;

function infoOf(rec: FileRecord): FileInfo {
  const { content: _c, bytes: _b, ...info } = rec;
  return info;
}

/** A file name made safe for the store from a download's or URL's name (path separators and odd characters out). */
export function safeFileName(raw: string, fallback = 'download'): string {
  let n = raw
    // eslint-disable-next-line no-control-regex
    .replace(/[<>:"|?*\u0000-\u001f\u007f/\\]+/g, '_')
    .trim()
    .replace(/^\.+/, '');
  if (n.length > MAX_FILE_NAME) {
    const dot = n.lastIndexOf('.');
    const ext = dot > 0 && n.length - dot <= 10 ? n.slice(dot) : '';
    n = n.slice(0, MAX_FILE_NAME - ext.length) + ext;
  }
  n = n.replace(/\.+$/, '');
  return n && !fileNameProblem(n) ? n : fallback;
}

export const MAX_FILE_NAME = 100;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
// eslint-disable-next-line no-control-regex
const BAD_CHAR = /[<>:"|?*\u0000-\u001f\u007f]/;

/**
 * Why `name` cannot be used as a file name, or undefined when it can. `ext` (e.g. `.html`) is required when given,
 * case-insensitively.
 */
export function fileNameProblem(name: string, ext?: string): string | undefined {
  if (!name.trim()) return 'the name is empty';
  if (/[/\\]/.test(name))
    return "path separators are not allowed: files are kept in Otto's storage (open or download them from the panel)";
  if (name.length > MAX_FILE_NAME) return `the name is longer than ${MAX_FILE_NAME} characters`;
  const bad = BAD_CHAR.exec(name);
  if (bad) return `the name contains a character not allowed in file names: ${JSON.stringify(bad[0])}`;
  if (name !== name.trim()) return 'the name starts or ends with a space';
  if (name.startsWith('.')) return "names starting with '.' are not allowed";
  if (ext && !name.toLowerCase().endsWith(ext.toLowerCase())) return `the name must end in ${ext}`;
  const base = name.split('.')[0]!;
  if (RESERVED.test(base)) return `'${base}' is a reserved file name`;
  if (name.endsWith('.')) return 'the name ends with a dot';
  return undefined;
}

export class FileStore {
  readonly #db: Promise<Db>;
  readonly #now: () => number;

  constructor(database: Db | Promise<Db> = sharedDb(), opts: { now?: () => number } = {}) {
    this.#db = Promise.resolve(database);
    this.#now = opts.now ?? Date.now;
  }

  /** Creates or replaces a file (keeps the first createdAt). Throws when the name is unusable or the write fails. */
  async save(name: string, content: string, mime = 'text/plain'): Promise<FileInfo> {
    const problem = fileNameProblem(name);
    if (problem) throw new Error(problem);
    const tx = (await this.#db).transaction('files', 'readwrite');
    const old = await tx.store.get(name);
    const now = this.#now();
    const rec: FileRecord = {
      name,
      mime,
      content,
      size: content.length,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
    };
    await tx.store.put(rec);
    await tx.done;
    return infoOf(rec);
  }

  /**
   * Keeps a binary (or any) file with where it came from (#19): a download, a web.fetch, a file the user picked.
   * Text types are also kept as text so `content` readers (ot.notify) see them.
   */
  async saveBytes(
    name: string,
    bytes: ArrayBuffer,
    mime: string,
    meta: Pick<FileRecord, 'source' | 'origins' | 'url' | 'path'> = {},
  ): Promise<FileInfo> {
    const problem = fileNameProblem(name);
    if (problem) throw new Error(problem);
    const tx = (await this.#db).transaction('files', 'readwrite');
    const old = await tx.store.get(name);
    const now = this.#now();
    const rec: FileRecord = {
      name,
      mime,
      content: '',
      bytes,
      size: bytes.byteLength,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
      ...meta,
    };
    await tx.store.put(rec);
    await tx.done;
    return infoOf(rec);
  }

  /** A name not used yet: `report.pdf`, else `report (2).pdf`, `report (3).pdf`... */
  async freeName(wanted: string): Promise<string> {
    const store = (await this.#db).transaction('files').store;
    if ((await store.getKey(wanted)) === undefined) return wanted;
    const dot = wanted.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, ''];
    for (let i = 2; i < 1000; i++) {
      const n = `${stem} (${i})${ext}`;
      if ((await store.getKey(n)) === undefined) return n;
    }
    return `${stem} (${Date.now()})${ext}`;
  }

  async get(name: string): Promise<FileRecord | undefined> {
    return (await this.#db).get('files', name);
  }

  /** Every file without its content, newest first. */
  async list(): Promise<FileInfo[]> {
    const out: FileInfo[] = [];
    let cursor = await (await this.#db).transaction('files').store.index('byCreated').openCursor(null, 'prev');
    while (cursor) {
      out.push(infoOf(cursor.value));
      cursor = await cursor.continue();
    }
    return out;
  }

  async delete(name: string): Promise<boolean> {
    const tx = (await this.#db).transaction('files', 'readwrite');
    const existed = (await tx.store.getKey(name)) !== undefined;
    await tx.store.delete(name);
    await tx.done;
    return existed;
  }
}

let defaultFiles: FileStore | undefined;
export function fileStore(): FileStore {
  defaultFiles ??= new FileStore();
  return defaultFiles;
}

export const saveFile = (name: string, content: string, mime?: string): Promise<FileInfo> =>
  fileStore().save(name, content, mime);
export const getFile = (name: string): Promise<FileRecord | undefined> => fileStore().get(name);
export const listFiles = (): Promise<FileInfo[]> => fileStore().list();
export const deleteFile = (name: string): Promise<boolean> => fileStore().delete(name);
