/**
 * The agent loop's view of the tools (AgentToolHost), over the registry and the interceptor: every call the model
 * makes runs through `ToolInterceptor.execute`, with a ToolContext built for the conversation's tab.
 */
import type { AgentToolHost } from '../agent/toolHost.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { ToolInterceptor } from '../tools/interceptor.ts';
import type { ToolContext } from '../tools/context.ts';
import { createToolCaller } from '../tools/dispatch.ts';
import { isDestructiveCall } from '../tools/Tool.ts';
import { log } from '../shared/log.ts';
import type { Settings } from './settings.ts';
import { runOrigin, runTab } from './runTabs.ts';

export interface ToolHostDeps {
  registry: () => ToolRegistry;
  interceptor: () => ToolInterceptor;
  settings: () => Promise<Settings>;
}

export async function toolContext(deps: ToolHostDeps, conversationId: string | undefined, signal: AbortSignal): Promise<ToolContext> {
  const { config, secrets } = await deps.settings();
  const tab = conversationId ? await runTab(conversationId) : undefined;
  const origin = conversationId ? await runOrigin(conversationId) : undefined;
  const call = createToolCaller(deps.registry(), deps.interceptor());
  const ctx: ToolContext = {
    signal,
    config,
    getSecret: (name) => secrets[name],
    logger: log,
    ...(tab?.id !== undefined ? { tabId: tab.id } : {}),
    ...(origin ? { origin } : {}),
    callTool: (name, args = {}) => call(name, args, ctx),
  };
  return ctx;
}

export function createToolHost(deps: ToolHostDeps): AgentToolHost {
  return {
    definitions: () => deps.registry().definitions(),
    lookup(apiName) {
      const tool = deps.registry().resolve(apiName);
      return tool ? { qualifiedName: `${tool.pack}.${tool.name}`, readOnly: tool.readOnly } : undefined;
    },
    closest: (name, n) => deps.registry().closest(name, n),
    async isDestructive(qualifiedName, args, where) {
      const tool = deps.registry().get(qualifiedName);
      if (!tool) return false;
      const ctx = await toolContext(deps, where?.conversationId, new AbortController().signal);
      const parsed = tool.parameters.safeParse(args);
      return isDestructiveCall(tool, (parsed.success ? parsed.data : args) as never, ctx);
    },
    async run(qualifiedName, args, { signal, conversationId }) {
      const ctx = await toolContext(deps, conversationId, signal);
      const tool = deps.registry().get(qualifiedName);
      if (!tool) throw new Error(`Unknown tool: ${qualifiedName}`);
      return deps.interceptor().execute(tool, args, ctx);
    },
  };
}
