/**
 * What the panel's Stats and Files views read: statistics, Otto's files (the `ot.stats` HTML reports, `ot.notify`
 * topic files) and stored large results — all in IndexedDB, all read here in the worker, which owns the stores.
 *
 * Requests (src/shared/messages.ts) and their replies (`data` of the port's `result`):
 *
 *   stats.summary {period?, tool?} → StatsSummary   the figures of `ot.stats(period, tool)` (the same `toReport`)
 *       plus the timeline it charts; `enabled` is config `stats.enabled` (figures recorded so far still show).
 *       An invalid period is an error with ot.stats' own message.
 *   files.list → {files: FileInfo[], topics: TopicFile[]}      files newest first, without content; the configured
 *       `notify.topics` with the stored name of their file and whether it exists yet
 *   files.get {name} → FileRecord                              one file with its content (redacted), or an error
 *   files.delete {name} → {deleted: boolean}
 *   files.add {name, mime, data} → FileInfo                   a file the user picked for Otto (#19): kept with no
 *       origin label (the user gave it), under a free name (`cv (2).pdf` when `cv.pdf` exists)
 *   results.list → ResultSummary[]                             stored large results, newest first
 *   results.get {handle, maxChars?} → StoredResultText         the stored text (cut to maxChars when given), or
 *       the store's own `Result not found: <h>` / `Result expired: <h>` error
 *   results.delete {handle} → {deleted: boolean}
 */
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';
import type { StatsStore } from '../storage/statsStore.ts';
import { fileNameProblem, fileStore, safeFileName, type FileInfo, type FileStore } from '../storage/files.ts';
import { toBase64 } from '../tools/packs/files/bytes.ts';
import type { ResultStore, ResultSummary } from '../storage/results.ts';
import { toReport } from '../results/statsLogic.ts';
import { topicFileName } from '../tools/packs/ot/notify.ts';
import type { FileReply, FilesListReply, StatsSummary, StoredResultText } from '../port/replies.ts';

// The replies live with the protocol (port/replies.ts), where the panel reads them too.
export type { FilesListReply, StatsSummary, StoredResultText, TopicFile } from '../port/replies.ts';

export interface DataHandlerDeps {
  settings: () => Promise<Settings>;
  /** Applied to file contents bound for the panel (secret values, key-shaped text). */
  redact: (text: string) => string;
  stats: () => StatsStore;
  files?: () => FileStore;
  results: () => ResultStore;
}

type DataHandlers = Pick<
  Handlers,
  | 'stats.summary'
  | 'files.list'
  | 'files.get'
  | 'files.delete'
  | 'files.add'
  | 'results.list'
  | 'results.get'
  | 'results.delete'
>;

export function dataHandlers(deps: DataHandlerDeps): DataHandlers {
  const { stats, results } = deps;
  const files = deps.files ?? fileStore;

  return {
    async 'stats.summary'(req): Promise<StatsSummary> {
      const { config } = await deps.settings();
      const agg = await stats().aggregate({
        ...(req.period ? { period: req.period } : {}),
        ...(req.tool ? { tool: req.tool } : {}),
      });
      return { enabled: config.stats.enabled, report: toReport(agg), timeline: agg.timeline, bucketMs: agg.bucketMs };
    },

    async 'files.list'(): Promise<FilesListReply> {
      const [{ config }, list] = await Promise.all([deps.settings(), files().list()]);
      const names = new Set(list.map((f) => f.name));
      const topics = config.notify.topics.map((t) => {
        const file = topicFileName(t.file);
        return { pattern: t.pattern, file, exists: names.has(file) };
      });
      return { files: list, topics };
    },

    async 'files.get'(req): Promise<FileReply> {
      const file = await files().get(req.name);
      if (!file) throw new Error(`File not found: ${req.name}`);
      // Binary files (downloads, picked files) travel as base64: the port carries JSON.
      if (file.bytes) {
        const { bytes, ...rest } = file;
        return { ...rest, data: toBase64(bytes) };
      }
      const content = deps.redact(file.content);
      return { ...file, content, size: content.length };
    },

    async 'files.add'(req): Promise<FileInfo> {
      const problem = fileNameProblem(req.name);
      const name = problem ? safeFileName(req.name, 'file') : req.name;
      const bin = atob(req.data);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const store = files();
      return store.saveBytes(await store.freeName(name), bytes.buffer, req.mime || 'application/octet-stream', {
        source: 'user',
        origins: [],
      });
    },

    async 'files.delete'(req) {
      return { deleted: await files().delete(req.name) };
    },

    async 'results.list'(): Promise<ResultSummary[]> {
      return results().list();
    },

    async 'results.get'(req): Promise<StoredResultText> {
      const text = await results().text(req.handle);
      const cut = req.maxChars !== undefined && text.length > req.maxChars;
      return {
        handle: req.handle,
        text: cut ? text.slice(0, req.maxChars) : text,
        totalChars: text.length,
        truncated: cut,
      };
    },

    async 'results.delete'(req) {
      return { deleted: await results().delete(req.handle) };
    },
  };
}
