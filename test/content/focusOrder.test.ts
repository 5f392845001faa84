// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTabStop } from '../../src/content/actions/focusOrder.ts';
import { pressKey } from '../../src/content/actions/press.ts';
import { elementsAfter, elementsBefore } from '../../src/content/treeOrder.ts';
import { setPage } from './helpers.ts';

const far = () => performance.now() + 10_000;
const id = (el: Element | null) => el?.id ?? null;
const byId = (x: string) => document.getElementById(x)!;

describe('page order across shadow roots', () => {
  it('forwards: a host, its shadow content, then its light children; backwards the exact reverse', () => {
    setPage('<p id="a"></p><div id="host"><span id="light"></span></div><p id="z"></p>');
    const root = byId('host').attachShadow({ mode: 'open' });
    root.innerHTML = '<i id="s1"><b id="s2"></b></i><slot></slot>';
    const all = Array.from(elementsAfter(null), (e) => e.id || e.localName);
    expect(all).toEqual(['html', 'head', 'body', 'a', 'host', 's1', 's2', 'slot', 'light', 'z']);
    expect(Array.from(elementsBefore(null), (e) => e.id || e.localName)).toEqual([...all].reverse());
    const s2 = root.getElementById('s2')!;
    expect(Array.from(elementsAfter(s2), (e) => e.id || e.localName)).toEqual(['slot', 'light', 'z']);
    expect(Array.from(elementsBefore(s2), (e) => e.id || e.localName)).toEqual([
      's1',
      'host',
      'a',
      'body',
      'head',
      'html',
    ]);
    expect(Array.from(elementsBefore(byId('light')), (e) => e.id || e.localName)).toEqual([
      'slot',
      's2',
      's1',
      'host',
      'a',
      'body',
      'head',
      'html',
    ]);
  });
});

describe('Tab order', () => {
  afterEach(() => vi.restoreAllMocks());

  it('goes to the next stop in page order, skipping hidden, disabled and tabindex=-1 ones, and wraps', async () => {
    setPage(
      '<button id="a">A</button><button id="d" disabled>D</button><span id="n" tabindex="-1">N</span>' +
        '<div style="display:none"><button id="h">H</button></div><input type="hidden" id="ih"><a id="l" href="#x">L</a>',
    );
    expect(id(await nextTabStop(byId('a'), false, far()))).toBe('l');
    expect(id(await nextTabStop(byId('l'), false, far()))).toBe('a');
    expect(id(await nextTabStop(byId('l'), true, far()))).toBe('a');
    expect(id(await nextTabStop(byId('a'), true, far()))).toBe('l');
    expect(id(await nextTabStop(null, false, far()))).toBe('a');
    expect(id(await nextTabStop(null, true, far()))).toBe('l');
  });

  it('visits positive tabindex first, by value then page order, then the rest in page order', async () => {
    setPage(
      '<button id="z1">1</button><button id="p2" tabindex="2">2</button><button id="z2">3</button>' +
        '<button id="p1" tabindex="1">4</button><button id="p2b" tabindex="2">5</button>',
    );
    const order: string[] = [];
    let at: Element | null = null;
    for (let i = 0; i < 6; i++) order.push(id((at = await nextTabStop(at, false, far())))!);
    expect(order).toEqual(['p1', 'p2', 'p2b', 'z1', 'z2', 'p1']);
    const back: string[] = [];
    at = null;
    for (let i = 0; i < 6; i++) back.push(id((at = await nextTabStop(at, true, far())))!);
    expect(back).toEqual(['z2', 'z1', 'p2b', 'p2', 'p1', 'z2']);
  });

  it('enters shadow roots in place', async () => {
    setPage('<button id="a">A</button><x-box id="host"></x-box><button id="b">B</button>');
    const root = byId('host').attachShadow({ mode: 'open' });
    root.innerHTML = '<input id="inner">';
    const inner = await nextTabStop(byId('a'), false, far());
    expect(inner).toBe(root.getElementById('inner'));
    expect(id(await nextTabStop(inner, false, far()))).toBe('b');
    expect(await nextTabStop(byId('b'), true, far())).toBe(root.getElementById('inner'));
  });

  it('on a big page looks only as far as the next stop (the old search checked every control on the page)', async () => {
    const rows: string[] = [];
    for (let i = 0; i < 1000; i++)
      rows.push(`<tr><td><button id="b${i}">Open ${i}</button></td><td>row ${i}</td></tr>`);
    setPage(`<table>${rows.join('')}</table>`);
    const styles = vi.spyOn(window, 'getComputedStyle');
    const r = await pressKey(byId('b10'), 'Tab');
    expect(r.effect).toBe('focus moved to button "Open 11"');
    expect(document.activeElement).toBe(byId('b11'));
    // The next button's visibility: itself and its ancestors (td, tr, tbody, table, body, html).
    expect(styles.mock.calls.length).toBeLessThan(20);
  });

  it("moves focus in the press's own task: the page gets no turn (and the browser no frame) between the two focuses", async () => {
    // #24: a turn between the target's focus and the next stop's let the browser paint the first, a rendering pass
    // over a whole big table that a person's Tab does not cause.
    setPage(
      '<input id="pick" type="checkbox"><input id="note" type="text" aria-label="Note"><button id="go">Go</button>',
    );
    const turns: string[] = [];
    const ch = new MessageChannel();
    ch.port1.onmessage = () => turns.push(`message, focus on ${id(document.activeElement) || 'body'}`);
    ch.port2.postMessage(0);
    setTimeout(() => turns.push(`timer, focus on ${id(document.activeElement) || 'body'}`), 0);
    byId('note').addEventListener('focus', () => turns.push('note focused'));
    const r = await pressKey(byId('pick'), 'Tab');
    expect(r.effect).toBe('focus moved to textbox "Note" <input#note>');
    await new Promise((resolve) => setTimeout(resolve, 20));
    ch.port1.close();
    // Which of the two tasks runs first is the environment's business; both must come after the move.
    expect(turns[0]).toBe('note focused');
    expect(turns.slice(1).sort()).toEqual(['message, focus on note', 'timer, focus on note']);
  });
});
