// @vitest-environment happy-dom
/**
 * #43 part 4: a click on an element (by ref, selector or locator) reports the attribute changes a person would see
 * around it — a class, `hidden`, `aria-current`, `data-state` on the element or its neighbourhood — as hover, drag
 * and point clicks did already. The content script's own request path (`handle`), as the worker sends it.
 */
import { describe, expect, it } from 'vitest';
import { handle } from '../../src/content/handlers.ts';
import { registry } from '../../src/content/refs.ts';
import type { ActionReply } from '../../src/shared/contentMessages.ts';
import { setPage } from './helpers.ts';

describe('a click by ref tells the attribute changes around its element', () => {
  it('the tab it selects gains a class and aria-current, the one it leaves loses them', async () => {
    setPage(`<nav aria-label="Sections">
      <a href="#a" id="a" class="tab on" aria-current="page">Overview</a>
      <a href="#b" id="b" class="tab">Details</a>
    </nav>
    <p id="far" class="idle">Far away</p>`);
    for (const id of ['a', 'b'])
      document.getElementById(id)!.addEventListener('click', (e) => {
        e.preventDefault();
        for (const t of document.querySelectorAll('.tab')) {
          t.classList.toggle('on', t.id === id);
          if (t.id === id) t.setAttribute('aria-current', 'page');
          else t.removeAttribute('aria-current');
        }
        document.getElementById('far')!.className = 'busy';
      });
    const ref = registry.refFor(document.getElementById('b')!);
    const r = (await handle({ type: 'dom.click', prefix: '', ref, button: 'left', clickCount: 1 })) as ActionReply;
    expect(r.changes.changed).toEqual([
      'link "Overview" <a#a>: class -on; aria-current "page" (removed)',
      `link "Details" [ref=${ref}]: class +on; aria-current "page" (added)`,
    ]);
  });
});
