/**
 * The message protocol. Three boundaries, each with its own schemas:
 *  - panel → worker: requests over the long-lived port `PANEL_PORT` (each carries an `id` the reply echoes);
 *  - worker → panel: replies and pushed events on the same port;
 *  - worker → content script: in `contentMessages.ts`.
 * Later issues extend these unions; receivers validate with the `parse*` helpers and drop what does not parse.
 * Each panel request has one reply type (`PanelReplies`, below): the worker's handler must produce it and
 * `PortClient.request` returns it. A new request type is a schema here plus an entry there; tsc names what is missing.
 */
import { z } from './zod.ts';
import { CONFIG_MAX_CHARS, MESSAGE_MAX_CHARS, SECRETS_MAX_CHARS } from './limits.ts';
import type * as R from './replies.ts';

export const PANEL_PORT = 'otto-panel';

const id = z.string().min(1).max(100);
const conversationId = z.string().min(1).max(100);
const scheduleId = z.string().min(1).max(64);

// ---- panel → worker -------------------------------------------------------------------------------------------
export const PanelRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping'), id }),
  z.object({ type: z.literal('echo'), id, payload: z.unknown() }),
  z.object({ type: z.literal('config.get'), id }),
  z.object({ type: z.literal('config.save'), id, yaml: z.string().max(CONFIG_MAX_CHARS) }),
  z.object({ type: z.literal('secrets.save'), id, yaml: z.string().max(SECRETS_MAX_CHARS) }),
  z.object({ type: z.literal('frames.ping'), id, tabId: z.number().int().nonnegative() }),
  // The agent: start a turn, and steer the run it starts.
  z.object({
    type: z.literal('chat.send'),
    id,
    conversationId: conversationId.optional(),
    text: z.string().min(1).max(MESSAGE_MAX_CHARS),
    /** The tab the user is looking at; default: the active tab of the focused window. */
    tabId: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal('chat.stop'), id, conversationId }),
  z.object({ type: z.literal('chat.resume'), id, conversationId }),
  z.object({ type: z.literal('chat.retry'), id, conversationId }),
  z.object({
    type: z.literal('chat.approve'),
    id,
    conversationId,
    callId: z.string().min(1),
    scope: z.enum(['once', 'site', 'task']).default('once'),
  }),
  z.object({ type: z.literal('chat.deny'), id, conversationId, callId: z.string().min(1) }),
  // Otto's tab group (#27): share a tab with a conversation ("Share this tab"); the sites shared "always".
  z.object({ type: z.literal('tabs.share'), id, conversationId, tabId: z.number().int().nonnegative().optional() }),
  z.object({ type: z.literal('tabs.shared_sites'), id }),
  z.object({ type: z.literal('tabs.unshare_site'), id, origin: z.string().min(1).max(2000) }),
  // Conversations.
  z.object({ type: z.literal('conversations.list'), id }),
  z.object({ type: z.literal('conversations.create'), id, title: z.string().max(200).optional() }),
  z.object({ type: z.literal('conversations.get'), id, conversationId }),
  z.object({ type: z.literal('conversations.rename'), id, conversationId, title: z.string().min(1).max(200) }),
  z.object({ type: z.literal('conversations.delete'), id, conversationId }),
  // Settings and export (background/settingsHandlers.ts, background/exportHandlers.ts). No secret value ever goes
  // worker → panel: names only, and every text is redacted.
  z.object({ type: z.literal('secrets.get_names'), id }),
  /** Merges into the stored secrets: `set` adds or replaces values, `remove` drops names. */
  z.object({
    type: z.literal('secrets.update'),
    id,
    set: z.record(z.string().max(200), z.string().max(10_000)).default({}),
    remove: z.array(z.string().max(200)).max(100).default([]),
  }),
  /** One minimal request to the model API; unset fields use the saved settings. */
  z.object({
    type: z.literal('settings.test'),
    id,
    baseUrl: z.string().max(2000).optional(),
    model: z.string().max(200).optional(),
    apiKey: z.string().max(10_000).optional(),
    api: z.enum(['responses', 'chat', 'auto']).optional(),
  }),
  /** The stored config YAML with any secret value redacted, for download. */
  z.object({ type: z.literal('config.export'), id }),
  /** API tool names (as in transcripts) → qualified names, for those the registry knows. */
  z.object({ type: z.literal('tools.resolve'), id, names: z.array(z.string().max(200)).max(1000) }),
  z.object({ type: z.literal('conversations.export'), id, conversationId, format: z.enum(['markdown', 'json']) }),
  // Command mode and the help browser (background/commandHandlers.ts documents each reply). Commands run directly —
  // no model, no API key — with every tool call through the interceptor.
  // #17: the message that hands a stopped snippet replay to the model (background/replayHandlers.ts).
  z.object({
    type: z.literal('replay.context'),
    id,
    /** The snippet invocation that stopped (`$name k=v`). */
    text: z.string().min(1).max(200_000),
    /** The body line of the step that failed. */
    line: z.number().int().min(1).max(100_000),
    error: z.string().max(20_000),
    conversationId: conversationId.optional(),
    tabId: z.number().int().nonnegative().optional(),
  }),
  z.object({
    type: z.literal('command.run'),
    id,
    /** `/help x`, `$snippet k=v`, an alias call or a `pack.fn(k=v)` program. */
    text: z.string().min(1).max(MESSAGE_MAX_CHARS),
    conversationId: conversationId.optional(),
    /** The tab tools act on; default: the conversation's tab, else each tool's own default (the active tab). */
    tabId: z.number().int().nonnegative().optional(),
    /** Names the run for `command.cancel`. */
    runId: z.string().min(1).max(100).optional(),
  }),
  z.object({ type: z.literal('command.cancel'), id, runId: z.string().min(1).max(100) }),
  z.object({ type: z.literal('command.classify'), id, text: z.string().max(MESSAGE_MAX_CHARS) }),
  z.object({ type: z.literal('command.vocabulary'), id }),
  z.object({ type: z.literal('help.index'), id }),
  z.object({ type: z.literal('help.tool'), id, name: z.string().min(1).max(300) }),
  z.object({
    type: z.literal('help.search'),
    id,
    query: z.string().max(500),
    limit: z.number().int().min(1).max(200).optional(),
  }),
  /** A pack's reference page as HTML, built from the registry now (the live docs page for packs with no bundled page). */
  z.object({ type: z.literal('help.page'), id, pack: z.string().min(1).max(200) }),
  /**
   * Recent entries of the worker's log (the developer view; config developer.logs), newest last. `match` keeps entries
   * whose span or tool contains it; `level` is the lowest level kept.
   */
  z.object({
    type: z.literal('logs.list'),
    id,
    level: z.enum(['debug', 'info', 'warn', 'error']).optional(),
    match: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
  // The panel's Stats and Files views (background/dataHandlers.ts documents each reply).
  z.object({
    type: z.literal('stats.summary'),
    id,
    period: z.string().max(20).optional(),
    tool: z.string().max(300).optional(),
  }),
  z.object({ type: z.literal('files.list'), id }),
  z.object({ type: z.literal('files.get'), id, name: z.string().min(1).max(200) }),
  z.object({ type: z.literal('files.delete'), id, name: z.string().min(1).max(200) }),
  // A file the user picks in the panel for Otto (#19): base64 bytes, up to 20 MB.
  z.object({
    type: z.literal('files.add'),
    id,
    name: z.string().min(1).max(255),
    mime: z.string().max(255),
    data: z.string().max(28_000_000),
  }),
  z.object({ type: z.literal('results.list'), id }),
  z.object({
    type: z.literal('results.get'),
    id,
    handle: z.string().min(1).max(100),
    maxChars: z.number().int().min(1).optional(),
  }),
  z.object({ type: z.literal('results.delete'), id, handle: z.string().min(1).max(100) }),
  // MCP servers and tool dependencies for the settings UI (background/mcp.ts documents each reply). Header values
  // go worker-ward only (servers.set/test); replies carry header names, never values.
  z.object({ type: z.literal('servers.list'), id }),
  z.object({
    type: z.literal('servers.test'),
    id,
    /** A configured server, or the name to show for `url`. */
    name: z.string().min(1).max(100).optional(),
    /** Test this URL instead of the configured server (before adding it). Checked by the handler, with the reason. */
    url: z.string().max(2000).optional(),
    headers: z.record(z.string().max(200), z.string().max(10_000)).optional(),
    timeout: z.number().positive().max(600).optional(),
  }),
  z.object({
    type: z.literal('servers.set'),
    id,
    name: z
      .string()
      .regex(/^[^.\s]+$/, 'server names have no dots or spaces')
      .max(100),
    /** Checked when the config is saved (config/schema.ts), with the reason. */
    url: z.string().max(2000).optional(),
    headers: z.record(z.string().max(200), z.string().max(10_000)).optional(),
    timeout: z.number().positive().max(600).optional(),
    enabled: z.boolean().optional(),
  }),
  z.object({ type: z.literal('servers.remove'), id, name: z.string().min(1).max(100) }),
  z.object({ type: z.literal('servers.reconnect'), id, name: z.string().min(1).max(100).optional() }),
  /** Turns one server tool on (approving its current definition, e.g. after a change) or off. */
  z.object({
    type: z.literal('servers.tool'),
    id,
    name: z.string().min(1).max(100),
    tool: z.string().min(1).max(300),
    enabled: z.boolean(),
  }),
  z.object({ type: z.literal('deps.check'), id, tool: z.string().min(1).max(300).optional() }),
  // The MCP bridge (#29): the connect page hands the worker the relay's port and token, then the user's answer.
  z.object({
    type: z.literal('bridge.open'),
    id,
    port: z.number().int().min(1).max(65535),
    token: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/),
  }),
  z.object({
    type: z.literal('bridge.answer'),
    id,
    token: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/),
    allow: z.boolean(),
    tabIds: z.array(z.number().int().nonnegative()).max(50).default([]),
  }),
  z.object({ type: z.literal('bridge.list'), id }),
  z.object({ type: z.literal('bridge.disconnect'), id, conversationId }),
  // Schedules (#46, background/scheduleHandlers.ts documents each reply). A schedule is a `schedules.<name>` entry
  // of the config; these requests read and edit it and its history.
  z.object({ type: z.literal('schedules.list'), id }),
  /** Adds or replaces a schedule; its scope is fixed now (a task's words, a snippet's sites) unless given. */
  z.object({
    type: z.literal('schedules.save'),
    id,
    scheduleId,
    when: z.string().min(1).max(200),
    snippet: z.string().min(1).max(100).optional(),
    args: z.record(z.string().max(100), z.union([z.string().max(10_000), z.number(), z.boolean()])).optional(),
    task: z.string().min(1).max(10_000).optional(),
    url: z.string().max(2000).optional(),
    watch: z.object({ condition: z.string().min(1).max(500) }).optional(),
    paused: z.boolean().optional(),
    notify: z.boolean().optional(),
  }),
  /** Runs a schedule now (in the background, as its time would); the reply comes when it has started. */
  z.object({ type: z.literal('schedules.run'), id, scheduleId }),
  z.object({ type: z.literal('schedules.pause'), id, scheduleId, paused: z.boolean() }),
  z.object({ type: z.literal('schedules.delete'), id, scheduleId }),
  /** Runs, newest first: one schedule's, or every schedule's when `scheduleId` is unset. */
  z.object({
    type: z.literal('schedules.history'),
    id,
    scheduleId: scheduleId.optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
]);
export type PanelRequest = z.infer<typeof PanelRequest>;
export type PanelRequestType = PanelRequest['type'];
/** One request as the worker's handler receives it: validated, defaults applied. */
export type Req<K extends PanelRequestType> = Extract<PanelRequest, { type: K }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/**
 * One request as a page writes it: without the `id` (the client adds it), fields with a default optional. The
 * `type` is kept apart so that `request({type: 'command.run', …})` infers which request — and so which reply — it is.
 */
