/**
 * `npm run docs`: writes Otto's tool reference pages (src/tools/packs/ot/docsPages.ts) for the packs the extension
 * ships into public/docs/tools/, which Vite copies into the build; ot.help links to them. Commit the output —
 * test/packs/ot.docs.test.ts fails when it is stale. `--check` only reports stale pages (exit 1).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import '../src/shared/zod.ts';
import { buildRegistry } from '../src/background/registry.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { toolDocPages } from '../src/tools/packs/ot/docsPages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'public', 'docs', 'tools');
const check = process.argv.includes('--check');

const pages = toolDocPages(buildRegistry(DEFAULT_CONFIG));
mkdirSync(dir, { recursive: true });
const existing = new Set(readdirSync(dir).filter((f) => f.endsWith('.html')));
const stale: string[] = [];
for (const [name, html] of pages) {
  const file = path.join(dir, name);
  let old: string | undefined;
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    old = undefined;
  }
  existing.delete(name);
  if (old === html) continue;
  stale.push(name);
  if (!check) writeFileSync(file, html);
}
for (const name of existing) {
  stale.push(`${name} (no longer generated)`);
  if (!check) rmSync(path.join(dir, name));
}
if (check) {
  if (stale.length) {
    console.error(`Stale tool docs: ${stale.join(', ')}. Run npm run docs.`);
    process.exit(1);
  }
  console.log(`Tool docs are up to date (${pages.size} pages).`);
} else {
  console.log(
    `Wrote ${pages.size} pages to ${path.relative(root, dir)}${stale.length ? ` (changed: ${stale.join(', ')})` : ' (no changes)'}.`,
  );
}
