// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { registry, StaleRefError } from '../../src/content/refs.ts';
import { refOf, setPage, snap } from './helpers.ts';

describe('refs survive re-snapshots while their elements live', () => {
  it('keeps refs when elements are inserted before, siblings removed, and text re-rendered', () => {
    setPage(
      `<ul id="list"><li><button>One</button></li><li><button>Two</button></li><li><button>Three</button></li></ul><p id="msg">Hello</p>`,
    );
    const first = snap();
    const one = refOf(first, '"One"');
    const two = refOf(first, '"Two"');
    const three = refOf(first, '"Three"');
    expect(new Set([one, two, three]).size).toBe(3);
    expect(first).not.toContain('[new]');

    const list = document.getElementById('list')!;
    // Insert before, remove a sibling, re-render text of a survivor.
    const li = document.createElement('li');
    li.innerHTML = '<button>Zero</button>';
    list.prepend(li);
    list.children[2]!.remove(); // "Two"
    const btnThree = list.querySelectorAll('button')[2]!;
    btnThree.textContent = 'Three (edited)';
    document.getElementById('msg')!.insertAdjacentHTML('afterend', '<p>Saved!</p>');

    const second = snap();
    expect(refOf(second, '"One"')).toBe(one);
    expect(refOf(second, '"Three (edited)"')).toBe(three);
    expect(second).not.toContain('"Two"');
    const zero = refOf(second, '"Zero"');
    expect([one, two, three]).not.toContain(zero);
    expect(second).toMatch(/- button "Zero" \[ref=[a-df-z]{2}e\d+\] \[new\]/);
    expect(second).toMatch(/- button "One" \[ref=[a-df-z]{2}e\d+\]$/m);
    expect(second).toContain('- text: Saved! [new]');
    expect(second).not.toContain('- text: Hello [new]');

    // A third snapshot with no changes marks nothing new.
    expect(snap()).not.toContain('[new]');
  });

  it('resolves live refs and explains stale ones', () => {
    setPage(`<button id="a">A</button><button id="b">B</button>`);
    const text = snap();
    const a = refOf(text, '"A"');
    const b = refOf(text, '"B"');
    expect(registry.resolve(a)).toBe(document.getElementById('a'));
    document.getElementById('b')!.remove();
    expect(() => registry.resolve(b)).toThrow(StaleRefError);
    expect(() => registry.resolve(b)).toThrow(/stale.*take a new snapshot/i);
    expect(() => registry.resolve(`${registry.tag}e999`)).toThrow(/not issued.*snapshot/i);
    // A ref from another document (another tag, or none) is refused, never resolved by its number.
    expect(() => registry.resolve(a.replace(registry.tag, registry.tag === 'ab' ? 'cd' : 'ab'))).toThrow(
      /this ref is from an earlier page; take a new snapshot/,
    );
    expect(() => registry.resolve(a.replace(registry.tag, ''))).toThrow(/this ref is from an earlier page/);
    expect(() => registry.resolve('button')).toThrow(/not a ref/);
  });

  it('prefixes refs inside frames and accepts them back', () => {
    setPage(`<button>Framed</button>`);
    registry.setPrefix('f7');
    const text = snap();
    const ref = refOf(text, '"Framed"');
    expect(ref).toMatch(/^f7[a-df-z]{2}e\d+$/);
    expect(registry.resolve(ref).textContent).toBe('Framed');
  });

  it('numbers monotonically: a removed element’s ref is never reused', () => {
    setPage(`<button>X</button>`);
    const x = refOf(snap(), '"X"');
    document.body.innerHTML = '<button>Y</button>';
    const y = refOf(snap(), '"Y"');
    expect(y).not.toBe(x);
    expect(Number(y.slice(3))).toBeGreaterThan(Number(x.slice(3)));
  });
});
