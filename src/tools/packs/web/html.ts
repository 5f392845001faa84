/**
 * A small, tolerant HTML parser for the service worker, which has no DOMParser. It builds a light tree with just the
 * part of the DOM interface Otto's readers use — `nodeType`, `nodeValue`, `localName`, `getAttribute`, `className`,
 * `firstChild`/`nextSibling`, `children`, `firstElementChild`/`nextElementSibling`, `textContent`, `parentNode`,
 * and `querySelector(All)`/`closest` for tag-name selectors (`a`, `h1, h2`) — so the content script's Markdown
 * converter (src/content/markdown.ts, pure: it only walks the nodes it is given) runs on it unchanged.
 *
 * What it handles: comments, doctype, CDATA, void elements, raw-text elements (script, style, textarea, title...),
 * attributes quoted or not, character references (numeric and the common named ones), and the implied end tags that
 * real pages rely on (`<p>` closed by a block, `<li>`/`<dt>`/`<dd>`/`<tr>`/`<td>`/`<option>` by a sibling, an end
 * tag closing everything opened inside it). It does not run the full HTML5 tree-construction algorithm (no foster
 * parenting, no adoption agency for misnested formatting tags): for reading article text that is enough, and the
 * tests compare its Markdown with a real DOM's on real pages.
 */

export const TEXT_NODE = 3;
export const ELEMENT_NODE = 1;
export const COMMENT_NODE = 8;
export const DOCUMENT_NODE = 9;

export abstract class LightNode {
  abstract readonly nodeType: number;
  parentNode: LightParent | null = null;
  nextSibling: LightNode | null = null;
  previousSibling: LightNode | null = null;
  get nodeValue(): string | null {
    return null;
  }
  abstract get textContent(): string;
}

export class LightText extends LightNode {
  readonly nodeType = TEXT_NODE;
  constructor(public data: string) {
    super();
  }
  override get nodeValue(): string {
    return this.data;
  }
  get textContent(): string {
    return this.data;
  }
}

export class LightComment extends LightNode {
  readonly nodeType = COMMENT_NODE;
  constructor(public data: string) {
    super();
  }
  override get nodeValue(): string {
    return this.data;
  }
  get textContent(): string {
    return '';
  }
}

export abstract class LightParent extends LightNode {
  firstChild: LightNode | null = null;
  lastChild: LightNode | null = null;

  appendChild<T extends LightNode>(node: T): T {
    node.parentNode = this;
    node.previousSibling = this.lastChild;
    node.nextSibling = null;
    if (this.lastChild) this.lastChild.nextSibling = node;
    else this.firstChild = node;
    this.lastChild = node;
    return node;
  }

  removeChild(node: LightNode): void {
    if (node.parentNode !== this) return;
    if (node.previousSibling) node.previousSibling.nextSibling = node.nextSibling;
    else this.firstChild = node.nextSibling;
    if (node.nextSibling) node.nextSibling.previousSibling = node.previousSibling;
    else this.lastChild = node.previousSibling;
    node.parentNode = null;
    node.nextSibling = null;
    node.previousSibling = null;
  }

  get childNodes(): LightNode[] {
    const out: LightNode[] = [];
    for (let c = this.firstChild; c; c = c.nextSibling) out.push(c);
    return out;
  }

  get children(): LightElement[] {
    const out: LightElement[] = [];
    for (let c = this.firstChild; c; c = c.nextSibling) if (c instanceof LightElement) out.push(c);
    return out;
  }

  get firstElementChild(): LightElement | null {
    for (let c = this.firstChild; c; c = c.nextSibling) if (c instanceof LightElement) return c;
    return null;
  }

  get textContent(): string {
    let out = '';
    const walk = (n: LightNode): void => {
      if (n instanceof LightText) out += n.data;
      else if (n instanceof LightParent) for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
    };
    walk(this);
    return out;
  }

