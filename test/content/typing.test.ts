// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCombo, keyForChar } from '../../src/content/actions/keys.ts';
import { pressKey } from '../../src/content/actions/press.ts';
import { pressEnterToSubmit, resolveEditable, typeText } from '../../src/content/actions/typing.ts';
import { setPage } from './helpers.ts';

type Rec = {
  type: string;
  key?: string;
  code?: string;
  keyCode?: number;
  which?: number;
  charCode?: number;
  inputType?: string;
  data?: string | null;
  value?: string;
  shift?: boolean;
};

function record(el: Element, types = ['keydown', 'keypress', 'beforeinput', 'input', 'keyup', 'change']): Rec[] {
  const log: Rec[] = [];
  for (const t of types)
    el.addEventListener(t, (e) => {
      const k = e as KeyboardEvent;
      const i = e as InputEvent;
      const r: Rec = { type: e.type };
      if (e.type.startsWith('key'))
        Object.assign(r, {
          key: k.key,
          code: k.code,
          keyCode: k.keyCode,
          which: k.which,
          charCode: k.charCode,
          shift: k.shiftKey,
        });
      if (e.type === 'beforeinput' || e.type === 'input') Object.assign(r, { inputType: i.inputType, data: i.data });
      if (e.type === 'input' || e.type === 'change') r.value = (el as HTMLInputElement).value;
      log.push(r);
    });
  return log;
}

describe('typing fires the events real typing fires', () => {
  beforeEach(() =>
    setPage(
      '<form id="f"><input id="i" value="old"><input id="j"><button>Go</button></form><textarea id="t"></textarea><div id="ce" contenteditable="true"></div>',
    ),
  );

  it('per character: keydown, keypress, beforeinput, input, keyup; change once on commit', () => {
    const input = document.getElementById('i') as HTMLInputElement;
    const log = record(input);
    const r = typeText(input, 'Hi!');
    expect(r.verified).toBe(true);
    expect(input.value).toBe('Hi!');
    // Clearing first: beforeinput + input (deleteContentBackward).
    expect(log.slice(0, 2).map((e) => `${e.type}:${e.inputType}`)).toEqual([
      'beforeinput:deleteContentBackward',
      'input:deleteContentBackward',
    ]);
    const typed = log.slice(2, -1);
    expect(typed.map((e) => e.type)).toEqual([
      'keydown',
      'keypress',
      'beforeinput',
      'input',
      'keyup',
      'keydown',
      'keypress',
      'beforeinput',
      'input',
      'keyup',
      'keydown',
      'keypress',
      'beforeinput',
      'input',
      'keyup',
    ]);
    expect(typed[0]).toMatchObject({ key: 'H', code: 'KeyH', keyCode: 72, which: 72, shift: true });
    expect(typed[1]).toMatchObject({ type: 'keypress', charCode: 72, keyCode: 72, which: 72 });
    expect(typed[2]).toMatchObject({ inputType: 'insertText', data: 'H' });
    expect(typed[3]).toMatchObject({ inputType: 'insertText', data: 'H', value: 'H' });
    expect(typed[10]).toMatchObject({ type: 'keydown', key: '!', code: 'Digit1', keyCode: 49, shift: true });
    expect(log.at(-1)).toEqual({ type: 'change', value: 'Hi!' });
  });

  it('sets the value through the prototype setter, bypassing a framework tracker on the element', () => {
    const input = document.getElementById('j') as HTMLInputElement;
    // Like React: an own `value` property that records what the framework last wrote.
    const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
    let tracked = '';
    Object.defineProperty(input, 'value', {
      configurable: true,
      get() {
        return proto.get!.call(this);
      },
      set(v: string) {
        tracked = v;
        proto.set!.call(this, v);
      },
    });
    const seen: string[] = [];
    input.addEventListener('input', () => {
      // The framework compares its tracked value with the DOM value: they must differ for onChange to fire.
      if (input.value !== tracked) seen.push(input.value);
      tracked = input.value;
    });
    typeText(input, 'abc');
    expect(seen).toEqual(['a', 'ab', 'abc']);
  });

  it('appends when clear is false and reports a value the page rejected', () => {
    const input = document.getElementById('i') as HTMLInputElement;
    typeText(input, '+new', { clear: false });
    expect(input.value).toBe('old+new');
    input.maxLength = 9;
    const r = typeText(input, 'abcdefghijkl');
    expect(r.verified).toBe(false);
    expect(r.actual).toBe('abcdefghi');
    expect(r.note).toMatch(/at most 9/);
  });

  it('does not insert a character whose keydown the page cancelled', () => {
    const input = document.getElementById('j') as HTMLInputElement;
    input.addEventListener('keydown', (e) => {
      if (/[0-9]/.test(e.key)) e.preventDefault();
    });
    const r = typeText(input, 'a1b2');
    expect(input.value).toBe('ab');
    expect(r.verified).toBe(false);
  });

  it('submits with Enter: which === 13 on keyup, keyCode 13 on keypress, then the form submits', () => {
    const input = document.getElementById('j') as HTMLInputElement;
    const seen: string[] = [];
    input.addEventListener('keyup', (e) => {
      if (e.which === 13) seen.push('keyup-which-13');
    });
    input.addEventListener('keypress', (e) => {
      if (e.keyCode === 13) seen.push('keypress-keyCode-13');
    });
    let submitted = 0;
    document.getElementById('f')!.addEventListener('submit', (e) => {
      e.preventDefault();
      submitted++;
    });
    const r = typeText(input, 'query', { submit: true });
    expect(r.submitted).toBe(true);
    expect(submitted).toBe(1);
    expect(seen).toEqual(['keypress-keyCode-13', 'keyup-which-13']);
  });

  it('keeps Enter with the page when it cancels keydown', () => {
    const input = document.getElementById('j') as HTMLInputElement;
    input.addEventListener('keydown', (e) => e.key === 'Enter' && e.preventDefault());
    let submitted = 0;
    document.getElementById('f')!.addEventListener('submit', (e) => {
      e.preventDefault();
      submitted++;
    });
    const r = pressEnterToSubmit(input);
    expect(r.submitted).toBe(false);
    expect(submitted).toBe(0);
  });

  it('types line breaks into a textarea and text into a contenteditable', () => {
    const ta = document.getElementById('t') as HTMLTextAreaElement;
    const log = record(ta, ['beforeinput']);
    typeText(ta, 'a\nb');
    expect(ta.value).toBe('a\nb');
    expect(log.map((e) => e.inputType)).toEqual(['insertText', 'insertLineBreak', 'insertText']);
    const ce = document.getElementById('ce')!;
    const inputs = record(ce, ['beforeinput', 'input']);
    const r = typeText(ce, 'Hello');
    expect(ce.textContent).toBe('Hello');
    expect(r.verified).toBe(true);
    expect(inputs.filter((e) => e.type === 'beforeinput')).toHaveLength(5);
    expect(inputs.filter((e) => e.type === 'input').length).toBeGreaterThanOrEqual(1);
  });

  it('resolves labels and wrappers to their field and refuses non-text controls', () => {
    setPage(
      '<label for="x">Name</label><input id="x"><div id="w"><input id="y"></div><input id="c" type="checkbox"><select id="s"></select>',
    );
    expect(resolveEditable(document.querySelector('label')!)).toBe(document.getElementById('x'));
    expect(resolveEditable(document.getElementById('w')!)).toBe(document.getElementById('y'));
    expect(() => resolveEditable(document.getElementById('c')!)).toThrow(/dom\.check/);
    expect(() => resolveEditable(document.getElementById('s')!)).toThrow(/dom\.select/);
  });

  it('refuses disabled and read-only fields', () => {
    setPage('<input id="d" disabled><input id="r" readonly>');
    expect(() => typeText(document.getElementById('d') as HTMLInputElement, 'x')).toThrow(/disabled/);
    expect(() => typeText(document.getElementById('r') as HTMLInputElement, 'x')).toThrow(/read-only/);
  });
});

