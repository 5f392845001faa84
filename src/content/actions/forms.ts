/**
 * Selects (native and ARIA listbox/combobox) and checkboxes/radios/switches, set to a requested state and verified.
 */
import { checkedState, describeElement, isDisabled, named } from '../describe.ts';
import { accessibleName, labelsOf, normalize } from '../names.ts';
import { roleOf } from '../roles.ts';
import { hiddenReason, isElementVisible } from '../visibility.ts';
import { ActionError } from '../targets.ts';
import { clickElement } from './pointer.ts';
import { fireChange, fireInput, focusElement } from './typing.ts';
import { watchShownOptions } from './shownOptions.ts';
import { wrapUntrustedInline } from '../../shared/untrusted.ts';

export interface SelectResult {
  selected: string[];
  summary: string;
}

function optionLabel(o: HTMLOptionElement): string {
  return normalize(o.label || o.text);
}

function matchOption<T>(items: T[], want: string, value: (t: T) => string, label: (t: T) => string): T | undefined {
  return (
    items.find((o) => value(o) === want) ??
    items.find((o) => label(o) === want) ??
    items.find((o) => label(o).toLowerCase() === want.trim().toLowerCase()) ??
    items.find((o) => value(o).toLowerCase() === want.trim().toLowerCase())
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Selects options by value or visible label. `deadline` (performance.now() time) bounds the search for the options
 * a closed combobox shows once clicked.
 */
export async function selectOptions(
  el: Element,
  values: string[],
  deadline = performance.now() + 10_000,
): Promise<SelectResult> {
  const select =
    el.localName === 'select'
      ? (el as HTMLSelectElement)
      : el.localName === 'label' && (el as HTMLLabelElement).control?.localName === 'select'
        ? ((el as HTMLLabelElement).control as HTMLSelectElement)
        : null;
  if (select) return selectNative(select, values);
  return selectAria(el, values, deadline);
}

function selectNative(select: HTMLSelectElement, values: string[]): SelectResult {
  const hidden = hiddenReason(select);
  if (hidden) throw new ActionError(`${named(select)} is not visible: ${hidden}.`);
  if (isDisabled(select)) throw new ActionError(`${named(select)} is disabled.`);
  if (!select.multiple && values.length > 1)
    throw new ActionError(`${named(select)} allows one choice; give one value.`);
  const options = Array.from(select.options);
  const chosen: HTMLOptionElement[] = [];
  for (const v of values) {
    const o = matchOption(options, v, (x) => x.value, optionLabel);
    if (!o) {
      const avail = options
        .slice(0, 30)
        .map((x) => JSON.stringify(optionLabel(x) + (x.value !== optionLabel(x) ? ` (value ${x.value})` : '')));
      throw new ActionError(
        `${named(select)} has no option ${JSON.stringify(v)}. Options: ${wrapUntrustedInline(avail.join(', ') + (options.length > 30 ? ', …' : ''))}.`,
      );
    }
    if (o.disabled) throw new ActionError(`Option ${JSON.stringify(optionLabel(o))} of ${named(select)} is disabled.`);
    chosen.push(o);
  }
  focusElement(select);
  const before = Array.from(select.selectedOptions);
  for (const o of options) o.selected = chosen.includes(o);
  const after = Array.from(select.selectedOptions);
  if (before.length !== after.length || before.some((o, i) => o !== after[i])) {
    fireInput(select, 'insertReplacementText', null);
    fireChange(select);
  }
  const selected = Array.from(select.selectedOptions, optionLabel);
  const ok = chosen.every((o) => select.selectedOptions.length && Array.from(select.selectedOptions).includes(o));
  return {
    selected,
    summary: ok
      ? `selected ${selected.map((s) => JSON.stringify(s)).join(', ')}`
      : `the page reset the selection to ${selected.map((s) => JSON.stringify(s)).join(', ') || 'nothing'}`,
  };
}

function ariaOptions(el: Element): Element[] {
  const scopes: Element[] = [el];
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
      const t = (el.getRootNode() as Document | ShadowRoot).getElementById?.(id) ?? document.getElementById(id);
      if (t) scopes.push(t);
    }
  }
  const found = scopes.flatMap((s) =>
    Array.from(s.querySelectorAll('[role="option"], [role="menuitem"], [role="menuitemradio"], [role="treeitem"]')),
  );
  return found.filter((o) => isElementVisible(o));
}