  /** Descendant elements in document order, optionally only those `match` accepts. */
  *descendants(): Generator<LightElement> {
    const stack: LightNode[] = [];
    for (let c = this.lastChild; c; c = c.previousSibling) stack.push(c);
    while (stack.length) {
      const n = stack.pop()!;
      if (!(n instanceof LightElement)) continue;
      yield n;
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
  }

  getElementsByTagName(tag: string): LightElement[] {
    const t = tag.toLowerCase();
    const out: LightElement[] = [];
    for (const el of this.descendants()) if (t === '*' || el.localName === t) out.push(el);
    return out;
  }

  querySelectorAll(selector: string): LightElement[] {
    const match = tagMatcher(selector);
    const out: LightElement[] = [];
    for (const el of this.descendants()) if (match(el)) out.push(el);
    return out;
  }

  querySelector(selector: string): LightElement | null {
    const match = tagMatcher(selector);
    for (const el of this.descendants()) if (match(el)) return el;
    return null;
  }
}

export class LightElement extends LightParent {
  readonly nodeType = ELEMENT_NODE;
  readonly attributes = new Map<string, string>();
  constructor(readonly localName: string) {
    super();
  }
  get tagName(): string {
    return this.localName.toUpperCase();
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name.toLowerCase()) ?? null;
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name.toLowerCase());
  }
  get className(): string {
    return this.attributes.get('class') ?? '';
  }
  get id(): string {
    return this.attributes.get('id') ?? '';
  }
  get nextElementSibling(): LightElement | null {
    for (let c = this.nextSibling; c; c = c.nextSibling) if (c instanceof LightElement) return c;
    return null;
  }
  closest(selector: string): LightElement | null {
    const match = tagMatcher(selector);
    if (match(this)) return this;
    for (let n = this.parentNode; n; n = n.parentNode) if (n instanceof LightElement && match(n)) return n;
    return null;
  }
}

export class LightDocument extends LightParent {
  readonly nodeType = DOCUMENT_NODE;
  get documentElement(): LightElement | null {
    return this.firstElementChild;
  }
  get body(): LightElement | null {
    return this.documentElement?.children.find((c) => c.localName === 'body') ?? null;
  }
  get head(): LightElement | null {
    return this.documentElement?.children.find((c) => c.localName === 'head') ?? null;
  }
  get title(): string {
    return (this.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  }
}

/** Tag-name selectors only (`p`, `h1, h2`, `*`); anything else is an error, so a wrong assumption shows in tests. */
function tagMatcher(selector: string): (el: LightElement) => boolean {
  const tags = selector.split(',').map((s) => s.trim().toLowerCase());
  for (const t of tags)
    if (!/^([a-z][a-z0-9-]*|\*)$/.test(t)) throw new Error(`Light DOM selectors are tag names only, got: ${selector}`);
  if (tags.includes('*')) return () => true;
  const set = new Set(tags);
  return (el) => set.has(el.localName);
}

// ---- character references -----------------------------------------------------------------------------------

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  shy: '\u00ad',
  zwnj: '\u200c',
  zwj: '\u200d',
  lrm: '\u200e',
  rlm: '\u200f',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  minus: '−',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  lsaquo: '‹',
  rsaquo: '›',
  bull: '•',
  middot: '·',
  prime: '′',
  Prime: '″',
  dagger: '†',
  Dagger: '‡',
  permil: '‰',
  sect: '§',
  para: '¶',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup1: '¹',
  sup2: '²',
  sup3: '³',
  micro: 'µ',
  cent: '¢',
  pound: '£',
  yen: '¥',
  euro: '€',
  curren: '¤',
  iexcl: '¡',
  iquest: '¿',
  ordf: 'ª',
  ordm: 'º',
  not: '¬',
  macr: '¯',
  acute: '´',
  cedil: '¸',
  uml: '¨',
  brvbar: '¦',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  rArr: '⇒',
  lArr: '⇐',
  hArr: '⇔',
  le: '≤',
  ge: '≥',
  ne: '≠',
  asymp: '≈',
  equiv: '≡',
  infin: '∞',
  sum: '∑',
  prod: '∏',
  radic: '√',
  part: '∂',
  int: '∫',
  isin: '∈',
  notin: '∉',
  cap: '∩',
  cup: '∪',
  sub: '⊂',
  sup: '⊃',
  and: '∧',
  or: '∨',
  forall: '∀',
  exist: '∃',
  empty: '∅',
  nabla: '∇',
  lowast: '∗',
  sim: '∼',
  prop: '∝',
  ang: '∠',
  there4: '∴',
  oline: '‾',
  frasl: '⁄',
  spades: '♠',
  clubs: '♣',
  hearts: '♥',
  diams: '♦',
  loz: '◊',
  check: '✓',
  Alpha: 'Α',
  Beta: 'Β',
  Gamma: 'Γ',
  Delta: 'Δ',
  Epsilon: 'Ε',
  Zeta: 'Ζ',
  Eta: 'Η',
  Theta: 'Θ',
  Iota: 'Ι',
  Kappa: 'Κ',
  Lambda: 'Λ',
  Mu: 'Μ',
  Nu: 'Ν',
  Xi: 'Ξ',
  Omicron: 'Ο',
  Pi: 'Π',
  Rho: 'Ρ',
  Sigma: 'Σ',
  Tau: 'Τ',
  Upsilon: 'Υ',
  Phi: 'Φ',
  Chi: 'Χ',
  Psi: 'Ψ',
  Omega: 'Ω',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  omicron: 'ο',
  pi: 'π',
  rho: 'ρ',
  sigmaf: 'ς',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  szlig: 'ß',
  eth: 'ð',
  ETH: 'Ð',
  thorn: 'þ',
  THORN: 'Þ',
  aelig: 'æ',
  AElig: 'Æ',
  oelig: 'œ',
  OElig: 'Œ',
  scaron: 'š',
  Scaron: 'Š',
  yuml: 'ÿ',
  Yuml: 'Ÿ',
  fnof: 'ƒ',
  circ: 'ˆ',
  tilde: '˜',
  oslash: 'ø',
  Oslash: 'Ø',
  aring: 'å',
  Aring: 'Å',
  ccedil: 'ç',
  Ccedil: 'Ç',
  ntilde: 'ñ',
  Ntilde: 'Ñ',
};

