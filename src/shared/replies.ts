/**
 * What the worker answers to each panel request: the `data` of the port's `result`. `messages.ts` maps each request
 * type to one of these (`PanelReplies`); the worker's handlers are typed to produce it and `PortClient.request`
 * returns it, so both ends are checked by tsc against the same declaration.
 *
 * Shapes that exist only on the wire are declared here. Records that a lower layer owns (a conversation, a file, an
 * MCP server's status) are named from there with `import type`: erased at build, so nothing of those layers is
 * bundled into a page by this file, and a change to such a record shows up as a type error at both ends.
 */
import type { ConfigStatus } from '../config/status.ts';
import type { CommandErrorKind } from '../command/commandErrors.ts';
import type { Transport } from '../models/transport.ts';
import type { ConversationRecord, ItemRecord } from '../storage/records.ts';
import type { RunState } from '../storage/runRecords.ts';
import type { UnreadableRun } from '../storage/runStateSchema.ts';
import type { SharedSite } from '../storage/sharedSites.ts';
import type { FileInfo } from '../storage/files.ts';
import type { FileRecord } from '../storage/resultRecords.ts';
import type { ResultSummary } from '../storage/results.ts';
import type { StatsReport, TimelineBucket } from '../results/statsLogic.ts';
import type { HelpIndex, HelpToolDetail } from '../tools/packs/ot/help.ts';
import type { HelpHit } from '../tools/packs/ot/search.ts';
import type { ServerStatus, ServerTestResult } from '../mcp/manager.ts';
import type { DepsReport } from '../sdk/deps.ts';
import type { BridgeSessionInfo } from '../bridge/sessions.ts';
import type { BridgeClient } from './bridgeProtocol.ts';
import type { LogEntry } from './log.ts';
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import type { ScheduleRunRecord } from '../storage/scheduleRunRecord.ts';

export type {
  BridgeSessionInfo,
  ConfigStatus,
  ConversationRecord,
  DepsReport,
  FileInfo,
  FileRecord,
  HelpHit,
  HelpIndex,
  HelpToolDetail,
  ItemRecord,
  ResultSummary,
  RunState,
  ServerStatus,
  ServerTestResult,
  SharedSite,
};

// ---- the worker itself -----------------------------------------------------------------------------------------
export interface PingReply {
  pong: true;
  version: string;
  startedAt: number;
}

export type ConfigGetReply = { yaml: string } & ConfigStatus;

// ---- conversations and runs ------------------------------------------------------------------------------------
/** `conversations.get`: the record, its stored transcript, the run's state (none before the first turn). */
export interface ConversationView {
  conversation: ConversationRecord;
  items: ItemRecord[];
  state: RunState | undefined;
  /** The stored run could not be read (newer or damaged): `state` is empty, the transcript is all there is. */
  unreadable?: UnreadableRun;
  /** Whether a run of this conversation is going in this worker now. */
  active: boolean;
}

/** `tabs.share`: the tab that joined the conversation's group. */
export interface SharedTabReply {
  /** `id` is optional as in `chrome.tabs.Tab` (Chrome leaves it out only for tabs outside any window). */
  tab: { id?: number; title: string; url: string };
}

/** `conversations.export`: the finished, redacted file; the panel only downloads it. */
export interface ExportFile {
  filename: string;
  mimeType: string;
  text: string;
}

// ---- settings --------------------------------------------------------------------------------------------------
/** `settings.test`: one minimal request to the model API, in words a person can act on. */
export interface ConnectionTestResult {
  ok: boolean;
  message: string;
  kind?: string;
  status?: number;
  model?: string;
  latencyMs?: number;
  /** The wire that answered. */
  transport?: Transport;
  /** Whether the model called the test tool. */
  toolCalled?: boolean;
}

// ---- command mode and help -------------------------------------------------------------------------------------
export interface CommandRunOk {
  ok: true;
  /** What the input ran as. */
  kind: 'help' | 'snippet' | 'program';
  /** The program that ran (a snippet's expansion, `ot.help(query="x")` for `/help x`). */
  source: string;
  /** The result, formatted. */
  output: string;
  format: 'yaml' | 'json';
  /** Tool calls made. */
  calls: number;
  durationMs: number;
}

export interface CommandRunFailed {
  ok: false;
  error: {
    /** `[label, ]line L, column C: reason`. */
    message: string;
    reason: string;
    kind: CommandErrorKind;
    line: number | null;
    column: number | null;
    label: string | null;
  };
  durationMs: number;
}

export type CommandRunReply = CommandRunOk | CommandRunFailed;

export interface CommandVocabularyReply {
  packs: string[];
  tools: string[];
  aliases: Record<string, string>;
  snippets: Record<string, string>;
}

// ---- the developer view, stats and files -----------------------------------------------------------------------
export interface LogsReply {
  /** config developer.logs: false → no entries, and the panel hides the view. */
  enabled: boolean;
  entries: LogEntry[];
}

export interface StatsSummary {
  /** config `stats.enabled`: when false nothing new is recorded. */
  enabled: boolean;
  report: StatsReport;
  /** Calls per bucket over the window (dense), for the chart. */
  timeline: TimelineBucket[];
  bucketMs: number;
}

export interface TopicFile {
  pattern: string;
  /** The stored (flat) file name. */
  file: string;
  exists: boolean;
}

export interface FilesListReply {
  files: FileInfo[];
  topics: TopicFile[];
}

/** `files.get`: a binary file travels as base64 in `data` (the port carries JSON), without its `bytes`. */
export type FileReply = FileRecord & { data?: string };

export interface StoredResultText {
  handle: string;
  text: string;
  /** Characters of the whole stored text. */
  totalChars: number;
  truncated: boolean;
}

// ---- MCP servers and the bridge --------------------------------------------------------------------------------
export interface ServersReply {
  servers: ServerStatus[];
}

/** `bridge.open`: who is asking, whether it was allowed before, and the sessions already connected. */
export interface BridgeOpenReply {
  client: BridgeClient;
  allowed: boolean;
  others: string[];
}

export type { ScheduleRunRecord };

/** One schedule as the panel lists it (#46): its config entry, when it runs next, and its last run. */
export interface ScheduleView {
  id: string;
  entry: ScheduleEntry;
  kind: 'snippet' | 'task';
  /** `when` as a cron line (`0 9 * * 1`); unset when `problem` says why it cannot run. */
  cron?: string;
  /** Epoch ms of the next run; unset when paused or unreadable. */
  nextRun?: number;
  last?: ScheduleRunRecord;
  /** Why the schedule cannot run (a snippet that no longer exists, …), in plain words. */
  problem?: string;
}

export interface ScheduleListReply {
  schedules: ScheduleView[];
  /** Set when the config has errors: no schedule runs until they are fixed. */
  blocked?: string;
}

export interface ScheduleRunStarted {
  /** The history record's id: `schedules.history` shows it; `schedules.changed` events name it. */
  runId: string;
}
