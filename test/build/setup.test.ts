/**
 * #20: the check `npm start` and `npm test` make before anything from node_modules loads. Packages are current
 * when npm's own record of the install is not older than package-lock.json; a missing browser that cannot be
 * installed gives a message that says what to do.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module (scripts run by Node before any package is installed)
import { ensureSetup, installBrowser, packagesNeed, setupNeeds, SetupError } from '../../scripts/lib/setup.mjs';

const dirs: string[] = [];
function repo(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'otto-setup-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'package-lock.json'), '{}');
  return dir;
}
function install(dir: string, at: Date): void {
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), '{}');
  utimesSync(path.join(dir, 'node_modules', '.package-lock.json'), at, at);
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('packages', () => {
  it('not installed, changed lock, current', () => {
    const dir = repo();
    expect(packagesNeed(dir)).toBe('the packages are not installed (no node_modules)');
    install(dir, new Date(Date.now() - 60_000));
    expect(packagesNeed(dir)).toBe('package-lock.json changed since the packages were installed');
    install(dir, new Date(Date.now() + 1_000));
    expect(packagesNeed(dir)).toBeUndefined();
  });
});

describe('browser', () => {
  it('CHROME_PATH that does not exist counts as no browser', () => {
    const dir = repo();
    install(dir, new Date(Date.now() + 1_000));
    expect(setupNeeds(dir, { CHROME_PATH: '/nonexistent/chrome' })).toEqual({ packages: undefined, browser: true });
  });

  it('without apt-get, or without root and sudo, says what to do instead', () => {
    const noTools = { CHROME_PATH: '/nonexistent/chrome', PATH: '/nonexistent' };
    const quiet = () => undefined;
    expect(() => installBrowser(quiet, noTools)).toThrow(SetupError);
    expect(() => installBrowser(quiet, noTools)).toThrow(
      'no Chromium or Chrome found, and apt-get is not available here to install one. Install Chromium or Chrome yourself (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH=/path/to/chrome, then run the command again.',
    );
    // apt-get present, sudo absent, not root.
    const bin = mkdtempSync(path.join(os.tmpdir(), 'otto-bin-'));
    dirs.push(bin);
    writeFileSync(path.join(bin, 'apt-get'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect(() => installBrowser(quiet, { ...noTools, PATH: bin }, { isRoot: false })).toThrow(
      'not running as root and sudo is not available',
    );
  });

  it('when everything is in place, nothing is done', () => {
    const dir = repo();
    install(dir, new Date(Date.now() + 1_000));
    const lines: string[] = [];
    expect(ensureSetup(dir, { env: { CHROME_PATH: process.execPath }, log: (l: string) => lines.push(l) })).toEqual([]);
    expect(lines).toEqual([]);
  });
});
