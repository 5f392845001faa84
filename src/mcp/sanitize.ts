/**
 * A server's text (tool titles and descriptions, parameter descriptions, `instructions`) is the server's, not
 * Otto's: it is cleaned of characters a reader cannot see (zero-width, bidi controls, Unicode tags, other format and
 * control characters), capped, and counted so the settings can warn. Emoji and ordinary text are untouched.
 */

/** Caps, in characters, for what the model receives. */
export const CAPS = { description: 2000, parameter: 500, instructions: 4000, title: 200 } as const;

// Zero-width and joiners, bidi embeddings/overrides/isolates and marks, invisible operators, BOM, soft hyphen, the
// combining grapheme joiner, Mongolian vowel separator, Hangul fillers, Unicode tags and variation selectors
// 17–256 (both used to smuggle invisible ASCII), and C0/C1 controls other than tab and newline.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDDEF]/g;

export interface Cleaned {
  text: string;
  /** Invisible characters removed. */
  removed: number;
  /** Length before the cap (after removal), when the cap cut it. */
  cutFrom?: number;
}

/** Removes invisible characters and caps at `cap` characters with a visible marker. */
export function clean(text: string, cap: number): Cleaned {
  let removed = 0;
  const stripped = text.replace(INVISIBLE, () => {
    removed++;
    return '';
  });
  if (stripped.length <= cap) return { text: stripped, removed };
  const kept = stripped.slice(0, cap).replace(/[\uD800-\uDBFF]$/, '');
  return {
    text: `${kept}… [cut by Otto: ${stripped.length - kept.length} more characters]`,
    removed,
    cutFrom: stripped.length,
  };
}

/** Counts of what cleaning a tool or a server's text did (for the warning on the server's row). */
export interface CleanReport {
  removed: number;
  /** Where a cap cut: `description`, `parameter <path>`, `instructions`. */
  cut: string[];
}

/**
 * A copy of a JSON Schema with every `description` and `title` cleaned and capped (iteratively: depth was checked
 * before, but a walk must never recurse on server data).
 */
export function cleanSchemaText(schema: Record<string, unknown>, report: CleanReport): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  const stack: { node: unknown; path: string }[] = [{ node: copy, path: '' }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push({ node: item, path: `${path}[${i}]` }));
      continue;
    }
    const obj = node as Record<string, unknown>;
    for (const key of ['description', 'title'] as const) {
      if (typeof obj[key] !== 'string') continue;
      const c = clean(obj[key], key === 'title' ? CAPS.title : CAPS.parameter);
      obj[key] = c.text;
      report.removed += c.removed;
      if (c.cutFrom !== undefined) report.cut.push(`${key} of ${path || 'the schema'} (${c.cutFrom} characters)`);
    }
    for (const [key, value] of Object.entries(obj)) {
      if (
        value &&
        typeof value === 'object' &&
        key !== 'enum' &&
        key !== 'const' &&
        key !== 'default' &&
        key !== 'examples'
      )
        stack.push({ node: value, path: path ? `${path}.${key}` : key });
    }
  }
  return copy;
}
