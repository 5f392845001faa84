/**
 * Every tool the agent can call, grouped in packs under qualified names `pack.fn`, with user aliases (`ws` →
 * `web.fetch`) and the reversible wire names the API needs (`dom__click`). Names are checked when a pack is
 * registered — a duplicate qualified name or two names that would meet on the wire are refused there, with both
 * names in the error — so lookups on the hot path are plain map reads.
 */
import { closestNames } from './closest.ts';
import { createToolDefinition, type ToolDefinition } from './toolDefinition.ts';
import { qualifiedNameOf, type AnyTool, type ToolLookup } from './Tool.ts';
import { API_NAME_RE, encodeApiName } from './toolNames.ts';

/** Where a pack's tools run: in the extension, or on an MCP server named in config `servers`. */
export type PackSource = 'local' | `proxy:${string}`;

export interface PackInfo {
  readonly name: string;
  readonly source: PackSource;
  /** Guidance for the model on using the pack (config `packs.<name>.instructions` or the pack's own). */
  readonly instructions?: string;
  /** Qualified names of the pack's tools, sorted. */
  readonly tools: readonly string[];
}

export interface PackSpec {
  name: string;
  source?: PackSource;
  instructions?: string;
}

export interface RegistryOptions {
  /** The qualified → API name encoding; injectable so tests can force collisions. Defaults to encodeApiName. */
  encodeName?: (qualified: string) => string;
}

interface Entry {
  readonly tool: AnyTool;
  readonly qualified: string;
  readonly apiName: string;
}

interface Pack {
  readonly name: string;
  readonly source: PackSource;
  instructions?: string;
  readonly tools: Set<string>;
}

const PACK_NAME_RE = /^[^.\s]+$/;
const SOURCE_RE = /^(local|proxy:.+)$/;
const MAX_ALIAS_CHAIN = 16;

export class ToolRegistry implements ToolLookup {
  private readonly byQualified = new Map<string, Entry>();
  private readonly byApiName = new Map<string, Entry>();
  private readonly packMap = new Map<string, Pack>();
  private aliasMap = new Map<string, string>();
  private sorted: Entry[] | undefined;
  private readonly encode: (qualified: string) => string;

  constructor(options: RegistryOptions = {}) {
    this.encode = options.encodeName ?? encodeApiName;
  }

  get size(): number {
    return this.byQualified.size;
  }

  /**
   * Adds a pack and its tools, all or nothing: every name is checked before anything changes, so a refused pack
   * leaves the registry as it was. A pack name is registered once (a config reload or an MCP reconnect builds a new registry).
   */
  registerPack(spec: PackSpec, tools: readonly AnyTool[]): void {
    if (!PACK_NAME_RE.test(spec.name))
      throw new Error(`Invalid pack name '${spec.name}': it must be non-empty, without dots or spaces`);
    const source = spec.source ?? 'local';
    if (!SOURCE_RE.test(source))
      throw new Error(`Invalid source '${source}' for pack '${spec.name}': use 'local' or 'proxy:<server>'`);
    if (this.packMap.has(spec.name)) throw new Error(`Pack '${spec.name}' is already registered`);
    const entries = this.checkNew(tools, spec.name);
    const pack: Pack = { name: spec.name, source, tools: new Set() };
    if (spec.instructions !== undefined) pack.instructions = spec.instructions;
    this.packMap.set(spec.name, pack);
    for (const entry of entries) this.add(entry, pack);
  }

  /** Adds one tool to its pack, creating the pack (source 'local') when it does not exist yet. */
  register(tool: AnyTool): void {
    const pack = this.packMap.get(tool.pack);
    if (!pack) {
      this.registerPack({ name: tool.pack }, [tool]);
      return;
    }
    const [entry] = this.checkNew([tool], pack.name);
    this.add(entry!, pack);
  }

  /** Sets (or replaces) a pack's instructions, e.g. from config `packs.<name>.instructions`. */
  setPackInstructions(name: string, instructions: string | undefined): void {
    const pack = this.packMap.get(name);
    if (!pack) throw new Error(`Pack not found: ${name}`);
    if (instructions === undefined) delete pack.instructions;
    else pack.instructions = instructions;
  }

  /**
   * Replaces all aliases (alias → qualified name, or → another alias). Targets need not exist yet — a proxy pack
   * may connect later — but cycles are refused, naming the loop.
   */
  setAliases(aliases: Readonly<Record<string, string>>): void {
    const next = new Map<string, string>();
    for (const [alias, target] of Object.entries(aliases)) {
      if (!alias || !target) throw new Error(`Invalid alias '${alias}' -> '${target}'`);
      next.set(alias, target);
    }
    for (const alias of next.keys()) {
      const chain = [alias];
      const seen = new Set(chain);
      let cur = next.get(alias);
      while (cur !== undefined && next.has(cur)) {
        chain.push(cur);
        if (seen.has(cur)) throw new Error(`Alias cycle: ${chain.join(' -> ')}`);
        seen.add(cur);
        cur = next.get(cur);
      }
    }
    this.aliasMap = next;
  }

  /** The aliases as configured (a copy). */
  aliases(): Record<string, string> {
    return Object.fromEntries(this.aliasMap);
  }

  /** The tool with exactly this qualified name. */
  get(qualified: string): AnyTool | undefined {
    return this.byQualified.get(qualified)?.tool;
  }

