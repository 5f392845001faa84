/**
 * A name for a control that has none (no label, no aria-label, no text): the text beside it in its row — a todo's
 * checkbox and its sibling <label>, a delete button next to the item text. Looks at most three ancestors up and
 * never past a row (list item, table row, role=row/option/listitem); skips text inside other controls so it never
 * borrows another button's name. The snapshot marks the result `[name inferred]`.
 */
import { normalize, truncate } from './names.ts';
import { styleOf } from './visibility.ts';

const ROW_TAGS = new Set(['li', 'tr', 'dt', 'dd']);
const ROW_ROLES = new Set(['row', 'listitem', 'option', 'treeitem', 'menuitem', 'article']);
const CONTROLS =
  'a[href], button, input, select, textarea, [role="button"], [role="link"], [role="checkbox"], [role="menuitem"], [tabindex]';
const MAX = 80;

function isRow(el: Element): boolean {
  return ROW_TAGS.has(el.localName) || ROW_ROLES.has(el.getAttribute('role') ?? '');
}

function textBeside(scope: Element, self: Element): string {
  const parts: string[] = [];
  let size = 0;
  const walk = (n: Node): void => {
    for (let c = n.firstChild; c && size < 400; c = c.nextSibling) {
      if (c.nodeType === 3) {
        const v = c.nodeValue ?? '';
        if (/\S/.test(v)) {
          parts.push(v);
          size += v.length;
        }
        continue;
      }
      if (c.nodeType !== 1) continue;
      const el = c as Element;
      if (el === self || el.contains(self)) {
        if (el !== self) walk(el);
        continue;
      }
      if (el.matches(CONTROLS) && el.localName !== 'label') continue;
      const s = styleOf(el);
      if (s && (s.display === 'none' || s.visibility === 'hidden')) continue;
      if (el.localName === 'script' || el.localName === 'style') continue;
      walk(el);
    }
  };
  walk(scope);
  return normalize(parts.join(' '));
}

export function inferName(el: Element): string {
  let scope: Element | null = el.parentElement;
  for (let i = 0; scope && i < 3 && scope !== document.body; i++, scope = scope.parentElement) {
    const text = textBeside(scope, el);
    if (text) return text.length > MAX ? '' : truncate(text, MAX);
    if (isRow(scope)) break;
  }
  return '';
}
