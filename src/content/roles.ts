/**
 * Roles: the explicit `role` attribute, else the implicit ARIA role of the tag (HTML-AAM, the parts a page outline
 * needs), and which roles are interactive (get a ref) or structural (get a line of their own).
 */
import { styleOf } from './visibility.ts';
import { clickableByListener } from './listeners.ts';
import { hoverCursorOf } from './hoverCursor.ts';

/** Roles a person acts on: these get refs. */
export const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'gridcell',
]);

/** Roles whose accessible name comes from their content. */
export const NAME_FROM_CONTENT = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'heading',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'tooltip',
  'clickable',
]);

/** Landmarks and containers that structure the outline (rendered as their own line, children indented). */
export const STRUCTURAL_ROLES = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'region',
  'search',
  'form',
  'dialog',
  'alertdialog',
  'alert',
  'status',
  'article',
  'table',
  'row',
  'listitem',
  'group',
  'menu',
  'menubar',
  'listbox',
  'tablist',
  'tree',
  'radiogroup',
  'toolbar',
  'grid',
  'treegrid',
]);

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  color: 'button',
  hidden: 'none',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  textarea: 'textbox',
  option: 'option',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  search: 'search',
  dialog: 'dialog',
  article: 'article',
  table: 'table',
  tr: 'row',
  td: 'cell',
  ul: 'list',
  ol: 'list',
  menu: 'list',
  li: 'listitem',
  p: 'paragraph',
  fieldset: 'group',
  details: 'group',
  summary: 'button',
  hr: 'separator',
  progress: 'progressbar',
  meter: 'meter',
  output: 'status',
  iframe: 'iframe',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  img: 'img',
  figure: 'figure',
  optgroup: 'group',
};

const SCOPING = new Set(['article', 'aside', 'main', 'nav', 'section']);

function insideScoping(el: Element): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (SCOPING.has(p.localName)) return true;
  return false;
}

/** Explicit role (first token), else implicit. `undefined` for generic elements. */
export function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute('role');
  if (explicit) {
    const first = explicit.trim().split(/\s+/)[0]!.toLowerCase();
    if (first) return first === 'presentation' ? 'none' : first;
  }
  return implicitRole(el);
}

export function implicitRole(el: Element): string | undefined {
  const tag = el.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : undefined;
    case 'input': {
      const type = (el.getAttribute('type') ?? 'text').toLowerCase();
      if (el.hasAttribute('list') && !INPUT_ROLES[type]) return 'combobox';
      return INPUT_ROLES[type] ?? 'textbox';
    }
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'header':
      return insideScoping(el) ? undefined : 'banner';
    case 'footer':
      return insideScoping(el) ? undefined : 'contentinfo';
    case 'section':
      return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : undefined;
    case 'form':
      return 'form';
    case 'img':
      return el.getAttribute('alt') === '' ? 'none' : 'img';
    case 'th': {
      const scope = el.getAttribute('scope');
      return scope === 'row' || scope === 'rowgroup' ? 'rowheader' : 'columnheader';
    }
    default:
      if ((el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable)
        return 'textbox';
      return TAG_ROLES[tag];
  }
}

export function headingLevel(el: Element): number | undefined {
  const m = /^h([1-6])$/.exec(el.localName);
  const aria = Number(el.getAttribute('aria-level'));
  if (Number.isInteger(aria) && aria > 0) return aria;
  return m ? Number(m[1]) : undefined;
}

const NATIVE_INTERACTIVE = new Set(['button', 'select', 'textarea', 'summary']);

/**
 * The role an element is acted on as, or undefined when it is not interactive: native controls, interactive ARIA
 * roles, contenteditable roots, `tabindex >= 0`, inline pointer handler attributes (`onclick`, `onmousedown`, …),
 * `<a>` without href, a click listener seen by the page-world registry (listeners.ts), where `cursor: pointer`
 * starts (cheap heuristic), drag cursors, and last a pointer or drag cursor set only by a `:hover` rule
 * (hoverCursor.ts): the evidence a page whose listeners were added before Otto came still shows.
 */
const DRAG_CURSOR = /^(?:grab|move|(?:[nsew]{1,2}|nesw|nwse|col|row)-resize)$/;

export function interactiveRole(
  el: Element,
  role: string | undefined,
  parentCursor: string | undefined,
): string | undefined {
  if (role && INTERACTIVE_ROLES.has(role)) {
    if (role === 'gridcell' && !el.hasAttribute('tabindex')) return undefined;
    return role;
  }
  const tag = el.localName;
  if (tag === 'input') return (el as HTMLInputElement).type === 'hidden' ? undefined : (role ?? 'textbox');
  if (NATIVE_INTERACTIVE.has(tag))
    return tag === 'select' ? (role === 'listbox' ? 'listbox' : 'combobox') : tag === 'textarea' ? 'textbox' : 'button';
  if ((el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable)
    return 'textbox';
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0 && tag !== 'iframe')
    return role && role !== 'none' ? role : 'clickable';
  if (hasHandlerAttribute(el)) return role && role !== 'none' ? role : 'clickable';
  // An <a> without href is a script-driven button (datepicker Prev/Next, "Load more"); empty anchors have no box.
  if (tag === 'a' && !el.hasAttribute('href')) return role && role !== 'none' ? role : 'clickable';
  // A pointer or key listener the page-world registry saw (span buttons with addEventListener and nothing else).
  if (clickableByListener(el)) return role && role !== 'none' ? role : 'clickable';
  const cursor = styleOf(el)?.cursor;
  if (cursor === 'pointer' && parentCursor !== 'pointer' && tag !== 'label' && tag !== 'html' && tag !== 'body')
    return role && role !== 'none' ? role : 'clickable';
  // Things a person drags (dom.drag): HTML5 draggables, and where a grab, move or resize cursor starts (sortable
  // items, resize handles). Images and links are draggable by default but are already images and links.
  if (el.getAttribute('draggable') === 'true') return 'draggable';
  if (cursor && DRAG_CURSOR.test(cursor) && parentCursor !== cursor && tag !== 'html' && tag !== 'body')
    return 'draggable';
  // Last, being the dearest: a cursor the page's CSS sets only under the pointer (`.like:hover`, `li:hover`).
  if (tag === 'label' || tag === 'html' || tag === 'body' || parentCursor === 'pointer') return undefined;
  const hover = hoverCursorOf(el);
  if (hover === 'pointer') return role && role !== 'none' ? role : 'clickable';
  if (hover === 'drag' && !(cursor && DRAG_CURSOR.test(cursor))) return 'draggable';
  return undefined;
}

/** Inline handler attributes of the events a person's pointer triggers (`onclick="…"`, `onmousedown="…"`). */
const HANDLER_ATTRIBUTES = [
  'onclick',
  'onmousedown',
  'onpointerdown',
  'onmouseup',
  'onpointerup',
  'ondblclick',
  'ontouchstart',
];

function hasHandlerAttribute(el: Element): boolean {
  // Most elements of a big page carry no attribute at all: one call instead of seven for them.
  if (!el.hasAttributes()) return false;
  for (const a of HANDLER_ATTRIBUTES) if (el.hasAttribute(a)) return true;
  return false;
}

/** Roles whose checked state is reported. */
export const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
