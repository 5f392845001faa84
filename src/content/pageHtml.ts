/**
 * `dom.read` off the page's thread (#24): Readability reads a whole document in one synchronous task, 20-40 ms per
 * thousand elements in Chromium, that cannot be sliced. Past READER_IN_PAGE_MAX elements the page gives its HTML
 * instead (one native serialisation, a few ms), and the worker's offscreen document runs the reader on it
 * (src/offscreen/pageArticle.ts). Smaller pages keep the in-page reader, which costs less than the round trip.
 *
 * The HTML is what `document.cloneNode(true)` would give the reader: neither includes shadow roots.
 */
import type { PageHtml } from '../shared/contentMessages.ts';

/**
 * Elements past which the in-page reader would hold the page's thread for ~20-30 ms or more: on the big-table fixture
 * (e2e/fixtures/pages/bigpage.html) it took 20 ms at 1,026 elements, 30 ms at 1,526, 75 ms at 3,026 and 384 ms at
 * 10,026, while the HTML took 1 ms (121 kB) and 8.5 ms (358 kB) to serialise (docs/decisions.md, #24).
 */
export const READER_IN_PAGE_MAX = 1_000;

export function pageHtml(): PageHtml {
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
  return { html: doctype + document.documentElement.outerHTML, url: document.URL, baseUrl: document.baseURI };
}
