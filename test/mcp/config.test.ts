/** Config servers → connection specs: ${NAME} secret references in header values. */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.ts';
import { parse } from 'yaml';
import {
  editServerYaml,
  fingerprint,
  MissingSecretError,
  referencedSecrets,
  resolveHeaders,
  serverSpec,
} from '../../src/mcp/index.ts';

describe('server specs from config', () => {
  it('substitutes ${NAME} secrets in header values, whole or in part', () => {
    const secrets: Record<string, string> = { GITHUB_TOKEN: 'ghp_abc', TEAM: 'otto' };
    expect(
      resolveHeaders(
        'gh',
        { Authorization: 'Bearer ${GITHUB_TOKEN}', 'X-Team': '${TEAM}', Accept: 'text/plain' },
        (n) => secrets[n],
      ),
    ).toEqual({ Authorization: 'Bearer ghp_abc', 'X-Team': 'otto', Accept: 'text/plain' });
    expect(referencedSecrets({ a: '${A} and ${B}', b: '${A}' })).toEqual(['A', 'B']);
  });

  it('a reference to a secret that is not set is an error naming the secret and the fix', () => {
    const err = (() => {
      try {
        resolveHeaders('gh', { Authorization: 'Bearer ${GITHUB_TOKEN}' }, () => undefined);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(MissingSecretError);
    expect((err as Error).message).toBe(
      'header Authorization references the secret GITHUB_TOKEN, which is not set. Add GITHUB_TOKEN in Settings → Secrets, then run ot.reload()',
    );
  });

  it('timeouts are per server, in seconds in config and milliseconds in the spec; the fingerprint follows url, headers, timeout', () => {
    const cfg = ConfigSchema.parse({ servers: { a: { url: 'http://127.0.0.1:9/mcp', timeout: 2.5 } } }).servers.a!;
    const spec = serverSpec('a', cfg, () => undefined);
    expect(spec).toEqual({ name: 'a', url: 'http://127.0.0.1:9/mcp', headers: {}, timeoutMs: 2500, enabled: true });
    expect(fingerprint(spec)).not.toBe(fingerprint({ ...spec, timeoutMs: 1000 }));
    expect(fingerprint(spec)).toBe(fingerprint({ ...spec }));
  });
});

describe('editServerYaml (servers.set / servers.remove)', () => {
  const TEXT = '# my settings\nagent:\n  model: gpt-5-mini # keep\nservers:\n  old: {url: "http://127.0.0.1:9/mcp"}\n';

  it('adds a server, keeping comments and the rest; the result validates', async () => {
    const out = editServerYaml(TEXT, 'demo', {
      url: 'http://127.0.0.1:8765/mcp',
      headers: { Authorization: 'Bearer ${T}' },
      timeout: 10,
    });
    expect(out).toContain('# my settings');
    expect(out).toContain('model: gpt-5-mini # keep');
    const cfg = ConfigSchema.parse(parse(out));
    expect(cfg.servers.demo).toEqual({
      url: 'http://127.0.0.1:8765/mcp',
      headers: { Authorization: 'Bearer ${T}' },
      timeout: 10,
      enabled: true,
    });
    expect(cfg.servers.old!.url).toBe('http://127.0.0.1:9/mcp');
  });

  it('changes only the given fields (disable), removes a server, and refuses a new server without a url', async () => {
    const disabled = parse(editServerYaml(TEXT, 'old', { enabled: false })) as { servers: Record<string, unknown> };
    expect(disabled.servers.old).toEqual({ url: 'http://127.0.0.1:9/mcp', enabled: false });
    const removed = parse(editServerYaml(TEXT, 'old', 'remove')) as { servers: Record<string, unknown> };
    expect(removed.servers).toEqual({});
    expect(() => editServerYaml(TEXT, 'new', { enabled: true })).toThrow('A new server needs a url (servers.new.url)');
    expect(parse(editServerYaml('', 'a', { url: 'http://x.example/mcp' }))).toEqual({
      servers: { a: { url: 'http://x.example/mcp' } },
    });
  });
});
