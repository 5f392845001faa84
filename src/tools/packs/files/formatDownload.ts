/** What the model reads after a download (#19): name, size, type, where it was saved, and the kept copy. */
import { humanSize } from './bytes.ts';
import type { DownloadDone } from './downloads.ts';

/** The line that says what a finished download gave. */
export function formatDownload(d: DownloadDone): string {
  const lines = [
    d.error ? `Download not finished: ${d.error}.` : 'Downloaded.',
    `name: ${d.name}`,
    `size: ${humanSize(d.size)} (${d.size} bytes)`,
    `type: ${d.mime}`,
    `saved at: ${d.path || '(not saved)'}`,
    `from: ${d.url}`,
  ];
  if (d.kept)
    lines.push(
      `kept in Otto's file store as ${JSON.stringify(d.kept.name)}: read it with files.read(name=${JSON.stringify(d.kept.name)}) or upload it with files.upload`,
    );
  else if (!d.error) lines.push(`no copy kept in Otto's file store: ${d.notKept ?? 'unknown reason'}`);
  return lines.join('\n');
}
