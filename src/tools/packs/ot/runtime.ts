/**
 * What the `ot` pack needs from outside a tool call: the registry it describes, the extension it runs in, the stores it
 * wraps, and the worker's reload hook. `createOtTools(deps)` takes these explicitly: the worker's composition root
 * passes its own through `buildRegistry({ ot })`, tests pass fakes, and anything left out falls back to defaults that
 * work without a browser.
 */
import type { ToolRegistry } from '../../ToolRegistry.ts';
import type { ToolContext } from '../../Tool.ts';
import { type ComputeStatsOptions, type SavingInput } from '../../../storage/statsStore.ts';
import type { StatsReport } from '../../../results/statsLogic.ts';
import type { QueryParams, ResultPage } from '../../../results/query.ts';
import type { FileInfo } from '../../../storage/files.ts';

/** What a later MCP layer reports about a configured server. */
export type ServerState = 'connected' | 'disconnected' | 'connecting' | 'disabled';

/**
 * The MCP layer's side of `ot.health` and `ot.reload`: the state of each configured server, and a reconnect. Until an
 * MCP layer exists, every enabled server is `disconnected` (and the proxy `degraded`).
 */
export interface ServerStatusSource {
  /** The state of a configured server, or undefined when the layer knows nothing of it (→ `disconnected`). */
  state(name: string): ServerState | undefined;
}

/** Where Otto runs: for `ot.version`, `ot.health` and documentation URLs. */
export interface OtEnvironment {
  /** The manifest's version, or undefined outside the extension (→ `0.0.0-dev`). */
  version(): string | undefined;
  /** The extension id (the reference's `cwd`), or undefined outside the extension. */
  extensionId(): string | undefined;
  /** The browser and its version, e.g. `Chromium 140.0.7339.185`. */
  browser(): Promise<string>;
  /** An absolute URL for a file bundled in the extension (`docs/tools/tabs.html`). */
  extensionUrl(path: string): string;
}

/** The stores `ot.result`, `ot.stats` and `ot.notify` wrap (src/storage/*). */
export interface OtStores {
  queryResult(handle: string, params: QueryParams): Promise<ResultPage>;
  computeStats(opts: ComputeStatsOptions): Promise<StatsReport>;
  recordSaving(saving: SavingInput): Promise<void>;
  getFile(name: string): Promise<{ content: string } | undefined>;
  saveFile(name: string, content: string, mime?: string): Promise<FileInfo>;
}

/** The tool SDK's dependency report as ot.health shows it (src/sdk/deps.ts `checkDeps`). */
export interface DepsSummary {
  ok: boolean;
  /** One line per missing dependency: `<tool>: <kind> <name> — <fix>`. */
  missing: readonly string[];
}

export interface OtRuntime {
  /** Re-reads config and secrets, clears caches, rebuilds registry and interceptor, reconnects servers. */
  reload?: () => Promise<void>;
  servers?: ServerStatusSource;
  /** `check_deps` for ot.health (secrets checked against the calling tool's context). */
  checkDeps?: (ctx: ToolContext) => Promise<DepsSummary>;
  environment?: OtEnvironment;
  stores?: OtStores;
  /** #17: where ot.save_snippet reads a run and writes the snippet (the worker's conversations and config). */
  snippetStore?: SnippetStore;
}

/** #17: the worker's side of "Save as snippet" (background/snippetStore.ts). */
export interface SnippetStore {
  /** A conversation's transcript items (default: the most recent conversation), with its id. */
  transcript(conversationId?: string): Promise<{ conversationId: string; items: Record<string, unknown>[] }>;
  /** Steps of a replay the model repaired in this conversation, to put first (replay/continue.ts). */
  prior(
    conversationId: string,
  ): Promise<
    { name: string; body: string; params: Record<string, unknown>; values: Record<string, string> } | undefined
  >;
  /** Whether a snippet of this name is configured. */
  exists(name: string): Promise<boolean>;
  /** Writes `snippets.<name>` into the YAML config (comments and other keys kept). */
  save(name: string, definition: Record<string, unknown>): Promise<void>;
}

export interface OtDeps extends OtRuntime {
  /** The registry the pack describes (the one it is registered in). */
  registry: () => ToolRegistry;
}
