/**
 * docs/specs/004-tool-sdk.md "CLI/Library Dependency Declaration" and "Dependency Checking", translated to a browser
 * (docs/specs/README.md): a CLI or library becomes an extension permission, a host permission, a secret or a browser
 * API.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import {
  browserApi,
  checkDeps,
  host,
  hostOf,
  MissingDependencyError,
  permission,
  requirementsOf,
  requires,
  secret,
  sdk,
  type PermissionsLike,
} from '../../src/sdk/index.ts';
import { harness } from './helpers.ts';

afterEach(() => vi.unstubAllGlobals());

/**
 * The browser the SDK looks at: `chrome` (its `permissions` and APIs) and `navigator`. The SDK reads the real globals
 * when asked (no configured slot), so a test puts its browser there.
 */
function browser(globals: { chrome?: Record<string, unknown>; navigator?: unknown }, perms?: PermissionsLike): void {
  vi.stubGlobal('chrome', { runtime: {}, ...globals.chrome, ...(perms ? { permissions: perms } : {}) });
  vi.stubGlobal('navigator', globals.navigator);
}

/** chrome.permissions with a fixed grant list (`<all_urls>` covers every origin, as in Chrome). */
function permissions(granted: { permissions?: string[]; origins?: string[] }): PermissionsLike & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    contains: async (q) => {
      asked.push(q);
      const perms = q.permissions ?? [];
      const origins = q.origins ?? [];
      return (
        perms.every((p) => granted.permissions?.includes(p)) &&
        origins.every((o) => granted.origins?.includes('<all_urls>') || granted.origins?.includes(o))
      );
    },
  };
}

function plain(pack: string, name: string, run: () => unknown = () => 'ran'): AnyTool {
  return defineTool({
    pack,
    name,
    description: `${pack}.${name}`,
    parameters: z.object({ url: z.string().optional(), urls: z.array(z.string()).optional() }),
    effect: 'reads',
    execute: run,
  }) as AnyTool;
}

function setup(granted: { permissions?: string[]; origins?: string[] }, secrets: Record<string, string> = {}) {
  const perms = permissions(granted);
  const downloads = requires(permission('downloads'))(plain('files', 'save'));
  const search = requires(secret('BRAVE_API_KEY'), host('https://api.search.brave.com/*'))(plain('brave', 'search'));
  const capture = requires(browserApi('chrome.offscreen'))(plain('media', 'capture'));
  const fetcher = requires(hostOf('url'))(plain('web', 'get'));
  const free = plain('misc', 'free');
  const h = harness({
    secrets,
    register: (r) => {
      r.registerPack({ name: 'files' }, [downloads]);
      r.registerPack({ name: 'brave' }, [search]);
      r.registerPack({ name: 'media' }, [capture]);
      r.registerPack({ name: 'web' }, [fetcher]);
      r.registerPack({ name: 'misc' }, [free]);
    },
  });
  browser({}, perms);
  return { h, perms, downloads, search, capture, fetcher, free };
}

describe('Requirement: Dependency Declaration (CLI → permission, library → secret)', () => {
  it("Scenario: Declare single CLI dependency — the requirement is in the tool's metadata and found by checkDeps", async () => {
    const { downloads, h } = setup({ permissions: ['downloads'] });
    expect(requirementsOf(downloads)).toEqual([{ kind: 'permission', name: 'downloads' }]);
    const report = await checkDeps({ registry: h.registry });
    expect(report.tools.find((t) => t.tool === 'files.save')).toEqual({
      tool: 'files.save',
      ok: true,
      dependencies: [{ kind: 'permission', name: 'downloads', status: 'ok' }],
    });
  });

  it('Scenario: Declare CLI with version check — a browser API requirement is verified to exist', async () => {
    const { h } = setup({});
    const report = await checkDeps({ registry: h.registry, tool: 'media.capture' });
    expect(report.tools[0]!.dependencies[0]).toMatchObject({
      kind: 'api',
      name: 'chrome.offscreen',
      status: 'missing',
    });
    expect(report.tools[0]!.dependencies[0]!.fix).toMatch(/provides chrome.offscreen/);
    const ua =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.185 Safari/537.36';
    const brands = [{ brand: 'Chromium', version: '140' }];
    browser({
      chrome: { offscreen: { createDocument() {} } },
      navigator: { userAgent: ua, userAgentData: { brands } },
    });
    const ok = await checkDeps({ registry: h.registry, tool: 'media.capture' });
    expect(ok.ok).toBe(true);
    // The "version" of a browser API is the browser's that provides it.
    expect(ok.tools[0]!.dependencies[0]).toEqual({
      kind: 'api',
      name: 'chrome.offscreen',
      status: 'ok',
      version: 'Chromium 140.0.7339.185',
    });
  });

  it('Scenario: Declare CLI with version check — a minimum Chrome version is checked against the browser', async () => {
    const tool = requires(browserApi('chrome.sidePanel', { minChrome: 141 }))(plain('panel', 'open'));
    const h = harness({ register: (r) => r.registerPack({ name: 'panel' }, [tool]) });
    browser({ chrome: { sidePanel: {} }, navigator: { userAgent: 'Chrome/140.0.7339.185' } });
    const old = await checkDeps({ registry: h.registry });
    expect(old.tools[0]!.dependencies[0]).toEqual({
      kind: 'api',
      name: 'chrome.sidePanel',
      status: 'missing',
      fix: 'Use Chrome 141 or newer',
      version: 'Chrome 140.0.7339.185',
    });
    browser({ chrome: { sidePanel: {} }, navigator: { userAgent: 'Chrome/141.0.1.2' } });
    expect((await checkDeps({ registry: h.registry })).ok).toBe(true);
  });

  it('Scenario: Declare library dependency — a secret requirement is discoverable', async () => {
    const { search, h } = setup({ origins: ['https://api.search.brave.com/*'] }, { BRAVE_API_KEY: 'BSA' });
    expect(requirementsOf(search).map((r) => r.kind)).toEqual(['secret', 'host']);
    const report = await checkDeps({ registry: h.registry, tool: 'brave.search', secrets: h.ctx });
    expect(report).toEqual({
      ok: true,
      missing: [],
      tools: [
        {
          tool: 'brave.search',
          ok: true,
          dependencies: [
            { kind: 'secret', name: 'BRAVE_API_KEY', status: 'ok' },
            { kind: 'host', name: 'https://api.search.brave.com/*', status: 'ok' },
          ],
        },
      ],
    });
  });

  it('requires() does not change the original tool, and stacks', () => {
    const base = plain('x', 'y');
    const once = requires(secret('A'))(base);
    const twice = requires(permission('downloads'))(once);
    expect(requirementsOf(base)).toEqual([]);
    expect(requirementsOf(twice).map((r) => r.kind)).toEqual(['secret', 'permission']);
  });
});

