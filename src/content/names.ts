/**
 * Accessible names, the parts of the AccName algorithm a page outline needs: aria-labelledby, aria-label, native
 * labels (label[for], wrapping label), alt, legend/caption/figcaption, title, placeholder, and name from content
 * (visible text, including shadow roots, embedded images' alt and embedded controls' values).
 */
import { flatChildren, rootOf } from './flatTree.ts';
import { NAME_FROM_CONTENT } from './roles.ts';
import { styleOf, walkMemo } from './visibility.ts';
import { truncate } from '../shared/outline.ts';

export const NAME_MAX = 300;

export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** "Title Title" → "Title": content names often repeat an image's alt next to the same caption. */
export function dedupeRepeat(name: string): string {
  const n = name.length;
  if (n < 7 || n % 2 === 0) return name;
  const half = (n - 1) / 2;
  return name[half] === ' ' && name.slice(0, half) === name.slice(half + 1) ? name.slice(0, half) : name;
}

// Shortening lives with the outline renderer, which the worker shares.
export { truncate } from '../shared/outline.ts';

const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'font',
]);

function isHiddenForText(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template') return true;
  const s = styleOf(el);
  return !!s && (s.display === 'none' || s.visibility === 'hidden');
}

/** The value a control shows, as it contributes to a name (embedded control rule). */
export function controlText(el: Element): string | undefined {
  const tag = el.localName;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio' || input.type === 'hidden') return '';
    if (input.type === 'password') return '';
    if (input.type === 'button' || input.type === 'submit' || input.type === 'reset') return input.value;
    return input.value;
  }
  if (tag === 'select') return (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '';
  if (tag === 'textarea') return (el as HTMLTextAreaElement).value;
  return undefined;
}

/** Visible text of a subtree for naming, with a length cap. `skip` is left out (a control inside its own label). */
export function textOf(root: Node, max = NAME_MAX, skip?: Element): string {
  const parts: string[] = [];
  let len = 0;
  const visit = (node: Node, isRoot: boolean): void => {
    if (len > max) return;
    if (node.nodeType === 3) {
      const t = node.nodeValue ?? '';
      parts.push(t);
      len += t.length;
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    if (node.nodeType === 1) {
      const el = node as Element;
      if (el === skip) return;
      if (!isRoot) {
        if (isHiddenForText(el)) return;
        const label = el.getAttribute('aria-label');
        if (label && label.trim()) {
          parts.push(' ', label, ' ');
          len += label.length;
          return;
        }
        const tag = el.localName;
        if (tag === 'img' || tag === 'area' || (tag === 'input' && (el as HTMLInputElement).type === 'image')) {
          const alt = el.getAttribute('alt') ?? '';
          parts.push(' ', alt, ' ');
          len += alt.length;
          return;
        }
        const ctl = controlText(el);
        if (ctl !== undefined) {
          parts.push(' ', ctl, ' ');
          len += ctl.length;
          return;
        }
        if (tag === 'svg') {
          const title = el.querySelector('title')?.textContent ?? '';
          parts.push(' ', title, ' ');
          return;
        }
      }
      const block = !INLINE_TAGS.has(el.localName) || el.localName === 'br';
      if (block) parts.push(' ');
      const kids = flatChildren(el);
      for (let i = 0; i < kids.length; i++) visit(kids[i]!, false);
      if (block) parts.push(' ');
      return;
    }
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) visit(kids[i]!, false);
  };
  visit(root, true);
  return truncate(normalize(parts.join('')), max);
}

function byIds(el: Element, attr: string): Element[] {
  const ids = el.getAttribute(attr);
  if (!ids) return [];
  const root = rootOf(el);
  const out: Element[] = [];
  for (const id of ids.split(/\s+/)) {
    if (!id) continue;
    const target = 'getElementById' in root ? root.getElementById(id) : null;
    if (target) out.push(target);
  }
  return out;
}

/**
 * Labels of a control. Chrome computes `el.labels` by scanning the whole document each time, which made a snapshot
 * quadratic (5,000 table rows: 3.6 s of 3.8 s in it) and cost an action ~0.3 s on a 500,000-element page. Instead:
 * the nearest wrapping label, and `label[for]` from one index per root (per walk), built only when a control with an
 * id asks.
 */
