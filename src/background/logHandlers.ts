/**
 * The developer view's data: recent entries of the worker's log (LogSpans such as `llm.transform` and `ot.*`, the
 * interceptor's `[TOOL EXECUTION]` lines), only when config `developer.logs` is on. Entries were redacted when
 * written; they are redacted again here, with the secrets known now (a secret saved after an entry was written).
 *
 *   logs.list {level?, match?, limit?} → LogsReply
 */
import type { LogEntry } from '../shared/log.ts';
import type { LogsReply } from '../port/replies.ts';
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';

// The reply lives with the protocol (port/replies.ts), where the panel reads it too.
export type { LogsReply } from '../port/replies.ts';

export interface LogHandlerDeps {
  settings: () => Promise<Settings>;
  entries: () => LogEntry[];
  redact: (text: string) => string;
}

const DEFAULT_LIMIT = 300;
const RANK = { debug: 0, info: 1, warn: 2, error: 3 } as const;

/** The name a person filters by: the span's, else the tool the interceptor line is about. */
export function entrySubject(entry: LogEntry): string {
  const tool = entry.fields?.tool;
  return entry.span ?? (typeof tool === 'string' ? tool : '');
}

function redactEntry(entry: LogEntry, redact: (text: string) => string): LogEntry {
  const fields = entry.fields
    ? Object.fromEntries(Object.entries(entry.fields).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v]))
    : undefined;
  return { ...entry, msg: redact(entry.msg), ...(fields ? { fields } : {}) };
}

export function logHandlers(deps: LogHandlerDeps): Pick<Handlers, 'logs.list'> {
  return {
    async 'logs.list'(req): Promise<LogsReply> {
      const { config } = await deps.settings();
      if (!config.developer.logs) return { enabled: false, entries: [] };
      const min = RANK[req.level ?? 'debug'];
      const match = req.match?.trim().toLowerCase();
      const kept = deps
        .entries()
        .filter((e) => RANK[e.level] >= min && (!match || entrySubject(e).toLowerCase().includes(match)));
      return {
        enabled: true,
        entries: kept.slice(-(req.limit ?? DEFAULT_LIMIT)).map((e) => redactEntry(e, deps.redact)),
      };
    },
  };
}
