// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/shared/htmlToMarkdown.ts';
import { visibleText } from '../../src/content/text.ts';
import { setPage } from './helpers.ts';

function md(html: string): string {
  const div = document.createElement('div');
  div.innerHTML = html;
  return htmlToMarkdown(div);
}

describe('htmlToMarkdown', () => {
  it('converts headings, paragraphs, emphasis, links, code and images', () => {
    expect(
      md(
        '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> text with <a href="https://x.y/a b">a link</a> and <code>x*y</code>.</p><img src="/i.png" alt="pic">',
      ),
    ).toBe('## Title\n\nSome **bold** and _soft_ text with [a link](https://x.y/a%20b) and `x*y`.\n\n![pic](/i.png)');
  });

  it('converts nested lists and ordered lists', () => {
    expect(
      md('<ul><li>One<ul><li>One.a</li></ul></li><li>Two</li></ul><ol start="3"><li>Three</li><li>Four</li></ol>'),
    ).toBe('- One\n  - One.a\n- Two\n\n3. Three\n4. Four');
  });

  it('converts fenced code, blockquotes and tables', () => {
    expect(md('<pre><code class="language-js">const a = 1;\nconst b = 2;\n</code></pre>')).toBe(
      '```js\nconst a = 1;\nconst b = 2;\n```',
    );
    expect(md('<blockquote><p>Quoted</p><p>Twice</p></blockquote>')).toBe('> Quoted\n>\n> Twice');
    expect(md('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>x|y</td></tr></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 | x\\|y |',
    );
  });

  it('escapes markdown characters in text and drops scripts', () => {
    expect(md('<p>2 * 3 = [six]</p><script>alert(1)</script>')).toBe('2 \\* 3 = \\[six\\]');
  });
});

describe('visibleText', () => {
  it('keeps block structure, skips hidden parts and respects the budget', () => {
    setPage(
      '<h1>Head</h1><p>First <b>para</b>.</p><div style="display:none">secret</div><ul><li>a</li><li>b</li></ul>',
    );
    expect(visibleText(document.body, 1000)).toEqual({
      text: 'Head\nFirst para.\na\nb',
      truncated: false,
      chars: expect.any(Number),
    });
    const cut = visibleText(document.body, 8);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(8);
  });
});
