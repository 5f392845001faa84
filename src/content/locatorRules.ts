/**
 * What a readable locator matches, by the rules Playwright's own locators follow (#44), so a saved
 * `label="Email"` means what `page.getByLabel('Email')` means and a snippet is not kept alive by a resolver looser
 * than its locator:
 *
 * - Matching text (names, labels, placeholders, text): whitespace collapsed, then case-insensitive substring
 *   (Playwright's default, not `exact`). A test id is compared whole, case and all.
 * - `role` (+ `name`): the element's explicit or implicit role; elements hidden from assistive technology
 *   (display:none or visibility:hidden on the way up, `aria-hidden="true"`) never match. The name is the
 *   accessible name.
 * - `label`: the text of the elements `aria-labelledby` points at, else `aria-label`, else the `<label>`s of a
 *   labelable control (wrapping or `for=`). A `<label>` beside its control with no `for` labels nothing.
 * - `placeholder`: the `placeholder` attribute. `testid`: `data-testid`.
 * - `text`: the innermost elements whose text (script and style left out) holds it: an element matches when its
 *   text does and none of its child elements' text does.
 * - `item`: the above, searched only inside list items and table rows whose text holds `item` (Playwright's
 *   `getByRole('listitem').filter({ hasText })` then the inner locator).
 *
 * Like Playwright's, label, placeholder, text and test id matches include hidden elements: a locator that names a
 * hidden copy as well as the visible one names two.
 */
import { allShadowRoots } from './flatTree.ts';
import { accessibleName, labelsOf } from './names.ts';
import { roleOf } from './roles.ts';
import { styleOf } from './visibility.ts';

export interface RuleLocator {
  role?: string | undefined;
  name?: string | undefined;
  label?: string | undefined;
  placeholder?: string | undefined;
  text?: string | undefined;
  testid?: string | undefined;
  item?: string | undefined;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Playwright's default text match: whitespace collapsed, case-insensitive, anywhere in the text. */
export function textHolds(hay: string, wanted: string): boolean {
  return squash(hay).toLowerCase().includes(squash(wanted).toLowerCase());
}

const SKIP_TEXT = new Set(['script', 'noscript', 'style', 'template']);

/** An element's text as Playwright reads it: all text nodes below it (hidden ones too), shadow roots included. */
export function elementText(el: Element | ShadowRoot, cache = new Map<Node, string>()): string {
  const known = cache.get(el);
  if (known !== undefined) return known;
  let out = '';
  if (el.nodeType === 1 && SKIP_TEXT.has((el as Element).localName)) out = '';
  else if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type)) out = el.value;
  else {
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue ?? '';
      else if (c.nodeType === 1) out += elementText(c as Element, cache);
    }
    const root = el.nodeType === 1 ? (el as Element).shadowRoot : null;
    if (root) out += elementText(root, cache);
  }
  cache.set(el, out);
  return out;
}

/** Every element under `scope` (itself excluded), shadow roots included, document order per root. */
function elementsUnder(scope: Document | Element): Element[] {
  const out: Element[] = [];
  for (const r of [scope, ...allShadowRoots(scope)]) out.push(...Array.from(r.querySelectorAll('*')));
  return out;
}

/** Hidden from assistive technology: what Playwright's role matching leaves out by default. */
export function hiddenForRoles(el: Element): boolean {
  for (let n: Element | null = el; n; n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host || null)) {
    if (n.getAttribute('aria-hidden') === 'true') return true;
    const s = styleOf(n);
    if (s?.display === 'none') return true;
    if (n === el && s && (s.visibility === 'hidden' || s.visibility === 'collapse')) return true;
  }
  return false;
}

const LABELABLE = new Set(['button', 'meter', 'output', 'progress', 'select', 'textarea']);

/** The label texts Playwright's getByLabel compares: aria-labelledby, else aria-label, else the control's labels. */
export function labelTexts(el: Element, cache?: Map<Node, string>): string[] {
  const ids = el.getAttribute('aria-labelledby');
  if (ids) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const found = ids
      .split(/\s+/)
      .map((id) => (id ? root.getElementById(id) : null))
      .filter((x): x is HTMLElement => !!x);
    if (found.length) return found.map((l) => elementText(l, cache));
  }
  const aria = el.getAttribute('aria-label');
  if (aria && aria.trim()) return [aria];
  const tag = el.localName;
  const input = tag === 'input' && (el as HTMLInputElement).type !== 'hidden';
  if (!input && !LABELABLE.has(tag)) return [];
  return labelsOf(el).map((l) => elementText(l, cache));
}

/** Innermost elements whose text holds `wanted` (an element whose child element holds it too is skipped). */
function byText(all: Element[], wanted: string, cache: Map<Node, string>): Element[] {
  return all.filter((el) => {
    if (SKIP_TEXT.has(el.localName) || !textHolds(elementText(el, cache), wanted)) return false;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling)
      if (textHolds(elementText(c, cache), wanted)) return false;
    const root = el.shadowRoot;
    return !(root && textHolds(elementText(root, cache), wanted));
  });
}

const ITEM_ROLES = new Set(['listitem', 'row']);

/** The list items and table rows whose text holds `text`. */
export function itemsHolding(text: string, scope: Document | Element = document, cache = new Map<Node, string>()) {
  return elementsUnder(scope).filter(
    (el) => ITEM_ROLES.has(roleOf(el) ?? '') && !hiddenForRoles(el) && textHolds(elementText(el, cache), text),
  );
}

/** The elements `l` names under `scope`, by Playwright's rules (see the file's comment). */
export function matchLocator(l: RuleLocator, scope: Document | Element = document): Element[] {
  const cache = new Map<Node, string>();
  if (l.item !== undefined) {
    const { item: _i, ...inner } = l;
    const out: Element[] = [];
    for (const it of itemsHolding(l.item, scope, cache))
      for (const el of matchLocator(inner, it)) if (!out.includes(el)) out.push(el);
    return out;
  }
  let all = elementsUnder(scope);
  if (l.role !== undefined) {
    const role = l.role.toLowerCase();
    all = all.filter((el) => roleOf(el) === role && !hiddenForRoles(el));
    if (l.name !== undefined) all = all.filter((el) => textHolds(accessibleName(el, role), l.name!));
  }
  if (l.label !== undefined) all = all.filter((el) => labelTexts(el, cache).some((t) => textHolds(t, l.label!)));
  if (l.placeholder !== undefined)
    all = all.filter(
      (el) => el.hasAttribute('placeholder') && textHolds(el.getAttribute('placeholder')!, l.placeholder!),
    );
  if (l.testid !== undefined) all = all.filter((el) => el.getAttribute('data-testid') === l.testid);
  if (l.text !== undefined) all = byText(all, l.text, cache);
  return all;
}
