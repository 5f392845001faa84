/**
 * Which URLs a tool may load or fetch, and which of them reach the user's own network (issue #31).
 *
 * - Only web URLs: `http:` and `https:`. Anything else (`file:`, `data:`, `javascript:`, `chrome:`, `blob:`,
 *   `about:`, `view-source:`, extension pages...) is refused with an error that says so: an extension can open such
 *   pages where a web page cannot (a local file, a `data:` page dressed as a bank's sign-in).
 * - The user's own network: loopback (127/8, ::1, `localhost`), private IPv4 ranges (10/8, 172.16/12, 192.168/16),
 *   carrier-grade NAT (100.64/10), link-local (169.254/16, fe80::/10), unique-local IPv6 (fc00::/7), the unspecified
 *   addresses, IPv4-mapped IPv6 forms of all of these, and names that only resolve inside a network (`.local`,
 *   `.internal`, `.localhost`, `.lan`, `.home.arpa`, `.intranet`, single-label names like `router`). Such a destination
 *   asks the user first, unless config `approvals.local_hosts` names it (a developer's `localhost:5173`).
 *
 * Pure functions: no DNS (an extension cannot resolve names), so a public name pointing at a private address is not
 * caught here; fetches re-check the final URL after redirects.
 */

import { z } from '../shared/zod.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export const WEB_SCHEMES = new Set(['http:', 'https:']);

export class UrlPolicyError extends Error {
  override readonly name = 'UrlPolicyError';
}

/** Parses and checks a URL a tool is asked to load: absolute, http or https. Throws UrlPolicyError otherwise. */
export function requireWebUrl(raw: string, tool: string): URL {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new UrlPolicyError(`${tool}: "${cutUrl(raw)}" is not a valid URL (give an absolute http or https URL).`);
  }
  if (!WEB_SCHEMES.has(u.protocol)) {
    throw new UrlPolicyError(
      `${tool} only opens web pages (http: or https:), not ${u.protocol} URLs: ${cutUrl(raw)}. ` +
        'Local files, data:, javascript: and browser pages are off limits to Otto.',
    );
  }
  return u;
}

function cutUrl(raw: string): string {
  return raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
}

/** Why a host is on the user's own network (a phrase for the approval card), or undefined when it is public. */
export function localNetworkReason(host: string): string | undefined {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (!h) return undefined;
  if (h.includes(':')) return ipv6Reason(h);
  const v4 = parseIPv4(h);
  if (v4) return ipv4Reason(v4);
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback (this computer)';
  for (const suffix of LOCAL_SUFFIXES) if (h.endsWith(suffix)) return `a local network name (${suffix})`;
  if (!h.includes('.')) return 'a single-label name (a machine on the local network)';
  return undefined;
}

const LOCAL_SUFFIXES = ['.local', '.internal', '.lan', '.home.arpa', '.intranet', '.corp', '.home'];

/**
 * IPv4 in any form the URL parser accepts. `new URL` already normalises `0x7f.1`, `2130706433` and `127.1` to dotted
 * quads in `hostname`, so only the canonical form is parsed here.
 */
export function parseIPv4(h: string): [number, number, number, number] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number) as [number, number, number, number];
  return parts.every((p) => p <= 255) ? parts : undefined;
}

function ipv4Reason([a, b]: [number, number, number, number]): string | undefined {
  if (a === 127) return 'loopback (this computer)';
  if (a === 0) return 'the unspecified address (this computer)';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 100 && b >= 64 && b <= 127) return 'a carrier-grade NAT address';
  if (a === 169 && b === 254) return 'a link-local address';
  return undefined;
}

/** Expands an IPv6 literal to 8 groups (with an embedded IPv4 tail turned into two groups). */
export function parseIPv6(h: string): number[] | undefined {
  let s = h.split('%')[0]!; // zone index
  const tail = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (tail) {
    const v4 = parseIPv4(tail[1]!);
    if (!v4) return undefined;
    s = s.slice(0, -tail[1]!.length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) =>
    part ? part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : [];
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 && head.length !== 8) return undefined;
  if (fill < 0 || (halves.length === 2 && fill < 1)) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : undefined;
}

function ipv6Reason(h: string): string | undefined {
  const g = parseIPv6(h);
  if (!g) return 'an unreadable IPv6 address';
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7] === 1) return 'loopback (this computer)';
  if (zeros(8)) return 'the unspecified address (this computer)';
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d).
  if ((zeros(5) && g[5] === 0xffff) || zeros(6)) {
    return ipv4Reason([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]);
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return 'a unique-local address';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'a site-local address';
  return undefined;
}

/**
 * Whether config `approvals.local_hosts` lets Otto reach `url` on the user's network without asking. Entries are a
 * host (`localhost`, `router.lan`, `192.168.1.1`, `[::1]`) or a host with a port (`localhost:5173`); a host without a
 * port allows every port.
 */
export function localHostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((entry) => {
    const e = entry.trim().toLowerCase();
    if (!e) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e);
    if (!m) return false;
    return m[1] === host && (!m[2] || m[2] === port);
  });
}

/** What a destination on the user's own network looks like to the approval card. */
export interface LocalDestination {
  /** `http://192.168.1.1` */
  origin: string;
  /** Why it counts as the user's network: `a private address`, `loopback (this computer)`... */
  reason: string;
}

/** The destination's local-network facts when it is on the user's network and not allowed by settings. */
export function localDestination(url: URL, allowed: readonly string[]): LocalDestination | undefined {
  const reason = localNetworkReason(url.hostname);
  if (!reason || localHostAllowed(url, allowed)) return undefined;
  return { origin: url.origin, reason };
}

/**
 * A zod URL parameter that accepts web URLs only, so a `file:`/`data:`/`javascript:` URL is refused at validation,
 * before anything is looked up or asked.
 */
export function webUrlParam(tool: string, description = 'An absolute web URL (http:// or https://)') {
  return z
    .string()
    .min(1)
    .superRefine((value, issue) => {
      try {
        requireWebUrl(value, tool);
      } catch (e) {
        issue.addIssue({ code: 'custom', message: errorMessage(e) });
      }
    })
    .describe(description);
}
