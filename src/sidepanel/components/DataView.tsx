/** Stats and Files, one view with two tabs (the header has room for one button). */
import type { DataSlice } from '../state/data.ts';
import { StatsView } from './StatsView.tsx';
import { FilesView } from './FilesView.tsx';

export type DataTab = 'stats' | 'files';

export function DataView({ data, tab, onTab }: { data: DataSlice; tab: DataTab; onTab(tab: DataTab): void }) {
  return (
    <main class="data-pane">
      <div class="tabs" role="tablist" aria-label="Stats and files">
        {(['stats', 'files'] as const).map((t) => (
          <button
            type="button"
            role="tab"
            key={t}
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            data-testid={`tab-${t}`}
            onClick={() => onTab(t)}
          >
            {t === 'stats' ? 'Stats' : 'Files'}
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
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'stats' ? <StatsView data={data} /> : <FilesView data={data} />}
      </div>
    </main>
  );
}
