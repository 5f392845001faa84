/**
 * Assistant markdown → sanitised HTML. `marked` parses (GFM: tables, task lists, fenced code), DOMPurify keeps only
 * a small allow-list of tags and attributes. Model output is untrusted (a page can inject text into it), so:
 * - no scripts, event handlers, styles, forms or frames survive, and no class, id or style attribute (issue #31);
 * - links must be http(s) or mailto (or Otto's own bundled tool reference, `chrome-extension://<own id>/docs/`, which
 *   `ot.help` links to), and open in a new tab with rel="noopener noreferrer";
 * - images are never loaded (a remote image URL is a way to exfiltrate data): they become links.
 */
import { Marked, type Tokens } from 'marked';
import createDOMPurify, { type DOMPurify } from 'dompurify';

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'div',
  'details',
  'summary',
  'sup',
  'sub',
  'kbd',
  'mark',
  'dl',
  'dt',
  'dd',
];
// No class, id or style (issue #31): with Otto's own classes an answer could redraw the panel — cover the composer
// or a real approval card, draw a fake card — so the answer keeps none, and its container is contained (panel.css).
const ALLOWED_ATTR = ['href', 'title', 'align', 'colspan', 'rowspan', 'start', 'open'];
const FORBID_ATTR = ['class', 'id', 'style', 'name', 'form', 'slot', 'part', 'popover', 'tabindex'];
/** `chrome-extension://<this extension's id>/docs/`, or undefined outside the extension. */
function ownDocsPrefix(): string | undefined {
  try {
    const id = globalThis.chrome?.runtime?.id;
    return id ? `chrome-extension://${id}/docs/` : undefined;
  } catch {
    return undefined;
  }
}
const docs = ownDocsPrefix();
const SAFE_URL = new RegExp(
  `^(?:https?:|mailto:|#${docs ? `|${docs.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}` : ''})`,
  'i',
);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    image({ href, text }: Tokens.Image): string {
      const label = escapeHtml(text || 'image');
      return SAFE_URL.test(href) ? `<a href="${escapeHtml(href)}">[image: ${label}]</a>` : `[image: ${label}]`;
    },
  },
});

let purifier: DOMPurify | undefined;

function getPurifier(): DOMPurify {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_URL.test(href)) node.removeAttribute('href');
    else if (!href.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = p;
  return p;
}

/** Markdown → HTML safe to assign to innerHTML. */
export function renderMarkdown(text: string): string {
  const purify = getPurifier();
  // Without a working sanitizer (never in Chrome), show the text, not HTML.
  if (!purify.isSupported) return `<pre>${escapeHtml(text)}</pre>`;
  const html = marked.parse(text) as string;
  return purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ADD_ATTR: ['target', 'rel'],
    RETURN_TRUSTED_TYPE: false,
  }) as string;
}
