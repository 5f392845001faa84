/** Shared set-up for content-script unit tests (happy-dom: no layout engine, so size checks are off). */
import { registry } from '../../src/content/refs.ts';
import { buildSnapshot } from '../../src/content/contentSnapshot.ts';
import { setLayoutAvailable } from '../../src/content/visibility.ts';

export function setPage(html: string): void {
  setLayoutAvailable(false);
  registry.reset();
  registry.setPrefix('');
  document.body.innerHTML = html;
}

export function snap(root?: Element): string {
  return buildSnapshot({ root }).text;
}

/** The ref on the line that contains `needle`. */
export function refOf(text: string, needle: string): string {
  const line = text.split('\n').find((l) => l.includes(needle));
  const m = line && /\[ref=((?:f\d+)?[a-df-z]{2}e\d+)\]/.exec(line);
  if (!m) throw new Error(`no ref on a line containing ${needle} in:\n${text}`);
  return m[1]!;
}
