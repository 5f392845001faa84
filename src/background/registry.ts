/** Builds the tool registry from the packs Otto ships, with the aliases from config. */
import { ToolRegistry } from '../tools/ToolRegistry.ts';
import { TABS_PACK, createTabsTools } from '../tools/packs/tabs/index.ts';
import { LLM_PACK, createLlmTools, type LlmToolsDeps } from '../tools/packs/llm/index.ts';
import { OT_PACK, createOtTools, type OtRuntime } from '../tools/packs/ot/index.ts';
import { DOM_PACK, createDomTools } from '../tools/packs/dom/index.ts';
import { WEB_PACK, WEB_TOOLS } from '../tools/packs/web/index.ts';
import { FILES_PACK, createFilesTools } from '../tools/packs/files/index.ts';
import type { OttoConfig } from '../config/schema.ts';
import { noPage, type PageApi } from '../page/api.ts';

export interface BuildRegistryOptions {
  /** The page the dom, tabs and files packs drive (src/page/); default `noPage` (unit tests, the docs, the CLI). */
  page?: PageApi;
  /** Proxy packs (MCP servers, src/mcp/), registered after Otto's own packs so built-in names win a clash. */
  proxies?: { registerPacks(registry: ToolRegistry): void };
  /** What the `ot` pack needs besides the registry (reload hook, MCP status, stores, snippet store); default: none. */
  ot?: OtRuntime;
  /** Where `llm.transform` reports its requests' usage (statistics). */
  onTransformUsage?: LlmToolsDeps['onUsage'];
}

export function buildRegistry(config: OttoConfig, options: BuildRegistryOptions = {}): ToolRegistry {
  const registry = new ToolRegistry();
  const page = options.page ? () => options.page! : noPage;
  registry.registerPack(TABS_PACK, createTabsTools({ page }));
  registry.registerPack(DOM_PACK, createDomTools({ page }));
  registry.registerPack(LLM_PACK, createLlmTools({ onUsage: options.onTransformUsage }));
  registry.registerPack(OT_PACK, createOtTools({ ...options.ot, registry: () => registry }));
  registry.registerPack(WEB_PACK, WEB_TOOLS);
  registry.registerPack(FILES_PACK, createFilesTools({ page }));
  options.proxies?.registerPacks(registry);
  for (const [name, spec] of Object.entries(config.packs)) {
    if (spec.instructions && registry.pack(name)) registry.setPackInstructions(name, spec.instructions);
  }
  try {
    registry.setAliases(config.aliases);
  } catch {
    // A bad alias map is reported by the settings page; tools still work without aliases.
  }
  return registry;
}
