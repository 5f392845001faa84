/**
 * Command mode and the help browser: panel requests that run commands directly — no model, no API key — and describe
 * the tools. Every tool call a command makes goes through the interceptor (`toolContext().callTool`), exactly as the
 * model's calls do, so validation, logging, timing, metadata and statistics apply; a command the user typed needs no
 * approval (typing it is the consent).
 *
 * Requests (src/shared/messages.ts) and their replies (`data` of the port's `result`):
 *
 *   command.run {text, conversationId?, tabId?, runId?} → CommandRunReply
 *       Runs `/help [query]`, `$snippet k=v` (or the multi-line form), an alias call, or a program
 *       (`a = tabs.list()` / `llm.transform(input=a, prompt="...")`), with config `aliases` and `snippets`.
 *       The whole program is checked before anything runs. The reply is never an exception for a bad command:
 *       `{ok: false, error: {message, reason, kind, line, column, label}}` names where (1-based line and column).
 *       `output` is the last statement's value formatted as ot.* output is (YAML flow style, or JSON with
 *       config `output.format: json`); strings come back as they are.
 *   command.cancel {runId} → {cancelled: boolean}            aborts a running command (its error kind is `aborted`)
 *   command.classify {text} → {kind: 'command' | 'chat'}     whether the panel should run the input or send it to the
 *       model (src/command/classify.ts: `/help`, `$snippet`, or a first statement calling a known pack or alias)
 *   command.vocabulary → {packs, tools, aliases, snippets}   the same decision made locally with `classifyInput`, and
 *       names for completion: packs and tools sorted, aliases {name: target}, snippets {name: description}
 *   help.index → HelpIndex                                   packs (source, instructions, docsUrl, tools with their
 *       first description line and first example), snippets, aliases — the help browser's tree
 *   help.tool {name} → HelpToolDetail | null                 one tool (qualified name, alias or API name): signature,
 *       params [{name, type, required, hasDefault, default?, description?}], args, returns, examples, source,
 *       readOnly, docsUrl, packInstructions
 *   help.page {pack} → {title, html} | null                  a pack's reference page, built from the registry now
 *       (src/docs/: MCP packs have no bundled page); null for a pack the registry does not have
 *   help.search {query, limit?} → {query, results: HelpHit[]} fuzzy search (typos tolerated), grouped by kind
 *       (tool, pack, snippet, alias), each group best first; `score` 0 = perfect
 */
import { classifyInput, CommandError } from '../command/index.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { ToolInterceptor } from '../tools/interceptor.ts';
import {
  helpIndex,
  helpSources,
  runCommandText,
  searchHelp,
  toolDetail,
  type HelpHit,
  type HelpIndex,
  type HelpToolDetail,
  type OtEnvironment,
} from '../tools/packs/ot/index.ts';
import { browserEnvironment } from '../tools/packs/ot/env.ts';
import { LIVE_LINKS, packPage } from '../tools/packs/ot/docsPages.ts';
import { log } from '../shared/log.ts';
import type { CommandRunReply, CommandVocabularyReply } from '../port/replies.ts';
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';
import { toolContext } from './workerToolHost.ts';

// The replies live with the protocol (port/replies.ts), where the panel reads them too.
export type { CommandRunFailed, CommandRunOk, CommandRunReply, CommandVocabularyReply } from '../port/replies.ts';

export interface CommandHandlerDeps {
  registry: () => ToolRegistry;
  interceptor: () => ToolInterceptor;
  settings: () => Promise<Settings>;
  /** Resolves once the registry reflects the stored config (start-up). */
  ready?: Promise<unknown>;
  environment?: Pick<OtEnvironment, 'extensionUrl'>;
}

type CommandHandlers = Pick<
  Handlers,
  | 'command.run'
  | 'command.cancel'
  | 'command.classify'
  | 'command.vocabulary'
  | 'help.index'
  | 'help.tool'
  | 'help.search'
  | 'help.page'
>;

export function commandHandlers(deps: CommandHandlerDeps): CommandHandlers {
  const running = new Map<string, AbortController>();
  const env = deps.environment ?? browserEnvironment;
  const ready = async (): Promise<Settings> => {
    await deps.ready;
    return deps.settings();
  };

  return {
    async 'command.run'(req): Promise<CommandRunReply> {
      const started = performance.now();
      const took = (): number => Math.round((performance.now() - started) * 100) / 100;
      const { config } = await ready();
      const abort = new AbortController();
      if (req.runId) {
        running.get(req.runId)?.abort(new Error('replaced by a new command with the same runId'));
        running.set(req.runId, abort);
      }
      try {
        const ctx = await toolContext(deps, req.conversationId, abort.signal, {
          ...(req.tabId !== undefined ? { tabId: req.tabId } : {}),
        });
        const outcome = await runCommandText(req.text, ctx, { registry: deps.registry() });
        log.debug('command ran', { kind: outcome.command.kind, calls: outcome.calls, durationMs: outcome.durationMs });
        return {
          ok: true,
          kind: outcome.command.kind,
          source: outcome.command.source,
          output: outcome.output,
          format: config.output.format,
          calls: outcome.calls,
          durationMs: took(),
        };
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        return {
          ok: false,
          error: {
            message: error.message,
            reason: error.reason,
            kind: error.kind,
            line: error.line,
            column: error.column,
            label: error.label,
          },
          durationMs: took(),
        };
      } finally {
        if (req.runId && running.get(req.runId) === abort) running.delete(req.runId);
      }
    },

    'command.cancel'(req) {
      const abort = running.get(req.runId);
      abort?.abort(new Error('cancelled'));
      return { cancelled: abort !== undefined };
    },

    async 'command.classify'(req) {
      const { config } = await ready();
      const kind = classifyInput(req.text, {
        packs: deps
          .registry()
          .packs()
          .map((p) => p.name),
        aliases: config.aliases,
        snippets: config.snippets,
      });
      return { kind };
    },

    async 'command.vocabulary'(): Promise<CommandVocabularyReply> {
      const { config } = await ready();
      const registry = deps.registry();
      const snippets: Record<string, string> = {};
      for (const name of Object.keys(config.snippets).sort()) snippets[name] = config.snippets[name]?.description ?? '';
      return {
        packs: registry.packs().map((p) => p.name),
        tools: registry.names(),
        aliases: { ...config.aliases },
        snippets,
      };
    },

    async 'help.index'(): Promise<HelpIndex> {
      const { config } = await ready();
      return helpIndex(helpSources(deps.registry(), config, env));
    },

    async 'help.tool'(req): Promise<HelpToolDetail | null> {
      const { config } = await ready();
      return toolDetail(helpSources(deps.registry(), config, env), req.name) ?? null;
    },

    async 'help.page'(req): Promise<{ title: string; html: string } | null> {
      await ready(); // MCP packs are registered once the tools are ready
      const registry = deps.registry();
      const pack = registry.pack(req.pack);
      return pack ? { title: `${pack.name} — Otto tool reference`, html: packPage(registry, pack, LIVE_LINKS) } : null;
    },

    async 'help.search'(req): Promise<{ query: string; results: HelpHit[] }> {
      const { config } = await ready();
      const results = searchHelp(deps.registry(), config.aliases, config.snippets, req.query, req.limit ?? 50);
      return { query: req.query, results };
    },
  };
}
