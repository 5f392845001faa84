/**
 * Selectors bucketed by what their subject must carry, as a browser's style engine buckets its rules: the `#id`, a
 * `.class` or the tag of the selector's rightmost compound. An element is matched only against the selectors of its
 * own id, classes and tag (and the few with no such key), instead of against every selector: on a page whose CSS has
 * hundreds of `:hover` cursor rules, one `matches` over all of them per element doubled a whole-page snapshot's time
 * (#43, docs/decisions/refs.md).
 */

export class SelectorBuckets<T> {
  private readonly byKey = new Map<string, { selector: string; value: T }[]>();
  /** Selectors whose subject has no id, class or tag to key on (`[data-x]`, `*`, escaped names). */
  private readonly always: { selector: string; value: T }[] = [];
  size = 0;

  add(selector: string, value: T): void {
    const key = subjectKey(selector);
    const entry = { selector, value };
    if (key === undefined) this.always.push(entry);
    else {
      const list = this.byKey.get(key);
      if (list) list.push(entry);
      else this.byKey.set(key, [entry]);
    }
    this.size++;
  }

  /** The values of the selectors `el` matches, in the order they were added within each bucket. */
  matching(el: Element): T[] {
    const out: T[] = [];
    const test = (list: { selector: string; value: T }[] | undefined): void => {
      if (list) for (const e of list) if (el.matches(e.selector)) out.push(e.value);
    };
    test(this.always);
    if (el.id) test(this.byKey.get(`#${el.id}`));
    for (const c of el.classList) test(this.byKey.get(`.${c}`));
    test(this.byKey.get(el.localName));
    return out;
  }
}

/**
 * The key of a selector's subject (its rightmost compound): `#id`, else `.class`, else the tag; undefined when it
 * has none, or when it uses escapes or functional pseudo-classes whose text the key could misread.
 */
export function subjectKey(selector: string): string | undefined {
  if (selector.includes('\\')) return undefined;
  const compound = lastCompound(selector);
  if (compound === undefined || compound.includes('(')) return undefined;
  const id = /#(-?[A-Za-z_][\w-]*)/.exec(compound);
  if (id) return `#${id[1]}`;
  const cls = /\.(-?[A-Za-z_][\w-]*)/.exec(compound);
  if (cls) return `.${cls[1]}`;
  const tag = /^([A-Za-z][\w-]*)/.exec(compound);
  return tag ? tag[1]!.toLowerCase() : undefined;
}

/** The text after the selector's last top-level combinator (whitespace, `>`, `+`, `~`). */
function lastCompound(selector: string): string | undefined {
  let depth = 0;
  let quote = '';
  let start = 0;
  const s = selector.trim();
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && (c === ' ' || c === '>' || c === '+' || c === '~' || c === '\n' || c === '\t'))
      start = i + 1;
  }
  const last = s.slice(start).trim();
  return last || undefined;
}