async function selectAria(el: Element, values: string[], deadline: number): Promise<SelectResult> {
  const role = roleOf(el);
  let options = ariaOptions(el);
  let cut = '';
  if (!options.length) {
    // A closed combobox: open it, then look for the options it shows — where the page changed, else anywhere.
    const shown = watchShownOptions();
    try {
      clickElement(el);
      for (let i = 0; i < 10 && !options.length; i++) {
        await sleep(50);
        options = ariaOptions(el);
        if (!options.length) options = await shown.check(deadline);
      }
      if (!options.length) {
        const r = await shown.anywhere(deadline);
        options = r.options;
        cut = r.searchedUpTo
          ? ` in the first ${r.searched.toLocaleString('en-US')} elements of this big page (up to ${named(r.searchedUpTo)}); the rest of the page was NOT searched, so they may be there: take dom.snapshot and click one by ref`
          : r.timedOut
            ? ' in the part of this big page searched before the time limit; the rest was NOT searched, so they may be there: take dom.snapshot and click one by ref'
            : '';
      }
    } finally {
      shown.stop();
    }
  }
  if (!options.length)
    throw new ActionError(
      `${named(el)} (${role ?? el.localName}) shows no options to select${cut}. If it is a text combobox, type into it with dom.type and pick from what appears.`,
    );
  const picked: string[] = [];
  for (const v of values) {
    const o = matchOption(
      options,
      v,
      (x) => x.getAttribute('data-value') ?? x.getAttribute('value') ?? '',
      (x) => accessibleName(x, 'option'),
    );
    if (!o)
      throw new ActionError(
        `No option ${JSON.stringify(v)} in ${named(el)}. Options: ${wrapUntrustedInline(
          options
            .slice(0, 30)
            .map((x) => JSON.stringify(accessibleName(x, 'option')))
            .join(', '),
        )}.`,
      );
    clickElement(o);
    picked.push(accessibleName(o, 'option'));
    await sleep(30);
  }
  return { selected: picked, summary: `clicked option ${picked.map((s) => JSON.stringify(s)).join(', ')}` };
}

export interface CheckResult {
  checked: boolean | 'mixed' | undefined;
  changed: boolean;
  summary: string;
}

function checkControl(el: Element): Element {
  if (el.localName === 'label') return (el as HTMLLabelElement).control ?? el;
  if (el.localName === 'input') return el;
  if (checkedState(el) !== undefined) return el;
  const inner = el.querySelector(
    'input[type=checkbox], input[type=radio], [role=checkbox], [role=radio], [role=switch], [role=menuitemcheckbox]',
  );
  return inner ?? el;
}

/** Sets a checkbox, radio or switch to `want` by clicking it (or its label) as a person would. */
export function setChecked(el: Element, want: boolean): CheckResult {
  const control = checkControl(el);
  const state = checkedState(control);
  if (state === undefined)
    throw new ActionError(`${named(el)} is not a checkbox, radio or switch. Use dom.click for buttons.`);
  if (state === want)
    return {
      checked: state,
      changed: false,
      summary: `${describeElement(control)} was already ${want ? 'checked' : 'unchecked'}`,
    };
  const isRadio = (control as HTMLInputElement).type === 'radio' || control.getAttribute('role') === 'radio';
  if (isRadio && !want)
    throw new ActionError(`A radio button cannot be unchecked directly: check another option of the group instead.`);
  if (isDisabled(control)) throw new ActionError(`${named(control)} is disabled.`);

  // Click what a person would click: the control, or its label when the control itself is hidden or covered.
  const candidates: Element[] = [control];
  candidates.push(...labelsOf(control));
  if (el !== control) candidates.push(el);
  let lastError: unknown;
  let clicked = false;
  for (const c of candidates) {
    try {
      clickElement(c);
      clicked = true;
      break;
    } catch (e) {
      lastError = e;
    }
  }
  if (!clicked) throw lastError instanceof Error ? lastError : new ActionError(`Could not click ${named(control)}.`);
  const now = checkedState(control);
  if (now !== want)
    return {
      checked: now,
      changed: now !== state,
      summary: `clicked ${describeElement(control)} but it is ${now ? 'checked' : 'unchecked'}: the page kept or reverted the state`,
    };
  return { checked: now, changed: true, summary: `${want ? 'checked' : 'unchecked'} ${describeElement(control)}` };
}
