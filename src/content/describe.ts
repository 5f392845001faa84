/**
 * How one element reads in the outline: states (`[checked]`, `[disabled]`, ...), its value, its link target, and a
 * short description for action reports and errors (`button "Save" [ref=e5]`).
 */
import { accessibleName, normalize, textOf, truncate } from './names.ts';
import { quote } from '../shared/outline.ts';
import { CHECKABLE, headingLevel, interactiveRole, roleOf } from './roles.ts';
import { registry } from './refs.ts';
import { styleOf } from './visibility.ts';
import { inferName } from './inferName.ts';
import { wrapUntrustedInline } from '../shared/untrusted.ts';

/** Roles whose unlabelled controls take the text of their row as an inferred name (see inferName.ts). */
export const ROW_NAMED = new Set([
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'slider',
  'listbox',
]);

export const VALUE_MAX = 200;
// How outline lines quote page text lives with the renderer the worker shares.
export { DISPLAY_NAME_MAX, defuseRefTokens, quote } from '../shared/outline.ts';

function ariaBool(el: Element, attr: string): 'true' | 'false' | 'mixed' | undefined {
  const v = el.getAttribute(attr);
  return v === 'true' || v === 'false' || v === 'mixed' ? v : undefined;
}

export function isDisabled(el: Element): boolean {
  try {
    if (el.matches(':disabled')) return true;
  } catch {
    // not a form control
  }
  return !!el.closest('[aria-disabled="true"]');
}

export function checkedState(el: Element): boolean | 'mixed' | undefined {
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') return input.indeterminate ? 'mixed' : input.checked;
  }
  const aria = ariaBool(el, 'aria-checked');
  if (aria === 'mixed') return 'mixed';
  if (aria) return aria === 'true';
  return undefined;
}

/** The state tokens of an element, in a fixed order: `[checked]`, `[level=2]`. */
export function stateTokens(el: Element, role: string, focused: Element | null, control: Element = el): string[] {
  return stateNames(el, role, focused, control).map((s) => `[${s}]`);
}

/** The states of an element without brackets, in a fixed order: `checked`, `level=2`. */
export function stateNames(el: Element, role: string, focused: Element | null, control: Element = el): string[] {
  const out: string[] = [];
  if (CHECKABLE.has(role)) {
    const c = checkedState(control);
    if (c === 'mixed') out.push('checked=mixed');
    else if (c) out.push('checked');
  }
  if (role === 'heading') {
    const level = headingLevel(el);
    if (level) out.push(`level=${level}`);
  }
  if (isDisabled(control)) out.push('disabled');
  const expanded = ariaBool(el, 'aria-expanded');
  if (expanded === 'true') out.push('expanded');
  else if (expanded === 'false') out.push('collapsed');
  else if (el.localName === 'summary' && el.parentElement?.localName === 'details')
    out.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'collapsed');
  const pressed = ariaBool(el, 'aria-pressed');
  if (pressed === 'true') out.push('pressed');
  else if (pressed === 'mixed') out.push('pressed=mixed');
  if (ariaBool(el, 'aria-selected') === 'true' || (el.localName === 'option' && (el as HTMLOptionElement).selected))
    out.push('selected');
  if (ariaBool(el, 'aria-current') === 'true' || el.getAttribute('aria-current') === 'page') out.push('current');
  if ((control as HTMLInputElement).required || ariaBool(control, 'aria-required') === 'true') out.push('required');
  if ((control as HTMLInputElement).readOnly === true || ariaBool(control, 'aria-readonly') === 'true')
    out.push('readonly');
  if (ariaBool(control, 'aria-invalid') === 'true') out.push('invalid');
  if (control.localName === 'input' && (control as HTMLInputElement).type === 'password') out.push('password');
  if (role === 'dialog' || role === 'alertdialog') {
    let modal = el.getAttribute('aria-modal') === 'true';
    try {
      modal ||= el.matches(':modal');
    } catch {
      // :modal unsupported
    }
    if (modal) out.push('modal');
  }
  if (focused && (focused === el || focused === control)) out.push('focused');
  return out;
}

/** `value="..."` (and a select's `options=[...]`) for controls that hold one, without the leading space, or ''. */
export function valueShown(el: Element, role: string): string {
  return valueText(el, role).slice(1);
}

