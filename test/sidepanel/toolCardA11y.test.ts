// @vitest-environment happy-dom
/**
 * #45 accessibility of a tool card, rendered with Preact: the header's accessible name begins with the words the
 * card shows (WCAG 2.5.3 — voice control users say what they see), and the blocks that can scroll sideways are in
 * the Tab order. The e2e side (axe-core on the built panel, code blocks in replies too, which need Chromium's
 * sanitizer) is e2e/accessibility.spec.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { h, render } from 'preact';
import { ToolCard } from '../../src/sidepanel/components/ToolCard.tsx';
import type { ToolCardModel } from '../../src/sidepanel/state/view.ts';

let root: HTMLElement;
afterEach(() => {
  render(null, root);
  root.remove();
});

function mount(card: ToolCardModel): HTMLElement {
  root = document.createElement('div');
  document.body.append(root);
  render(h(ToolCard, { card }), root);
  return root;
}

/** The accessible name of a button named by its content: its text, hidden helper text included, spaces collapsed. */
const nameOf = (el: Element) => (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
/** What a sighted person reads on it: the same without the visually hidden parts. */
function visibleText(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll('.visually-hidden').forEach((n) => n.remove());
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const card: ToolCardModel = {
  callId: 'c1',
  name: 'tabs.list',
  args: JSON.stringify({ query: 'x'.repeat(700) }),
  status: 'error',
  durationMs: 12,
  output: 'Error: Unknown parameter: query',
};

describe('tool card (#45)', () => {
  it('the header is named by what it shows, then the status and the action', () => {
    const head = mount(card).querySelector('button.tool-head')!;
    expect(head.hasAttribute('aria-label')).toBe(false);
    expect(nameOf(head).startsWith(visibleText(head))).toBe(true);
    expect(nameOf(head)).toMatch(/^tabs\.list query: "x+… 12 ms, failed\. Show details$/);
  });

  it('the opened arguments and result blocks are in the Tab order, and "Show all" is named by its words', () => {
    const el = mount(card);
    (el.querySelector('button.tool-head') as HTMLButtonElement).click();
    return Promise.resolve().then(async () => {
      await new Promise((r) => setTimeout(r, 0));
      const pres = [...el.querySelectorAll('pre')];
      expect(pres.length).toBe(2);
      expect(pres.map((p) => p.tabIndex)).toEqual([0, 0]);
      const showAll = [...el.querySelectorAll('button.link')].find((b) => /Show all/.test(b.textContent ?? ''))!;
      expect(showAll.hasAttribute('aria-label')).toBe(false);
      expect(nameOf(showAll)).toBe('Show all (717 characters) of the arguments');
    });
  });
});