// Latin-1 letters with accents: &Xgrave; &Xacute; &Xcirc; &Xtilde; &Xuml; for the vowels that have them.
const ACCENTS: Readonly<Record<string, string>> = {
  grave: '\u0300',
  acute: '\u0301',
  circ: '\u0302',
  tilde: '\u0303',
  uml: '\u0308',
};

function named(name: string): string | undefined {
  const hit = NAMED[name];
  if (hit !== undefined) return hit;
  const m = /^([AEIOUYaeiouy])(grave|acute|circ|tilde|uml)$/.exec(name);
  return m ? (m[1]! + ACCENTS[m[2]!]!).normalize('NFC') : undefined;
}

function codePoint(n: number): string {
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  // Windows-1252 code points that pages send as numeric references (&#150; for an en dash).
  const cp1252: Record<number, number> = {
    128: 0x20ac,
    130: 0x201a,
    132: 0x201e,
    133: 0x2026,
    145: 0x2018,
    146: 0x2019,
    147: 0x201c,
    148: 0x201d,
    149: 0x2022,
    150: 0x2013,
    151: 0x2014,
    153: 0x2122,
  };
  return String.fromCodePoint(cp1252[n] ?? n);
}

/** Decodes character references (`&amp;`, `&#8212;`, `&#x2014;`); unknown names are left as they are. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      return codePoint(parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return named(ref) ?? whole;
  });
}

// ---- tree construction ---------------------------------------------------------------------------------------

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
  'frame',
  'basefont',
  'bgsound',
  'command',
]);
const RAW_TEXT = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);
/** Start tags that close an open `<p>`. */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'li',
  'dd',
  'dt',
]);
/** The HTML spec's default scope: an end tag or an implied close does not reach past these. */
const DEFAULT_SCOPE = new Set([
  'html',
  'table',
  'td',
  'th',
  'caption',
  'template',
  'object',
  'marquee',
  'applet',
  'button',
]);
/** Block-level ("special") elements: a stray phrasing end tag (`</span>`) does not close past one of them. */
const SPECIAL = new Set([
  ...CLOSES_P,
  'body',
  'html',
  'head',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'select',
  'button',
  'template',
  'object',
  'center',
  'frameset',
  'iframe',
  'listing',
  'marquee',
  'applet',
  'noscript',
  'plaintext',
  'textarea',
  'xmp',
  'summary',
  'search',
  'hr',
  'img',
  'br',
]);
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const TABLE_PARTS = new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup']);
const TABLE_SCOPE = new Set(['html', 'table', 'template']);
/** What may stay in `<head>`; anything else (or text) means the page left out `</head>`. */
const HEAD_CONTENT = new Set([
  'meta',
  'link',
  'title',
  'style',
  'script',
  'base',
  'noscript',
  'template',
  'basefont',
  'bgsound',
]);

