/**
 * Typing that framework-controlled inputs accept. For each character, the events real typing fires: keydown,
 * keypress, beforeinput, (the value changes), input, keyup — with `key`, `code`, `keyCode`, `which`. The value is
 * set through the element prototype's native setter (HTMLInputElement/HTMLTextAreaElement), so trackers that
 * frameworks install on the element (React's) see a real change. `change` fires on commit; contenteditable editors
 * get beforeinput + execCommand('insertText'). The value is read back and compared afterwards.
 */
import { deepActiveElement } from '../flatTree.ts';
import { describeElement, isDisabled, named } from '../describe.ts';
import { hiddenReason } from '../visibility.ts';
import { ActionError } from '../targets.ts';
import { keyboardEvent, keyForChar, producesKeypress, type KeyDef, type Mods } from './keys.ts';

const NO_MODS: Mods = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', '']);
/** Input types whose value is set whole (intermediate characters would be sanitized away). */
const WHOLE_VALUE_TYPES = new Set(['number', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

export type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

export function isTextControl(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  return (
    el.localName === 'textarea' ||
    (el.localName === 'input' &&
      (TEXT_TYPES.has((el as HTMLInputElement).type) || WHOLE_VALUE_TYPES.has((el as HTMLInputElement).type)))
  );
}

export function isContentEditable(el: Element): el is HTMLElement {
  return (el as HTMLElement).isContentEditable === true;
}

/** The element text goes into: the target itself, a label's control, or the one text field inside a wrapper. */
export function resolveEditable(el: Element): Editable {
  if (isTextControl(el) || isContentEditable(el)) return el as Editable;
  if (el.localName === 'label') {
    const c = (el as HTMLLabelElement).control;
    if (c && isTextControl(c)) return c;
  }
  if (el.localName === 'input') {
    const type = (el as HTMLInputElement).type;
    const hint =
      type === 'checkbox' || type === 'radio'
        ? 'use dom.check'
        : type === 'file'
          ? 'file inputs cannot be typed into'
          : 'use dom.click';
    throw new ActionError(`${named(el)} is an input of type "${type}", not a text field: ${hint}.`);
  }
  if (el.localName === 'select')
    throw new ActionError(`${named(el)} is a select: use dom.select with the option's value or label.`);
  const inner = el.querySelector(
    'textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), [contenteditable=""], [contenteditable="true"]',
  );
  if (inner && (isTextControl(inner) || isContentEditable(inner))) return inner as Editable;
  const sr = (el as HTMLElement).shadowRoot;
  const innerShadow = sr?.querySelector('textarea, input, [contenteditable=""], [contenteditable="true"]');
  if (innerShadow && (isTextControl(innerShadow) || isContentEditable(innerShadow))) return innerShadow as Editable;
  throw new ActionError(
    `${named(el)} is not a text field (no input, textarea or contenteditable). Take a snapshot and pick a textbox ref.`,
  );
}

export function assertEditable(el: Editable): void {
  const hidden = hiddenReason(el);
  if (hidden)
    throw new ActionError(
      `${named(el)} is not visible (${hidden}). Make it appear first (open its section or dialog), then take a new snapshot.`,
    );
  if (isDisabled(el))
    throw new ActionError(`${named(el)} is disabled. Complete the steps that enable it first, then try again.`);
  if ((el as HTMLInputElement).readOnly || el.getAttribute('aria-readonly') === 'true')
    throw new ActionError(`${named(el)} is read-only; its value cannot be typed.`);
}

/** Sets a control's value through the prototype's native setter (bypassing setters a framework put on the element). */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto =
    el.localName === 'textarea'
      ? HTMLTextAreaElement.prototype
      : el.localName === 'select'
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

export function fireInput(el: Element, inputType: string, data: string | null): void {
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, cancelable: false, inputType, data }));
}

export function fireBeforeInput(el: Element, inputType: string, data: string | null): boolean {
  return el.dispatchEvent(
    new InputEvent('beforeinput', { bubbles: true, composed: true, cancelable: true, inputType, data }),
  );
}

