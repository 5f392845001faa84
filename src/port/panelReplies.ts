/**
 * What the worker answers to each panel request (#15 step 3, #45): request type → reply type. The requests are
 * declared and checked in shared/messages.ts; the replies name records that the layers below this one own (a
 * conversation, a file, an MCP server's status), so the map lives here, above them, and shared/ imports none of them.
 */
import type { FramePong, PanelRequestType } from '../shared/messages.ts';
import type * as R from './replies.ts';

/** What the worker answers to request `K`: the `data` of its `result`. */
export type Reply<K extends PanelRequestType> = PanelReplies[K];

/**
 * Request type → reply type. Replies are not validated on receipt (they come from our own worker, over a port only
 * our pages may open); this map is checked at compile time at both ends instead.
 */
export interface PanelReplies {
  ping: R.PingReply;
  /** Whatever was sent: the port's own smoke test. */
  echo: unknown;
  'config.get': R.ConfigGetReply;
  'config.save': { saved: true };
  'secrets.save': { saved: true; names: string[] };
  'frames.ping': FramePong[];
  'chat.send': { conversationId: string };
  /** The run's state after stopping; none when the conversation never ran. */
  'chat.stop': { state: R.RunState | undefined };
  'chat.resume': { started: true };
  'chat.retry': { started: true };
  'chat.approve': { started: true };
  'chat.deny': { started: true };
  'tabs.share': R.SharedTabReply;
  'tabs.shared_sites': { sites: R.SharedSite[] };
  'tabs.unshare_site': { revoked: boolean };
  'conversations.list': R.ConversationRecord[];
  'conversations.create': R.ConversationRecord;
  'conversations.get': R.ConversationView;
  'conversations.rename': R.ConversationRecord;
  'conversations.delete': { deleted: boolean };
  'secrets.get_names': { names: string[] };
  'secrets.update': { saved: true; names: string[] };
  'settings.test': R.ConnectionTestResult;
  'config.export': { filename: string; text: string };
  /** API name → qualified name, for the names the registry knows. */
  'tools.resolve': Record<string, string>;
  'conversations.export': R.ExportFile;
  'replay.context': { message: string };
  'command.run': R.CommandRunReply;
  'command.cancel': { cancelled: boolean };
  'command.classify': { kind: 'command' | 'chat' };
  'command.vocabulary': R.CommandVocabularyReply;
  'help.index': R.HelpIndex;
  'help.tool': R.HelpToolDetail | null;
  'help.search': { query: string; results: R.HelpHit[] };
  'help.page': { title: string; html: string } | null;
  'logs.list': R.LogsReply;
  'stats.summary': R.StatsSummary;
  'files.list': R.FilesListReply;
  'files.get': R.FileReply;
  'files.delete': { deleted: boolean };
  'files.add': R.FileInfo;
  'results.list': R.ResultSummary[];
  'results.get': R.StoredResultText;
  'results.delete': { deleted: boolean };
  'servers.list': R.ServersReply;
  'servers.test': R.ServerTestResult;
  'servers.set': R.ServersReply & { saved: true };
  'servers.remove': R.ServersReply & { removed: boolean };
  'servers.reconnect': R.ServersReply;
  'servers.tool': R.ServersReply;
  'deps.check': R.DepsReport;
  'bridge.open': R.BridgeOpenReply;
  /** The conversation the allowed session drives; none when refused. */
  'bridge.answer': { conversationId?: string };
  'bridge.list': R.BridgeSessionInfo[];
  'bridge.disconnect': { disconnected: boolean };
  'schedules.list': R.ScheduleListReply;
  'schedules.save': R.ScheduleView;
  'schedules.run': R.ScheduleRunStarted;
  'schedules.pause': R.ScheduleView;
  'schedules.delete': { deleted: boolean; runsDeleted: number };
  'schedules.history': R.ScheduleRunRecord[];
}
// Every request has a reply type and every reply a request: tsc stops here when the two lists differ.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type _EveryRequestAnswered = Holds<SameKeys<keyof PanelReplies, PanelRequestType>>;
