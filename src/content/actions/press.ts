/**
 * Key presses and combinations (Enter, Tab, Escape, arrows, Control+A, Meta+Shift+z, ...): modifier keydowns, the
 * key's keydown/keypress/keyup, modifier keyups — on the target (focused first) or the focused element. Synthetic
 * key events have no default action in the browser, so the defaults a person relies on are performed here unless
 * the page cancelled the keydown: typing a character, Backspace/Delete, Enter (submit, activate, new line), Space
 * (activate), Tab focus movement, select-all, caret and page movement.
 */
import { deepActiveElement } from '../flatTree.ts';
import { describeElement } from '../describe.ts';
import { nextTabStop } from './focusOrder.ts';
import { keyboardEvent, modsOf, parseCombo, producesKeypress, type Combo, type KeyDef } from './keys.ts';
import { clipboardAction, copyFrom, pasteInto } from '../gestures/clipboard.ts';
import type { ClipboardEntry } from '../../shared/contentMessages.ts';
import {
  deleteInControl,
  focusElement,
  implicitSubmit,
  insertIntoControl,
  insertIntoEditable,
  isContentEditable,
  isTextControl,
} from './typing.ts';

const MODIFIER_DEFS: [keyof Pick<Combo, 'ctrl' | 'shift' | 'alt' | 'meta'>, KeyDef][] = [
  ['ctrl', { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 }],
  ['shift', { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 }],
  ['alt', { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 }],
  ['meta', { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 }],
];

export interface PressResult {
  target: string;
  /** What the browser-default part did, if anything. */
  effect?: string;
  cancelled: boolean;
  /** What Control+C/X put on Otto's clipboard. */
  copied?: ClipboardEntry;
}

/** Moves focus as Tab does; the search is sliced and stops at the next stop (./focusOrder.ts). */
async function moveFocus(from: Element | null, backward: boolean, deadline: number): Promise<string | undefined> {
  const next = (await nextTabStop(from, backward, deadline)) as HTMLElement | null;
  if (!next)
    return performance.now() >= deadline ? 'no next focusable element was found before the time limit' : undefined;
  if (from && from !== next && (from as HTMLElement).blur) (from as HTMLElement).blur();
  // In the same task as the press's own focus of its target, as a person's Tab is one task: a turn given to the page
  // in between let the browser paint that first focus, and on a big table each painted focus change is a rendering
  // pass over the whole table (50,000 rows: 300-400 ms of CPU, and at 10,000 rows 120-150 ms), paid twice where a
  // person's Tab pays once (#24, docs/decisions.md "Tab on big pages"). Focusing a text field outside a form makes
  // Chrome scan the page's form controls inside this task (about 100 ms of CPU at 50,000 rows), as for the person.
  next.focus();
  return `focus moved to ${describeElement(next)}`;
}

function activates(el: Element): boolean {
  const tag = el.localName;
  const role = el.getAttribute('role');
  return (
    tag === 'a' ||
    tag === 'button' ||
    tag === 'summary' ||
    (tag === 'input' &&
      ['button', 'submit', 'reset', 'checkbox', 'radio', 'image'].includes((el as HTMLInputElement).type)) ||
    role === 'button' ||
    role === 'link' ||
    role === 'menuitem' ||
    role === 'tab' ||
    role === 'option' ||
    role === 'checkbox' ||
    role === 'switch'
  );
}

