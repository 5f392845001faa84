/** Builds the tool registry from the packs Otto ships, with the aliases from config. */
import { ToolRegistry } from '../tools/ToolRegistry.ts';
import { TABS_PACK, TABS_TOOLS } from '../tools/packs/tabs/index.ts';
import { LLM_PACK, createLlmTools, type LlmToolsDeps } from '../tools/packs/llm/index.ts';
import { OT_PACK, createOtTools } from '../tools/packs/ot/index.ts';
import { DOM_PACK, createDomTools } from '../tools/packs/dom/index.ts';
import { WEB_PACK, WEB_TOOLS } from '../tools/packs/web/index.ts';
import { FILES_PACK, createFilesTools } from '../tools/packs/files/index.ts';
import type { OttoConfig } from '../config/schema.ts';

export interface BuildRegistryOptions {
  /** Proxy packs (MCP servers, src/mcp/), registered after Otto's own packs so built-in names win a clash. */
  proxies?: { registerPacks(registry: ToolRegistry): void };
  /** Where `llm.transform` reports its requests' usage (statistics). */
  onTransformUsage?: LlmToolsDeps['onUsage'];
}

export function buildRegistry(config: OttoConfig, options: BuildRegistryOptions = {}): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerPack(TABS_PACK, TABS_TOOLS);
  // The dom tools reach the page through the router the worker configures (configureDomPage in index.ts).
  registry.registerPack(DOM_PACK, createDomTools());
  registry.registerPack(LLM_PACK, createLlmTools({ onUsage: options.onTransformUsage }));
  registry.registerPack(OT_PACK, createOtTools({ registry: () => registry }));
  registry.registerPack(WEB_PACK, WEB_TOOLS);
  registry.registerPack(FILES_PACK, createFilesTools());
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
