/**
 * The agent loop's view of the tools (AgentToolHost), over the registry and the interceptor: every call the model
 * makes runs through `ToolInterceptor.execute`, with a ToolContext built for the conversation's tab.
 */
import type { AgentToolHost, FlowBlock, NestedFlowCheck, RunFlowFacts } from '../agent/toolHost.ts';
import { blockedFlowOf, FlowGuard, flowSentence, type Blocked } from '../tools/guard/guard.ts';
import { showLabel, union, type Labels } from '../tools/guard/labels.ts';
import type { AnyTool } from '../tools/Tool.ts';
import type { OriginResolver } from '../tools/guard/resolver.ts';
import { flowOf } from '../tools/guard/flow.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { ToolInterceptor } from '../tools/interceptor.ts';
import type { ToolContext } from '../tools/context.ts';
import type { ProgramJournal } from '../shared/programJournal.ts';
import { createToolCaller } from '../tools/dispatch.ts';
import { callNeedsApproval, fixedApproval, qualifiedNameOf, readsOnly } from '../tools/Tool.ts';
import { describeElementOf, hasTarget, resolveCallTarget } from '../tools/resolveCallTarget.ts';
import { effectsOf } from '../tools/guard/effect.ts';
import { validateArguments } from '../tools/validate.ts';
import { log } from '../shared/log.ts';
import { configStatus } from '../config/status.ts';
import { CONFIG_VERSION } from '../config/migrations.ts';
import type { Settings } from './settings.ts';
import type { OttoConfig } from '../config/schema.ts';
import type { ResultStore } from '../storage/results.ts';
import { keptTtl } from '../agent/context/kept.ts';
import { formatOutput } from '../shared/outputFormat.ts';
import { outputParts } from '../agent/transcript.ts';

/** Paging tools' own output is never stored again, or the model could never read a result. */
const NEVER_STORED = new Set(['ot.result']);

/**
 * Output over `output.max_inline_size` goes to the result store; the model gets the summary with the exact
 * `ot.result(...)` call to page through it.
 */
async function keepLargeOutOfContext(
  results: ResultStore,
  qualifiedName: string,
  result: unknown,
  config: Readonly<OttoConfig>,
): Promise<unknown> {
  // Content parts (a screenshot's image) go to the model as they are: storing them would send it text instead.
  if (NEVER_STORED.has(qualifiedName) || result === undefined || outputParts(result)) return result;
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  if (text === undefined) return result;
  const stored = await results.storeIfLarge(text, {
    ...config.output,
    tool: qualifiedName,
    statsEnabled: config.stats.enabled,
  });
  return typeof stored === 'string' ? result : formatOutput(stored, config.output.format);
}
import { runTab, runWindow } from './runTabs.ts';
import { modeDefinitions, type AgentMode } from './codeMode.ts';
import { toolBudget } from '../tools/toolBudget.ts';
import type { TabScope } from './tabScope.ts';
import type { ExecuteOptions } from '../tools/interceptor.ts';
import type { ToolSetMode } from '../tools/toolSet.ts';
import type { ProgramScope } from '../command/index.ts';
import { wireRewriter } from '../tools/wireNames.ts';
import { webOrigin } from '../shared/origin.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export interface ToolHostDeps {
  registry: () => ToolRegistry;
  interceptor: () => ToolInterceptor;
  settings: () => Promise<Settings>;
  /** Where large outputs are kept out of the model's context (the worker's one store). */
  results: ResultStore;
  /** config `agent.mode` in force (code mode gives the model `ot.run`); default 'tools'. */
  mode?: () => AgentMode;
  /** Otto's tab group (#27): a run's calls reach only its tabs. Absent: every tab. */
  tabScope?: TabScope;
  /** Where the data-flow guard learns origins of tabs, frames and elements (flowResolver.ts in the worker). */
  origins?: OriginResolver;
  /** config `agent.tool_set` in force; default 'default'. */
  toolSet?: () => ToolSetMode;
}

