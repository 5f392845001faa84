/**
 * Words people use for what a tool of Otto's does, when the tool's name and description use others (#43 part 1):
 * `ot.help("errors")` finds dom.console, `ot.help("pdf")` finds files.download next to files.read, `ot.help("move
 * item")` finds dom.drag. A query word found here counts as a match on the tool's name at SYNONYM_QUALITY (search.ts).
 * Keys are lower-case words as `words()` splits them; plurals are looked up without their `s` too.
 */
export const SYNONYM_QUALITY = 0.9;
/** Each next tool a word names counts this much less (the first is the one it means most). */
export const SYNONYM_STEP = 0.01;

export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // console and network
  error: ['dom.console', 'dom.network'],
  exception: ['dom.console'],
  log: ['dom.console'],
  warning: ['dom.console'],
  debug: ['dom.console', 'dom.network'],
  devtools: ['dom.console', 'dom.network'],
  request: ['dom.network'],
  xhr: ['dom.network'],
  http: ['dom.network'],
  api: ['dom.network'],
  traffic: ['dom.network'],
  // files and PDFs
  pdf: ['files.read', 'files.download', 'files.download_click', 'dom.read'],
  document: ['files.read', 'files.download'],
  attachment: ['files.download_click', 'files.download', 'files.upload'],
  file: ['files.read', 'files.list', 'files.download', 'files.upload'],
  invoice: ['files.download_click', 'files.read'],
  save: ['files.download'],
  attach: ['files.upload'],
  cv: ['files.upload'],
  // the pointer
  move: ['dom.drag', 'dom.hover'],
  reorder: ['dom.drag'],
  rearrange: ['dom.drag'],
  sort: ['dom.drag'],
  drop: ['dom.drag', 'files.upload'],
  resize: ['dom.drag'],
  slider: ['dom.drag'],
  mouse: ['dom.hover', 'dom.drag'],
  pointer: ['dom.hover', 'dom.drag'],
  mouseover: ['dom.hover'],
  tooltip: ['dom.hover'],
  highlight: ['dom.select_text'],
  copy: ['dom.select_text'],
  // seeing the page
  image: ['tabs.screenshot'],
  picture: ['tabs.screenshot'],
  photo: ['tabs.screenshot'],
  capture: ['tabs.screenshot'],
  visual: ['tabs.screenshot'],
  scanned: ['tabs.screenshot', 'files.read'],
  canvas: ['tabs.screenshot', 'dom.click'],
  article: ['dom.read'],
  // tabs and the web
  url: ['tabs.navigate', 'tabs.open', 'web.fetch'],
  go: ['tabs.navigate'],
  visit: ['tabs.navigate'],
  history: ['tabs.back', 'tabs.forward'],
  refresh: ['tabs.reload'],
  switch: ['tabs.activate'],
  focus: ['tabs.activate'],
  download: ['files.download', 'files.download_click'],
  scrape: ['web.fetch', 'dom.text'],
  summarize: ['llm.transform'],
  summarise: ['llm.transform'],
  extract: ['llm.transform', 'dom.text'],
  wait: ['dom.wait_for'],
};

/** The tools a query word stands for (its plural's singular too): `errors` → dom.console, dom.network. */
export function synonymTools(word: string): readonly string[] {
  const own = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word]! : [];
  const single = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : '';
  if (!single || !Object.hasOwn(SYNONYMS, single)) return own;
  return [...new Set([...own, ...SYNONYMS[single]!])];
}
