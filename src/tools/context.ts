/**
 * What a tool receives besides its arguments. The agent loop (or the command line, a snippet, the SDK) builds one per
 * call; tools reach the page, secrets and other tools only through it, which keeps them testable without a browser.
 */
import type { OttoConfig } from '../config/schema.ts';
import type { Logger } from '../shared/log.ts';
import type { ProgramJournal } from '../shared/programJournal.ts';
import type { FlowGuard } from './guard/guard.ts';
import type { ConfigStatus } from '../config/status.ts';
import type { ProgramScope } from '../command/budget.ts';
import type { ToolRegistry } from './ToolRegistry.ts';

export interface ToolContext {
  /** Aborted when the user stops the run or the call times out; long-running tools must honour it. */
  readonly signal: AbortSignal;
  /** The validated config in force for this run (read-only). */
  readonly config: Readonly<OttoConfig>;
  /**
   * The stored config's state. `invalid`: `config` is the built-in defaults and a tool must send nothing that
   * depends on the user's settings (llm.transform refuses); ot.config and ot.health report it. Absent in tests.
   */
  readonly configStatus?: ConfigStatus;
  /** Looks up a secret by name (`OPENAI_API_KEY`, a header token, ...); undefined when it is not set. */
  readonly getSecret: (name: string) => string | undefined;
  readonly logger: Logger;
  /** The tab the run acts on, when there is one. */
  readonly tabId?: number;
  /**
   * The window new tabs open in: a scheduled run's background window (#46), which is never focused. Absent: Chrome's
   * default (the last focused window), and tools may bring a window to the front.
   */
  readonly windowId?: number;
  /** That tab's origin (`https://example.com`), for per-site approvals. */
  readonly origin?: string;
  /** Looks up a tab's URL and title (default: chrome.tabs.get); injectable for tests. */
  readonly tabInfo?: (tabId: number) => Promise<{ url?: string; title?: string } | undefined>;
  /**
   * The tabs a run may reach (#27): Otto's tab group. Absent outside a run (the user's own commands in the panel see
   * every tab) and in unit tests.
   */
  readonly tabScope?: {
    /** The tabs in reach, and how many others are open. */
    visibleTabs(): Promise<{ tabs: chrome.tabs.Tab[]; others: number }>;
    /** A tab the run opened joins its group. */
    join(tabId: number): Promise<unknown>;
  };
  /**
   * Calls another tool by qualified name, alias or API name — through the interceptor, like every call — with the
   * same context. Nested calls are how `ot.*` helpers, snippets and the SDK compose tools.
   */
  readonly callTool: (name: string, args?: Record<string, unknown>) => Promise<unknown>;
  /**
   * The registry this call runs under: where the tool SDK (`sdk(ctx)`, `getPack`, `checkDeps`) finds packs and tools.
   * The worker's contexts carry it; a unit test gives one when its tool uses the SDK.
   */
  readonly registry?: ToolRegistry;
  /**
   * The data-flow guard of this call (guard/guard.ts), when the call comes from a run the guard watches (the
   * model's calls, code mode). The interceptor checks and labels every call through it; nested calls share it.
   */
  readonly flow?: FlowGuard;
  /** The same context with another guard, its `callTool` bound to it (code mode: one guard per program call). */
  readonly withFlow?: (flow: FlowGuard) => ToolContext;
  /**
   * The command-language program this call runs in (a snippet, `ot.run`, a command): how deeply programs are nested
   * and the run's shared step budget (command/budget.ts). Absent outside a program.
   */
  readonly program?: ProgramScope;
  /** The same context inside `scope`, its `callTool` (and `withFlow`) keeping it, so nested programs see it. */
  readonly withProgram?: (scope: ProgramScope) => ToolContext;
  /**
   * The steps an earlier run of this call's program completed (code mode, kept by the agent with the call): the
   * program runs again from the start after an approval, and a step done before is not done twice.
   */
  readonly journal?: ProgramJournal;
}
