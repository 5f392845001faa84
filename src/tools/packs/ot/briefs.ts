/**
 * A few words per tool of Otto's page-task packs: what a person would reach for it to do, in the words they would
 * use. They end each line of ot.call's tool list and of code mode's pack summary (callList.ts), so the model knows
 * from its first request that the tool exists and what it is for. A tool missing here shows the first sentence of
 * its description instead; test/tools/discovery.test.ts fails when a page-task tool has no brief.
 */
export const BRIEFS: Readonly<Record<string, string>> = {
  'dom.check': 'tick or untick a checkbox, radio, switch',
  'dom.click': 'click an element (or a point x/y)',
  'dom.console': 'console messages, uncaught errors',
  'dom.dialogs': 'alert/confirm/prompt log; accept the next one',
  'dom.drag': 'drag onto an element or by dx/dy: reorder, move, resize',
  'dom.fill_form': 'fill several fields, optionally submit',
  'dom.find': 'search the page by text, role or name',
  'dom.hover': 'pointer over an element: menus, tooltips',
  'dom.network': 'requests made: URL, status, failures',
  'dom.press': 'press a key or combination',
  'dom.query': 'elements matching a CSS selector, with refs',
  'dom.read': 'main article as Markdown; PDF tab text',
  'dom.scroll': 'scroll into view, by pages, to top/bottom',
  'dom.select': 'choose options in a select or listbox',
  'dom.select_text': 'select (highlight) a phrase',
  'dom.snapshot': 'the page as an outline with refs',
  'dom.text': 'visible text of an element or the page',
  'dom.type': 'type into a field or editor',
  'dom.wait_for': 'wait until something appears or goes',
  'files.download': 'download a URL into the file store',
  'files.download_click': 'click what downloads a file; store it',
  'files.list': 'files stored: downloads, PDFs',
  'files.read': 'read a stored file or a PDF tab: text; a page as an image',
  'files.upload': 'stored file into a file input or drop zone',
  'llm.transform': 'extract/summarise/classify text with an LLM',
  'tabs.activate': 'bring a tab to the front',
  'tabs.back': 'history back',
  'tabs.close': 'close a tab',
  'tabs.forward': 'history forward',
  'tabs.list': 'tabs shared with you: id, title, URL',
  'tabs.navigate': 'load a URL in the tab',
  'tabs.open': 'open a URL in a new tab',
  'tabs.reload': 'reload',
  'tabs.screenshot': 'image of what the tab shows',
  'web.fetch': "a URL's content without a tab",
  'web.fetch_many': 'several URLs at once',
};
