/**
 * Copy, cut and paste through Otto's own clipboard, never the system's: the user's clipboard is theirs (a page must
 * not read what they copied elsewhere, and Otto must not overwrite it), and content scripts cannot read it without
 * a user gesture anyway. Control/Meta+C and +X fire the page's `copy`/`cut` event with a fresh DataTransfer; what the
 * page put there (a rich editor writes its own text/html) — or, when it did not cancel, the selected text — is what
 * was copied, and the worker keeps it. Control/Meta+V fires `paste` with that data; a page that handles paste itself
 * cancels the event, otherwise the text is inserted as the browser would. A paste only reaches a frame of the
 * origin the text was copied from: carrying it to another site is typing, which the data-flow guard judges
 * (dom.type with the text).
 */
import type { ClipboardEntry } from '../../shared/contentMessages.ts';
import { describeElement } from '../describe.ts';
import { ActionError } from '../targets.ts';
import { insertIntoControl, isContentEditable, isTextControl } from '../actions/typing.ts';

export type ClipboardKey = 'copy' | 'cut' | 'paste';

/** Which clipboard action a key combination is, if any. */
export function clipboardAction(combo: {
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  key: { key: string };
}): ClipboardKey | undefined {
  if (!(combo.ctrl || combo.meta) || combo.alt) return undefined;
  const k = combo.key.key.toLowerCase();
  return k === 'c' ? 'copy' : k === 'x' ? 'cut' : k === 'v' ? 'paste' : undefined;
}

function clipboardEvent(type: ClipboardKey, data: DataTransfer): ClipboardEvent {
  return new ClipboardEvent(type, { bubbles: true, cancelable: true, composed: true, clipboardData: data });
}

function selectedText(el: Element): string {
  if (isTextControl(el)) {
    try {
      return el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0);
    } catch {
      return '';
    }
  }
  return document.getSelection()?.toString() ?? '';
}

function selectionHtml(): string | undefined {
  const sel = document.getSelection();
  if (!sel || !sel.rangeCount || sel.isCollapsed) return undefined;
  const box = document.createElement('div');
  box.append(sel.getRangeAt(0).cloneContents());
  return box.innerHTML;
}

export interface CopyResult {
  effect: string;
  copied?: ClipboardEntry;
}

export function copyFrom(el: Element, cut: boolean): CopyResult {
  const dt = new DataTransfer();
  const handled = !el.dispatchEvent(clipboardEvent(cut ? 'cut' : 'copy', dt));
  let text: string;
  let html: string | undefined;
  if (handled) {
    text = dt.getData('text/plain');
    html = dt.getData('text/html') || undefined;
    if (!text && !html)
      return {
        effect: `the page cancelled the ${cut ? 'cut' : 'copy'} and gave no data: Otto's clipboard is unchanged`,
      };
  } else {
    text = selectedText(el);
    html = isTextControl(el) ? undefined : selectionHtml();
    if (!text)
      return { effect: `nothing is selected: Otto's clipboard is unchanged (select text first with dom.select_text)` };
    if (cut) {
      if (isTextControl(el)) insertIntoControl(el, '', 'deleteByCut');
      else if (isContentEditable(el)) document.execCommand('delete', false);
    }
  }
  const copied: ClipboardEntry = { origin: location.origin, text, ...(html ? { html } : {}) };
  const by = handled ? ' (as the page prepared it)' : '';
  const shown = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return {
    effect: `${cut ? 'cut' : 'copied'} ${text.length} characters to Otto's clipboard${by}: ${JSON.stringify(shown)}`,
    copied,
  };
}

export function pasteInto(el: Element, entry: ClipboardEntry | undefined): string {
  if (!entry) return "Otto's clipboard is empty: nothing was pasted (copy first: select text, then Control+C)";
  if (entry.origin !== location.origin)
    throw new ActionError(
      `Otto's clipboard holds text copied on ${entry.origin}; it is not pasted into ${location.origin}. To put that text here, type it with dom.type (the user may be asked, since it carries data from another site).`,
    );
  const dt = new DataTransfer();
  dt.setData('text/plain', entry.text);
  if (entry.html) dt.setData('text/html', entry.html);
  if (!el.dispatchEvent(clipboardEvent('paste', dt)))
    return `the page handled the paste of ${entry.text.length} characters itself`;
  if (isTextControl(el)) {
    insertIntoControl(el, entry.text, 'insertFromPaste');
    return `pasted ${entry.text.length} characters into ${describeElement(el)}`;
  }
  if (isContentEditable(el)) {
    if (
      el.dispatchEvent(
        new InputEvent('beforeinput', {
          bubbles: true,
          cancelable: true,
          composed: true,
          inputType: 'insertFromPaste',
          data: entry.text,
        }),
      )
    )
      document.execCommand('insertText', false, entry.text);
    return `pasted ${entry.text.length} characters into ${describeElement(el)}`;
  }
  return `nothing editable is focused: the paste event went to ${describeElement(el)}, which did not take it`;
}
