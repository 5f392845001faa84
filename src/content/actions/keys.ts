/**
 * Key definitions as a US keyboard produces them: `key`, `code`, legacy `keyCode`/`which`, the `charCode` keypress
 * carries, and whether Shift is implied. Used for typing text and for key presses.
 */

export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  /** The character this key inserts (printable keys and Enter), if any. */
  text?: string;
  shift?: boolean;
  location?: number;
}

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  CapsLock: { key: 'CapsLock', code: 'CapsLock', keyCode: 20 },
  ContextMenu: { key: 'ContextMenu', code: 'ContextMenu', keyCode: 93 },
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

const ALIASES: Record<string, string> = {
  Esc: 'Escape',
  Return: 'Enter',
  Del: 'Delete',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
  Ctrl: 'Control',
  Cmd: 'Meta',
  Command: 'Meta',
  Option: 'Alt',
  Spacebar: 'Space',
};

/** Punctuation: [code, keyCode, shifted?] */
const PUNCT: Record<string, [string, number, boolean]> = {
  ' ': ['Space', 32, false],
  '-': ['Minus', 189, false],
  _: ['Minus', 189, true],
  '=': ['Equal', 187, false],
  '+': ['Equal', 187, true],
  ',': ['Comma', 188, false],
  '<': ['Comma', 188, true],
  '.': ['Period', 190, false],
  '>': ['Period', 190, true],
  '/': ['Slash', 191, false],
  '?': ['Slash', 191, true],
  ';': ['Semicolon', 186, false],
  ':': ['Semicolon', 186, true],
  "'": ['Quote', 222, false],
  '"': ['Quote', 222, true],
  '[': ['BracketLeft', 219, false],
  '{': ['BracketLeft', 219, true],
  ']': ['BracketRight', 221, false],
  '}': ['BracketRight', 221, true],
  '\\': ['Backslash', 220, false],
  '|': ['Backslash', 220, true],
  '`': ['Backquote', 192, false],
  '~': ['Backquote', 192, true],
};
const SHIFTED_DIGITS = ')!@#$%^&*(';

/** The key that types one character (US layout; other characters get key = the character and keyCode 0). */
export function keyForChar(ch: string): KeyDef {
  if (ch === '\n' || ch === '\r') return NAMED.Enter!;
  if (ch === '\t') return NAMED.Tab!;
  if (/^[a-z]$/.test(ch))
    return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
  if (/^[A-Z]$/.test(ch)) return { key: ch, code: `Key${ch}`, keyCode: ch.charCodeAt(0), text: ch, shift: true };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const d = SHIFTED_DIGITS.indexOf(ch);
  if (d >= 0) return { key: ch, code: `Digit${d}`, keyCode: 48 + d, text: ch, shift: true };
  const p = PUNCT[ch];
  if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch, shift: p[2] };
  return { key: ch, code: '', keyCode: 0, text: ch };
}

export interface Combo {
  key: KeyDef;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
}

const isMac = (): boolean => /Mac|iPhone|iPad/.test(typeof navigator === 'undefined' ? '' : navigator.platform);

/** Parses `Enter`, `a`, `Shift+Tab`, `Control+A`, `Meta+Shift+z`, `ControlOrMeta+a`. */
export function parseCombo(spec: string): Combo {
  let keyName: string;
  let parts: string[];
  if ([...spec].length === 1) {
    keyName = spec;
    parts = [];
  } else if (spec.endsWith('++')) {
    keyName = '+';
    parts = spec.slice(0, -2).split('+');
  } else {
    parts = spec.split('+');
    keyName = parts.pop() ?? '';
  }
  const combo: Combo = { key: NAMED.Enter!, ctrl: false, shift: false, alt: false, meta: false };
  for (const raw of parts) {
    const m = ALIASES[raw] ?? raw;
    if (m === 'Control') combo.ctrl = true;
    else if (m === 'Shift') combo.shift = true;
    else if (m === 'Alt') combo.alt = true;
    else if (m === 'Meta') combo.meta = true;
    else if (m === 'ControlOrMeta') {
      if (isMac()) combo.meta = true;
      else combo.ctrl = true;
    } else throw new Error(`Unknown modifier "${raw}" in "${spec}": use Control, Shift, Alt or Meta.`);
  }
  const name = ALIASES[keyName] ?? keyName;
  let def = NAMED[name];
  if (!def && [...keyName].length === 1) {
    // Letters in combinations are case-insensitive; Shift decides the case.
    const letter = /^[a-z]$/i.test(keyName);
    const ch = letter && parts.length ? (combo.shift ? keyName.toUpperCase() : keyName.toLowerCase()) : keyName;
    def = keyForChar(ch);
  }
  if (!def)
    throw new Error(
      `Unknown key "${keyName}". Use a character or one of: ${Object.keys(NAMED).slice(0, 22).join(', ')}, F1–F12.`,
    );
  if (def.shift) combo.shift = true;
  combo.key = def;
  return combo;
}

export interface Mods {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export function modsOf(c: Pick<Combo, 'ctrl' | 'shift' | 'alt' | 'meta'>): Mods {
  return { ctrlKey: c.ctrl, shiftKey: c.shift, altKey: c.alt, metaKey: c.meta };
}

/** A KeyboardEvent with the legacy fields (keyCode, which, charCode) pages still read. */
export function keyboardEvent(type: 'keydown' | 'keypress' | 'keyup', def: KeyDef, mods: Mods): KeyboardEvent {
  const charCode = type === 'keypress' ? (def.text ? def.text.charCodeAt(0) : 0) : 0;
  const keyCode = type === 'keypress' ? charCode : def.keyCode;
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    key: def.key,
    code: def.code,
    location: def.location ?? 0,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    repeat: false,
    keyCode,
    which: keyCode,
    charCode,
    ...mods,
  };
  const e = new KeyboardEvent(type, init);
  // Some engines ignore the legacy init fields; make sure they read right.
  for (const [k, v] of [
    ['keyCode', keyCode],
    ['which', keyCode],
    ['charCode', charCode],
  ] as const) {
    if ((e as unknown as Record<string, number>)[k] !== v) Object.defineProperty(e, k, { get: () => v });
  }
  return e;
}

/** Whether a key (with these modifiers) produces a keypress event. */
export function producesKeypress(def: KeyDef, mods: Mods): boolean {
  return !!def.text && !mods.ctrlKey && !mods.metaKey && !mods.altKey;
}