async function defaultAction(el: Element, combo: Combo, deadline: number): Promise<string | undefined> {
  const k = combo.key.key;
  const mods = modsOf(combo);
  const accel = combo.ctrl || combo.meta;
  const text = isTextControl(el);
  const editable = isContentEditable(el);

  if (accel && (k === 'a' || k === 'A')) {
    if (text) {
      el.select();
      return 'selected all text in the field';
    }
    const sel = document.getSelection();
    if (editable) sel?.selectAllChildren(el);
    else if (document.body) sel?.selectAllChildren(document.body);
    return 'selected all';
  }
  if (k === 'Tab' && !accel && !combo.alt) return moveFocus(el === document.body ? null : el, combo.shift, deadline);
  if (k === 'Enter' && !accel) {
    if (el.localName === 'textarea' && text) {
      insertIntoControl(el, '\n', 'insertLineBreak');
      return 'inserted a line break';
    }
    if (editable) {
      insertIntoEditable(el, '\n');
      return 'inserted a paragraph';
    }
    if (text && el.localName === 'input') {
      const r = implicitSubmit(el);
      return r.submitted ? 'submitted the form' : r.note;
    }
    if (activates(el) && el.localName !== 'input') {
      (el as HTMLElement).click();
      return `activated ${describeElement(el)}`;
    }
    return undefined;
  }
  if (k === 'Backspace' || k === 'Delete') {
    if (text) {
      deleteInControl(el, k === 'Delete');
      return 'deleted a character';
    }
    if (editable) {
      document.execCommand(k === 'Delete' ? 'forwardDelete' : 'delete', false);
      return 'deleted a character';
    }
    return undefined;
  }
  if (text && (k === 'ArrowLeft' || k === 'ArrowRight' || k === 'Home' || k === 'End') && el.localName !== 'select') {
    try {
      const pos = el.selectionStart ?? 0;
      const to =
        k === 'Home'
          ? 0
          : k === 'End'
            ? el.value.length
            : Math.max(0, Math.min(el.value.length, pos + (k === 'ArrowLeft' ? -1 : 1)));
      el.setSelectionRange(to, to);
      return 'moved the caret';
    } catch {
      return undefined;
    }
  }
  if (!text && !editable && ['PageDown', 'PageUp', 'Home', 'End', ' ', 'ArrowDown', 'ArrowUp'].includes(k)) {
    if (k === ' ' && activates(el)) return undefined; // activation happens on keyup
    const h = innerHeight * 0.9;
    const dy =
      k === 'PageDown' || k === ' ' ? h : k === 'PageUp' ? -h : k === 'ArrowDown' ? 40 : k === 'ArrowUp' ? -40 : 0;
    if (k === 'Home') window.scrollTo({ top: 0, behavior: 'instant' as ScrollBehavior });
    else if (k === 'End')
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' as ScrollBehavior });
    else window.scrollBy({ top: combo.shift && k === ' ' ? -dy : dy, behavior: 'instant' as ScrollBehavior });
    return 'scrolled the page';
  }
  if (producesKeypress(combo.key, mods) && combo.key.text !== '\r') {
    if (text) {
      insertIntoControl(el, combo.key.text!);
      return `typed "${combo.key.text}"`;
    }
    if (editable) {
      insertIntoEditable(el, combo.key.text!);
      return `typed "${combo.key.text}"`;
    }
  }
  return undefined;
}

/**
 * Presses a key or combination on `target` (focused first) or on the focused element. Async because Tab's search for
 * the next stop yields to the page; `deadline` (performance.now() time) bounds it.
 */
export async function pressKey(
  target: Element | undefined,
  spec: string,
  opts: { clipboard?: ClipboardEntry; deadline?: number } = {},
): Promise<PressResult> {
  const combo = parseCombo(spec);
  const clip = clipboardAction(combo);
  let copied: ClipboardEntry | undefined;
  // Copying what is selected inside a target must not move focus first (focusing an editor can drop its selection).
  const sel = document.getSelection();
  const selectionInside = !!target && !!sel?.rangeCount && target.contains(sel.anchorNode);
  if (target && !(clip && selectionInside)) focusElement(target);
  const el = target ?? deepActiveElement() ?? document.body ?? document.documentElement;
  const held = { ctrl: false, shift: false, alt: false, meta: false };
  const current = () => modsOf(held);
  for (const [flag, def] of MODIFIER_DEFS) {
    if (!combo[flag]) continue;
    held[flag] = true;
    el.dispatchEvent(keyboardEvent('keydown', def, current()));
  }
  const mods = modsOf(combo);
  const down = el.dispatchEvent(keyboardEvent('keydown', combo.key, mods));
  let effect: string | undefined;
  let cancelled = !down;
  if (down) {
    const press = producesKeypress(combo.key, mods)
      ? el.dispatchEvent(keyboardEvent('keypress', combo.key, mods))
      : true;
    if (press && clip) {
      if (clip === 'paste') effect = pasteInto(el, opts.clipboard);
      else ({ effect, copied } = copyFrom(selectionInside ? target! : el, clip === 'cut'));
    } else if (press) effect = await defaultAction(el, combo, opts.deadline ?? performance.now() + 5_000);
    else cancelled = true;
  }
  // Space activates buttons on keyup.
  const up = el.dispatchEvent(keyboardEvent('keyup', combo.key, mods));
  if (up && !cancelled && combo.key.key === ' ' && activates(el) && !isTextControl(el)) {
    (el as HTMLElement).click();
    effect = `activated ${describeElement(el)}`;
  }
  for (const [flag, def] of [...MODIFIER_DEFS].reverse()) {
    if (!combo[flag]) continue;
    held[flag] = false;
    el.dispatchEvent(keyboardEvent('keyup', def, current()));
  }
  const r: PressResult = { target: describeElement(el), cancelled };
  if (effect) r.effect = effect;
  if (copied) r.copied = copied;
  return r;
}
