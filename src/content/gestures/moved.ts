/**
 * What a drag moved, in the words a person would use: which element changed place, the order of its list before and
 * after, and the container it ended in — from the chain of (parent, index) of the dragged element and its ancestors
 * taken before and after (the first level whose parent or index changed is the item that moved: a drag handle
 * stays put inside its list item while the item moves). Also how far it moved on screen (a slider thumb).
 */
import { parentOf } from '../flatTree.ts';
import { describeElement, tagHint } from '../describe.ts';
import { registry } from '../refs.ts';

interface Level {
  el: Element;
  parent: Element | null;
  index: number;
  order: string[];
}

export interface Placement {
  levels: Level[];
  rect: DOMRect;
}

const MAX_ITEMS = 20;
const LEVELS = 6;

/** A list item's short label: its text, else its description. */
function label(el: Element): string {
  const t = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (t) return t.length > 40 ? `${t.slice(0, 39)}…` : t;
  return describeElement(el);
}

function orderOf(parent: Element | null): string[] {
  if (!parent) return [];
  return Array.from(parent.children)
    .filter((c) => !['script', 'style', 'template'].includes(c.localName))
    .slice(0, MAX_ITEMS + 1)
    .map(label);
}

export function placement(el: Element): Placement {
  const levels: Level[] = [];
  let n: Element | null = el;
  for (let i = 0; n && i < LEVELS; i++, n = parentOf(n)) {
    const parent = n.parentElement;
    levels.push({
      el: n,
      parent,
      index: parent ? Array.prototype.indexOf.call(parent.children, n) : -1,
      order: orderOf(parent),
    });
    if (!parent || parent === document.body) break;
  }
  return { levels, rect: el.getBoundingClientRect() };
}

/** A container's name: the nearest ancestor (itself first) named by the page or holding a heading, else itself. */
export function containerName(el: Element): string {
  let n: Element | null = el;
  for (let i = 0; n && i < 4; i++, n = parentOf(n)) {
    // Only a name of its own (aria-label, aria-labelledby, title) names a container: a list's name from its
    // content would be its items' text.
    if (n.hasAttribute('aria-label') || n.hasAttribute('aria-labelledby') || n.hasAttribute('title')) return withRef(n);
    const heading = n.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > header');
    const h = heading?.textContent?.replace(/\s+/g, ' ').trim();
    // Its own description would be named from its whole content; the heading says which one it is.
    if (h) return `${tagHint(n)} [ref=${registry.refFor(n)}] headed ${JSON.stringify(h.slice(0, 60))}`;
  }
  return withRef(el);
}

/** The element described with a ref (given now if it had none), so the model can drop onto it again. */
export function withRef(el: Element): string {
  registry.refFor(el);
  return describeElement(el);
}

const list = (items: string[]): string =>
  `[${items
    .slice(0, MAX_ITEMS)
    .map((s) => JSON.stringify(s))
    .join(', ')}${items.length > MAX_ITEMS ? ', …' : ''}]`;

/** Lines saying what moved between two placements of the same dragged element. */
export function whatMoved(before: Placement, el: Element): { lines: string[]; moved: boolean; container?: string } {
  const lines: string[] = [];
  const after = el.isConnected ? placement(el) : undefined;
  const dx = after ? Math.round(after.rect.left - before.rect.left) : 0;
  const dy = after ? Math.round(after.rect.top - before.rect.top) : 0;
  if (!after) {
    lines.push(
      'the dragged element is no longer in the page (the page replaced or removed it): take a new snapshot to see the result',
    );
    return { lines, moved: true };
  }
  for (let i = 0; i < before.levels.length; i++) {
    const b = before.levels[i]!;
    if (!b.el.isConnected) continue;
    const parent = b.el.parentElement;
    const index = parent ? Array.prototype.indexOf.call(parent.children, b.el) : -1;
    if (parent === b.parent && index === b.index) continue;
    const item = label(b.el);
    if (parent !== b.parent) {
      const from = b.parent ? containerName(b.parent) : 'nowhere';
      const to = parent ? containerName(parent) : 'nowhere';
      lines.push(
        `moved ${JSON.stringify(item)} from ${from} (position ${b.index + 1}) to ${to} (position ${index + 1})`,
      );
      lines.push(`order of ${from} before: ${list(b.order)}, after: ${list(orderOf(b.parent))}`);
      lines.push(`order of ${to} now: ${list(orderOf(parent))}`);
      return { lines, moved: true, container: to };
    }
    lines.push(
      `moved ${JSON.stringify(item)} from position ${b.index + 1} to ${index + 1} in ${parent ? containerName(parent) : 'its list'}`,
    );
    lines.push(`order before: ${list(b.order)}`);
    lines.push(`order after: ${list(orderOf(parent))}`);
    return { lines, moved: true, ...(parent ? { container: containerName(parent) } : {}) };
  }
  if (dx || dy) {
    lines.push(`the dragged element moved on screen by (${dx}, ${dy}) px and stayed in the same place in the page`);
    return { lines, moved: true };
  }
  lines.push('the dragged element did not move (same place in the page, same position on screen)');
  return { lines, moved: false };
}