export function labelsOf(el: Element): Element[] {
  const out: Element[] = [];
  const id = el.getAttribute('id');
  if (id) {
    const root = rootOf(el);
    const byFor = walkMemo(root, () => forIndex(root));
    for (const l of byFor.get(id) ?? []) out.push(l);
  }
  const wrap = el.closest('label');
  if (wrap && !out.includes(wrap)) {
    const target = 'control' in wrap ? (wrap as HTMLLabelElement).control : el;
    if (target === el || (!wrap.hasAttribute('for') && !('control' in wrap))) out.push(wrap);
  }
  return out;
}

/** `for` value → labels, for one document or shadow root. */
function forIndex(root: Document | ShadowRoot): Map<string, Element[]> {
  const index = new Map<string, Element[]>();
  const all = root.querySelectorAll('label[for]');
  for (let i = 0; i < all.length; i++) {
    const l = all[i]!;
    const f = l.getAttribute('for')!;
    const list = index.get(f);
    if (list) list.push(l);
    else index.set(f, [l]);
  }
  return index;
}

const LABELABLE = new Set(['input', 'select', 'textarea', 'meter', 'progress', 'output', 'button']);

/**
 * The accessible name of an element for a given role (normalized, capped at NAME_MAX). With `fromContent` false the
 * name-from-content step is skipped (the snapshot walk collects content text itself).
 */
export function accessibleName(el: Element, role: string | undefined, fromContent = true): string {
  const labelledBy = byIds(el, 'aria-labelledby');
  if (labelledBy.length) {
    const t = normalize(labelledBy.map((l) => textOf(l, NAME_MAX)).join(' '));
    if (t) return truncate(t, NAME_MAX);
  }
  const ariaLabel = el.getAttribute('aria-label');
  if (ariaLabel && ariaLabel.trim()) return truncate(normalize(ariaLabel), NAME_MAX);

  const tag = el.localName;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (type === 'button' || type === 'submit' || type === 'reset') {
      if (input.value) return truncate(normalize(input.value), NAME_MAX);
      if (type !== 'button') return type === 'submit' ? 'Submit' : 'Reset';
    }
    if (type === 'image') return normalize(input.alt || input.value || input.title || 'Submit');
  }
  if (LABELABLE.has(tag)) {
    const labels = labelsOf(el);
    if (labels.length) {
      const t = normalize(labels.map((l) => textOf(l, NAME_MAX, el)).join(' '));
      if (t) return truncate(t, NAME_MAX);
    }
  }
  if (tag === 'img' || tag === 'area') {
    const alt = el.getAttribute('alt');
    if (alt && alt.trim()) return truncate(normalize(alt), NAME_MAX);
  }
  if (tag === 'fieldset') {
    const legend = el.querySelector(':scope > legend');
    if (legend) return textOf(legend);
  }
  if (tag === 'table') {
    const caption = el.querySelector(':scope > caption');
    if (caption) return textOf(caption);
  }
  if (tag === 'figure') {
    const cap = el.querySelector(':scope > figcaption');
    if (cap) return textOf(cap);
  }
  // Any SVG element is named by its own <title> child (SVG-AAM), a shape as much as the <svg> (#43 part 3).
  if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
    const title = el.querySelector(':scope > title');
    if (title?.textContent) return normalize(title.textContent);
  }
  if (
    fromContent &&
    ((role && NAME_FROM_CONTENT.has(role)) || tag === 'summary' || tag === 'button' || tag === 'label')
  ) {
    const t = textOf(el);
    if (t) return t;
  }
  const title = el.getAttribute('title');
  if (title && title.trim()) return truncate(normalize(title), NAME_MAX);
  if (tag === 'input' || tag === 'textarea') {
    const ph = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
    if (ph && ph.trim()) return truncate(normalize(ph), NAME_MAX);
  }
  const ariaPh = el.getAttribute('aria-placeholder');
  if (ariaPh) return truncate(normalize(ariaPh), NAME_MAX);
  return '';
}
