/**
 * Tools that go together in one task (#43 part 1), so that finding one names the others: a PDF is downloaded
 * (files.download, files.download_click) and then read (files.read); console errors are read next to the requests
 * that failed. `ot.help` lists a tool's companions on its page and, for a search, the companions of the tools it
 * found that the search did not show (help.ts).
 */
const GROUPS: readonly (readonly string[])[] = [
  ['files.download', 'files.download_click', 'files.read', 'files.list'],
  ['files.list', 'files.upload', 'files.download'],
  ['dom.console', 'dom.network'],
  ['dom.drag', 'dom.hover'],
  ['dom.select_text', 'dom.press'],
  ['tabs.screenshot', 'tabs.activate'],
  ['web.fetch', 'web.fetch_many', 'files.read'],
  ['dom.read', 'files.read'],
  ['tabs.list', 'tabs.activate', 'tabs.open'],
];

/** The tools that go with `tool`, in group order, without itself ([] when none). */
export function companionsOf(tool: string): string[] {
  const out = new Set<string>();
  for (const group of GROUPS) if (group.includes(tool)) for (const t of group) if (t !== tool) out.add(t);
  return [...out];
}
