/**
 * The developer view (config `developer.logs`): the worker's recent log entries — LogSpans (`llm.transform`, `ot.*`)
 * and the interceptor's `[TOOL EXECUTION]` lines — with level, span or tool, fields and duration; filter by span or
 * tool and by lowest level; export as JSON. The worker redacts every entry before it leaves.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { LogEntry, LogLevel } from '../../shared/log.ts';
import type { LogsReply } from '../../port/replies.ts';
import { downloadText } from '../../ui/download.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function time(ts: number): string {
  return new Date(ts).toLocaleTimeString('en-GB', { hour12: false });
}

function fieldsText(fields: LogEntry['fields']): string {
  if (!fields) return '';
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

export function LogsView({ client }: { client: PortClient }) {
  const [level, setLevel] = useState<LogLevel>('debug');
  const [match, setMatch] = useState('');
  const [reply, setReply] = useState<LogsReply | undefined>();
  const [error, setError] = useState<string | undefined>();

  const load = useCallback(async () => {
    try {
      setReply(await client.request({ type: 'logs.list', level, ...(match.trim() ? { match } : {}) }));
      setError(undefined);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [client, level, match]);
  useEffect(() => void load(), [load]);

  const entries = reply?.entries ?? [];
  return (
    <section class="logs" data-testid="logs-view">
      <div class="row wrap">
        <input
          type="search"
          class="grow"
          placeholder="Filter by span or tool, e.g. llm.transform"
          aria-label="Filter by span or tool"
          data-testid="logs-filter"
          value={match}
          onInput={(e) => setMatch((e.target as HTMLInputElement).value)}
        />
        <select
          aria-label="Lowest level"
          data-testid="logs-level"
          value={level}
          onChange={(e) => setLevel((e.target as HTMLSelectElement).value as LogLevel)}
        >
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {l} and up
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void load()} data-testid="logs-refresh">
          Refresh
        </button>
        <button
          type="button"
          disabled={!entries.length}
          data-testid="logs-export"
          onClick={() => downloadText('otto-log.json', 'application/json', JSON.stringify(entries, null, 2))}
        >
          Export
        </button>
      </div>
      {error && <p class="error-text">{error}</p>}
      {!entries.length ? (
        <p class="empty">No log entries{match.trim() ? ` for “${match.trim()}”` : ''} yet.</p>
      ) : (
        <ol class="log-list" data-testid="log-entries">
          {entries.map((e, i) => (
            <li
              key={`${e.ts}-${i}`}
              class={`log-entry log-${e.level}`}
              data-testid="log-entry"
              data-level={e.level}
              data-span={e.span ?? ''}
            >
              <div class="row">
                <span class="log-level">{e.level}</span>
                <time class="muted">{time(e.ts)}</time>
                {e.span && <code class="log-span">{e.span}</code>}
                {e.durationMs !== undefined && <span class="muted">{e.durationMs} ms</span>}
              </div>
              {e.msg !== e.span && <div class="log-msg">{e.msg}</div>}
              {e.fields && <div class="log-fields muted">{fieldsText(e.fields)}</div>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
