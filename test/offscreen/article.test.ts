// @vitest-environment happy-dom
/**
 * web.fetch's article (#15): src/offscreen/article.ts on happy-dom's Document — the offscreen document runs the same
 * function on Chromium's DOMParser (e2e/web.spec.ts, which also holds it to the whole readability corpus).
 * Outputs are checked as the text the model receives.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { articleOf, type ArticleFormat } from '../../src/offscreen/article.ts';
import { plainText } from '../../src/offscreen/plainText.ts';
import { describeWithCorpus } from '../support/corpusSkip.ts';

const URL_ = 'http://news.test/2024/otters.html';
const parse = (html: string) => () => new DOMParser().parseFromString(html, 'text/html');
const read = (html: string, format: ArticleFormat = 'markdown', url = URL_) => articleOf(parse(html), url, format);

const ARTICLE = `<!doctype html><html lang="en"><head><title>Otters hold hands | River News</title>
<meta name="author" content="A. Writer"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
<article><h1>Otters hold hands</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This behaviour, called rafting, is common.</p>
<p>Researchers at the <a href="/institute">Marine Institute</a> observed rafts of more than a hundred otters, resting in kelp forests, for hours.<a href="#fn1">1</a></p>
<p>They also wrap themselves in kelp, which anchors them in place, and keeps them from floating away while they rest.</p>
<p><img src="img/otter.jpg" alt="Two otters"></p></article>
<footer class="site-footer"><p>Copyright River News. All rights reserved.</p></footer>
<script>trackVisitor()</script></body></html>`;

describe('an article page', () => {
  it('Markdown: the title once, on top; absolute links and images; in-page links as text; page chrome left out', () => {
    const a = read(ARTICLE);
    expect(a).toMatchObject({ title: 'Otters hold hands', byline: 'A. Writer', lang: 'en', readerable: true });
    expect(a.content).toBe(
      [
        '# Otters hold hands',
        'Sea otters hold hands while they sleep, so that they do not drift apart. This behaviour, called rafting, is common.',
        'Researchers at the [Marine Institute](http://news.test/institute) observed rafts of more than a hundred otters, resting in kelp forests, for hours.1',
        'They also wrap themselves in kelp, which anchors them in place, and keeps them from floating away while they rest.',
        '![Two otters](http://news.test/2024/img/otter.jpg)',
      ].join('\n\n'),
    );
  });

  it('text: the title, then the blocks separated by blank lines, no Markdown', () => {
    expect(read(ARTICLE, 'text').content).toBe(
      [
        'Otters hold hands',
        'Sea otters hold hands while they sleep, so that they do not drift apart. This behaviour, called rafting, is common.',
        'Researchers at the Marine Institute observed rafts of more than a hundred otters, resting in kelp forests, for hours.1',
        'They also wrap themselves in kelp, which anchors them in place, and keeps them from floating away while they rest.',
      ].join('\n\n'),
    );
  });

  it("a relative <base href> is resolved against the page's URL, and links against it", () => {
    const html = ARTICLE.replace('<head>', '<head><base href="/archive/">');
    const md = read(html).content;
    expect(md).toContain('[Marine Institute](http://news.test/institute)');
    expect(md).toContain('![Two otters](http://news.test/archive/img/otter.jpg)');
  });
});

describe('a page without an article', () => {
  it('gives its body without scripts, navigation, footers, forms and hidden elements, the title on top', () => {
    const a = read(
      `<html><head><title>Sign in</title></head><body><nav><a href="/">Home</a></nav>
       <h1>Sign in</h1><p>Use your <a href="help">library card</a>.</p><div hidden>secret</div>
       <p style="display: none">also hidden</p><input name="card"><button>Go</button>
       <footer>© Library</footer><script>track()</script></body></html>`,
    );
    expect(a).toMatchObject({ title: 'Sign in', readerable: false });
    expect(a.content).toBe('# Sign in\n\nUse your [library card](http://news.test/2024/help).');
    expect(
      read('<html><head><title>Hi</title></head><body><p>I am a child frame.</p></body></html>', 'text').content,
    ).toBe('Hi\n\nI am a child frame.');
  });

  it('never throws on garbage', () => {
    for (const junk of [
      '',
      '<',
      '<<>>',
      '</>',
      '<a href="unterminated',
      '<!-- open',
      '<![CDATA[x',
      '\u0000<div\u0000>',
    ])
      expect(() => read(junk)).not.toThrow();
    expect(read('').content).toBe('');
  });
});

describe('plainText', () => {
  const text = (html: string) => plainText(new DOMParser().parseFromString(html, 'text/html').body);

  it('lists, tables, line breaks and preformatted text keep their shape', () => {
    expect(text('<h2>Steps</h2><ul><li>one</li><li>two <b>bold</b></li></ul><p>a<br>b</p>')).toBe(
      'Steps\n\n- one\n- two bold\n\na\nb',
    );
    expect(text('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe('A | B\n1 | 2');
    expect(text('<pre>  indented\n\tline</pre><p>  spaced   out  </p>')).toBe('indented\n\tline\n\nspaced out');
    expect(text('<p>keep</p><script>no()</script><style>p{}</style><template>t</template>')).toBe('keep');
  });
});

// Readability's own cases for base URLs (../shared/corpora/readability): the links its expected output holds.
// (happy-dom here: the corpora's place is resolved from the working directory, as in test/support/fake-api/corpora.ts.)
const CORPUS = resolve(process.env.OTTO_CORPORA_DIR ?? resolve(process.cwd(), '../shared/corpora'), 'readability');
const BASE_CASES = ['base-url', 'base-url-base-element-relative'].filter((c) =>
  existsSync(`${CORPUS}/${c}/source.html`),
);

describeWithCorpus(CORPUS, 'real pages: base URLs (corpora/readability)', () => {
  it.each(BASE_CASES)('%s: every link and image is where Readability’s expected output points', (name) => {
    const source = readFileSync(`${CORPUS}/${name}/source.html`, 'utf8');
    const expected = readFileSync(`${CORPUS}/${name}/expected.html`, 'utf8');
    // An in-page `#foo` link (no <base>) is text in Markdown; every other target must match.
    const want = [...expected.matchAll(/(?:href|src)="([^"#][^"]*)"/g)].map((m) => m[1]!);
    const md = read(source, 'markdown', 'http://fakehost/test/page.html').content;
    const got = [...md.matchAll(/\]\(([^)\s]+)/g)].map((m) => m[1]!);
    expect(want.length).toBeGreaterThanOrEqual(10);
    expect(got).toEqual(want);
  });
});
