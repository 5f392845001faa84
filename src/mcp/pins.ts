/**
 * What the user approved, pinned. When a server is first connected, each of its tools is fingerprinted (name,
 * title, description, input schema, annotations: SHA-256 of a canonical JSON) and kept with a copy of what was
 * seen. Every later list (a reconnect, a restarted worker, `notifications/tools/list_changed`) is compared with the
 * pins: a tool whose fingerprint changed is off until the user reviews the difference and turns it on again; a tool
 * that was not there at first is announced and starts off. Pins are kept per server URL (another URL is another
 * server, connected anew).
 */
import type { McpToolInfo } from './client.ts';
import { canonical } from './canonicalJson.ts';

export interface PinnedTool {
  fp: string;
  /** The approved version, for showing the difference. */
  tool: McpToolInfo;
  /** The user turned this tool off. */
  off?: boolean;
  at: number;
}

export interface PinRecord {
  url: string;
  /** Random, per server, kept: the untrusted-boundary tag around this server's text (stable for the prompt cache). */
  tag: string;
  tools: Record<string, PinnedTool>;
  /** When the first tool list was pinned (unset: nothing seen yet, the next list is the approved one). */
  since?: number;
}

export type ReviewState = 'on' | 'off' | 'changed' | 'new';

/** The parts of a tool that define what the user approved. */
export function pinnedPart(t: McpToolInfo): unknown {
  return {
    name: t.name,
    title: t.title ?? null,
    description: t.description ?? null,
    inputSchema: t.inputSchema ?? null,
    annotations: t.annotations ?? null,
  };
}

export async function fingerprintTool(t: McpToolInfo): Promise<string> {
  const bytes = new TextEncoder().encode(canonical(pinnedPart(t)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function newPinRecord(url: string): PinRecord {
  const b = new Uint8Array(4);
  crypto.getRandomValues(b);
  return { url, tag: Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''), tools: {} };
}

/** Each tool's state against the pins. */
export function review(rec: PinRecord, fps: ReadonlyMap<string, string>): Map<string, ReviewState> {
  const out = new Map<string, ReviewState>();
  for (const [name, fp] of fps) {
    const pin = rec.tools[name];
    out.set(name, !pin ? 'new' : pin.fp !== fp ? 'changed' : pin.off ? 'off' : 'on');
  }
  return out;
}

const ANNOTATION_WORDS: Record<string, string> = {
  readOnlyHint: 'read-only',
  destructiveHint: 'destructive',
  idempotentHint: 'idempotent',
  openWorldHint: 'open-world',
};

/** What changed between the approved version and the new one, one line each, in the user's words. */
export function describeChange(before: McpToolInfo, after: McpToolInfo): string[] {
  const lines: string[] = [];
  if ((before.description ?? '') !== (after.description ?? '')) lines.push('The description changed.');
  if ((before.title ?? '') !== (after.title ?? '')) lines.push('The title changed.');
  const props = (t: McpToolInfo): Record<string, unknown> =>
    ((t.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}) as Record<
      string,
      unknown
    >;
  const bp = props(before);
  const ap = props(after);
  for (const k of Object.keys(ap)) if (!(k in bp)) lines.push(`New parameter: ${k}.`);
  for (const k of Object.keys(bp)) if (!(k in ap)) lines.push(`Parameter removed: ${k}.`);
  for (const k of Object.keys(ap))
    if (k in bp && canonical(ap[k]) !== canonical(bp[k])) lines.push(`Parameter changed: ${k}.`);
  const rest = (t: McpToolInfo): string => {
    const s = { ...(t.inputSchema as Record<string, unknown> | undefined) };
    delete s.properties;
    return canonical(s);
  };
  if (rest(before) !== rest(after)) lines.push('The input schema changed (required or other rules).');
  const ba = (before.annotations ?? {}) as Record<string, unknown>;
  const aa = (after.annotations ?? {}) as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ba), ...Object.keys(aa)])) {
    if (canonical(ba[k]) === canonical(aa[k])) continue;
    const word = ANNOTATION_WORDS[k] ?? k;
    const show = (v: unknown): string => (v === undefined ? 'unset' : JSON.stringify(v));
    const note = k === 'readOnlyHint' && aa[k] === true ? ' (Otto would run it without asking)' : '';
    lines.push(`It now says ${word}: ${show(ba[k])} → ${show(aa[k])}${note}.`);
  }
  if (!lines.length) lines.push('Something else in its definition changed.');
  return lines;
}