describe('keys and presses', () => {
  it('parses combinations', () => {
    expect(parseCombo('Control+A')).toMatchObject({
      ctrl: true,
      shift: false,
      key: { key: 'a', code: 'KeyA', keyCode: 65 },
    });
    expect(parseCombo('Shift+Tab')).toMatchObject({ shift: true, key: { key: 'Tab', keyCode: 9 } });
    expect(parseCombo('Meta+Shift+z')).toMatchObject({ meta: true, shift: true, key: { key: 'Z' } });
    expect(parseCombo('Esc').key.key).toBe('Escape');
    expect(parseCombo('ArrowDown').key.keyCode).toBe(40);
    expect(parseCombo('+').key.key).toBe('+');
    expect(() => parseCombo('Hyper+x')).toThrow(/modifier/);
    expect(keyForChar('é')).toEqual({ key: 'é', code: '', keyCode: 0, text: 'é' });
  });

  it('sends modifiers around the key and performs select-all in a field', async () => {
    setPage('<input id="i" value="hello">');
    const input = document.getElementById('i') as HTMLInputElement;
    const log: string[] = [];
    for (const t of ['keydown', 'keyup'])
      input.addEventListener(t, (e) => {
        const k = e as KeyboardEvent;
        log.push(`${e.type}:${k.key}:${k.ctrlKey ? 'ctrl' : ''}`);
      });
    const r = await pressKey(input, 'Control+a');
    expect(log).toEqual(['keydown:Control:ctrl', 'keydown:a:ctrl', 'keyup:a:ctrl', 'keyup:Control:']);
    expect(r.effect).toMatch(/selected all/);
    expect(input.selectionStart).toBe(0);
    expect(input.selectionEnd).toBe(5);
  });

  it('Escape reaches key handlers; Backspace deletes; Tab moves focus', async () => {
    setPage('<input id="a" value="abc"><button id="b">B</button>');
    const a = document.getElementById('a') as HTMLInputElement;
    let escaped = false;
    a.addEventListener('keydown', (e) => (escaped ||= e.key === 'Escape' && e.keyCode === 27));
    await pressKey(a, 'Escape');
    expect(escaped).toBe(true);
    a.setSelectionRange(3, 3);
    await pressKey(a, 'Backspace');
    expect(a.value).toBe('ab');
    const r = await pressKey(a, 'Tab');
    expect(r.effect).toMatch(/focus moved to button "B"/);
    expect(document.activeElement).toBe(document.getElementById('b'));
  });
});
