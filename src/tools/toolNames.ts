/**
 * Qualified tool names (`pack.fn`) ⇄ API names on the wire, which must match `^[a-zA-Z0-9_-]{1,64}$`.
 *
 * Three disjoint forms, told apart by their first characters, so the encoding is injective apart from hashing:
 * - readable  `dom__click`   pack and fn made of [A-Za-z0-9-] runs joined by single `_` (no leading, trailing or
 *             doubled `_`), so the one `__` marks the dot. Never starts with `_`. This is what the model sees for
 *             every built-in tool.
 * - escaped   `_my_20_server_2e_x`  `_` + the whole name with every character outside [A-Za-z0-9-] written as
 *             `_<hex code point>_` (dots, spaces, underscores, unicode). Starts with `_` then a name char or `_<hex>`.
 * - hashed    `___<stem>_<12 hex>`  when either form exceeds 64 characters: a readable stem plus a 48-bit hash of
 *             the qualified name. Starts with `___`, which the escaped form never does.
 * Decoding the first two is pure (`decodeApiName`); hashed names decode only through the registry, which also
 * refuses any collision at registration.
 */

export const API_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;
export const API_NAME_MAX = 64;

const SEGMENT_RE = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const PLAIN_CHAR_RE = /[A-Za-z0-9-]/;
const HASH_HEX = 12;

/** Splits `pack.fn` at the first dot (pack names have none; fn names from MCP servers may). */
export function splitQualifiedName(qualified: string): { pack: string; fn: string } | undefined {
  const dot = qualified.indexOf('.');
  if (dot <= 0 || dot === qualified.length - 1) return undefined;
  return { pack: qualified.slice(0, dot), fn: qualified.slice(dot + 1) };
}

function escapeName(text: string): string {
  let out = '';
  for (const ch of text) out += PLAIN_CHAR_RE.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return out;
}

function unescapeName(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch !== '_') {
      out += ch;
      continue;
    }
    const close = text.indexOf('_', i + 1);
    if (close < 0) return undefined;
    const hex = text.slice(i + 1, close);
    if (!/^[0-9a-f]{1,6}$/.test(hex)) return undefined;
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i = close;
  }
  return out;
}

/** cyrb53-style 53-bit string hash: deterministic, synchronous (crypto.subtle is async), good enough for naming. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The wire name for a qualified name. Deterministic; always matches API_NAME_RE. */
export function encodeApiName(qualified: string): string {
  if (!qualified) throw new Error('Tool name must not be empty');
  const parts = splitQualifiedName(qualified);
  let encoded: string;
  if (parts && SEGMENT_RE.test(parts.pack) && SEGMENT_RE.test(parts.fn)) encoded = `${parts.pack}__${parts.fn}`;
  else encoded = `_${escapeName(qualified)}`;
  if (encoded.length <= API_NAME_MAX) return encoded;
  // Too long: keep a readable stem (disallowed characters become '-') so the model still sees what the tool is.
  const hash = hash53(qualified).toString(16).padStart(14, '0').slice(-HASH_HEX);
  const stemMax = API_NAME_MAX - 3 - 1 - HASH_HEX;
  const stem = (parts ? `${parts.pack}__${parts.fn}` : qualified).replace(/[^A-Za-z0-9_-]/g, '-').slice(0, stemMax);
  return `___${stem}_${hash}`;
}

/**
 * The qualified name behind a readable or escaped API name, or undefined (hashed names, malformed or non-canonical
 * input). Prefer `ToolRegistry.fromApiName`, which also knows hashed names.
 */
export function decodeApiName(apiName: string): string | undefined {
  if (!API_NAME_RE.test(apiName) || apiName.startsWith('___')) return undefined;
  let qualified: string | undefined;
  if (apiName.startsWith('_')) qualified = unescapeName(apiName.slice(1));
  else {
    const sep = apiName.indexOf('__');
    qualified = sep > 0 ? `${apiName.slice(0, sep)}.${apiName.slice(sep + 2)}` : undefined;
  }
  // Only canonical encodings decode, so every API name has exactly one meaning.
  return qualified !== undefined && encodeApiName(qualified) === apiName ? qualified : undefined;
}
