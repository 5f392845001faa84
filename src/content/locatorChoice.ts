/**
 * Which readable locator to save for an element (#44): the one a careful person would write, in Playwright's order
 * of preference — role and accessible name, then label, placeholder, visible text, test id — kept only when, by
 * Playwright's rules (`locatorRules.ts`), it names exactly this element on the page now. A name or label that comes
 * from a visually hidden `<label>` (a screen-reader-only "New Todo Input") is tried after the placeholder and the
 * text a person sees: another build of the same app rarely has it. An element that no such locator names alone but
 * that sits in a list item or table row is named inside its item, the item found by its text; there its role
 * alone (the item's one checkbox) comes before a test id.
 */
import { parentOf } from './flatTree.ts';
import { accessibleName, labelsOf } from './names.ts';
import { roleOf } from './roles.ts';
import { elementText, itemsHolding, labelTexts, matchLocator, type RuleLocator } from './locatorRules.ts';
import { layoutAvailable, styleOf } from './visibility.ts';

/** Longer texts make poor locators (a paragraph changes with any edit). */
const MAX_TEXT = 80;

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Shown to screen readers only: the usual "visually hidden" patterns (a 1px clipped box). */
function visuallyHidden(el: Element): boolean {
  for (let n: Element | null = el; n; n = parentOf(n)) {
    const s = styleOf(n);
    if (!s) continue;
    if (/^rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)$/.test(s.clip)) return true;
    if (/^inset\(\s*50%/.test(s.clipPath ?? '')) return true;
    if (s.overflow === 'hidden' && parseFloat(s.width) <= 1 && parseFloat(s.height) <= 1) return true;
  }
  if (!layoutAvailable()) return false;
  const r = el.getBoundingClientRect();
  return r.width <= 1 && r.height <= 1;
}

/** The element's name comes from `<label>`s (or labelledby elements) that no one sees. */
function nameFromHiddenLabel(el: Element): boolean {
  const ids = el.getAttribute('aria-labelledby');
  const root = el.getRootNode() as Document | ShadowRoot;
  const by = ids
    ? ids
        .split(/\s+/)
        .map((id) => (id ? root.getElementById(id) : null))
        .filter((x): x is HTMLElement => !!x)
    : [];
  const from = by.length ? by : el.getAttribute('aria-label')?.trim() ? [] : labelsOf(el);
  return from.length > 0 && from.every(visuallyHidden);
}

/** The locators to try for `el`, in order; `within` an item, role may stand without a name. */
function tries(el: Element, within: boolean): RuleLocator[] {
  const role = roleOf(el);
  const name = role ? squash(accessibleName(el, role)) : '';
  const label = squash(labelTexts(el)[0] ?? '');
  const placeholder = squash(el.getAttribute('placeholder') ?? '');
  const text = squash(elementText(el));
  const testid = el.getAttribute('data-testid') ?? '';
  const hidden = nameFromHiddenLabel(el);
  const named: RuleLocator[] = [];
  if (role && role !== 'none' && role !== 'generic' && name) named.push({ role, name });
  if (label) named.push({ label });
  const out: RuleLocator[] = hidden ? [] : [...named];
  if (placeholder) out.push({ placeholder });
  if (text && text.length <= MAX_TEXT) out.push({ text });
  if (hidden) out.push(...named);
  // Inside its item, the element's role alone (the item's one checkbox) holds on every build; a test id is one
  // build's own.
  if (within && role && role !== 'none' && role !== 'generic') out.push({ role });
  if (testid) out.push({ testid });
  return out;
}

const namesOnly = (l: RuleLocator, el: Element, scope?: Element): boolean => {
  const hits = matchLocator(l, scope);
  return hits.length === 1 && hits[0] === el;
};

/** The nearest list item or table row holding `el` (not `el` itself). */
function itemOf(el: Element): Element | undefined {
  for (let n = parentOf(el); n; n = parentOf(n)) {
    const r = roleOf(n);
    if (r === 'listitem' || r === 'row') return n;
  }
  return undefined;
}

/** The readable locator that names `el` alone on the page now, or undefined when none does. */
export function chooseLocator(el: Element): RuleLocator | undefined {
  for (const l of tries(el, false)) if (namesOnly(l, el)) return l;
  const item = itemOf(el);
  if (!item) return undefined;
  const itemText = squash(elementText(item));
  if (!itemText || itemText.length > MAX_TEXT) return undefined;
  const items = itemsHolding(itemText);
  if (items.length !== 1 || items[0] !== item) return undefined;
  for (const l of tries(el, true)) if (namesOnly(l, el, item)) return { item: itemText, ...l };
  return undefined;
}
