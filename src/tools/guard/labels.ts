/**
 * Provenance labels: where a piece of data came from. A label is an origin (`https://bank.example`), an MCP
 * server (`mcp:<server>`), or, for a URL scheme that names no site (`data:`, `file:`), the scheme itself. A set of
 * labels is a sorted array without duplicates, so it persists as plain data and compares cheaply.
 */

export type Labels = readonly string[];

export const NO_LABELS: Labels = Object.freeze([]);

const WEB_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

/** The label of a URL: its origin for web URLs, else its scheme (`data:`), or undefined when it does not parse. */
export function urlLabel(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return WEB_SCHEMES.has(u.protocol) ? u.origin : u.protocol;
}

export function mcpLabel(server: string): string {
  return `mcp:${server}`;
}

/** The union of label sets (sorted, no duplicates). Returns an existing array when nothing is added. */
export function union(a: Labels | undefined, ...rest: (Labels | undefined)[]): Labels {
  let out = a ?? NO_LABELS;
  for (const b of rest) {
    if (!b || !b.length || b === out) continue;
    if (!out.length) {
      out = b;
      continue;
    }
    let added = false;
    for (const l of b)
      if (!out.includes(l)) {
        added = true;
        break;
      }
    if (added) out = [...new Set([...out, ...b])].sort();
  }
  return out;
}

/** Labels from loose values (undefined and duplicates dropped). */
export function labelsOf(values: Iterable<string | undefined>): Labels {
  const set = new Set<string>();
  for (const v of values) if (v) set.add(v);
  return set.size ? [...set].sort() : NO_LABELS;
}
