/**
 * Attribute changes a person would see, around the element an action worked on (#43): an SVG shape's fill or
 * stroke, a class, `aria-*`, `hidden`, an inline style, and the computed colour and visibility that a class or a
 * parent's change gave it. Only the element's neighbourhood is watched — itself, its parent, its siblings and its
 * first descendants, bounded — so a page animating elsewhere adds no noise. The change report (changes.ts) keeps the
 * first old value of each watched attribute from its MutationObserver and turns what differs at the end into lines:
 *
 *   circle "Target" [ref=e5]: fill "#9aa5b1" → "#e4572e"; class +hot
 *   g "Board": computed fill rgb(154, 165, 177) → rgb(228, 87, 46)
 *
 * Values are page text: the lines go inside the untrusted boundary with the rest of the report.
 */
import { describeElement, tagHint } from './describe.ts';
import { parentOf } from './flatTree.ts';
import { truncate } from './names.ts';

/** Attributes whose change shows (observed with their old values; also count as activity while settling). */
export const SEEN_ATTRS = [
  'class',
  'style',
  'hidden',
  'fill',
  'stroke',
  'stroke-width',
  'opacity',
  'visibility',
  'data-state',
  'aria-hidden',
  'aria-current',
  'aria-busy',
  'aria-invalid',
  'aria-grabbed',
  'aria-valuetext',
  'aria-label',
];

/** Attributes a control's compared state (changeCapture.ts `stateOf`) already reports. */
const STATE_ATTRS = new Set([
  'aria-checked',
  'aria-selected',
  'aria-expanded',
  'aria-pressed',
  'aria-valuenow',
  'aria-disabled',
  'disabled',
  'checked',
  'value',
]);

/** Computed properties compared before and after (cheap: a bounded set of elements, one style read each). */
const LOOKS = ['fill', 'stroke', 'color', 'background-color', 'opacity', 'visibility'] as const;

const MAX_SIBLINGS = 20;
const MAX_DESCENDANTS = 60;
const MAX_LINES = 8;
const MAX_PARTS = 6;
const VALUE_MAX = 60;

/** The element, its parent, its siblings and its first descendants (flat DOM, bounded). */
export function neighbourhood(subjects: Element[]): Set<Element> {
  const out = new Set<Element>();
  for (const el of subjects) {
    out.add(el);
    const parent = parentOf(el);
    if (parent && parent !== document.body && parent !== document.documentElement) {
      out.add(parent);
      let n = 0;
      for (let s = parent.firstElementChild; s && n < MAX_SIBLINGS; s = s.nextElementSibling, n++) out.add(s);
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    let n = 0;
    for (let d = walker.nextNode(); d && n < MAX_DESCENDANTS; d = walker.nextNode(), n++) out.add(d as Element);
  }
  // Document order: a parent's line comes before its children's, which may only inherit its change.
  return new Set([...out].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1)));
}

export type Looks = Map<Element, string[]>;

/** The computed looks of each element (LOOKS order). */
export function readLooks(els: Iterable<Element>): Looks {
  const out: Looks = new Map();
  for (const el of els) {
    try {
      const s = getComputedStyle(el);
      out.set(
        el,
        LOOKS.map((p) => s.getPropertyValue(p)),
      );
    } catch {
      // detached or odd node
    }
  }
  return out;
}

const q = (v: string): string => JSON.stringify(truncate(v, VALUE_MAX));

/** `prop: value` declarations of an inline style, as written. */
function declarations(style: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of (style ?? '').split(';')) {
    const i = d.indexOf(':');
    if (i > 0) out.set(d.slice(0, i).trim().toLowerCase(), d.slice(i + 1).trim());
  }
  return out;
}

/** `style opacity: 1 → 0.4, display: none (removed)`: the declarations that differ. */
function styleChange(before: string | null, after: string | null): string | undefined {
  const a = declarations(before);
  const b = declarations(after);
  const out: string[] = [];
  for (const [k, v] of b) {
    if (!a.has(k)) out.push(`${k}: ${q(v)} (added)`);
    else if (a.get(k) !== v) out.push(`${k}: ${q(a.get(k)!)} → ${q(v)}`);
  }
  for (const [k, v] of a) if (!b.has(k)) out.push(`${k}: ${q(v)} (removed)`);
  if (!out.length) return undefined;
  const more = out.length > MAX_PARTS ? `, … ${out.length - MAX_PARTS} more` : '';
  return `style ${out.slice(0, MAX_PARTS).join(', ')}${more}`;
}