export function fireChange(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

export function focusElement(el: Element): void {
  if (deepActiveElement() === el) return;
  (el as HTMLElement).focus?.({ preventScroll: true });
}

function selectionOf(el: HTMLInputElement | HTMLTextAreaElement): [number, number] {
  try {
    const s = el.selectionStart;
    const e = el.selectionEnd;
    if (s !== null && e !== null) return [s, e];
  } catch {
    // types without selection (email, number)
  }
  return [el.value.length, el.value.length];
}

function setCaret(el: HTMLInputElement | HTMLTextAreaElement, pos: number): void {
  try {
    el.setSelectionRange(pos, pos);
  } catch {
    // unsupported type
  }
}

/** Inserts text at the caret of a text control (replacing the selection), as one keystroke would. */
export function insertIntoControl(
  el: HTMLInputElement | HTMLTextAreaElement,
  text: string,
  inputType = 'insertText',
): boolean {
  const [start, end] = selectionOf(el);
  const max = el.maxLength;
  const before = el.value;
  if (max >= 0 && before.length - (end - start) + text.length > max) return false;
  if (!fireBeforeInput(el, inputType, inputType === 'insertLineBreak' ? null : text)) return true;
  setNativeValue(el, before.slice(0, start) + text + before.slice(end));
  setCaret(el, start + text.length);
  fireInput(el, inputType, inputType === 'insertLineBreak' ? null : text);
  return true;
}

/** Deletes backward/forward (or the selection) in a text control. */
export function deleteInControl(el: HTMLInputElement | HTMLTextAreaElement, forward: boolean): void {
  let [start, end] = selectionOf(el);
  if (start === end) {
    if (forward) end = Math.min(el.value.length, end + 1);
    else start = Math.max(0, start - 1);
  }
  if (start === end) return;
  const inputType = forward ? 'deleteContentForward' : 'deleteContentBackward';
  if (!fireBeforeInput(el, inputType, null)) return;
  setNativeValue(el, el.value.slice(0, start) + el.value.slice(end));
  setCaret(el, start);
  fireInput(el, inputType, null);
}

function selectContents(el: HTMLElement, collapseToEnd: boolean): void {
  const sel = el.ownerDocument.getSelection();
  if (!sel) return;
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  if (collapseToEnd) range.collapse(false);
  sel.removeAllRanges();
  sel.addRange(range);
}

/** Inserts text into a contenteditable at the selection: beforeinput, then execCommand (or a manual insert). */
export function insertIntoEditable(el: HTMLElement, text: string): void {
  const inputType = text === '\n' ? 'insertParagraph' : 'insertText';
  if (!fireBeforeInput(el, inputType, text === '\n' ? null : text)) return;
  let done: boolean;
  try {
    done = el.ownerDocument.execCommand(
      inputType === 'insertParagraph' ? 'insertParagraph' : 'insertText',
      false,
      text,
    );
  } catch {
    done = false;
  }
  if (done) return;
  const sel = el.ownerDocument.getSelection();
  if (sel && sel.rangeCount && el.contains(sel.anchorNode)) {
    const range = sel.getRangeAt(0);
    range.deleteContents();
    const node = el.ownerDocument.createTextNode(text);
    range.insertNode(node);
    range.setStartAfter(node);
    range.collapse(true);
    sel.removeAllRanges();
    sel.addRange(range);
  } else el.append(text);
  fireInput(el, inputType, text === '\n' ? null : text);
}

function deleteEditableSelection(el: HTMLElement): void {
  if (!fireBeforeInput(el, 'deleteContentBackward', null)) return;
  let done: boolean;
  try {
    done = el.ownerDocument.execCommand('delete', false);
  } catch {
    done = false;
  }
  if (!done) {
    el.textContent = '';
    fireInput(el, 'deleteContentBackward', null);
  }
}

/** One keystroke: keydown, keypress, (insert), keyup. Returns false when the page cancelled the insertion. */
export function typeKey(el: Editable, def: KeyDef, mods: Mods, insert: () => void): boolean {
  const down = el.dispatchEvent(keyboardEvent('keydown', def, mods));
  let inserted = false;
  if (down) {
    const press = producesKeypress(def, mods) ? el.dispatchEvent(keyboardEvent('keypress', def, mods)) : true;
    if (press) {
      insert();
      inserted = true;
    }
  }
  el.dispatchEvent(keyboardEvent('keyup', def, mods));
  return inserted;
}

export interface TypeResult {
  value: string;
  verified: boolean;
  expected?: string;
  actual?: string;
  note?: string;
  submitted?: boolean;
  submitNote?: string;
}

export interface TypeOptions {
  clear?: boolean;
  submit?: boolean;
  /** Dispatch `change` when done (default true). */
  commit?: boolean;
}

export function currentValue(el: Editable): string {
  return isTextControl(el) ? el.value : (el.innerText ?? el.textContent ?? '');
}

export function maskIfPassword(el: Element, v: string): string {
  return el.localName === 'input' && (el as HTMLInputElement).type === 'password'
    ? '•'.repeat(Math.min(v.length, 12))
    : v;
}

/** Types `text` into an editable element (already resolved); see the module comment for the event sequence. */
export function typeText(el: Editable, text: string, opts: TypeOptions = {}): TypeResult {
  assertEditable(el);
  focusElement(el);
  const clear = opts.clear ?? true;
  if (isTextControl(el)) return typeIntoControl(el, text, clear, opts);
  return typeIntoEditable(el, text, clear, opts);
}

function typeIntoControl(
  el: HTMLInputElement | HTMLTextAreaElement,
  rawText: string,
  clear: boolean,
  opts: TypeOptions,
): TypeResult {
  const initial = el.value;
  const single = el.localName === 'input';
  const text = single ? rawText.replace(/\r?\n/g, '') : rawText.replace(/\r\n/g, '\n');
  const whole = single && WHOLE_VALUE_TYPES.has((el as HTMLInputElement).type);
  let expected: string;
  let limited = false;

  if (whole) {
    const before = clear ? '' : el.value;
    expected = before + text;
    if (fireBeforeInput(el, 'insertReplacementText', expected)) {
      setNativeValue(el, expected);
      fireInput(el, 'insertReplacementText', expected);
    }
  } else {
    if (clear && el.value) {
      try {
        el.select();
      } catch {
        // no selection API
      }
      if (fireBeforeInput(el, 'deleteContentBackward', null)) {
        setNativeValue(el, '');
        fireInput(el, 'deleteContentBackward', null);
      }
    } else if (!clear) setCaret(el, el.value.length);
    expected = (clear ? '' : el.value) + text;
    for (const ch of text) {
      const def = keyForChar(ch);
      const mods = { ...NO_MODS, shiftKey: !!def.shift };
      typeKey(el, def, mods, () => {
        if (!insertIntoControl(el, ch === '\n' ? '\n' : ch, ch === '\n' ? 'insertLineBreak' : 'insertText'))
          limited = true;
      });
    }
  }

  const result: TypeResult = { value: maskIfPassword(el, el.value), verified: el.value === expected };
  if (!result.verified) {
    result.expected = maskIfPassword(el, expected);
    result.actual = maskIfPassword(el, el.value);
    result.note = limited
      ? `the field holds at most ${el.maxLength} characters`
      : 'the page changed or rejected what was typed (input mask, formatting, validation, or a handler that cancels keys)';
  }
  if ((opts.commit ?? true) && el.value !== initial) fireChange(el);
  if (opts.submit) Object.assign(result, pressEnterToSubmit(el));
  return result;
}

function typeIntoEditable(el: HTMLElement, text: string, clear: boolean, opts: TypeOptions): TypeResult {
  const initial = currentValue(el);
  if (clear && (el.textContent ?? '').length) {
    selectContents(el, false);
    deleteEditableSelection(el);
  }
  selectContents(el, true);
  for (const ch of text.replace(/\r\n/g, '\n')) {
    const def = keyForChar(ch);
    typeKey(el, def, { ...NO_MODS, shiftKey: !!def.shift }, () => insertIntoEditable(el, ch));
  }
  const actual = currentValue(el);
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  const verified = clear ? norm(actual) === norm(text) : norm(actual).endsWith(norm(text));
  const result: TypeResult = { value: actual.slice(0, 500), verified };
  if (!verified) {
    result.expected = text.slice(0, 500);
    result.actual = actual.slice(0, 500);
    result.note = 'the editor shows different text than was typed (it may format or reject input)';
  }
  if ((opts.commit ?? true) && actual !== initial) fireChange(el);
  if (opts.submit) Object.assign(result, pressEnterToSubmit(el));
  return result;
}

/**
 * Enter in a field: keydown/keypress/keyup, and when the page did not cancel it, the browser's implicit submission
 * (click the form's default button, or submit a form with a single field).
 */
export function pressEnterToSubmit(el: Element): { submitted: boolean; submitNote?: string } {
  const def = keyForChar('\n');
  const down = el.dispatchEvent(keyboardEvent('keydown', def, NO_MODS));
  let submitted = false;
  let submitNote: string | undefined;
  if (down) {
    const press = el.dispatchEvent(keyboardEvent('keypress', def, NO_MODS));
    if (press) {
      if (el.localName === 'textarea' || isContentEditable(el))
        submitNote = 'Enter in a multi-line field adds a line; the page handles Enter itself';
      else {
        const r = implicitSubmit(el);
        submitted = r.submitted;
        submitNote = r.note;
      }
    } else submitNote = 'the page handled Enter itself (keypress cancelled)';
  } else submitNote = 'the page handled Enter itself (keydown cancelled)';
  el.dispatchEvent(keyboardEvent('keyup', def, NO_MODS));
  return submitNote ? { submitted, submitNote } : { submitted };
}

export function implicitSubmit(el: Element): { submitted: boolean; note?: string } {
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  if (!form)
    return { submitted: false, note: 'the field is not in a form; Enter was delivered to the page’s key handlers' };
  const button = Array.from(form.elements).find(
    (b) =>
      (b.localName === 'button' && ((b as HTMLButtonElement).type || 'submit') === 'submit') ||
      (b.localName === 'input' && ['submit', 'image'].includes((b as HTMLInputElement).type)),
  ) as HTMLButtonElement | HTMLInputElement | undefined;
  if (button) {
    if (button.disabled)
      return { submitted: false, note: `the form's submit button ${describeElement(button)} is disabled` };
    button.click();
    return { submitted: true };
  }
  const blocking = Array.from(form.elements).filter((f) => f.localName === 'input' && isTextControl(f)).length;
  if (blocking > 1)
    return { submitted: false, note: 'the form has no submit button and several fields, so Enter does not submit it' };
  form.requestSubmit();
  return { submitted: true };
}
