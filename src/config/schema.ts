/**
 * The config's shape (docs/design.md, "Contracts"). Every key is optional and defaulted. Objects are strict so that
 * parse.ts learns of every unknown key: it reports each as a warning at its line and column (a typo is never silently
 * ignored), leaves it out of the config in force, and keeps it in the text (#30).
 */
import { z } from '../shared/zod.ts';
import { httpUrlProblem } from '../shared/urlProblem.ts';
import { SchedulesConfig } from './scheduleConfig.ts';

/** An http(s) address; anything else is refused with the reason (no scheme, a bad IP, an unclosed [) (#34). */
const httpUrl = () =>
  z.string().superRefine((value, ctx) => {
    const problem = httpUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const AgentConfig = z.strictObject({
  base_url: httpUrl().default('https://api.openai.com/v1'),
  model: z.string().min(1).default('gpt-5-mini'),
  instructions: z.string().default(''),
  /**
   * Model responses per run. With the context bounded (#23) a long errand needs many: a page read is two (navigate,
   * snapshot), so a hundred pages are about 200. At the limit the run stops and a new message continues it.
   */
  max_turns: z.number().int().min(1).max(1000).default(250),
  /**
   * Tokens a request may hold (#23): past it, older turns are compacted. `auto`: from the model's known context window
   * (src/agent/context/contextBudget.ts), a safe default for unknown models.
   */
  context_budget: z.union([z.literal('auto'), z.number().int().min(2000).max(10_000_000)]).default('auto'),
  mode: z.enum(['tools', 'code', 'both']).default('tools'),
  /** Tools sent with each request: `default` = what page work needs (others via ot.help + ot.call), `all` = every tool. */
  tool_set: z.enum(['default', 'all']).default('default'),
  /** Send Otto's short system block (what Otto is, the tab, the date, how to work) before `instructions`. */
  system_block: z.boolean().default(true),
  store: z.boolean().default(false),
  previous_response_id: z.boolean().default(false),
  parallel_tool_calls: z.boolean().default(true),
  reasoning_effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  hosted_tools: z.array(z.record(z.string(), z.unknown())).default([]),
  request_timeout: z.number().positive().default(120),
  /** Seconds a tool call may take before it is aborted and reported to the model as timed out; 0 = never. */
  tool_timeout: z.number().min(0).default(120),
  max_retries: z.number().int().min(0).max(10).default(3),
  /**
   * The wire: `responses` (POST /responses), `chat` (POST /chat/completions, for servers without the Responses API),
   * or `auto`: Responses, switching to Chat Completions — remembered for the base URL — when the server has no
   * /responses endpoint (404/405 that is not "model not found").
   */
  api: z.enum(['responses', 'chat', 'auto']).default('auto'),
  /** Whether the model server takes images (screenshots) in Chat Completions messages; false sends a text note. */
  images: z.boolean().default(true),
});

const TransformConfig = z.strictObject({
  base_url: httpUrl().optional(),
  model: z.string().min(1).optional(),
  timeout: z.number().positive().default(30),
  max_tokens: z.number().int().positive().optional(),
});

const ApprovalsConfig = z.strictObject({
  policy: z.enum(['ask', 'auto']).default('ask'),
  allowed_origins: z.array(z.string()).default([]),
  /** Hosts on the user's own network Otto may open or fetch without asking (`localhost:5173`, `router.lan`). */
  local_hosts: z.array(z.string()).default([]),
});

/**
 * Which tabs a run may reach (#27). `group`: Otto's tab group of the conversation (the tab the user asked from, the
 * tabs the run opened, tabs the user shared); `window`: also every tab of the windows the group is in; `all`: every
 * tab of the browser, without asking (what Otto did before tab groups).
 */
const TabsConfig = z.strictObject({
  scope: z.enum(['group', 'window', 'all']).default('group'),
});

const ToolExecutionConfig = z.strictObject({
  enable_validation: z.boolean().default(true),
  enable_logging: z.boolean().default(true),
  enable_metadata: z.boolean().default(true),
  log_arguments: z.boolean().default(true),
  truncate_logs: z.number().int().min(1).default(100),
});

const OutputConfig = z.strictObject({
  format: z.enum(['yaml', 'json']).default('yaml'),
  max_inline_size: z.number().int().min(0).default(50_000),
  result_ttl: z.number().int().min(0).default(3600),
  preview_lines: z.number().int().min(0).default(10),
});

const SnippetParam = z.strictObject({
  default: z.unknown().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  optional: z.boolean().optional(),
});

const ServerConfig = z.strictObject({
  url: httpUrl(),
  headers: z.record(z.string(), z.string()).default({}),
  timeout: z.number().positive().default(30),
  enabled: z.boolean().default(true),
});

export const ConfigSchema = z.strictObject({
  agent: AgentConfig.default(AgentConfig.parse({})),
  transform: TransformConfig.default(TransformConfig.parse({})),
  approvals: ApprovalsConfig.default(ApprovalsConfig.parse({})),
  tabs: TabsConfig.default(TabsConfig.parse({})),
  tool_execution: ToolExecutionConfig.default(ToolExecutionConfig.parse({})),
  output: OutputConfig.default(OutputConfig.parse({})),
  stats: z.strictObject({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  aliases: z.record(z.string(), z.string()).default({}),
  snippets: z
    .record(
      z.string(),
      z.strictObject({
        description: z.string().optional(),
        params: z.record(z.string(), SnippetParam).default({}),
        body: z.string(),
      }),
    )
    .default({}),
  /** Recurring snippet and task runs (#46, config/scheduleConfig.ts). */
  schedules: SchedulesConfig,
  packs: z.record(z.string(), z.strictObject({ instructions: z.string().optional() })).default({}),
  notify: z
    .strictObject({ topics: z.array(z.strictObject({ pattern: z.string(), file: z.string() })).default([]) })
    .default({ topics: [] }),
  servers: z.record(z.string(), ServerConfig).default({}),
  /**
   * Downloads (#19): a finished download up to `keep_max_mb` is also kept in Otto's file store (files.list /
   * files.read / files.upload); 0 keeps none. `wait_seconds`: how long files.download waits for it to finish.
   */
  files: z
    .strictObject({
      keep_max_mb: z.number().min(0).max(500).default(20),
      wait_seconds: z.number().int().min(1).max(3600).default(120),
    })
    .default({ keep_max_mb: 20, wait_seconds: 120 }),
  /**
   * Tool reference pages linked from ot.help. Default: the pages bundled in the extension
   * (`chrome-extension://<id>/docs/tools/<slug>.html`); `base_url` points elsewhere (`{slug}` in it is replaced,
   * otherwise `<base_url>/<slug>.html`).
   */
  docs: z.strictObject({ base_url: z.string().url().optional() }).default({}),
  /** `logs: true` shows the panel's Logs view (Stats and files → Logs): recent log entries, filter, export. */
  developer: z.strictObject({ logs: z.boolean().default(false) }).default({ logs: false }),
});

export type OttoConfig = z.infer<typeof ConfigSchema>;
export type ToolExecutionSettings = OttoConfig['tool_execution'];

/** Secrets: a flat map of names to string values (OPENAI_API_KEY, header tokens, ...). */
export const SecretsSchema = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'secret names are identifiers'),
  z.string(),
);
export type Secrets = z.infer<typeof SecretsSchema>;

export const DEFAULT_CONFIG: OttoConfig = ConfigSchema.parse({});
