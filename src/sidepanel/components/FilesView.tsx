/**
 * The Files view: Otto's files in IndexedDB (ot.stats HTML reports, ot.notify topic files) with open (new tab) and
 * download; the configured notify topics; stored large results by handle with view, download and delete.
 */
import { useEffect } from 'preact/hooks';
import type { DataSlice } from '../state/data.ts';
import { prettyJson, relativeTime } from '../lib/displayFormat.ts';

export function size(chars: number): string {
  if (chars < 1000) return `${chars} B`;
  if (chars < 1_000_000) return `${(chars / 1000).toFixed(1)} kB`;
  return `${(chars / 1_000_000).toFixed(1)} MB`;
}

function expires(at: number | null): string {
  if (at === null) return 'kept until deleted';
  const min = Math.round((at - Date.now()) / 60_000);
  return min <= 0 ? 'expiring' : min < 120 ? `expires in ${min} min` : `expires in ${Math.round(min / 60)} h`;
}

function Preview({ data }: { data: DataSlice }) {
  const p = data.preview;
  if (!p) return null;
  return (
    <section
      class="result-preview"
      data-testid="result-preview"
      data-handle={p.handle}
      aria-label={`Stored result ${p.handle}`}
    >
      <div class="row">
        <strong class="grow">
          Result <code>{p.handle}</code>
        </strong>
        {!('error' in p) && (
          <button type="button" onClick={() => void data.downloadResult(p.handle)}>
            Download
          </button>
        )}
        <button
          type="button"
          class="icon-text"
          onClick={() => void data.viewResult(undefined)}
          aria-label="Close the result"
        >
          Close
        </button>
      </div>
      {'error' in p ? (
        <p class="error-text">{p.error}</p>
      ) : (
        <>
          <pre tabIndex={0}>{p.text ? (p.truncated ? p.text : prettyJson(p.text)) : 'Loading…'}</pre>
          {p.truncated && (
            <p class="muted">
              Showing the first {p.text.length.toLocaleString()} of {p.totalChars.toLocaleString()} characters; Download
              has all of it, and <code>ot.result(handle="{p.handle}", search="…")</code> searches it.
            </p>
          )}
        </>
      )}
    </section>
  );
}

export function FilesView({ data }: { data: DataSlice }) {
  const { loadFiles } = data;
  useEffect(() => void loadFiles(), [loadFiles]);
  const files = data.files ?? [];
  const results = data.results ?? [];
  const missingTopics = (data.topics ?? []).filter((t) => !t.exists);

  return (
    <section class="files" data-testid="files-view" aria-busy={data.filesLoading}>
      {data.filesError && <p class="error-text">{data.filesError}</p>}
      <Preview data={data} />
      <div class="row">
        <h3 class="grow">Files</h3>
        <label class="button icon-text" title="Give Otto a file to upload or read in this conversation">
          Add a file…
          <input
            type="file"
            data-testid="file-add"
            hidden
            onChange={(e) => {
              const input = e.currentTarget;
              const picked = Array.from(input.files ?? []);
              input.value = '';
              for (const f of picked) void data.addFile(f);
            }}
          />
        </label>
        <button type="button" class="icon-text" onClick={() => void loadFiles()} aria-label="Refresh files">
          Refresh
        </button>
      </div>
      {data.files && files.length === 0 && (
        <p class="muted">
          No files yet. <code>ot.stats(output="report.html")</code> saves a report here, and <code>ot.notify</code>{' '}
          writes topic files (config <code>notify.topics</code>).
        </p>
      )}
      <ul class="file-list">
        {files.map((f) => (
          <li key={f.name} class="file-row" data-testid="file-row" data-name={f.name}>
            <div class="grow">
              <code class="file-name">{f.name}</code>
              <div class="muted">
                {f.mime} · {size(f.size)} · {relativeTime(f.updatedAt)}
              </div>
            </div>
            <button
              type="button"
              data-testid="file-open"
              onClick={() => void data.openFile(f.name)}
              aria-label={`Open ${f.name}`}
            >
              Open
            </button>
            <button
              type="button"
              data-testid="file-download"
              onClick={() => void data.downloadFile(f.name)}
              aria-label={`Download ${f.name}`}
            >
              Download
            </button>
            <button
              type="button"
              class="icon-text"
              onClick={() => void data.deleteFile(f.name)}
              aria-label={`Delete ${f.name}`}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      {missingTopics.length > 0 && (
        <p class="muted" data-testid="pending-topics">
          Topic files not written yet:{' '}
          {missingTopics.map((t, i) => (
            <span key={t.file}>
              {i > 0 && ', '}
              <code>{t.file}</code> ({t.pattern})
            </span>
          ))}
        </p>
      )}
      <h3>Stored results</h3>
      {data.results && results.length === 0 && (
        <p class="muted">None. Tool output over output.max_inline_size is stored here for ot.result.</p>
      )}
      <ul class="file-list">
        {results.map((r) => (
          <li key={r.handle} class="file-row" data-testid="result-row" data-handle={r.handle}>
            <div class="grow">
              <code class="file-name">{r.handle}</code>
              <div class="muted">
                {r.tool ? `${r.tool} · ` : ''}
                {r.totalLines.toLocaleString()} line{r.totalLines === 1 ? '' : 's'} · {size(r.sizeBytes)} ·{' '}
                {expires(r.expiresAt)}
              </div>
            </div>
            <button type="button" onClick={() => void data.viewResult(r.handle)} aria-label={`View result ${r.handle}`}>
              View
            </button>
            <button
              type="button"
              onClick={() => void data.downloadResult(r.handle)}
              aria-label={`Download result ${r.handle}`}
            >
              Download
            </button>
            <button
              type="button"
              class="icon-text"
              onClick={() => void data.deleteResult(r.handle)}
              aria-label={`Delete result ${r.handle}`}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
