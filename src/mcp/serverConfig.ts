/**
 * Config `servers:` → what to connect to. Header values may reference secrets as `${NAME}` (the whole value or a
 * part: `Bearer ${GITHUB_TOKEN}`); a reference to a secret that is not set makes the server fail to connect with a
 * message naming the secret, never a request with a literal `${...}` in it.
 */
import { parseDocument } from 'yaml';
import type { OttoConfig } from '../config/schema.ts';

export interface ServerSpec {
  name: string;
  url: string;
  /** Header values with secrets substituted. Never logged or shown. */
  headers: Record<string, string>;
  /** Per-request timeout, milliseconds (config `timeout`, seconds). */
  timeoutMs: number;
  enabled: boolean;
}

export type ServerConfig = OttoConfig['servers'][string];

export class MissingSecretError extends Error {
  override readonly name = 'MissingSecretError';
  constructor(
    readonly server: string,
    readonly header: string,
    readonly secret: string,
  ) {
    super(
      `header ${header} references the secret ${secret}, which is not set. Add ${secret} in Settings → Secrets, then run ot.reload()`,
    );
  }
}

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The secret names a header map references. */
export function referencedSecrets(headers: Readonly<Record<string, string>>): string[] {
  const out = new Set<string>();
  for (const v of Object.values(headers)) for (const m of v.matchAll(REF)) out.add(m[1]!);
  return [...out];
}

/** Substitutes `${NAME}` references; throws MissingSecretError for the first one not set. */
export function resolveHeaders(
  server: string,
  headers: Readonly<Record<string, string>>,
  getSecret: (name: string) => string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, value] of Object.entries(headers)) {
    out[header] = value.replace(REF, (_m, name: string) => {
      const secret = getSecret(name);
      if (secret === undefined || secret === '') throw new MissingSecretError(server, header, name);
      return secret;
    });
  }
  return out;
}

/** A server's spec from config (headers resolved). */
export function serverSpec(
  name: string,
  cfg: ServerConfig,
  getSecret: (name: string) => string | undefined,
): ServerSpec {
  return {
    name,
    url: cfg.url,
    headers: resolveHeaders(name, cfg.headers, getSecret),
    timeoutMs: Math.round(cfg.timeout * 1000),
    enabled: cfg.enabled,
  };
}

/** Identity of a connection: a change in any of these means reconnecting. */
export function fingerprint(spec: Pick<ServerSpec, 'url' | 'headers' | 'timeoutMs'>): string {
  return JSON.stringify([spec.url, Object.entries(spec.headers).sort(), spec.timeoutMs]);
}

/** The stored config with `servers.<name>` changed (`undefined` fields untouched; `remove` drops it). Pure. */
export function editServerYaml(
  text: string,
  name: string,
  change: { url?: string; headers?: Record<string, string>; timeout?: number; enabled?: boolean } | 'remove',
): string {
  const doc = parseDocument(text || '');
  if (doc.errors.length) throw new Error('The stored config does not parse; fix it in the YAML editor first.');
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  if (change === 'remove') {
    doc.deleteIn(['servers', name]);
    return doc.toString();
  }
  if (!doc.hasIn(['servers', name]) && !change.url) throw new Error(`A new server needs a url (servers.${name}.url)`);
  for (const [key, value] of Object.entries(change)) if (value !== undefined) doc.setIn(['servers', name, key], value);
  return doc.toString();
}
