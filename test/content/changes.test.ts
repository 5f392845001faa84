// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { observeChanges, textDiff } from '../../src/content/changes.ts';
import { setPage } from './helpers.ts';

describe('change report: text changes', () => {
  it('a region too big to read as a line reports the text nodes that changed in it, not its whole text', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<p>Row ${i} holds a short sentence about order ${i}.</p>`);
    setPage(
      `<main id="m">Total 5 ${rows.join('')}<p id="end">end</p></main><span id="left"><b>2</b> items left</span>`,
    );
    const main = document.getElementById('m')!;
    const { changes } = await observeChanges(() => {
      const p = document.createElement('p');
      p.textContent = 'Opened order 3';
      document.getElementById('end')!.after(p);
      main.firstChild!.nodeValue = 'Total 6 ';
      const b = document.createElement('b');
      b.textContent = '1';
      document.querySelector('#left b')!.replaceWith(b);
      document.getElementById('left')!.lastChild!.nodeValue = ' item left';
    });
    expect(changes.added.join('\n')).toContain('Opened order 3');
    expect(changes.changed).toContainEqual(
      expect.stringMatching(/^text in main "Total 6 Row 0 [^"]*": "Total 5" → "Total 6"$/),
    );
    expect(changes.changed.join('\n')).toMatch(/text of .*"2 items left" → "1 item left"/);
    // The region's whole text (300 rows) is never quoted as one changed line.
    expect(changes.changed.join('\n')).not.toMatch(/text of main/);
  });

  it('an element only added to a big region is listed as added, with no text change for the region', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<p>Row ${i} holds a short sentence about order ${i}.</p>`);
    setPage(`<main>${rows.join('')}<p id="end">end</p></main>`);
    const { changes } = await observeChanges(() => {
      const p = document.createElement('p');
      p.textContent = 'Opened order 3';
      document.getElementById('end')!.after(p);
    });
    expect(changes.added.join('\n')).toContain('Opened order 3');
    expect(changes.changed).toEqual([]);
  });

  it('two long texts that differ past their 80th character are shown where they differ', () => {
    const head = 'Posts by Ada Lovelace, Charles Babbage and friends, newest first, as of this morning: ';
    expect(textDiff(`${head}3 posts`, `${head}4 posts`)).toBe(
      '"…st first, as of this morning: 3 posts" → "…st first, as of this morning: 4 posts"',
    );
    expect(textDiff('2 items left', '1 item left')).toBe('"2 items left" → "1 item left"');
  });
});

describe('change report: the page read in slices around the action (#24)', () => {
  it('what the page adds or changes while the "before" read yields is not reported as the action’s doing', async () => {
    // Enough elements that the walk for hidden parts spends a 12 ms slice and yields at least once.
    const rows = Array.from(
      { length: 600 },
      (_, i) => `<p><input type="checkbox" aria-label="Pick ${i}"> Row ${i}</p>`,
    );
    setPage(`<button id="menu" aria-expanded="false">Menu</button><main>${rows.join('')}</main>`);
    let pageChangedBeforeAction = false;
    // The page's own task, queued when the read reaches its walk for hidden parts (so after the controls' states were
    // read): it runs at the read's next yield.
    const proto = Element.prototype as unknown as { checkVisibility: (o?: object) => boolean };
    const checkVisibility = proto.checkVisibility;
    proto.checkVisibility = function (this: Element, o?: object): boolean {
      proto.checkVisibility = checkVisibility;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        ch.port1.close();
        // A hidden panel and a control added where the walk has already been, and a state already read.
        document.body.insertAdjacentHTML(
          'afterbegin',
          '<div id="late" style="display:none"><p>Late panel</p></div><input type="checkbox" id="late-box" aria-label="Late">',
        );
        document.getElementById('menu')!.setAttribute('aria-expanded', 'true');
      };
      ch.port2.postMessage(0);
      return checkVisibility.call(this, o);
    };
    const { changes } = await observeChanges(() => {
      pageChangedBeforeAction = document.getElementById('late') !== null;
      (document.getElementById('late-box') as HTMLInputElement).click();
      (document.querySelector('input[aria-label="Pick 5"]') as HTMLInputElement).click();
    });
    expect(pageChangedBeforeAction).toBe(true);
    // Only the action's own change: not "Late" (added after its controls were read), not the menu (changed after it
    // was read), and the hidden panel added during the read is not "hidden" by the action.
    expect(changes.changed).toEqual(['checkbox "Pick 5" <input>: not checked → checked']);
    expect(changes.hidden).toEqual([]);
    expect(changes.shown).toEqual([]);
    expect(changes.added).toEqual([]);
  });
});
