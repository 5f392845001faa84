/**
 * Why a text is not a usable http(s) address, in the user's words (issue 34) — or undefined when it is one. Used by
 * the config schema (base URLs, MCP servers) and the settings forms, so a bad URL is refused when it is written
 * with the reason, instead of failing later as "Failed to fetch" (or showing "undefined").
 */
export function httpUrlProblem(raw: string): string | undefined {
  const text = raw.trim();
  if (text === '') return 'is empty: write an address such as https://example.com/mcp';
  if (/\s/.test(text)) return 'has a space in it: an address has none';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (!scheme) {
    return `has no http:// or https:// at the start: write http://${text.replace(/^\/+/, '')} (or https://…)`;
  }
  const protocol = scheme[1]!.toLowerCase();
  if (protocol !== 'http' && protocol !== 'https')
    return `starts with ${protocol}://: Otto connects over http:// or https:// only`;
  const rest = text.slice(scheme[0].length);
  const authority = rest.split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host === '') return 'has no host name after the //';
  if (host.startsWith('[') && !host.includes(']'))
    return 'has an IPv6 address without its closing ]: write it as [::1]';
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]!;
  const port = host.startsWith('[')
    ? host.slice(host.indexOf(']') + 1).replace(/^:/, '')
    : host.slice(hostname.length + 1);
  if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
    return `has port "${port}": a port is a number from 1 to 65535`;
  if (/^\d+(\.\d+){3}$/.test(hostname) && hostname.split('.').some((n) => Number(n) > 255))
    return `has ${hostname}, which is not an IP address: each of its four numbers is at most 255`;
  try {
    new URL(text);
  } catch {
    return `is not a valid address: check the host name "${hostname}"`;
  }
  return undefined;
}
