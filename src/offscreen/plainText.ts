/**
 * An article as plain text for `web.fetch(format="text")`: block elements separated by blank lines, list items
 * and table rows on their own lines (`- ` before an item, ` | ` between cells), `<br>` as a line break, whitespace
 * collapsed outside `<pre>`. The DOM here is a parsed, never rendered document, so `innerText` (which needs layout)
 * would give `textContent`'s run-together text instead.
 */

const BLOCKS = new Set([
  ...['p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'body'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'li', 'dt', 'dd', 'blockquote', 'pre'],
  ...['table', 'caption', 'tr', 'figure', 'figcaption', 'address', 'hr', 'form', 'fieldset', 'details', 'summary'],
]);
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head']);

export function plainText(root: Node): string {
  let out = '';
  const walk = (n: Node, pre: boolean): void => {
    if (n.nodeType === 3) {
      const data = n.nodeValue ?? '';
      out += pre ? data : data.replace(/\s+/g, ' ');
      return;
    }
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) return;
    const tag = n.nodeType === 1 ? (n as Element).localName : '';
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      out += '\n';
      return;
    }
    if (tag === 'td' || tag === 'th') out += ' | ';
    const block = BLOCKS.has(tag);
    const line = tag === 'li' || tag === 'tr';
    if (block) out += line ? '\n' : '\n\n';
    if (tag === 'li') out += '- ';
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c, pre || tag === 'pre');
    if (block && !line) out += '\n\n';
  };
  walk(root, false);
  return (
    out
      .split('\n')
      // A row's first cell leaves a leading ` | `; spaces around lines are noise, but a tab-indented line is code.
      .map((l) =>
        l
          .replace(/^[ \t]*\|[ \t]*/, '')
          .replace(/[ \t]+$/, '')
          .replace(/^[ \t]+(?=\S)/, (m) => (m.includes('\t') ? m : '')),
      )
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}
