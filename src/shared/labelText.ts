/**
 * How an origin label reads to the user (the data-flow guard's labels, #13, and the answer-link check's, #42): a
 * site's host, an MCP server by name, a scheme without a site.
 */

/** `bank.example`, `127.0.0.1:4001`, `the MCP server "notes"`, `a data: URL`. */
export function showLabel(label: string): string {
  if (label.startsWith('mcp:')) return `the MCP server "${label.slice(4)}"`;
  if (/^[a-z][a-z0-9+.-]*:$/i.test(label)) return `a ${label} URL`;
  try {
    return new URL(label).host || label;
  } catch {
    return label;
  }
}

/** `a, b and c` */
export function showLabels(labels: readonly string[]): string {
  const shown = labels.map(showLabel);
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
