/**
 * Cursors a page sets only under the pointer (#43 part 2): `.like:hover { cursor: pointer }`, `li:hover { cursor:
 * grab }`. The computed style of an element the pointer is not over says `auto`, so the snapshot's "where
 * `cursor: pointer` starts" test misses these controls, and on a page whose listeners were added before Otto came
 * they are what is left to see. This reads the page's stylesheets once per walk (or per task outside one): each
 * style rule whose selector has `:hover` and that sets `cursor` gives its selector with `:hover` taken out, and an
 * element matching one of those selectors gets that cursor.
 *
 * Bounded cost: at most RULES_MAX rules are read per scan (nested `@media`/`@supports`/`@layer` blocks included),
 * at most SELECTORS_MAX selectors kept, bucketed by the id, class or tag their subject must carry
 * (`selectorBuckets.ts`), so an element the cheaper signals left without a role is matched only against the few
 * selectors that could apply to it, and not at all on a page without such rules. Stylesheets of another origin (unreadable),
 * shadow roots' own sheets and CSS nesting are not read: a control styled only there keeps no ref from this.
 */
import { walkMemo } from './visibility.ts';
import { SelectorBuckets } from './selectorBuckets.ts';

/** Rules read per scan: a large site's CSS (~5-10k rules) is read whole; a pathological one stops here. */
export const RULES_MAX = 20_000;
/** Selectors kept per cursor kind. */
export const SELECTORS_MAX = 400;

const DRAG_CURSORS = /^(?:grab|move|(?:[nsew]{1,2}|nesw|nwse|col|row)-resize)$/;

/** The selectors of each kind, without `:hover`. */
export interface HoverCursors {
  pointer: string[];
  drag: string[];
}

type Kind = 'pointer' | 'drag';

/** Splits a selector list at its top-level commas (not inside `:is(a, b)` or `[x="a,b"]`). */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * The selector an element matches when the pointer's `:hover` makes the rule apply, or undefined when it cannot be
 * said: no `:hover`, a pseudo-element, or `:hover` inside a functional pseudo-class (`:not(:hover)` means the reverse).
 */
export function withoutHover(selector: string): string | undefined {
  if (!/:hover\b/i.test(selector) || selector.includes('::')) return undefined;
  if (/\([^)]*:hover/i.test(selector)) return undefined;
  // A bare `:hover` after a combinator stands for any element there (`.menu > :hover` → `.menu > *`).
  const base = selector
    .replace(/(^|[\s>+~]):hover\b/gi, '$1*')
    .replace(/:hover\b/gi, '')
    .trim();
  // `:hover` alone would match every element.
  if (!base || base === '*') return undefined;
  return base;
}

function valid(selector: string): boolean {
  try {
    document.documentElement.matches(selector);
    return true;
  } catch {
    return false;
  }
}

/** A `:hover` rule that sets a pointer or drag cursor: its selectors without `:hover`, into that kind's list. */
function keep(rule: CSSStyleRule, pointer: string[], drag: string[]): void {
  if (!rule.selectorText.toLowerCase().includes(':hover')) return;
  // `cursor: url(hand.cur), pointer`: the keyword after the images is the kind.
  const cursor =
    rule.style
      .getPropertyValue('cursor')
      .trim()
      .split(/[\s,]+/)
      .pop() ?? '';
  const into = cursor === 'pointer' ? pointer : DRAG_CURSORS.test(cursor) ? drag : undefined;
  if (!into) return;
  for (const part of splitSelectors(rule.selectorText)) {
    const base = withoutHover(part);
    if (base && into.length < SELECTORS_MAX && valid(base)) into.push(base);
  }
}

/** Reads the page's stylesheets (bounded) into one selector list per cursor kind. */
export function scanHoverCursors(sheets: Iterable<CSSStyleSheet> = document.styleSheets): HoverCursors {
  const pointer: string[] = [];
  const drag: string[] = [];
  let budget = RULES_MAX;
  const visit = (rules: CSSRuleList): void => {
    for (let i = 0; i < rules.length && budget > 0; i++, budget--) {
      const rule = rules[i]!;
      // Told apart by shape, not by class: `@layer` blocks and DOMs without every CSSOM class (tests) alike.
      if ('selectorText' in rule && 'style' in rule) keep(rule as CSSStyleRule, pointer, drag);
      else if ('styleSheet' in rule) {
        const imported = (rule as CSSImportRule).styleSheet;
        if (imported) readSheet(imported);
      } else if ('cssRules' in rule) visit((rule as CSSGroupingRule).cssRules);
    }
  };
  const readSheet = (sheet: CSSStyleSheet): void => {
    if (sheet.disabled) return;
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      return; // another origin's stylesheet: its rules cannot be read
    }
    visit(rules);
  };
  for (const sheet of sheets) readSheet(sheet);
  return { pointer: [...new Set(pointer)], drag: [...new Set(drag)] };
}

function bucketed(c: HoverCursors): SelectorBuckets<Kind> {
  const b = new SelectorBuckets<Kind>();
  for (const s of c.pointer) b.add(s, 'pointer');
  for (const s of c.drag) b.add(s, 'drag');
  return b;
}

let taskCache: SelectorBuckets<Kind> | undefined;
const MEMO_KEY = Symbol('hoverCursors');

/** The page's hover cursors for this walk (a sliced snapshot spans tasks), or for this task when no walk is open. */
function hoverCursors(): SelectorBuckets<Kind> {
  return walkMemo(MEMO_KEY, () => {
    if (!taskCache) {
      taskCache = bucketed(scanHoverCursors());
      queueMicrotask(() => (taskCache = undefined));
    }
    return taskCache;
  });
}

/**
 * The cursor kind a `:hover` rule gives this element where it starts (not where its parent already has it, as for
 * the computed `cursor: pointer`): `pointer`, `drag`, or undefined. Elements of shadow roots are not matched (the
 * document's rules do not reach them).
 */
export function hoverCursorOf(el: Element): Kind | undefined {
  const c = hoverCursors();
  if (!c.size || el.getRootNode() !== document) return undefined;
  const kind = kindOf(c.matching(el));
  if (!kind) return undefined;
  const parent = el.parentElement;
  return parent && kindOf(c.matching(parent)) === kind ? undefined : kind;
}

/** A pointer rule wins over a drag rule, as the cheaper checks put `clickable` before `draggable`. */
function kindOf(kinds: Kind[]): Kind | undefined {
  return kinds.includes('pointer') ? 'pointer' : kinds[0];
}
