/**
 * Stats, Files and Schedules (#46), one view with tabs (the header has room for one button); Logs too, when config
 * `developer.logs` is on.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { DataSlice } from '../state/data.ts';
import { StatsView } from './StatsView.tsx';
import { FilesView } from './FilesView.tsx';
import { LogsView } from './LogsView.tsx';
import { SchedulesTab } from './SchedulesView.tsx';

export type DataTab = 'stats' | 'files' | 'schedules' | 'logs';

const TAB_LABEL: Record<DataTab, string> = { stats: 'Stats', files: 'Files', schedules: 'Schedules', logs: 'Logs' };

export function DataView({
  data,
  tab,
  onTab,
  client,
}: {
  data: DataSlice;
  tab: DataTab;
  onTab(tab: DataTab): void;
  client: PortClient;
}) {
  // Whether the developer view is on: asked each time the view opens, so a change in Settings shows at once.
  const [logs, setLogs] = useState(false);
  useEffect(() => {
    void client
      .request({ type: 'logs.list', limit: 1 })
      .then((r) => setLogs(r.enabled))
      .catch(() => setLogs(false));
  }, [client]);
  const tabs: DataTab[] = logs ? ['stats', 'files', 'schedules', 'logs'] : ['stats', 'files', 'schedules'];
  const shown = tab === 'logs' && !logs ? 'stats' : tab;
  return (
    <main class="data-pane">
      <div class="tabs" role="tablist" aria-label="Stats and files">
        {tabs.map((t) => (
          <button
            type="button"
            role="tab"
            key={t}
            id={`tab-${t}`}
            aria-selected={shown === t}
            aria-controls={`panel-${t}`}
            data-testid={`tab-${t}`}
            onClick={() => onTab(t)}
          >
            {TAB_LABEL[t]}
          </button>
        ))}
      </div>
      {data.notice && (
        <div
          class={`banner ${data.notice.error ? 'error' : 'ok'}`}
          role={data.notice.error ? 'alert' : 'status'}
          data-testid="data-notice"
        >
          <div>{data.notice.text}</div>
          <button type="button" class="link" onClick={data.dismissNotice}>
            Dismiss
          </button>
        </div>
      )}
      <div role="tabpanel" id={`panel-${shown}`} aria-labelledby={`tab-${shown}`}>
        {shown === 'stats' ? (
          <StatsView data={data} />
        ) : shown === 'files' ? (
          <FilesView data={data} />
        ) : shown === 'schedules' ? (
          <SchedulesTab client={client} />
        ) : (
          <LogsView client={client} />
        )}
      </div>
    </main>
  );
}
