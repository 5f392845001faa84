/**
 * Opens Otto's connect page in the user's browser. An extension page is not something the OS knows how to open,
 * so the URL is handed to the browser itself (which passes it to its running instance): `--browser <path>` or
 * `OTTO_BROWSER`, else the usual Chrome/Chromium commands. When none starts, the URL is printed (as with --no-open).
 */
import { spawn } from 'node:child_process';

const CANDIDATES: Record<string, string[]> = {
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: ['chrome.exe'],
  linux: ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser'],
};

function tryOpen(cmd: string, url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, [url], { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export async function openInBrowser(url: string, browser?: string): Promise<boolean> {
  const list = browser ? [browser] : (CANDIDATES[process.platform] ?? CANDIDATES.linux!);
  for (const cmd of list) if (await tryOpen(cmd, url)) return true;
  return false;
}
