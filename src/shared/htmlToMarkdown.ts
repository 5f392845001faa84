/**
 * A small HTML → Markdown converter for article bodies: headings, paragraphs, line breaks, lists (nested, ordered
 * and not), links, images, emphasis, inline code and fenced code blocks, blockquotes, tables (GFM), definition
 * lists. Anything else contributes its content. No DOM mutation.
 */
import { oneLine } from './oneLine.ts';

interface Ctx {
  pre: boolean;
}

const BLOCK = '\n\n';

export function htmlToMarkdown(root: Node): string {
  return tidy(convert(root, { pre: false }));
}

function tidy(md: string): string {
  return md
    .replace(/[ \t]+\n/g, (m) => (m === '  \n' ? m : '\n'))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function escapeText(t: string): string {
  return t.replace(/([\\`*_[\]])/g, '\\$1').replace(/^([#>+-]|\d+\.)(?=\s)/, '\\$1');
}

function kids(node: Node, ctx: Ctx): string {
  let s = '';
  for (let c = node.firstChild; c; c = c.nextSibling) s += convert(c, ctx);
  return s;
}

function wrapInline(inner: string, mark: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : inner;
}

function inlineCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function convert(node: Node, ctx: Ctx): string {
  if (node.nodeType === 3) {
    const v = node.nodeValue ?? '';
    return ctx.pre ? v : escapeText(v.replace(/\s+/g, ' '));
  }
  if (node.nodeType === 9 || node.nodeType === 11) return kids(node, ctx);
  if (node.nodeType !== 1) return '';
  const el = node as Element;
  const tag = el.localName;
  switch (tag) {
    case 'script':
    case 'style':
    case 'noscript':
    case 'template':
    case 'head':
      return '';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const text = oneLine(kids(el, ctx));
      return text ? `${BLOCK}${'#'.repeat(Number(tag[1]))} ${text}${BLOCK}` : '';
    }
    case 'p':
    case 'div':
    case 'section':
    case 'article':
    case 'header':
    case 'footer':
    case 'main':
    case 'aside':
    case 'nav':
    case 'figure':
    case 'figcaption':
    case 'address':
    case 'details':
    case 'summary':
      return `${BLOCK}${kids(el, ctx).trim()}${BLOCK}`;
    case 'br':
      return ctx.pre ? '\n' : '  \n';
    case 'hr':
      return `${BLOCK}---${BLOCK}`;
    case 'strong':
    case 'b':
      return wrapInline(kids(el, ctx), '**');
    case 'em':
    case 'i':
    case 'cite':
      return wrapInline(kids(el, ctx), '_');
    case 'del':
    case 's':
    case 'strike':
      return wrapInline(kids(el, ctx), '~~');
    case 'code':
    case 'kbd':
    case 'samp':
      return ctx.pre ? (el.textContent ?? '') : inlineCode((el.textContent ?? '').replace(/\s+/g, ' '));
    case 'pre': {
      const code = el.querySelector('code');
      const lang = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(code?.className ?? el.className)?.[1] ?? '';
      const body = (el.textContent ?? '').replace(/\n$/, '');
      const fence = body.includes('```') ? '````' : '```';
      return `${BLOCK}${fence}${lang}\n${body}\n${fence}${BLOCK}`;
    }
    case 'a': {
      const text = oneLine(kids(el, ctx));
      const href = el.getAttribute('href') ?? '';
      if (!text) return '';
      if (!href || href.startsWith('#') || href.startsWith('javascript:')) return text;
      const title = el.getAttribute('title');
      return `[${text}](${href.replace(/[()\s]/g, (c) => encodeURIComponent(c))}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
    }
    case 'img': {
      const src = el.getAttribute('src') ?? '';
      if (!src || src.startsWith('data:')) return el.getAttribute('alt') ? escapeText(el.getAttribute('alt')!) : '';
      return `![${escapeText(el.getAttribute('alt') ?? '')}](${src.replace(/[()\s]/g, (c) => encodeURIComponent(c))})`;
    }
    case 'ul':
    case 'ol':
      return `${BLOCK}${list(el, ctx)}${BLOCK}`;
    case 'blockquote': {
      const inner = tidy(kids(el, ctx));
      return `${BLOCK}${inner
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n')}${BLOCK}`;
    }
    case 'table':
      return `${BLOCK}${table(el, ctx)}${BLOCK}`;
    case 'dl':
      return `${BLOCK}${kids(el, ctx).trim()}${BLOCK}`;
    case 'dt':
      return `\n**${oneLine(kids(el, ctx))}**\n`;
    case 'dd':
      return `: ${oneLine(kids(el, ctx))}\n`;
    default:
      return kids(el, ctx);
  }
}

function list(el: Element, ctx: Ctx): string {
  const ordered = el.localName === 'ol';
  let n = Number(el.getAttribute('start') ?? 1) || 1;
  const items: string[] = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName !== 'li') continue;
    const marker = ordered ? `${n++}. ` : '- ';
    // A nested list follows its item's text directly, without a blank line.
    const body = tidy(kids(c, ctx)).replace(/\n{2,}(?=(?:[-*]|\d+\.) )/g, '\n');
    const pad = ' '.repeat(marker.length);
    items.push(
      marker +
        body
          .split('\n')
          .map((l, i) => (i === 0 || !l ? l : pad + l))
          .join('\n'),
    );
  }
  return items.join('\n');
}

function table(el: Element, ctx: Ctx): string {
  const rows = Array.from(el.querySelectorAll('tr')).filter((r) => r.closest('table') === el);
  if (!rows.length) return tidy(kids(el, ctx));
  const cells = rows.map((r) =>
    Array.from(r.children)
      .filter((c) => c.localName === 'td' || c.localName === 'th')
      .map((c) => oneLine(tidy(kids(c, ctx))).replace(/\|/g, '\\|')),
  );
  const width = Math.max(...cells.map((r) => r.length));
  if (width === 0) return '';
  const pad = (r: string[]): string[] => [...r, ...Array<string>(width - r.length).fill('')];
  const [head, ...body] = cells;
  const line = (r: string[]): string => `| ${pad(r).join(' | ')} |`;
  return [line(head!), `| ${Array<string>(width).fill('---').join(' | ')} |`, ...body.map(line)].join('\n');
}
