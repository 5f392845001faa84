/** Small pure formatters for the panel. */

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTokens(n: number | undefined): string {
  if (n === undefined) return '0';
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** Pretty JSON when the text is JSON, else the text as is. */
export function prettyJson(text: string): string {
  const t = text.trim();
  if (!t || !/^[[{"]/.test(t)) return text;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return text;
  }
}

export function truncate(text: string, max: number): { text: string; truncated: boolean } {
  return text.length > max ? { text: `${text.slice(0, max)}…`, truncated: true } : { text, truncated: false };
}

/** A one-line summary of JSON arguments: `tab_id: 3, url: "…"`. */
export function argsSummary(args: string, max = 80): string {
  try {
    const v = JSON.parse(args || '{}') as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const parts = Object.entries(v).map(([k, x]) => `${k}: ${JSON.stringify(x)}`);
      return truncate(parts.join(', '), max).text;
    }
  } catch {
    // fall through: show the raw text
  }
  return truncate(args.replace(/\s+/g, ' '), max).text;
}

/** A stored large result's handle, when a tool output names one (`ot.result(handle="…")` or `"handle": "…"`). */
export function resultHandle(output: string): string | undefined {
  const m =
    /ot\.result\(\s*handle\s*=\s*["']([^"']+)["']/.exec(output) ?? /"handle"\s*:\s*"([^"]{1,200})"/.exec(output);
  return m?.[1];
}

/** The duration the interceptor attached to an object result (`_execution_metadata.duration_ms`). */
export function metadataDuration(output: string): number | undefined {
  const m = /"_execution_metadata"\s*:\s*\{[^}]*"duration_ms"\s*:\s*([0-9.]+)/.exec(output);
  return m ? Number(m[1]) : undefined;
}

export function relativeTime(ts: number, now = Date.now()): string {
  const s = Math.round((now - ts) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(ts).toLocaleDateString();
}
