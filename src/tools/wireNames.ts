/**
 * Speaking to the model in the names it calls. Tool names travel on the wire encoded (`dom.snapshot` →
 * `dom__snapshot`, see toolNames.ts); a description or result that says `dom.snapshot(...)` names a function the
 * model cannot call. So everything sent to the model in tools mode — descriptions, parameter descriptions and tool
 * outputs, except page text inside an untrusted boundary — has registered qualified names rewritten to their wire
 * names, at the request boundary only: the
 * transcript, the panel and the command language keep the dotted names people read. (Code mode keeps dotted names:
 * there the model writes command-language programs.)
 */
import type { ToolRegistry } from './ToolRegistry.ts';

export type Rewrite = (text: string) => string;

/** An untrusted-content block (`<external-content-1a2b3c4d>…</external-content-1a2b3c4d>`, see shared/untrusted.ts). */
const BOUNDARY = /<(external-content-[0-9a-f]{8})>[\s\S]*?<\/\1>/g;

const cache = new WeakMap<ToolRegistry, { key: string; rewrite: Rewrite }>();

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A function replacing every registered `pack.fn` in a text by its wire name (whole names only). */
export function wireRewriter(registry: ToolRegistry): Rewrite {
  const names = registry.names().filter((n) => {
    const api = registry.apiNameOf(n);
    return api !== undefined && api !== n;
  });
  const key = names.join('\n');
  const hit = cache.get(registry);
  if (hit && hit.key === key) return hit.rewrite;
  if (!names.length) return (t) => t;
  const map = new Map(names.map((n) => [n, registry.apiNameOf(n)!]));
  // Longest first so `dom.fill_form` wins over a shorter prefix; not inside a longer identifier or path.
  const re = new RegExp(
    `(?<![\\w.$/-])(${[...names]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|')})(?![\\w-])`,
    'g',
  );
  const plain = (text: string): string => text.replace(re, (m) => map.get(m) ?? m);
  // Page text inside an untrusted boundary is quoted data: it is passed on exactly as the page wrote it.
  const rewrite: Rewrite = (text) => {
    if (text.length < 4) return text;
    if (!text.includes('<external-content-')) return plain(text);
    let out = '';
    let at = 0;
    for (const m of text.matchAll(BOUNDARY)) {
      out += plain(text.slice(at, m.index)) + m[0];
      at = m.index + m[0].length;
    }
    return out + plain(text.slice(at));
  };
  cache.set(registry, { key, rewrite });
  return rewrite;
}

/** Rewrites the descriptions in a JSON Schema (nested properties, items, anyOf...) in place. */
export function rewriteSchemaDescriptions(schema: unknown, rewrite: Rewrite): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const s of schema) rewriteSchemaDescriptions(s, rewrite);
    return;
  }
  const o = schema as Record<string, unknown>;
  if (typeof o.description === 'string') o.description = rewrite(o.description);
  for (const [k, v] of Object.entries(o))
    if (k !== 'description' && typeof v === 'object') rewriteSchemaDescriptions(v, rewrite);
}