describe('Requirement: Dependency Checking', () => {
  it('Scenario: Check all tools — every tool with declared dependencies, each ok or missing', async () => {
    const { h } = setup({ permissions: ['downloads'] });
    const report = await checkDeps({ registry: h.registry, secrets: h.ctx });
    expect(report.tools.map((t) => [t.tool, t.ok])).toEqual([
      ['brave.search', false],
      ['files.save', true],
      ['media.capture', false],
      ['web.get', false],
    ]);
    expect(report.ok).toBe(false);
    expect(report.missing).toEqual([
      'brave.search: secret BRAVE_API_KEY — Add BRAVE_API_KEY in Settings → Secrets, then run ot.reload()',
      'brave.search: host https://api.search.brave.com/* — Allow Otto on https://api.search.brave.com/*: chrome://extensions → Otto → Details → Site access',
      'media.capture: api chrome.offscreen — Use a recent Chrome or Chromium that provides chrome.offscreen',
      'web.get: host <all_urls> — Allow Otto on the sites it should fetch (or on all sites): chrome://extensions → Otto → Details → Site access',
    ]);
  });

  it('Scenario: Check specific tool — only that tool (a pack name checks the pack)', async () => {
    const { h } = setup({ permissions: ['downloads'] });
    const one = await checkDeps({ registry: h.registry, tool: 'files.save' });
    expect(one.tools.map((t) => t.tool)).toEqual(['files.save']);
    const pack = await checkDeps({ registry: h.registry, tool: 'brave' });
    expect(pack.tools.map((t) => t.tool)).toEqual(['brave.search']);
    await expect(checkDeps({ registry: h.registry, tool: 'nope.nothing' })).rejects.toThrow(
      'Tool not found: nope.nothing',
    );
  });

  it('Scenario: CLI not installed — a permission the extension lacks shows status "missing" with the fix', async () => {
    const { h } = setup({});
    const report = await sdk(h.ctx).checkDeps('files.save');
    expect(report.tools[0]!.dependencies).toEqual([
      {
        kind: 'permission',
        name: 'downloads',
        status: 'missing',
        fix: 'Grant the "downloads" permission to Otto (it must be listed in the manifest\'s permissions or optional_permissions)',
      },
    ]);
  });

  it('a tool whose dependency is missing says so when called (through the interceptor), and does not run', async () => {
    let ran = 0;
    const perms = permissions({});
    const tool = requires(secret('BRAVE_API_KEY'))(plain('brave', 'find', () => ++ran));
    const h = harness({ register: (r) => r.registerPack({ name: 'brave' }, [tool]) });
    browser({}, perms);
    const err = await h.call('brave.find').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingDependencyError);
    expect((err as Error).message).toBe(
      'brave.find cannot run: the secret BRAVE_API_KEY is not set. Add BRAVE_API_KEY in Settings → Secrets, then run ot.reload()',
    );
    expect(ran).toBe(0);
    expect(h.records.at(-1)).toMatchObject({ tool: 'brave.find', success: false, errorType: 'MissingDependencyError' });
    h.secrets.BRAVE_API_KEY = 'now set';
    expect(await h.call('brave.find')).toBe(1);
  });

  it('hostOf checks the origin of each URL argument when called', async () => {
    const { h, perms } = setup({ origins: ['https://allowed.example/*'] });
    expect(await h.call('web.get', { url: 'https://allowed.example:8443/page' })).toBe('ran');
    await expect(h.call('web.get', { url: 'https://other.example/x' })).rejects.toThrow(
      'web.get cannot run: Otto has no host permission for https://other.example/*. Allow Otto on https://other.example/*: chrome://extensions → Otto → Details → Site access',
    );
    expect(perms.asked).toContainEqual({ origins: ['https://other.example/*'] });
  });
});
