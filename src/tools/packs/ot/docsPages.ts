/**
 * Otto's own tool reference: one static HTML page per pack (`docs/tools/<slug>.html`, slugs as in docs.ts) plus an
 * index, generated from the registry by `npm run docs` (scripts/gen-tool-docs.ts) into public/, so Vite copies them
 * into the extension and ot.help can link to them. Deterministic (no dates), so a test can tell when the committed
 * pages are out of date. No scripts; one inline stylesheet (allowed by the extension's CSP).
 */
import type { PackInfo, ToolRegistry } from '../../ToolRegistry.ts';
import { BUNDLED_DOC_PACKS, DOCS_PATH, LIVE_DOCS_PAGE, docSlug } from './docs.ts';
import { pyRepr, registeredToolDoc, type ToolDoc } from './signature.ts';
import { escapeHtml } from '../../../shared/escapeHtml.ts';

const STYLE = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --code: rgba(127,127,127,.12); }
body { font: 15px/1.55 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2.2rem; border-top: 1px solid var(--line); padding-top: 1rem; }
h3 { font-size: 1rem; margin: 1.2rem 0 .3rem; } .muted { color: var(--muted); }
code, pre { font: 13px/1.45 ui-monospace, monospace; background: var(--code); border-radius: 4px; }
code { padding: 0 .25rem; } pre { padding: .6rem .8rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; width: 100%; font-size: 14px; } th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
nav a { margin-right: .8rem; } .tag { font-size: 12px; border: 1px solid var(--line); border-radius: 999px; padding: 0 .45rem; margin-left: .4rem; }
`.trim();

function page(title: string, body: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>\n${STYLE}\n</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n|\n/)
    .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
    .join('\n');
}

function toolSection(doc: ToolDoc): string[] {
  const fn = doc.name.slice(doc.pack.length + 1);
  const out = [
    `<h2 id="${escapeHtml(fn)}"><code>${escapeHtml(doc.name)}</code>${doc.readOnly ? '<span class="tag">read-only</span>' : '<span class="tag">changes state</span>'}</h2>`,
    `<pre>${escapeHtml(doc.signature)}</pre>`,
    paragraphs(doc.description),
    '<h3>Arguments</h3>',
  ];
  if (!doc.params.length) out.push('<p class="muted">None.</p>');
  else {
    out.push('<table>', '<tr><th>Name</th><th>Type</th><th></th><th>Description</th></tr>');
    for (const p of doc.params) {
      const state = p.required
        ? 'required'
        : p.hasDefault
          ? `default <code>${escapeHtml(pyRepr(p.default))}</code>`
          : 'optional';
      out.push(
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.type)}</td><td>${state}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
      );
    }
    out.push('</table>');
  }
  if (doc.returns) out.push('<h3>Returns</h3>', paragraphs(doc.returns));
  if (doc.examples.length) out.push('<h3>Examples</h3>', `<pre>${escapeHtml(doc.examples.join('\n'))}</pre>`);
  return out;
}

/** Where a page's links point: the bundled pages link to each other by relative file names. */
export interface DocLinks {
  index: string;
  pack: (pack: PackInfo) => string;
}
const RELATIVE_LINKS: DocLinks = { index: 'index.html', pack: (p) => `${docSlug(p.name)}.html` };

/**
 * Links for the live page (src/docs/index.html, rendered in the extension at run time): bundled packs keep their
 * bundled page, the others point back at the live page.
 */
export const LIVE_LINKS: DocLinks = {
  index: `/${DOCS_PATH}/index.html`,
  pack: (p) =>
    p.source === 'local' && BUNDLED_DOC_PACKS.has(p.name)
      ? `/${DOCS_PATH}/${docSlug(p.name)}.html`
      : `/${LIVE_DOCS_PAGE}?pack=${encodeURIComponent(p.name)}`,
};

function nav(registry: ToolRegistry, current: string | undefined, links: DocLinks): string {
  const items = registry
    .packs()
    .map((p) =>
      p.name === current
        ? `<strong>${escapeHtml(p.name)}</strong>`
        : `<a href="${escapeHtml(links.pack(p))}">${escapeHtml(p.name)}</a>`,
    );
  return `<nav><a href="${escapeHtml(links.index)}">All packs</a> · ${items.join(' ')}</nav>`;
}

/** A pack's page, built from its tools' schemas and descriptions (every text escaped: MCP servers write some of it). */
export function packPage(registry: ToolRegistry, pack: PackInfo, links: DocLinks = RELATIVE_LINKS): string {
  const docs = pack.tools.map((name) => registeredToolDoc(registry, registry.get(name)!));
  const body = [
    nav(registry, pack.name, links),
    `<h1>The <code>${escapeHtml(pack.name)}</code> pack</h1>`,
    `<p class="muted">${docs.length} tool${docs.length === 1 ? '' : 's'} · source: ${escapeHtml(pack.source)} · Otto tool reference</p>`,
  ];
  if (pack.instructions) body.push(paragraphs(pack.instructions));
  body.push(
    '<ul>',
    ...docs.map((d) => {
      const fn = d.name.slice(pack.name.length + 1);
      return `<li><a href="#${escapeHtml(fn)}"><code>${escapeHtml(d.name)}</code></a> — ${escapeHtml(d.description.split('\n')[0] ?? '')}</li>`;
    }),
    '</ul>',
  );
  for (const d of docs) body.push(...toolSection(d));
  body.push(
    '<h2>Calling these tools</h2>',
    '<p>In the panel, type a call directly (it runs without the model): <code>' +
      escapeHtml(docs[0]?.examples[0] ?? `${pack.name}.fn(name=value)`) +
      '</code>. Arguments are keyword-only. <code>/help ' +
      escapeHtml(pack.name) +
      '</code> shows this pack’s help inside Otto.</p>',
  );
  return page(`${pack.name} — Otto tool reference`, body);
}

export function indexPage(registry: ToolRegistry): string {
  const body = [
    '<h1>Otto tool reference</h1>',
    `<p class="muted">${registry.size} tools in ${registry.packs().length} packs. Generated from Otto’s tool registry (<code>npm run docs</code>).</p>`,
    '<table>',
    '<tr><th>Pack</th><th>Tools</th><th>About</th></tr>',
    ...registry
      .packs()
      .map(
        (p) =>
          `<tr><td><a href="${docSlug(p.name)}.html"><code>${escapeHtml(p.name)}</code></a></td><td>${p.tools.length}</td><td>${escapeHtml((p.instructions ?? '').split('\n')[0] ?? '')}</td></tr>`,
      ),
    '</table>',
    '<p>Proxy packs (MCP servers) are not listed here: their tools come from the server; use <code>ot.help</code> inside Otto.</p>',
  ];
  return page('Otto tool reference', body);
}

/** Every page, by file name (`index.html`, `<slug>.html`), for the local packs of `registry`. */
export function toolDocPages(registry: ToolRegistry): Map<string, string> {
  const pages = new Map<string, string>([['index.html', indexPage(registry)]]);
  for (const pack of registry.packs())
    if (pack.source === 'local') pages.set(`${docSlug(pack.name)}.html`, packPage(registry, pack));
  return pages;
}
