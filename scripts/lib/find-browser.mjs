/** Finds a Chromium or Chrome: CHROME_PATH first, then the usual install locations. */
import { existsSync } from 'node:fs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const INSTALL_HINT =
  'no Chromium or Chrome found. Install one (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH=/path/to/chrome.';

export function findBrowser(env = process.env) {
  if (env.CHROME_PATH) return existsSync(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}