interface ImpliedClose {
  /** The open elements this start tag closes (with everything opened inside them). */
  readonly targets: readonly string[];
  /** Looking for a target stops at these (a `<li>` does not close an `<li>` of an outer list). */
  readonly stop: ReadonlySet<string>;
}
const LIST_STOP = new Set([...SPECIAL].filter((t) => !['address', 'div', 'p', 'li', 'dd', 'dt'].includes(t)));
const IMPLIED: Readonly<Record<string, ImpliedClose>> = {
  li: { targets: ['li'], stop: LIST_STOP },
  dt: { targets: ['dt', 'dd'], stop: LIST_STOP },
  dd: { targets: ['dt', 'dd'], stop: LIST_STOP },
  tr: { targets: ['tr'], stop: new Set(['table', 'tbody', 'thead', 'tfoot', 'template', 'html']) },
  td: { targets: ['td', 'th'], stop: new Set(['tr', 'table', 'template', 'html']) },
  th: { targets: ['td', 'th'], stop: new Set(['tr', 'table', 'template', 'html']) },
  thead: { targets: ['thead', 'tbody', 'tfoot'], stop: new Set(['table', 'template', 'html']) },
  tbody: { targets: ['thead', 'tbody', 'tfoot'], stop: new Set(['table', 'template', 'html']) },
  tfoot: { targets: ['thead', 'tbody', 'tfoot'], stop: new Set(['table', 'template', 'html']) },
  option: { targets: ['option'], stop: new Set(['select', 'datalist', 'optgroup', 'html']) },
  optgroup: { targets: ['option', 'optgroup'], stop: new Set(['select', 'html']) },
  rt: { targets: ['rt', 'rp'], stop: new Set(['ruby', 'html']) },
  rp: { targets: ['rt', 'rp'], stop: new Set(['ruby', 'html']) },
};
const P_CLOSE: ImpliedClose = { targets: ['p'], stop: DEFAULT_SCOPE };

/**
 * Reads a start tag's attributes from `from` (just after the tag name) as the HTML tokenizer does: names run to
 * whitespace, `/`, `>` or `=` (quotes included), values are quoted or run to whitespace or `>`. Returns the index
 * after the closing `>`, and whether the tag ended in `/>`.
 */
function readAttributes(html: string, from: number, el: LightElement): { end: number; selfClosing: boolean } {
  const len = html.length;
  let i = from;
  let selfClosing = false;
  const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';
  while (i < len) {
    const c = html[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '>') return { end: i + 1, selfClosing };
    if (c === '/') {
      selfClosing = html[i + 1] === '>';
      i++;
      continue;
    }
    selfClosing = false;
    let j = i + (c === '=' ? 1 : 0); // a leading '=' belongs to the name
    while (j < len && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>' && html[j] !== '=') j++;
    const name = html.slice(i, j).toLowerCase();
    i = j;
    while (isSpace(html[i])) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (isSpace(html[i])) i++;
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        value = html.slice(i + 1, close < 0 ? len : close);
        i = close < 0 ? len : close + 1;
      } else {
        let k = i;
        while (k < len && !isSpace(html[k]) && html[k] !== '>') k++;
        value = html.slice(i, k);
        i = k;
      }
    }
    if (name && !el.attributes.has(name)) el.attributes.set(name, decodeEntities(value)); // the first one wins
  }
  return { end: len, selfClosing };
}

