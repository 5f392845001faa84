/** Pure helpers for the MCP servers form: the "Name: value" header lines, the new server's fields. */
import { httpUrlProblem } from '../../shared/urlProblem.ts';

/** Server names become pack names (`<name>.<tool>` in the command language): identifiers. */
export const SERVER_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `Name: value` lines → a header map; blank lines are skipped. Values may hold `${SECRET}` references. */
export function parseHeaderLines(text: string): { headers: Record<string, string>; problem?: string } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      return { headers, problem: `Header line ${i + 1}: write it as "Name: value"` };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { headers };
}

export interface NewServer {
  name: string;
  url: string;
  headers: string;
  timeout: string;
}

/** The request fields for a new server, or the first problem with the form (undefined while still empty). */
export function newServerFields(
  f: NewServer,
  existing: readonly string[],
): { ok: true; url: string; headers?: Record<string, string>; timeout?: number } | { ok: false; problem?: string } {
  const name = f.name.trim();
  const url = f.url.trim();
  if (name && !SERVER_NAME_RE.test(name))
    return { ok: false, problem: 'Names are identifiers: letters, digits and _ (not starting with a digit).' };
  if (existing.includes(name)) return { ok: false, problem: `A server named ${name} is already configured.` };
  const urlProblem = url ? httpUrlProblem(url) : undefined;
  if (urlProblem) return { ok: false, problem: `The URL ${urlProblem}.` };
  const { headers, problem } = parseHeaderLines(f.headers);
  if (problem) return { ok: false, problem };
  const timeout = f.timeout.trim() ? Number(f.timeout) : undefined;
  if (timeout !== undefined && !(timeout > 0 && timeout <= 600))
    return { ok: false, problem: 'Timeout is a number of seconds, up to 600.' };
  if (!url) return { ok: false };
  return {
    ok: true,
    url,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  };
}
