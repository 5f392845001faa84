// @vitest-environment happy-dom
/**
 * The worker has no DOMParser, so web.fetch parses HTML with a light parser (src/tools/packs/web/html.ts) and runs
 * the content script's Markdown converter on it. These tests hold the light tree to a real DOM's: the same HTML must
 * give the same Markdown. Real pages from corpora/readability (when present) are compared too, and the extraction
 * is measured against Readability's expected articles.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { htmlToMarkdown } from '../../src/content/markdown.ts';
import { decodeEntities, extractArticle, parseHtml } from '../../src/tools/packs/web/index.ts';
import { resolve } from 'node:path';

const light = (html: string): string => htmlToMarkdown(parseHtml(html).body as unknown as Node);
const real = (html: string): string => htmlToMarkdown(new DOMParser().parseFromString(html, 'text/html').body);

const SNIPPETS: Record<string, string> = {
  basics:
    '<h1>Title</h1><p>Some <strong>bold</strong>, <em>soft</em> and <code>x*y</code> text with <a href="https://x.y/a b" title="T">a link</a>.</p><img src="/i.png" alt="pic"><hr>',
  'implied paragraph ends': '<p>one<p>two<div>three</div><p>four<ul><li>five</ul>',
  'implied list items': '<ul><li>a<li>b<ul><li>b1<li>b2</ul><li>c</ul><ol start=3><li>x<li>y</ol>',
  'definition lists': '<dl><dt>Term<dd>Meaning<dt>Other<dd>Second</dl>',
  tables:
    '<table><caption>Cap</caption><thead><tr><th>A<th>B</thead><tbody><tr><td>1<td>x|y<tr><td>2<td>z</tbody></table>',
  'code and quotes':
    '<pre><code class="language-js">const a = 1 &lt; 2;\n  indented\n</code></pre><blockquote><p>Quoted<p>Twice</blockquote>',
  entities:
    '<p>Caf&eacute; &amp; cr&egrave;me &mdash; &#8220;quoted&#x201D; &nbsp;&copy; 2024 &unknown; &lt;tag&gt;</p>',
  'scripts, styles and comments':
    '<p>keep</p><script>document.write("<p>no</p>")</script><style>p{}</style><!-- <p>hidden</p> --><p>also</p>',
  'attributes quoted every way': `<p><a href=/bare>bare</a> <a href='/single'>single</a> <a href="/double" class="x y">double</a> <a  HREF = "/spaced" >spaced</a></p>`,
  'stray and misnested tags':
    '<p>a <b>bold <i>both</b> tail</i></p></span><div><span>open<div>inner</div></div><p>after',
  'br, void and self-closing':
    '<p>line one<br>line two<br/>line three</p><p>img <img src="/a.png" alt="A"/> end</p><input value="x">',
  'nested formatting': '<p><strong><em>both</em></strong> <del>gone</del> <kbd>Ctrl</kbd>+<kbd>C</kbd></p>',
};

describe('the light HTML parser gives the Markdown converter what a real DOM gives it', () => {
  for (const [name, html] of Object.entries(SNIPPETS)) {
    it(name, () => {
      expect(light(html)).toBe(real(html));
    });
  }

  // happy-dom is not a browser here; these follow the HTML spec's tree construction, which Chromium implements.
  it('content without <body> goes into the body; a heading start tag closes an open heading (as browsers do)', () => {
    const doc = parseHtml('<html><head><title>T</title><meta charset=utf-8><p>body text starts here<h2>Heading</h2>');
    expect(doc.head!.children.map((c) => c.localName)).toEqual(['title', 'meta']);
    expect(htmlToMarkdown(doc.body as unknown as Node)).toBe('body text starts here\n\n## Heading');
    expect(light('<h2>First<h3>Second</h3>')).toBe('## First\n\n### Second');
  });

  it('decodes character references (named, decimal, hex, Windows-1252 numbers) and leaves unknown ones', () => {
    expect(decodeEntities('&amp;&lt;&gt;&quot;&apos;&eacute;&Uuml;&#233;&#xE9;&#150;&hellip;&bogus;&')).toBe(
      '&<>"\'éÜéé–…&bogus;&',
    );
  });

  it('raw-text elements keep their markup as text; an unclosed one runs to the end', () => {
    const doc = parseHtml('<textarea><b>not bold</b></textarea><script>if (a < b) {}</script><title>A &amp; B</title>');
    expect(doc.querySelector('textarea')!.textContent).toBe('<b>not bold</b>');
    expect(doc.querySelector('script')!.textContent).toBe('if (a < b) {}');
    expect(doc.title).toBe('A & B');
    expect(parseHtml('<p>x<script>never closed').querySelector('script')!.textContent).toBe('never closed');
  });

  it('never throws on garbage', () => {
    for (const junk of [
      '<',
      '<<>>',
      '</>',
      '<a href="unterminated',
      '<!-- open',
      '<![CDATA[x',
      '<p attr=">',
      '\u0000<div\u0000>',
    ]) {
      expect(() => light(junk)).not.toThrow();
    }
  });
});

// ../shared/corpora relative to the project root (vitest runs there); OTTO_CORPORA_DIR overrides, as elsewhere.
const CORPUS = resolve(process.env.OTTO_CORPORA_DIR ?? resolve(process.cwd(), '../shared/corpora'), 'readability');
const corpus = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((d) => existsSync(`${CORPUS}/${d}/source.html`))
      .sort()
  : [];

describe.skipIf(!corpus.length)('real pages (corpora/readability)', () => {
  it('the light parser and a real DOM give the same Markdown for the same article HTML', () => {
    // Readability's expected output is clean article HTML from real sites: a fair test of the parser on real markup.
    let same = 0;
    const differing: string[] = [];
    for (const name of corpus) {
      // Iframes carry no text; happy-dom would try to load them.
      const html = readFileSync(`${CORPUS}/${name}/expected.html`, 'utf8').replace(/<iframe[\s\S]*?<\/iframe>/gi, '');
      if (light(html) === real(html)) same++;
      else differing.push(name);
    }
    // Whitespace and misnesting corner cases aside, nearly all agree.
    expect(same / corpus.length, `differing: ${differing.join(', ')}`).toBeGreaterThanOrEqual(0.9);
  });

  it('extraction finds the article: most expected words are in the output, and it is not much longer', () => {
    const words = (t: string) =>
      t
        .replace(/<[^>]+>/g, ' ')
        .split(/\s+/)
        .filter((w) => w.length > 3);
    let good = 0;
    const poor: string[] = [];
    for (const name of corpus) {
      const source = readFileSync(`${CORPUS}/${name}/source.html`, 'utf8');
      const expected = words(readFileSync(`${CORPUS}/${name}/expected.html`, 'utf8'));
      const text = extractArticle(source, 'http://fakehost/test/page.html').text;
      const got = new Set(text.split(/\s+/));
      const recall = expected.filter((w) => got.has(w)).length / Math.max(1, expected.length);
      const ratio = words(text).length / Math.max(1, expected.length);
      if (recall >= 0.85 && ratio <= 1.5) good++;
      else poor.push(`${name} (recall ${recall.toFixed(2)}, size ${ratio.toFixed(2)})`);
    }
    console.info(
      `web.fetch extraction: ${good}/${corpus.length} pages with recall >= 0.85 and at most 1.5x the words; others: ${poor.join(', ')}`,
    );
    expect(good / corpus.length).toBeGreaterThanOrEqual(0.85);
  });
});
