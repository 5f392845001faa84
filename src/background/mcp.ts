/**
 * The worker's MCP layer and the panel requests the settings UI needs for it. One `McpManager` per worker life,
 * with chrome's permissions (host permission checked before connecting), the last tool list of each server kept in
 * IndexedDB (`meta` store, key `mcp.tools.<server>`) so a restarted worker registers a server's tools at once and
 * its calls wait for the reconnection, and the worker's secret redactor on every error text.
 *
 * Panel requests (src/shared/messages.ts) and their replies (`data` of the port's `result`):
 *
 *   servers.list → {servers: ServerStatus[]}
 *       every configured server: name, url, enabled, state (connected | connecting | disconnected | disabled), error,
 *       transport (streamable-http | sse), toolCount, tools (function names), toolsFrom (live | cache | none),
 *       timeout (s), headers (names only — values are never sent), serverInfo {name, version}, connectedAt
 *   servers.test {name?} | {url, headers?, timeout?} → ServerTestResult {ok, message, transport?, toolCount?, tools?,
 *       serverInfo?, latencyMs}
 *       a throw-away connection: a configured server by name, or a URL before it is added (header values may
 *       reference secrets as ${NAME}); nothing is saved or registered
 *   servers.set {name, url?, headers?, timeout?, enabled?} → {saved: true, servers}
 *       adds the server or changes the given fields in the stored config YAML (comments and the rest kept), then
 *       applies it like config.save (connects, registers its pack); `enabled: false` disables it
 *   servers.remove {name} → {removed: boolean, servers}
 *   servers.reconnect {name?} → {servers}        reconnects one server (or all), as ot.reload does for all
 *   servers.tool {name, tool, enabled} → {servers}   turns a tool on (approving its current definition: after a
 *       change, or a tool that appeared later) or off
 *
 * Events: `servers.review {server, tool, message}` when a server changes a tool or adds one (it is off until the
 * user reviews it); the panel shows the message as a notice. Its pins are in `meta` too (`mcp.pins.<server>`).
 *   deps.check {tool?} → DepsReport             the SDK's check_deps: every declared dependency ok | missing + fix
 */
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';
import { knownSecretValues, redact } from './settings.ts';
import { broadcast } from './panelHub.ts';
import {
  McpManager,
  editServerYaml,
  reviewNotice,
  type CachedTools,
  type PinRecord,
  type ServerStatus,
  type ToolCache,
} from '../mcp/index.ts';
import { checkDeps } from '../sdk/index.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import { getMeta, putMeta } from '../storage/meta.ts';
import { loadConfig, saveConfig } from '../config/configStore.ts';
import { formatProblems } from '../config/parse.ts';
import { httpUrlProblem } from '../shared/urlProblem.ts';
import { log } from '../shared/log.ts';

const cache: ToolCache = {
  load: (server) => getMeta<CachedTools>(`mcp.tools.${server}`),
  save: (server, value) => putMeta(`mcp.tools.${server}`, value),
  loadPins: (server) => getMeta<PinRecord>(`mcp.pins.${server}`),
  savePins: (server, value) => putMeta(`mcp.pins.${server}`, value),
};

let changed: () => void = () => undefined;

/** The worker's MCP manager (also ot.health's ServerStatusSource). */
export const mcp = new McpManager({
  clientInfo: { name: 'otto', version: chrome.runtime.getManifest().version },
  permissions: chrome.permissions,
  cache,
  logger: log,
  redact,
  secrets: knownSecretValues,
  onChange: () => changed(),
  // No allowance outlives a change: the tool is off (so nothing runs it) until the user approves the new version,
  // which pins it anew. The panel is told.
  onReview: (server, tool, kind) =>
    broadcast({ type: 'servers.review', server, tool, message: reviewNotice(server, tool, kind) }),
});

/** Called when a server's tools changed after a sync returned (a slow server connected): rebuild the registry. */
export function onMcpChange(cb: () => void): void {
  changed = cb;
}

/** Brings the connections in line with the settings; `reconnect` forces every server (ot.reload). */
export function syncMcp(s: Settings, reconnect: boolean | readonly string[] = false): Promise<void> {
  return mcp.sync(s.config.servers, (name) => s.secrets[name], { force: reconnect });
}

export interface McpHandlerDeps {
  settings: () => Promise<Settings>;
  invalidate: () => void;
  /** Re-reads settings, syncs servers and rebuilds the registry (the worker's refreshTools). */
  refresh: (opts?: { reconnect?: boolean | readonly string[] }) => Promise<void>;
  /** The registry in force (rebuilt on every refresh): what `deps.check` reports on. */
  registry: () => ToolRegistry;
  manager?: McpManager;
}

type McpHandlers = Pick<
  Handlers,
  | 'servers.list'
  | 'servers.test'
  | 'servers.set'
  | 'servers.remove'
  | 'servers.reconnect'
  | 'servers.tool'
  | 'deps.check'
>;

export function mcpHandlers(deps: McpHandlerDeps): McpHandlers {
  const manager = deps.manager ?? mcp;
  const list = (): { servers: ServerStatus[] } => ({ servers: manager.status() });
  const save = async (yaml: string): Promise<void> => {
    const out = await saveConfig(yaml);
    if (!out.ok) throw new Error(formatProblems(out.problems));
    deps.invalidate();
    await deps.refresh();
  };
  return {
    'servers.list': () => list(),
    'servers.test': async (req) => {
      const s = await deps.settings();
      const getSecret = (n: string): string | undefined => s.secrets[n];
      if (req.url !== undefined) {
        const problem = httpUrlProblem(req.url);
        if (problem) throw new Error(`The URL ${problem}.`);
        return manager.test(
          {
            url: req.url,
            ...(req.name ? { name: req.name } : {}),
            ...(req.headers ? { headers: req.headers } : {}),
            ...(req.timeout ? { timeout: req.timeout } : {}),
          },
          getSecret,
        );
      }
      const cfg = req.name ? s.config.servers[req.name] : undefined;
      if (!req.name || !cfg)
        throw new Error(req.name ? `No server named '${req.name}' in config servers` : 'Give a server name or a url');
      return manager.test({ name: req.name, url: cfg.url, headers: cfg.headers, timeout: cfg.timeout }, getSecret);
    },
    'servers.set': async (req) => {
      const { yaml } = await loadConfig();
      const { name, url, headers, timeout, enabled } = req;
      await save(editServerYaml(yaml, name, { url, headers, timeout, enabled }));
      return { saved: true, ...list() };
    },
    'servers.remove': async (req) => {
      const { yaml, config } = await loadConfig();
      const had = req.name in config.servers;
      if (had) await save(editServerYaml(yaml, req.name, 'remove'));
      return { removed: had, ...list() };
    },
    'servers.reconnect': async (req) => {
      deps.invalidate();
      await deps.refresh({ reconnect: req.name ? [req.name] : true });
      return list();
    },
    'servers.tool': async (req) => {
      await manager.setToolEnabled(req.name, req.tool, req.enabled);
      await deps.refresh();
      return list();
    },
    'deps.check': async (req) => {
      const s = await deps.settings();
      return checkDeps({
        registry: deps.registry(),
        ...(req.tool ? { tool: req.tool } : {}),
        secrets: { getSecret: (n) => s.secrets[n] },
      });
    },
  };
}
