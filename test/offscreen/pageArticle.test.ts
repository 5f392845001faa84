// @vitest-environment happy-dom
/**
 * dom.read's article of a big open page, read in the offscreen document (#24): src/offscreen/pageArticle.ts on
 * happy-dom's DOMParser. It must give what the in-page reader gives for the same page (e2e/bigpages.spec.ts runs it
 * in Chromium): links resolve against the page's base, and `#fragment` links stay fragments when the page has no
 * other base, as Readability leaves them on the page's own clone.
 */
import { describe, expect, it } from 'vitest';
import { pageArticle } from '../../src/offscreen/pageArticle.ts';

const URL_ = 'http://news.test/2024/otters.html';

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Otters hold hands</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Otters hold hands</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This behaviour, called rafting, is common.</p>
<p>Researchers at the <a href="/institute">Marine Institute</a> observed rafts of more than a hundred otters.<a href="#fn1">1</a></p>
<p>They also wrap themselves in kelp, which anchors them in place, and keeps them from floating away while they rest.</p>
</article></body></html>`;

const read = (html: string, baseUrl = URL_, maxChars = 50_000) =>
  pageArticle({ page: { html, url: URL_, baseUrl }, maxChars });

describe('pageArticle', () => {
  it('the article as dom.read gives it: absolute links, a #fragment link kept as the page keeps it', () => {
    const r = read(PAGE);
    expect(r.ok).toBe(true);
    const a = r.ok ? r.article! : undefined;
    expect(a).toMatchObject({ title: 'Otters hold hands', lang: 'en', readerable: true, truncated: false });
    expect(a!.markdown).toContain('Researchers at the [Marine Institute](http://news.test/institute) observed');
    expect(a!.markdown).not.toContain('http://news.test/2024/otters.html#fn1');
    expect(a!.markdown).not.toContain('data-otto-hash');
    expect(a!.chars).toBe(a!.markdown.length);
  });

  it('a page whose base is not its URL: the fragment resolves against the base, as Readability does in the page', () => {
    const r = read(PAGE, 'http://cdn.test/x/');
    expect(r.ok && r.article!.markdown).toContain('[Marine Institute](http://cdn.test/institute)');
    expect(r.ok && r.article!.markdown).toContain('(http://cdn.test/x/#fn1)');
  });

  it('cut to maxChars, with the full length', () => {
    const r = read(PAGE, URL_, 100);
    expect(r.ok && r.article).toMatchObject({ truncated: true });
    expect(r.ok && r.article!.markdown.length).toBe(100);
    expect(r.ok && r.article!.chars).toBeGreaterThan(100);
  });

  it('no article: null, so the page gives its visible text', () => {
    expect(read('<html><body><form><input name="q"><button>Go</button></form></body></html>')).toEqual({
      ok: true,
      article: null,
    });
  });
});
