/**
 * `ot.config` (docs/specs/002-ot-tools.md, "Configuration Summary"): the spec's summary `{aliases, snippets: {name:
 * {description}}, servers: [names]}` by default; `info="full"` gives the whole effective config (defaults filled in)
 * and `info="list"` its section names. Secrets are never part of the config; server header values (which usually carry
 * tokens) are shown as `[redacted]`. When the stored config has problems or ignored keys, a `config` entry comes first
 * with them (`configState`), as ot.health shows it.
 */
import { z } from '../../../shared/zod.ts';
import type { OttoConfig } from '../../../config/schema.ts';
import { info, otTool, type InfoLevel } from './common.ts';
import { problemLines, type ConfigStatus } from '../../../config/status.ts';

export const REDACTED = '[redacted]';

export function configSummary(config: Readonly<OttoConfig>): {
  aliases: Record<string, string>;
  snippets: Record<string, { description?: string }>;
  servers: string[];
} {
  // In the order the user wrote them (the spec's example is not sorted): the summary mirrors the config.
  const snippets: Record<string, { description?: string }> = {};
  for (const [name, snippet] of Object.entries(config.snippets))
    snippets[name] = snippet.description ? { description: snippet.description } : {};
  return { aliases: { ...config.aliases }, snippets, servers: Object.keys(config.servers) };
}

/** The effective config with every server header value redacted. */
export function effectiveConfig(config: Readonly<OttoConfig>): Record<string, unknown> {
  const copy = structuredClone(config) as OttoConfig;
  for (const server of Object.values(copy.servers))
    for (const key of Object.keys(server.headers)) server.headers[key] = REDACTED;
  return copy as unknown as Record<string, unknown>;
}

export function showConfig(config: Readonly<OttoConfig>, level: InfoLevel = 'min'): unknown {
  if (level === 'list') return Object.keys(config);
  if (level === 'full') return effectiveConfig(config);
  return configSummary(config);
}

/**
 * The stored config's state as ot.config and ot.health both show it: `status` (ok | warnings | invalid), the
 * settings `version`, and each problem as `line L, column C: key.path: message` — the settings editor's words.
 */
export function configState(status: ConfigStatus): Record<string, unknown> {
  return {
    status: status.status,
    version: status.version,
    ...(status.problems.length ? { errors: problemLines(status.problems) } : {}),
    ...(status.warnings.length ? { warnings: problemLines(status.warnings) } : {}),
  };
}

export function configTool() {
  return otTool({
    name: 'config',
    description:
      'Show the configuration in force: aliases, snippets (with descriptions) and configured servers. info="full" shows the whole effective config with defaults (server header values redacted; secrets are never shown).',
    parameters: z.object({ info }),
    examples: ['ot.config()', 'ot.config(info="full")'],
    returns: '{aliases, snippets, servers} (or the whole config with info="full").',
    run: (args, ctx) => {
      const shown = showConfig(ctx.config, args.info);
      const status = ctx.configStatus;
      // A config that does not validate, or keys it ignored, are said first: the defaults shown are then not the user's.
      if (!status || status.status === 'ok' || Array.isArray(shown)) return shown;
      return { config: configState(status), ...(shown as Record<string, unknown>) };
    },
  });
}