/** What building a tool context needs (the user's own commands have no result store to give). */
type ContextDeps = Omit<ToolHostDeps, 'results'>;

/** The guard of one model call: the run's facts, the browser's origins. */
function guardFor(flow: RunFlowFacts, resolver: OriginResolver): FlowGuard {
  return new FlowGuard(
    {
      origins: flow.origins,
      pairAllowed: (from, to) => flow.allowAll === true || flow.pairAllowed(from, to),
      userWrote: (text) => flow.userWrote(text),
      seenUrl: (url) => flow.seenUrl(url),
      grants: flow.grants ?? [],
    },
    resolver,
  );
}

/** A FlowBlockedError as the approval card shows it. */
function toBlock(flow: Blocked): FlowBlock {
  return { from: flow.from, to: flow.to, data: flow.data, sentence: flowSentence(flow.from, flow.to) };
}

/**
 * Several refused flows of one call as one card: every source, every destination (`… may be sent to a and b`), what
 * leaves for the first. A click on a link sends to the page and to the link's site; the user answers once for both.
 */
function mergedBlock(refused: readonly Blocked[]): FlowBlock {
  const first = refused[0]!;
  if (refused.length === 1) return toBlock(first);
  const from: Labels = union(first.from, ...refused.slice(1).map((r) => r.from));
  const tos = [...new Set(refused.map((r) => r.to))];
  const rest = tos.slice(1).map(showLabel);
  const sentence =
    flowSentence(from, first.to) + rest.map((t, i) => (i === rest.length - 1 ? ` and ${t}` : `, ${t}`)).join('');
  return { from, to: first.to, data: first.data, sentence };
}

/** A nested call's guard, as its approval decision sees it (the guard's question goes on the step's one card). */
function nestedFlowCheck(
  guard: FlowGuard,
  tool: AnyTool,
  args: Record<string, unknown>,
  tabId?: number,
): NestedFlowCheck {
  return {
    async blocked() {
      const refused = await guard.refusals(tool, args, tabId);
      if (!refused.length) return undefined;
      return { block: mergedBlock(refused), pairs: refused.map((r) => ({ from: r.from, to: r.to })) };
    },
    allow: (pairs) => guard.allowOnce(args, pairs),
  };
}

/**
 * `where.tabId` (the panel's command mode) names the tab directly instead of the conversation's. `where.run` marks
 * the context of an agent run: its calls (and every call nested in them) pass the tab scope's gate, and tabs.list
 * sees only the run's tabs. The user's own commands are not scoped: they are the user acting. `where.flow` puts the
 * call under the data-flow guard (the model's calls; the user's own commands are not guarded). `approve` judges every
 * nested call (`ctx.callTool`: a code-mode program's calls, `web.fetch_many`'s fetches) when it runs (issue #31).
 */
export async function toolContext(
  deps: ContextDeps,
  conversationId: string | undefined,
  signal: AbortSignal,
  where: { tabId?: number; run?: boolean; flow?: FlowGuard; windowId?: number } = {},
): Promise<ToolContext> {
  return (await contextAndGate(deps, conversationId, signal, where)).ctx;
}