/** `class +hot -idle`: the class names added and removed. */
function classChange(before: string | null, after: string | null): string | undefined {
  const a = new Set((before ?? '').split(/\s+/).filter(Boolean));
  const b = new Set((after ?? '').split(/\s+/).filter(Boolean));
  const added = [...b].filter((c) => !a.has(c)).map((c) => `+${truncate(c, VALUE_MAX)}`);
  const removed = [...a].filter((c) => !b.has(c)).map((c) => `-${truncate(c, VALUE_MAX)}`);
  const all = [...added, ...removed];
  if (!all.length) return undefined;
  return `class ${all.slice(0, MAX_PARTS).join(' ')}${all.length > MAX_PARTS ? ` … ${all.length - MAX_PARTS} more` : ''}`;
}

/** One attribute's change in words, or undefined when it ends as it began. */
export function attributeChange(name: string, before: string | null, after: string | null): string | undefined {
  if (before === after) return undefined;
  if (name === 'class') return classChange(before, after);
  if (name === 'style') return styleChange(before, after);
  if (name === 'hidden') {
    if ((before === null) === (after === null)) return undefined;
    return after === null ? 'no longer hidden (hidden attribute removed)' : 'now hidden (hidden attribute set)';
  }
  if (before === null) return `${name} ${q(after!)} (added)`;
  if (after === null) return `${name} ${q(before)} (removed)`;
  return `${name} ${q(before)} → ${q(after)}`;
}

/** The computed looks that differ, as `computed fill rgb(…) → rgb(…)`, keyed by property. */
function looksChange(before: string[], after: string[]): Map<string, string> {
  const out = new Map<string, string>();
  LOOKS.forEach((p, i) => {
    if (before[i] !== after[i]) out.set(p, `computed ${p} ${before[i] || '(none)'} → ${after[i] || '(none)'}`);
  });
  return out;
}

/** SVG and HTML parts that draw nothing themselves: their inherited colour is no change a person sees. */
const NOT_DRAWN = new Set(['title', 'desc', 'metadata', 'defs', 'script', 'style', 'template', 'clippath', 'mask']);

export interface SeenChanges {
  /** The first old value of each watched attribute that changed, per element. */
  old: Map<Element, Map<string, string | null>>;
  looks: Looks;
}

/**
 * The lines for the neighbourhood: attributes that ended other than they began, then computed looks that changed
 * (a child's inherited change that its parent's line already tells is left out). `skip(el, name)`: attribute
 * changes reported elsewhere (a control's compared state).
 */
export function seenChangeLines(seen: SeenChanges, skip: (el: Element, name: string) => boolean): string[] {
  const perEl = new Map<Element, string[]>();
  const looksOf = new Map<Element, Map<string, string>>();
  const after = readLooks([...seen.looks.keys()].filter((el) => el.isConnected));
  for (const [el, was] of seen.looks) {
    const now = after.get(el);
    if (!now) continue;
    const parts: string[] = [];
    const named = new Set<string>();
    for (const [name, old] of seen.old.get(el) ?? []) {
      if (STATE_ATTRS.has(name) || skip(el, name)) continue;
      const line = attributeChange(name, old, el.getAttribute(name));
      if (!line) continue;
      parts.push(line);
      named.add(name);
      if (name === 'style') for (const k of declarations(el.getAttribute('style')).keys()) named.add(k);
    }
    const looks = looksChange(was, now);
    looksOf.set(el, looks);
    if (!NOT_DRAWN.has(el.localName.toLowerCase()))
      for (const [p, line] of looks) if (!named.has(p) && !inherited(el, p, line, looksOf)) parts.push(line);
    if (parts.length) perEl.set(el, parts);
  }
  const lines = [...perEl].slice(0, MAX_LINES).map(([el, parts]) => `${label(el)}: ${parts.join('; ')}`);
  if (perEl.size > MAX_LINES) lines.push(`… ${perEl.size - MAX_LINES} more elements nearby changed how they look`);
  return lines;
}

/** The element as the report names it; a bare tag name (an unnamed SVG shape) gets its id and classes. */
function label(el: Element): string {
  const d = describeElement(el);
  return d === el.localName ? `${d} ${tagHint(el)}` : d;
}

/** Whether an ancestor within three steps had the same computed change (an inherited colour), told or not. */
function inherited(el: Element, prop: string, line: string, looksOf: Map<Element, Map<string, string>>): boolean {
  let p = parentOf(el);
  for (let i = 0; p && i < 3; i++, p = parentOf(p)) if (looksOf.get(p)?.get(prop) === line) return true;
  return false;
}