  /** The qualified name for anything a caller may use: a qualified name, an alias, or an API name. */
  private resolveName(name: string): string | undefined {
    if (this.byQualified.has(name)) return name;
    let target = this.aliasMap.get(name);
    for (let hops = 0; target !== undefined && hops < MAX_ALIAS_CHAIN; hops++) {
      if (this.byQualified.has(target)) return target;
      target = this.aliasMap.get(target);
    }
    return this.byApiName.get(name)?.qualified;
  }

  /** The tool for a qualified name, an alias, or an API name. */
  resolve(name: string): AnyTool | undefined {
    const qualified = this.resolveName(name);
    return qualified === undefined ? undefined : this.byQualified.get(qualified)?.tool;
  }

  has(name: string): boolean {
    return this.resolveName(name) !== undefined;
  }

  /** Decodes a name the model sent back. */
  fromApiName(apiName: string): AnyTool | undefined {
    return this.byApiName.get(apiName)?.tool;
  }

  qualifiedNameOf(apiName: string): string | undefined {
    return this.byApiName.get(apiName)?.qualified;
  }

  apiNameOf(qualified: string): string | undefined {
    return this.byQualified.get(qualified)?.apiName;
  }

  /** All tools, sorted by qualified name (stable across restarts, which keeps the model's prompt cache warm). */
  list(): AnyTool[] {
    return this.entries().map((e) => e.tool);
  }

  /** All qualified names, sorted. */
  names(): string[] {
    return this.entries().map((e) => e.qualified);
  }

  packs(): PackInfo[] {
    return [...this.packMap.keys()].sort().map((name) => this.pack(name)!);
  }

  pack(name: string): PackInfo | undefined {
    const pack = this.packMap.get(name);
    if (!pack) return undefined;
    const info: { -readonly [K in keyof PackInfo]: PackInfo[K] } = {
      name: pack.name,
      source: pack.source,
      tools: [...pack.tools].sort(),
    };
    if (pack.instructions !== undefined) info.instructions = pack.instructions;
    return info;
  }

  /** Nested tool definitions named by their API names, for the model request (optionally only some tools). */
  definitions(filter?: (tool: AnyTool, qualified: string) => boolean): ToolDefinition[] {
    const out: ToolDefinition[] = [];
    for (const entry of this.entries()) {
      if (!filter || filter(entry.tool, entry.qualified)) out.push(createToolDefinition(entry.tool, entry.apiName));
    }
    return out;
  }

  /**
   * The registered qualified names most similar to `name` (for "Unknown tool" errors). A wire-style name
   * (`dom__clik`) is compared as `dom.clik`; an alias close to the query suggests its target.
   */
  closest(name: string, n = 3): string[] {
    const query = /^[^_]+__[^_]/.test(name) ? name.replace('__', '.') : name;
    const candidates = new Set(this.byQualified.keys());
    const viaAlias = new Map<string, string>();
    for (const alias of this.aliasMap.keys()) {
      const target = this.resolveName(alias);
      if (target !== undefined && !candidates.has(alias)) viaAlias.set(alias, target);
    }
    const ranked = closestNames(query, [...candidates, ...viaAlias.keys()], Math.max(n * 2, n));
    const out: string[] = [];
    for (const hit of ranked) {
      const qualified = viaAlias.get(hit) ?? hit;
      if (!out.includes(qualified)) out.push(qualified);
      if (out.length >= n) break;
    }
    return out;
  }

  private entries(): Entry[] {
    if (!this.sorted)
      this.sorted = [...this.byQualified.values()].sort((a, b) =>
        a.qualified < b.qualified ? -1 : a.qualified > b.qualified ? 1 : 0,
      );
    return this.sorted;
  }

  /** Checks a batch against the registry and itself; returns the entries to add, or throws naming the clash. */
  private checkNew(tools: readonly AnyTool[], packName: string): Entry[] {
    const batchQualified = new Map<string, Entry>();
    const batchApi = new Map<string, Entry>();
    for (const tool of tools) {
      if (tool.pack !== packName)
        throw new Error(
          `Tool '${qualifiedNameOf(tool)}' declares pack '${tool.pack}' but is registered in pack '${packName}'`,
        );
      if (!tool.name) throw new Error(`A tool in pack '${packName}' has an empty name`);
      if (typeof tool.execute !== 'function')
        throw new Error(`Tool '${qualifiedNameOf(tool)}' has no execute function`);
      const qualified = qualifiedNameOf(tool);
      if (this.byQualified.has(qualified) || batchQualified.has(qualified))
        throw new Error(`Duplicate tool name: '${qualified}' is already registered`);
      const apiName = this.encode(qualified);
      if (!API_NAME_RE.test(apiName))
        throw new Error(`Tool '${qualified}' encodes to an invalid API name '${apiName}'`);
      const clash = this.byApiName.get(apiName) ?? batchApi.get(apiName);
      if (clash)
        throw new Error(
          `Tool name collision: '${qualified}' and '${clash.qualified}' both encode to API name '${apiName}'`,
        );
      const entry: Entry = { tool, qualified, apiName };
      batchQualified.set(qualified, entry);
      batchApi.set(apiName, entry);
    }
    return [...batchQualified.values()];
  }

  private add(entry: Entry, pack: Pack): void {
    this.byQualified.set(entry.qualified, entry);
    this.byApiName.set(entry.apiName, entry);
    pack.tools.add(entry.qualified);
    this.sorted = undefined;
  }
}