/** Parses an HTML document (or fragment) into a light tree. Never throws on malformed input. */
export function parseHtml(html: string): LightDocument {
  // The document always has html > head + body, as a browser builds it: head content before the first body content
  // goes into <head>, everything else into <body> (created at the first text or non-head tag).
  const doc = new LightDocument();
  const root = doc.appendChild(new LightElement('html'));
  const head = root.appendChild(new LightElement('head'));
  let body: LightElement | undefined;
  const stack: LightParent[] = [doc, root, head];
  const enterBody = (): void => {
    if (body) return;
    body = root.appendChild(new LightElement('body'));
    stack.length = 2;
    stack.push(body);
  };
  const mergeAttributes = (into: LightElement, from: LightElement): void => {
    for (const [k, v] of from.attributes) if (!into.attributes.has(k)) into.attributes.set(k, v);
  };
  const current = (): LightParent => stack[stack.length - 1]!;
  /** Index in the stack of the nearest open target, or -1 when a stop element comes first. */
  const openIndex = ({ targets, stop }: ImpliedClose): number => {
    for (let i = stack.length - 1; i > 2; i--) {
      const name = (stack[i] as LightElement).localName;
      if (targets.includes(name)) return i;
      if (stop.has(name)) return -1;
    }
    return -1;
  };
  const text = (data: string): void => {
    if (!data) return;
    if (!body) {
      if (!/\S/.test(data)) return; // whitespace between head elements
      enterBody();
    }
    const parent = current();
    const last = parent.lastChild;
    if (last instanceof LightText) last.data += data;
    else parent.appendChild(new LightText(data));
  };

  const len = html.length;
  let i = 0;
  while (i < len) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(decodeEntities(html.slice(i)));
      break;
    }
    if (lt > i) text(decodeEntities(html.slice(i, lt)));
    i = lt;
    const next = html[i + 1];
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      const stop = end < 0 ? len : end;
      current().appendChild(new LightComment(html.slice(i + 4, stop)));
      i = end < 0 ? len : end + 3;
      continue;
    }
    if (html.startsWith('<![CDATA[', i)) {
      const end = html.indexOf(']]>', i + 9);
      text(html.slice(i + 9, end < 0 ? len : end));
      i = end < 0 ? len : end + 3;
      continue;
    }
    if (next === '!' || next === '?') {
      const end = html.indexOf('>', i + 2);
      i = end < 0 ? len : end + 1;
      continue;
    }
    if (next === '/') {
      const m = /^<\/([A-Za-z][^\s/>]*)[^>]*>?/.exec(html.slice(i, i + 200));
      if (!m) {
        text('<');
        i++;
        continue;
      }
      i += m[0].length;
      const tag = m[1]!.toLowerCase();
      if (tag === 'br') {
        current().appendChild(new LightElement('br'));
        continue;
      }
      if (tag === 'p' && openIndex(P_CLOSE) < 0) {
        current().appendChild(new LightElement('p')); // </p> without <p> makes an empty paragraph
        continue;
      }
      // Close up to the nearest open element with this name (any heading for a heading), not past the scope a
      // block end tag may not leave, nor past a block for a phrasing end tag; otherwise the end tag is ignored.
      if (tag === 'body' || tag === 'html' || tag === 'head') continue; // the structure is fixed (see above)
      const targets = HEADINGS.includes(tag) ? HEADINGS : [tag];
      const stop =
        tag === 'table'
          ? new Set(['html', 'template'])
          : TABLE_PARTS.has(tag)
            ? TABLE_SCOPE
            : SPECIAL.has(tag)
              ? DEFAULT_SCOPE
              : SPECIAL;
      const at = openIndex({ targets, stop });
      if (at > 0) stack.length = at;
      continue;
    }
    if (!/[A-Za-z]/.test(next ?? '')) {
      text('<');
      i++;
      continue;
    }
    // A start tag: name, then attributes up to the first '>' outside quotes.
    let j = i + 1;
    while (j < len && !/[\s/>]/.test(html[j]!)) j++;
    const tag = html.slice(i + 1, j).toLowerCase();
    const el = new LightElement(tag);
    const { end, selfClosing } = readAttributes(html, j, el);
    i = end;

    if (tag === 'html' || tag === 'head' || (tag === 'body' && body)) {
      mergeAttributes(tag === 'html' ? root : tag === 'head' ? head : body!, el);
      continue;
    }
    if (tag === 'body' || (!body && !HEAD_CONTENT.has(tag))) {
      enterBody();
      if (tag === 'body') {
        mergeAttributes(body!, el);
        continue;
      }
    }
    if (CLOSES_P.has(tag)) {
      const p = openIndex(P_CLOSE);
      if (p > 0) stack.length = p;
    }
    if (HEADINGS.includes(tag) && HEADINGS.includes((current() as LightElement).localName)) stack.pop();
    const implied = IMPLIED[tag];
    if (implied) {
      const at = openIndex(implied);
      if (at > 0) stack.length = at;
    }
    current().appendChild(el);
    if (VOID.has(tag) || (selfClosing && !RAW_TEXT.has(tag))) continue;
    if (RAW_TEXT.has(tag)) {
      if (tag === 'plaintext') {
        el.appendChild(new LightText(html.slice(i)));
        i = len;
        continue;
      }
      const close = new RegExp(`</${tag}[\\s/>]`, 'i');
      const rest = html.slice(i);
      const m = close.exec(rest);
      const body = m ? rest.slice(0, m.index) : rest;
      if (body) el.appendChild(new LightText(tag === 'title' || tag === 'textarea' ? decodeEntities(body) : body));
      if (!m) {
        i = len;
        continue;
      }
      const gt = html.indexOf('>', i + m.index);
      i = gt < 0 ? len : gt + 1;
      continue;
    }
    stack.push(el);
  }
  enterBody();
  return doc;
}