async function contextAndGate(
  deps: ContextDeps,
  conversationId: string | undefined,
  signal: AbortSignal,
  where: { tabId?: number; run?: boolean; flow?: FlowGuard; journal?: ProgramJournal; windowId?: number },
  approve?: (qualifiedName: string, args: Record<string, unknown>, flow?: NestedFlowCheck) => Promise<void>,
): Promise<{ ctx: ToolContext; options: ExecuteOptions | undefined }> {
  const { config, secrets, problems = [], warnings = [], version = CONFIG_VERSION } = await deps.settings();
  let tab: chrome.tabs.Tab | undefined;
  let origin: string | undefined;
  if (where.tabId !== undefined) {
    tab = await chrome.tabs.get(where.tabId).catch(() => undefined);
    origin = webOrigin(tab?.url);
  } else if (conversationId) {
    tab = await runTab(conversationId);
    origin = webOrigin(tab?.url);
  }
  const windowId = where.windowId ?? runWindow(conversationId);
  const registry = deps.registry();
  const call = createToolCaller(registry, deps.interceptor());
  const scope = where.run && conversationId ? deps.tabScope : undefined;
  const options: ExecuteOptions | undefined =
    scope && conversationId ? { gate: (tool, args) => scope.guard(conversationId, tool, args, tab?.id) } : undefined;
  // Nested calls pass the tab scope's gate, then the run's approval decision, taken when each runs (issue #31).
  const scopeGate = options?.gate;
  const nested: ExecuteOptions | undefined =
    scopeGate || approve
      ? {
          gate: async (tool, input, callCtx) => {
            if (scopeGate) await scopeGate(tool, input, callCtx);
            // The guard that checks this call next (a program step's own): the decision may ask about both at once.
            const guard = callCtx.flow;
            const flow = guard ? nestedFlowCheck(guard, tool, input, callCtx.tabId) : undefined;
            if (approve) await approve(qualifiedNameOf(tool), input, flow);
          },
        }
      : undefined;
  const build = (flow: FlowGuard | undefined, program?: ProgramScope): ToolContext => {
    const ctx: ToolContext = {
      signal,
      config,
      configStatus: configStatus({ version, problems, warnings }),
      getSecret: (name) => secrets[name],
      logger: log,
      ...(tab?.id !== undefined ? { tabId: tab.id } : {}),
      ...(windowId !== undefined ? { windowId } : {}),
      ...(origin ? { origin } : {}),
      ...(scope && conversationId
        ? {
            tabScope: {
              visibleTabs: () => scope.visibleTabs(conversationId),
              join: (id: number) => scope.join(conversationId, id),
            },
          }
        : {}),
      callTool: (name, args = {}) => call(name, args, ctx, nested),
      registry,
      // Code mode: one guard per program call, with its callTool bound to it.
      ...(flow ? { flow, withFlow: (next: FlowGuard) => build(next, program) } : {}),
      // Programs inside programs (a snippet running ot.run …) carry their depth and the run's step budget.
      ...(program ? { program } : {}),
      withProgram: (scope: ProgramScope) => build(flow, scope),
      // The agent's record of the call's completed program steps (a program that runs again does not act twice).
      ...(where.journal ? { journal: where.journal } : {}),
    };
    return ctx;
  };
  return { ctx: build(where.flow), options };
}

