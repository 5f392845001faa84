/**
 * Every permission Otto asks for is used by code and justified in docs/permissions.md (issue #31, item 7), and
 * nothing of Otto is injected into pages through the manifest (issue #26).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as {
  permissions?: string[];
  host_permissions?: string[];
  content_scripts?: unknown;
  web_accessible_resources?: unknown;
  externally_connectable?: unknown;
};
const doc = readFileSync(path.join(ROOT, 'docs/permissions.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(n) ? [readFileSync(p, 'utf8')] : [];
  });
}
const code = sources(path.join(ROOT, 'src')).join('\n');

/** Permissions that unlock no `chrome.<name>` namespace of their own (or another's), and the code that relies on them. */
const NO_API: Record<string, string> = {
  unlimitedStorage: 'openDB',
  declarativeNetRequestWithHostAccess: 'chrome.declarativeNetRequest.updateSessionRules',
};

describe('manifest permissions', () => {
  it('has no content scripts and no web-accessible resources', () => {
    expect(manifest.content_scripts).toBeUndefined();
    expect(manifest.web_accessible_resources).toBeUndefined();
  });

  it('the MCP bridge (#29) adds no permission and opens no door to pages: no externally_connectable, and its relay is loopback only', () => {
    // Not the peers' ways in: no debugger on the user's tabs, no native messaging host.
    for (const p of ['debugger', 'nativeMessaging']) expect(manifest.permissions ?? []).not.toContain(p);
    expect(manifest.externally_connectable).toBeUndefined();
    expect(doc).toContain('**The MCP bridge (#29) adds no permission.**');
    const relay = readFileSync(path.join(ROOT, 'src/cli/mcp/relay.ts'), 'utf8');
    expect(relay).toContain("listen(0, '127.0.0.1'");
    expect(relay).toContain('req.headers.origin === `chrome-extension://${this.opts.extensionId}`');
  });

  // `alarms` came back with schedules (#46), used by background/scheduleEngine.ts.
  it('asks for nothing unused: activeTab is gone', () => {
    for (const p of ['activeTab']) expect(manifest.permissions ?? []).not.toContain(p);
  });

  it('downloads is back for the files pack (#19), with the offscreen PDF reader', () => {
    expect(manifest.permissions).toEqual(expect.arrayContaining(['downloads', 'offscreen']));
    expect(code).toMatch(/chrome\.downloads\.download\(/);
    expect(code).toMatch(/chrome\.offscreen\s*\.createDocument\(/);
  });

  it.each((manifest.permissions ?? []).map((p) => [p]))(
    '%s is used by code and justified in docs/permissions.md',
    (p) => {
      expect(doc).toContain(`| \`${p}\` |`);
      if (NO_API[p]) expect(code).toContain(NO_API[p]);
      else expect(code).toMatch(new RegExp(`chrome\\.${p}\\.`));
    },
  );

  it.each((manifest.host_permissions ?? []).map((p) => [p]))('host %s is justified in docs/permissions.md', (p) => {
    expect(doc).toContain(`| host \`${p}\` |`);
  });
});