export type RequestBody<K extends PanelRequestType = PanelRequestType> = { type: K } & DistributiveOmit<
  Extract<z.input<typeof PanelRequest>, { type: K }>,
  'id' | 'type'
>;
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

// ---- worker → panel -------------------------------------------------------------------------------------------
export const FramePong = z.object({
  frameId: z.number().int(),
  url: z.string(),
  isTop: z.boolean(),
  title: z.string(),
});
export type FramePong = z.infer<typeof FramePong>;

export const PanelReply = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('result'), id, ok: z.literal(true), data: z.unknown() }),
  z.object({ type: z.literal('result'), id, ok: z.literal(false), error: z.string() }),
]);
export type PanelReply = z.infer<typeof PanelReply>;

/** An agent event (src/agent/agentEvents.ts), forwarded as is; the panel reads the fields it knows. */
export const AgentEventMessage = z.object({ type: z.string().min(1), conversationId }).passthrough();

export const WorkerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.string(), startedAt: z.number() }),
  z.object({ type: z.literal('agent'), event: AgentEventMessage }),
  /** A run failed outside the loop's own error handling (a bug, storage full): shown, never swallowed. */
  z.object({ type: z.literal('worker.error'), conversationId: conversationId.optional(), message: z.string() }),
  /** An MCP server changed a tool or added one: it is off until the user reviews it in the settings. */
  z.object({ type: z.literal('servers.review'), server: z.string(), tool: z.string(), message: z.string() }),
  /** The stored config or secrets changed (from anywhere): panels re-read `config.get`. */
  z.object({ type: z.literal('config.changed') }),
  /** An MCP client's session started or ended (#29): panels re-read `bridge.list`. */
  z.object({ type: z.literal('bridge.changed') }),
  /** A scheduled run started, ended or began waiting (#46): panels re-read `schedules.list` / `schedules.history`. */
  z.object({ type: z.literal('schedules.changed'), scheduleId: z.string(), runId: z.string().optional() }),
]);
export type WorkerEvent = z.infer<typeof WorkerEvent>;

export const WorkerToPanel = z.union([PanelReply, WorkerEvent]);
export type WorkerToPanel = z.infer<typeof WorkerToPanel>;

export { parseMessage } from './parseMessage.ts';