export function createToolHost(deps: ToolHostDeps): AgentToolHost {
  const resolver = deps.origins;
  return {
    // The tool set (agent.tool_set), then within the request budget: deferred groups (MCP servers past it) send only
    // what a search loaded.
    definitions: () => {
      const registry = deps.registry();
      return toolBudget.filter(
        modeDefinitions(registry, deps.mode?.() ?? 'tools', deps.toolSet?.() ?? 'default'),
        (d) => {
          const qualified = registry.qualifiedNameOf(d.function.name);
          const tool = qualified ? registry.get(qualified) : undefined;
          return tool && qualified ? { group: tool.pack, name: qualified } : undefined;
        },
      );
    },
    // Outputs read by the model name tools as it calls them (tools mode only; code mode writes dotted names).
    forModel: (text) => ((deps.mode?.() ?? 'tools') === 'tools' ? wireRewriter(deps.registry())(text) : text),
    // #23: an output that leaves the request stays readable by handle for the run that made it and a day after its
    // conversation was last driven (the result store's expiry, at least a day, renewed per drive: context/kept.ts).
    async keep(text, tool) {
      const { config } = await deps.settings();
      const ref = await deps.results.store(text, {
        result_ttl: keptTtl(config.output.result_ttl),
        tool,
        statsEnabled: false,
      });
      return ref.handle;
    },
    async renew(handles) {
      const ttl = keptTtl((await deps.settings()).config.output.result_ttl);
      if (ttl > 0) await deps.results.renew(handles, ttl);
    },
    async forget(handles) {
      for (const h of handles) await deps.results.delete(h);
    },
    lookup(apiName) {
      const tool = deps.registry().resolve(apiName);
      return tool ? { qualifiedName: `${tool.pack}.${tool.name}`, readOnly: readsOnly(tool) } : undefined;
    },
    closest: (name, n) => deps.registry().closest(name, n),
    async isDestructive(qualifiedName, args, where) {
      const tool = deps.registry().get(qualifiedName);
      if (!tool) return false;
      // Without a hook the answer is the tool's effect: no need to read the settings and look up the run's tab.
      const fixed = fixedApproval(tool);
      if (fixed !== undefined) return fixed;
      const ctx = await toolContext(deps, where?.conversationId, new AbortController().signal);
      const parsed = tool.parameters.safeParse(args);
      return callNeedsApproval(tool, (parsed.success ? parsed.data : args) as never, ctx);
    },
    async assess(qualifiedName, args, { conversationId, describe }) {
      const tool = deps.registry().get(qualifiedName);
      if (!tool) return { destructive: false };
      const { config } = await deps.settings();
      let input = args as Record<string, unknown>;
      if (config.tool_execution.enable_validation && !tool.conveniences?.validation) {
        try {
          input = validateArguments(tool.parameters, args) as Record<string, unknown>;
        } catch (error) {
          return { invalid: errorMessage(error), destructive: false };
        }
      }
      // A read-only tool that names no tab, URL or element touches nothing the rules judge: no lookups.
      if (!hasTarget(tool, input)) return { destructive: fixedApproval(tool) ?? true, args: input };
      const ctx = await toolContext(deps, conversationId, new AbortController().signal);
      let target = await resolveCallTarget(tool, input, ctx);
      let destructive: boolean;
      try {
        // The user's own network always asks (unless approvals.local_hosts names the host).
        destructive = !!target.localNetwork || (await callNeedsApproval(tool, input as never, ctx, target));
      } catch {
        destructive = true; // when in doubt, ask
      }
      // The element is looked up for a card (a call that asks, or one the data-flow guard asks about) and, for a call
      // that changes something, for its effect (#42): the scope gate judges it from the element before it runs.
      const changes = !readsOnly(tool);
      if (destructive || describe || changes) target = await describeElementOf(tool, input, ctx, target);
      const effects = changes ? effectsOf({ tool: qualifiedName, args: input, element: target.element }) : [];
      return { destructive, target, args: input, effects };
    },
    async run(qualifiedName, args, { signal, conversationId, flow, approve, journal }) {
      const guard = flow && resolver ? guardFor(flow, resolver) : undefined;
      const { ctx, options } = await contextAndGate(
        deps,
        conversationId,
        signal,
        { run: true, ...(guard ? { flow: guard } : {}), ...(journal ? { journal } : {}) },
        approve,
      );
      const tool = deps.registry().get(qualifiedName);
      if (!tool) throw new Error(`Unknown tool: ${qualifiedName}`);
      try {
        const result = await deps.interceptor().execute(tool, args, ctx, options);
        return await keepLargeOutOfContext(deps.results, qualifiedName, result, ctx.config);
      } finally {
        if (guard && flow?.addLabels) flow.addLabels(guard.collected);
      }
    },
    async checkFlow(qualifiedName, args, { conversationId, flow }) {
      const tool = deps.registry().get(qualifiedName);
      if (!tool || !resolver || !flow.origins.length || flowOf(tool).sink === 'none') return undefined;
      const parsed = tool.parameters.safeParse(args);
      if (!parsed.success) return undefined; // the interceptor refuses it with the validation message
      const ctx = await toolContext(deps, conversationId, new AbortController().signal);
      const verdict = await guardFor(flow, resolver).verdict(tool, parsed.data as Record<string, unknown>, ctx.tabId);
      return verdict.ok ? undefined : toBlock(verdict);
    },
    blockedFlow(error) {
      const blocked = blockedFlowOf(error);
      return blocked ? toBlock(blocked.flow) : undefined;
    },
  };
}