/** ` value="..."` for controls that hold one (password values masked), or ''. */
export function valueText(el: Element, role: string): string {
  const tag = el.localName;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    if (
      type === 'checkbox' ||
      type === 'radio' ||
      type === 'button' ||
      type === 'submit' ||
      type === 'reset' ||
      type === 'image' ||
      type === 'hidden'
    )
      return '';
    if (type === 'file')
      return input.files && input.files.length
        ? ` value=${quote(Array.from(input.files, (f) => f.name).join(', '))}`
        : '';
    if (!input.value) return '';
    if (type === 'password') return ` value="${'•'.repeat(Math.min(input.value.length, 8))}"`;
    return ` value=${quote(truncate(input.value, VALUE_MAX))}`;
  }
  if (tag === 'textarea') {
    const v = (el as HTMLTextAreaElement).value;
    return v ? ` value=${quote(truncate(v, VALUE_MAX))}` : '';
  }
  if (tag === 'select') {
    const s = el as HTMLSelectElement;
    const selected = Array.from(s.selectedOptions, (o) => normalize(o.label || o.text));
    const all = Array.from(s.options);
    const shown = all.slice(0, 12).map((o) => normalize(o.label || o.text));
    const more = all.length > shown.length ? ` (+${all.length - shown.length} more)` : '';
    const value = selected.length ? ` value=${quote(selected.join(', '))}` : '';
    return `${value} options=[${shown.map(quote).join(',')}]${more}`;
  }
  if ((el as HTMLElement).isContentEditable && role === 'textbox') {
    const t = textOf(el, VALUE_MAX);
    return t ? ` value=${quote(t)}` : '';
  }
  const now = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  if (now) return ` value=${quote(truncate(normalize(now), VALUE_MAX))}`;
  if (tag === 'progress' || tag === 'meter') return ` value=${quote(String((el as HTMLProgressElement).value))}`;
  return '';
}

/** ` -> target` for links (same-origin links shortened to path), or ''. */
export function hrefText(el: Element): string {
  const target = linkTarget(el);
  return target ? ` -> ${target}` : '';
}

/** A link's target as shown (same-origin links shortened to path), or ''. */
export function linkTarget(el: Element): string {
  const raw = el.getAttribute('href');
  if (!raw || raw.startsWith('javascript:')) return '';
  let shown = raw;
  try {
    const u = new URL(raw, el.ownerDocument.baseURI);
    shown = u.origin === location.origin ? u.pathname + u.search + u.hash : u.href;
  } catch {
    // keep raw
  }
  return truncate(shown.replace(/\s+/g, '%20'), 80);
}

/**
 * An element's description inside an inline untrusted boundary, for Otto's own sentences (errors) that name it: the
 * name is the page's words, the sentence around it Otto's (docs/decisions.md, "Page text stays inside the untrusted
 * boundary"). Reports need no inline boundary: their whole page-text block is wrapped.
 */
export const named = (el: Element): string => wrapUntrustedInline(describeElement(el));

/** One line describing an element for reports and errors: `button "Save" [ref=e5]` (ref only if it has one). */
export function describeElement(el: Element): string {
  const parent = el.parentElement;
  const role =
    interactiveRole(el, roleOf(el), parent ? styleOf(parent)?.cursor : undefined) ?? roleOf(el) ?? el.localName;
  let name = truncate(accessibleName(el, role) || textOf(el, 60), 60);
  // The same inferred name the outline shows for an unlabelled checkbox or field (its row's text).
  const inferred = !name && ROW_NAMED.has(role) ? truncate(inferName(el), 60) : '';
  if (inferred) name = inferred;
  const ref = registry.peek(el);
  const id = el.id ? `#${el.id}` : '';
  return `${role}${name ? ' ' + quote(name) : ''}${ref ? ` [ref=${ref}]` : ''}${inferred ? ' [name inferred]' : ''}${!ref && role !== el.localName ? ` <${el.localName}${id}>` : ''}`;
}

/** A short `<tag#id.class>` hint (two classes at most) for elements that have no name to go by. */
export function tagHint(el: Element): string {
  const classes = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
  const id = el.id && el.id.length <= 40 ? '#' + el.id : '';
  return `<${el.localName}${id}${classes.map((c) => '.' + c.slice(0, 40)).join('')}>`;
}
