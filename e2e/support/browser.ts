/**
 * Where Chromium is and how Otto's e2e suite starts it: the flags that work headless here (docs/design.md, "Tests").
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DIST = path.join(ROOT, 'dist');

export function chromiumPath(): string {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((c): c is string => !!c && existsSync(c));
  if (!found) throw new Error('No Chromium found: apt-get install -y chromium, or set CHROME_PATH.');
  return found;
}

export function extensionArgs(dist = DIST): string[] {
  return [
    `--disable-extensions-except=${dist}`,
    `--load-extension=${dist}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    // Public-looking names for loopback fixture sites (e2e/attack-surface.spec.ts): `bank.example:<port>` reaches
    // 127.0.0.1, so the suite can tell "another site" from "the user's own network".
    '--host-resolver-rules=MAP *.example 127.0.0.1',
  ];
}
