/**
 * What Otto sends a server must not come back through it. Every value Otto sent (header values, and the secrets
 * they were built from) and every stored secret is replaced in whatever the server returns — results, `isError`
 * texts, JSON-RPC errors, structured content — before the model or the panel sees it. Forms checked: plain,
 * URL-encoded (`%2B`, and `+` for spaces), JSON-escaped (inside structured content) and base64.
 */
import { REDACTED } from '../config/redact.ts';

const MIN_LENGTH = 4;

function forms(value: string): string[] {
  const out = new Set<string>([value]);
  try {
    out.add(encodeURIComponent(value));
    out.add(encodeURIComponent(value).replace(/%20/g, '+'));
    out.add(encodeURI(value));
  } catch {
    // A lone surrogate cannot be URL-encoded; the plain form is still checked.
  }
  out.add(JSON.stringify(value).slice(1, -1));
  try {
    out.add(btoa(value));
  } catch {
    // Not Latin-1: no base64 form.
  }
  return [...out].filter((f) => f.length >= MIN_LENGTH);
}

/** A redactor for the given values (longest first, so a header value is replaced before the secret inside it). */
export function valueRedactor(values: Iterable<string>): (text: string) => string {
  const all = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string' || v.length < MIN_LENGTH) continue;
    for (const f of forms(v)) all.add(f);
    // `Bearer <token>`: the token alone too.
    const m = /^\s*\S+\s+(\S{4,})\s*$/.exec(v);
    if (m) for (const f of forms(m[1]!)) all.add(f);
  }
  const sorted = [...all].sort((a, b) => b.length - a.length);
  if (!sorted.length) return (t) => t;
  return (text) => {
    let out = text;
    for (const f of sorted) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out;
  };
}
