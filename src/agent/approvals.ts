/**
 * Whether a destructive call may run without asking: policy `auto`, an origin listed in `approvals.allowed_origins`,
 * or an origin the user allowed with "always allow on this site".
 *
 * `allowed_origins` entries: a full origin (`https://example.com`), an origin with a wildcard subdomain
 * (`https://*.example.com`, which also matches `https://example.com`), or a bare host (`example.com`, any scheme).
 */

export function originMatches(origin: string, pattern: string): boolean {
  const p = pattern.trim().replace(/\/+$/, '').toLowerCase();
  const o = origin.toLowerCase();
  if (!p) return false;
  if (p === o) return true;
  let url: URL;
  try {
    url = new URL(o);
  } catch {
    return false;
  }
  const host = url.host;
  if (!p.includes('://')) return hostMatches(host, p);
  const [scheme, rest] = p.split('://', 2) as [string, string];
  return `${scheme}:` === url.protocol && hostMatches(host, rest);
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.')) {
    const base = pattern.slice(2);
    return host === base || host.endsWith(`.${base}`);
  }
  return host === pattern;
}

export function originAllowed(origin: string | undefined, patterns: readonly string[]): boolean {
  return !!origin && patterns.some((p) => originMatches(origin, p));
}
