/**
 * Secret redaction for anything leaving the secrets entry: tool outputs and errors, logs, stats, stored results,
 * exports. Known secret values are replaced wherever they occur — as written and URL-encoded, whatever their shape
 * (`sk-…`, `gsk_…`, a bearer token, a password) — and anything shaped like an OpenAI key (`sk-…`) too.
 */
const KEY_SHAPE = /sk-[A-Za-z0-9_-]{6,}/g;
export const REDACTED = '[redacted]';
/** Shorter values would blank out ordinary words; a secret that short protects nothing anyway. */
const MIN_SECRET_LENGTH = 4;

/** A secret's forms as they can appear in text: as written, and percent-encoded (in a URL or a form body). */
function forms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  return encoded === value ? [value] : [value, encoded];
}

export function redactSecrets(text: string, secretValues: Iterable<string>): string {
  let out = text;
  for (const value of secretValues) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    for (const form of forms(value)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out.replace(KEY_SHAPE, REDACTED);
}

/** Image data never holds a secret worth finding, and scanning megabytes of base64 for one costs time. */
const isImageData = (s: string): boolean => s.startsWith('data:image/');

/**
 * A deep copy of `value` with every string passed through `redactText` (so a secret is found in any field, however
 * the value is later serialised). Keys in `skipKeys` are dropped (opaque blobs such as encrypted reasoning).
 */
export function redactDeep(
  value: unknown,
  redactText: (text: string) => string,
  skipKeys: ReadonlySet<string> = new Set(),
): unknown {
  if (typeof value === 'string') return isImageData(value) ? value : redactText(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redactText, skipKeys));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!skipKeys.has(k)) out[k] = redactDeep(v, redactText, skipKeys);
    return out;
  }
  return value;
}
