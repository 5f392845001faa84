/**
 * Stored shapes of the large-result store, the statistics and the generic files (issue 6). Plain data only: every
 * record survives structured clone.
 */
import type { Contribution, ModelRequestStat, SavingStat, ToolCallStat } from '../results/statsLogic.ts';

/** One stored tool output (`results` store, keyed by handle); its text lives in `resultChunks`. */
export interface ResultMetaRecord {
  /** 12 lowercase hex characters. */
  handle: string;
  /** `writing` while chunks are being stored (queries treat it as not found), then `ready`. */
  state: 'writing' | 'ready';
  createdAt: number;
  /** When the result expires (ms since the epoch); null = never (result_ttl 0), and then absent from `byExpires`. */
  expiresAt: number | null;
  /** The tool whose output this is, when known. */
  tool?: string;
  totalLines: number;
  /** UTF-8 size of the original output. */
  sizeBytes: number;
  /** Source lines longer than the wrap width (stored as several lines). */
  wrappedLines: number;
  /** 0-based first line of each chunk, ascending: chunk i holds lines chunkStarts[i] .. chunkStarts[i+1]-1. */
  chunkStarts: number[];
}

/** A run of consecutive lines of one result (`resultChunks`, keyed [handle, index]). */
export interface ResultChunkRecord {
  handle: string;
  index: number;
  /** 0-based line number of the first line. */
  start: number;
  /** The lines joined by `\n`. */
  text: string;
}

export type StoredToolCall = ToolCallStat & { id?: number };
export type StoredModelRequest = ModelRequestStat & { id?: number };
export type StoredSaving = SavingStat & { id?: number };

/** Sums over an hour ('h') or a UTC day ('d') of one kind and name; `t` equals `start`. */
export type StatsRollupRecord = Contribution & { res: 'h' | 'd'; start: number };

/** A generic file kept in IndexedDB (HTML reports, ot.notify topic files, downloads, files the user picked). */
export interface FileRecord {
  name: string;
  mime: string;
  /** The text of a text file; empty when the file is binary (`bytes`). */
  content: string;
  /** Characters of content, or bytes of `bytes`. */
  size: number;
  createdAt: number;
  updatedAt: number;
  /** The file's bytes, for files that are not text (a downloaded PDF, a picked image). #19 */
  bytes?: ArrayBuffer;
  /** Where it came from: Otto's own output, a download, a web.fetch, or a file the user picked in the panel. */
  source?: 'otto' | 'download' | 'fetch' | 'user';
  /** The data-flow labels of its content (guard/labels.ts): the origin it was downloaded from. Empty: none. */
  origins?: string[];
  /** The URL it was downloaded or fetched from, and where Chrome saved it. */
  url?: string;
  path?: string;
}
