/**
 * The Stats and Files views' slice of the panel store: statistics for a period (`stats.summary`, the figures of
 * `ot.stats`), Otto's files (HTML reports, notify topic files) and stored large results, with open, download, view
 * and delete. Files open in a new tab from a blob URL; downloads go through a temporary `<a download>`.
 */
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import type { FileInfo, ResultSummary, StatsSummary, TopicFile } from '../../port/replies.ts';
import { base64Of, downloadBytes, downloadText } from '../../ui/download.ts';
import { openInTab } from '../lib/openTab.ts';
import type { Request } from './request.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export type { FileInfo, ResultSummary, StatsSummary, TopicFile };

export const PERIODS = ['day', 'week', 'month', 'all'] as const;
export type Period = (typeof PERIODS)[number];
/** Characters of a stored result shown in the panel (Download has all of it). */
export const PREVIEW_CHARS = 200_000;

export type ResultPreview = { handle: string } & (
  { text: string; truncated: boolean; totalChars: number } | { error: string }
);

export interface DataState {
  period: Period;
  stats?: StatsSummary;
  statsLoading: boolean;
  statsError?: string;
  files?: FileInfo[];
  topics?: TopicFile[];
  results?: ResultSummary[];
  filesLoading: boolean;
  filesError?: string;
  preview?: ResultPreview;
  /** The outcome of the last action (saved a report, could not open a file). */
  notice?: { text: string; error: boolean };
}

export interface DataSlice extends DataState {
  loadStats(period?: Period): Promise<void>;
  saveReport(): Promise<void>;
  loadFiles(): Promise<void>;
  openFile(name: string): Promise<void>;
  downloadFile(name: string): Promise<void>;
  /** A file the user picks for Otto (#19): it joins the file store, for files.upload / files.read. */
  addFile(file: File): Promise<void>;
  deleteFile(name: string): Promise<void>;
  viewResult(handle: string | undefined): Promise<void>;
  downloadResult(handle: string): Promise<void>;
  deleteResult(handle: string): Promise<void>;
  dismissNotice(): void;
}

/** A file as shown in a tab: HTML as HTML, everything else as plain text (YAML would otherwise download). */
export function viewMime(mime: string): string {
  return /^text\/html\b/i.test(mime) ? 'text/html' : 'text/plain';
}

export function useData(req: Request): DataSlice {
  const [state, setState] = useState<DataState>({ period: 'week', statsLoading: false, filesLoading: false });
  const set = (patch: Partial<DataState>) => setState((s) => ({ ...s, ...patch }));
  const periodRef = useRef<Period>('week');

  const loadStats = useCallback(
    async (period?: Period) => {
      const p = period ?? periodRef.current;
      periodRef.current = p;
      set({ period: p, statsLoading: true });
      try {
        const stats = await req({ type: 'stats.summary', period: p });
        setState((s) => (s.period === p ? { ...s, stats, statsLoading: false, statsError: undefined } : s));
      } catch (e) {
        set({ statsLoading: false, statsError: errorMessage(e) });
      }
    },
    [req],
  );

  const loadFiles = useCallback(async () => {
    set({ filesLoading: true });
    try {
      const [list, results] = await Promise.all([req({ type: 'files.list' }), req({ type: 'results.list' })]);
      set({ files: list.files, topics: list.topics, results, filesLoading: false, filesError: undefined });
    } catch (e) {
      set({ filesLoading: false, filesError: errorMessage(e) });
    }
  }, [req]);

  const act = useCallback(async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      set({ notice: { text: errorMessage(e), error: true } });
    }
  }, []);

  const file = useCallback((name: string) => req({ type: 'files.get', name }), [req]);

  const saveReport = useCallback(async () => {
    const name = `otto-stats-${state.period}.html`;
    await act(async () => {
      const r = await req({
        type: 'command.run',
        text: `ot.stats(period="${state.period}", output="${name}")`,
      });
      if (!r.ok) throw new Error(r.error.message);
      if (r.output.startsWith('Error:')) throw new Error(r.output);
      set({ notice: { text: `Saved the report as ${name} (see Files).`, error: false } });
      await loadFiles();
    });
  }, [req, act, loadFiles, state.period]);

  const viewResult = useCallback(
    async (handle: string | undefined) => {
      if (!handle) return set({ preview: undefined });
      set({ preview: { handle, text: '', truncated: false, totalChars: 0 } });
      try {
        const r = await req({ type: 'results.get', handle, maxChars: PREVIEW_CHARS });
        set({ preview: { handle, text: r.text, truncated: r.truncated, totalChars: r.totalChars } });
      } catch (e) {
        set({ preview: { handle, error: errorMessage(e) } });
      }
    },
    [req],
  );

  return useMemo<DataSlice>(
    () => ({
      ...state,
      loadStats,
      saveReport,
      loadFiles,
      viewResult,
      dismissNotice: () => set({ notice: undefined }),
      openFile: (name) =>
        act(async () => {
          const f = await file(name);
          openInTab(f.content, viewMime(f.mime));
        }),
      downloadFile: (name) =>
        act(async () => {
          const f = await file(name);
          const data = (f as { data?: string }).data;
          if (data) downloadBytes(f.name, f.mime, data);
          else downloadText(f.name, f.mime, f.content);
        }),
      addFile: (picked) =>
        act(async () => {
          await req({ type: 'files.add', name: picked.name, mime: picked.type, data: await base64Of(picked) });
          await loadFiles();
        }),
      deleteFile: (name) =>
        act(async () => {
          await req({ type: 'files.delete', name });
          await loadFiles();
        }),
      downloadResult: (handle) =>
        act(async () => {
          const r = await req({ type: 'results.get', handle });
          downloadText(`otto-result-${handle}.txt`, 'text/plain', r.text);
        }),
      deleteResult: (handle) =>
        act(async () => {
          await req({ type: 'results.delete', handle });
          setState((s) => (s.preview?.handle === handle ? { ...s, preview: undefined } : s));
          await loadFiles();
        }),
    }),
    [state, loadStats, saveReport, loadFiles, viewResult, act, file, req],
  );
}
