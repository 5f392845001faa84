/**
 * What an action would do, as the page shows it (issue #42): the words the effect classifier reads (the element's
 * visible text, the label words of it and of the icon it holds), the field it writes, a checkbox's state, and what
 * the action would send or change — the current values of the fields it would send (its form's, or the nearest
 * container's for a script button outside any form) or the item and price next to a "Buy now". All page-controlled:
 * the approval card shows them to the user; the model never gets them from here.
 */
import type { DescribeReply } from '../shared/contentMessages.ts';
import { labelsOf, normalize, textOf, truncate } from './names.ts';

type ActionFacts = Pick<DescribeReply, 'text' | 'hints' | 'field' | 'checked' | 'context' | 'heading'>;

const FIELDS = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=image]), textarea, select';
const MAX_CONTEXT = 8;

/**
 * title, aria-label, alt, class and id words of the element, and of an icon inside it when the element shows no text
 * of its own (an icon button: `<span class="trash-icon">` → "trash icon"; a row holding icons is not its icons).
 */
function hintsOf(el: Element, text: string): string {
  const words: string[] = [];
  const add = (e: Element) => {
    for (const a of ['title', 'aria-label', 'alt', 'data-action', 'data-testid', 'name', 'id', 'class']) {
      const v = e.getAttribute(a);
      if (v) words.push(v.replace(/[-_]+/g, ' '));
    }
    const svgTitle = e.localName === 'svg' ? e.querySelector('title')?.textContent : undefined;
    if (svgTitle) words.push(svgTitle);
  };
  add(el);
  if (text.length > 2) return truncate(normalize(words.join(' ')), 300);
  const icons = el.querySelectorAll('svg, img, i, span[class*="icon" i], [aria-label], [title]');
  for (let i = 0; i < icons.length && i < 4; i++) add(icons[i]!);
  return truncate(normalize(words.join(' ')), 300);
}

function fieldLabel(f: Element): string {
  const label = labelsOf(f)
    .map((l) => textOf(l, 80))
    .join(' ');
  return normalize(
    label || f.getAttribute('aria-label') || f.getAttribute('placeholder') || f.getAttribute('name') || '',
  );
}

function fieldValue(f: Element): string | undefined {
  if (f instanceof HTMLInputElement) {
    if (f.type === 'password') return f.value ? '(a password)' : undefined;
    if (f.type === 'checkbox' || f.type === 'radio') return f.checked ? 'on' : 'off';
    return f.value || undefined;
  }
  if (f instanceof HTMLTextAreaElement) return f.value || undefined;
  if (f instanceof HTMLSelectElement) return f.selectedOptions[0]?.textContent?.trim() || undefined;
  return undefined;
}

/** `To: bob@mail.test` for each filled field of `root` (a form, or the container a script button sits in). */
function fieldValues(root: Element): string[] {
  const out: string[] = [];
  const all = root.querySelectorAll(FIELDS);
  for (let i = 0; i < all.length && out.length < MAX_CONTEXT; i++) {
    const f = all[i]!;
    const v = fieldValue(f);
    if (v === undefined) continue;
    const label = fieldLabel(f);
    out.push(truncate(normalize(`${label ? `${label}: ` : ''}${v}`), 300));
  }
  return out;
}

/** The nearest ancestor (up to 6 levels) that holds fields, or the item card a button sits in. */
function containerOf(el: Element): { root: Element; fields: boolean } | undefined {
  let at = el.parentElement;
  for (let depth = 0; at && depth < 6; depth++, at = at.parentElement) {
    if (at.querySelector(FIELDS)) return { root: at, fields: true };
    if (at.matches('article, li, tr, section, [role=article], [role=listitem], [role=row], [class*="card" i]'))
      return { root: at, fields: false };
  }
  return undefined;
}

function contextOf(el: Element): string[] {
  const form = (el as HTMLButtonElement).form ?? el.closest('form');
  if (form) return fieldValues(form);
  const around = containerOf(el);
  if (!around) return [];
  if (around.fields) return fieldValues(around.root);
  // An item card (a product, an email row): its text says what the action is about.
  const text = truncate(normalize(textOf(around.root, 300)), 300);
  return text ? [text] : [];
}

function fieldOf(el: Element): string | undefined {
  if (!el.matches(FIELDS)) return undefined;
  const type = el.getAttribute('type') ?? el.localName;
  const bits = [type, el.getAttribute('name') ?? '', el.getAttribute('autocomplete') ?? '', fieldLabel(el)];
  return truncate(normalize(bits.filter(Boolean).join(' ')), 300);
}

const HEADINGS = 'h1, h2, h3, h4, h5, h6, legend, [role=heading]';

/** The text of the last heading in `root` that comes before `el` (a section's title above its fields and buttons). */
function headingBefore(root: Element, el: Element): string {
  const all = root.querySelectorAll(HEADINGS);
  for (let i = all.length - 1; i >= 0; i--)
    if (all[i]!.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) return textOf(all[i]!, 200);
  return '';
}

/**
 * What the element sits under: its dialog's title (aria-labelledby, aria-label, or its first heading), else the
 * nearest heading above it in its section or form (up to 6 levels). A neutral "OK" under "Delete this email?" or in a
 * "New message" box says more than its own word.
 */
function headingOf(el: Element): string | undefined {
  const dialog = el.closest('dialog, [role=dialog], [role=alertdialog]');
  let text = '';
  if (dialog) {
    const ids = (dialog.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
    const byId = ids.map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' ');
    const first = dialog.querySelector(HEADINGS);
    text = byId || dialog.getAttribute('aria-label') || (first ? textOf(first, 200) : '');
  } else {
    let at = el.parentElement;
    for (let depth = 0; at && depth < 6 && !text; depth++, at = at.parentElement) text = headingBefore(at, el);
  }
  const clean = truncate(normalize(text), 200);
  return clean || undefined;
}

export function actionFacts(el: Element): ActionFacts {
  const out: ActionFacts = {};
  const text = truncate(normalize(textOf(el, 200)), 200);
  if (text) out.text = text;
  const hints = hintsOf(el, text);
  if (hints) out.hints = hints;
  const field = fieldOf(el);
  if (field) out.field = field;
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) out.checked = el.checked;
  else if (el.getAttribute('role') === 'switch' || el.getAttribute('role') === 'checkbox')
    out.checked = el.getAttribute('aria-checked') === 'true';
  const context = contextOf(el);
  if (context.length) out.context = context;
  const heading = headingOf(el);
  if (heading) out.heading = heading;
  return out;
}
