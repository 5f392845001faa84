/**
 * What `npm start` and `npm test` check before anything else, with Node's built-ins only (nothing from
 * node_modules may load before it is known to be there): are the packages installed and current, and is there a
 * browser? If not, they set up what is missing — Chromium with apt (through sudo when not root), then `npm ci` —
 * and go on. When everything is in place, nothing is done and nothing is printed.
 *
 * "Current" means node_modules/.package-lock.json (which npm writes at the end of every install) is not older than
 * package-lock.json: a pull or checkout that changes the lock file makes the next run install again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findBrowser } from './find-browser.mjs';

export class SetupError extends Error {}

/** Why the packages need installing, or undefined when they are installed and current. */
export function packagesNeed(root) {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return 'the packages are not installed (no node_modules)';
  if (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
    return 'package-lock.json changed since the packages were installed';
  }
  return undefined;
}

/** What is missing: `{ packages: reason | undefined, browser: boolean }`. */
export function setupNeeds(root, env = process.env) {
  return { packages: packagesNeed(root), browser: !findBrowser(env) };
}

const BROWSER_HELP =
  'Install Chromium or Chrome yourself (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROME_PATH=/path/to/chrome, then run the command again.';

function has(cmd, env) {
  return spawnSync('/bin/sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore', env }).status === 0;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) return { ok: false, why: r.error.message };
  return { ok: r.status === 0, why: `exit ${r.status ?? r.signal}` };
}

/** Chromium from apt, as root or through sudo. Throws a SetupError that says what to do when neither works. */
export function installBrowser(log = console.log, env = process.env, { isRoot = process.getuid?.() === 0 } = {}) {
  if (process.platform !== 'linux' || !has('apt-get', env)) {
    throw new SetupError(
      `no Chromium or Chrome found, and apt-get is not available here to install one. ${BROWSER_HELP}`,
    );
  }
  const root = isRoot;
  if (!root && !has('sudo', env)) {
    throw new SetupError(
      `no Chromium or Chrome found, and it cannot be installed: not running as root and sudo is not available. ${BROWSER_HELP}`,
    );
  }
  const pre = root ? [] : ['sudo'];
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`otto setup: no browser found — installing Chromium with apt${root ? '' : ' (sudo)'}`);
  const apt = (...args) =>
    root ? run('apt-get', args, { env: aptEnv }) : run('sudo', ['-E', 'apt-get', ...args], { env: aptEnv });
  const update = apt('update', '-qq');
  const install = update.ok ? apt('install', '-y', '-qq', 'chromium') : update;
  if (!install.ok || !findBrowser(env)) {
    throw new SetupError(
      `no Chromium or Chrome found, and \`${[...pre, 'apt-get install -y chromium'].join(' ')}\` did not install one (${install.ok ? 'no browser afterwards' : install.why}). ${BROWSER_HELP}`,
    );
  }
  log(`otto setup: Chromium installed at ${findBrowser(env)}`);
}

/** `npm ci` with the npm that runs us (npm_execpath) when there is one. */
export function installPackages(root, reason, log = console.log, env = process.env) {
  log(`otto setup: ${reason} — running npm ci`);
  const npmCli = env.npm_execpath && /npm-cli\.js$/.test(env.npm_execpath) ? env.npm_execpath : undefined;
  // --include=dev: Otto is built from source, so its build tools are needed even where NODE_ENV=production is set
  // (a parent process such as Vite sets it, and npm would then skip every devDependency).
  const args = ['ci', '--include=dev', '--no-audit', '--no-fund', '--prefer-offline'];
  const r = npmCli ? run(process.execPath, [npmCli, ...args], { cwd: root }) : run('npm', args, { cwd: root });
  if (!r.ok) throw new SetupError(`npm ci failed (${r.why}); see its output above.`);
  log('otto setup: packages installed');
}

/**
 * Sets up whatever is missing (or everything with `force`, as `npm run setup` does). Returns what it did; throws
 * a SetupError with a message for the user when it cannot.
 */
export function ensureSetup(root, { force = false, log = console.log, env = process.env } = {}) {
  const need = setupNeeds(root, env);
  const did = [];
  if (need.browser) {
    installBrowser(log, env);
    did.push('browser');
  }
  if (need.packages || force) {
    installPackages(root, need.packages ?? 'installing the packages', log, env);
    did.push('packages');
  }
  return did;
}

/** For the command-line entries: set up, or print the reason and exit 1. */
export function ensureSetupOrExit(root, options = {}) {
  try {
    return ensureSetup(root, options);
  } catch (err) {
    if (!(err instanceof SetupError)) throw err;
    console.error(`otto setup: ${err.message}`);
    process.exit(1);
  }
}
