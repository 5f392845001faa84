import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import manifest from './manifest.json' with { type: 'json' };
import { LIBRARY_STUBS } from './scripts/libraryStubs.ts';
import { YAML_CHECK_WORKER_FILE, YAML_CHECK_WORKER_NAME } from './src/ui/settings/yamlCheckWorkerFile.ts';

// One build for every entry of the extension; CRXJS reads the manifest and bundles what it names.
export default defineConfig({
  plugins: [
    {
      // Library code Otto never runs but the libraries import eagerly, swapped for small stand-ins that throw a clear
      // error if ever reached. Each stub says why it is safe; bench/bundle.bench.ts measures what they save.
      name: 'otto-stub-unused-library-code',
      enforce: 'pre',
      resolveId(source, importer) {
        if (!importer || !source.startsWith('.') || !/node_modules/.test(importer)) return null;
        const target = path.resolve(path.dirname(importer), source).split(path.sep).join('/');
        const stub = LIBRARY_STUBS.find((s) => s.target.test(target));
        return stub ? fileURLToPath(new URL(stub.file, new URL('./scripts/', import.meta.url))) : null;
      },
    },
    crx({ manifest }),
    {
      // Building `*.iife.ts?iife` also emits an ES-module copy of the script that nothing loads (the worker injects
      // src/content/*.iife.js): drop it when no other output refers to it.
      name: 'otto-drop-orphan-reader-chunk',
      enforce: 'post',
      generateBundle(_options, bundle) {
        for (const [fileName, out] of Object.entries(bundle)) {
          if (!/^assets\/[\w-]+\.iife\.ts-[\w-]+\.js$/.test(fileName) || out.type !== 'chunk') continue;
          const base = fileName.split('/').pop()!;
          const used = Object.values(bundle).some(
            (o) => o !== out && (o.type === 'chunk' ? o.code.includes(base) : String(o.source).includes(base)),
          );
          if (!used) delete bundle[fileName];
        }
      },
    },
    {
      // CRXJS lists scripts imported with `?iife` as web-accessible, which lets any page detect Otto by fetching one.
      // The worker injects them with chrome.scripting.executeScript({ files }), which needs no such entry.
      name: 'otto-unlist-injected-scripts',
      enforce: 'post',
      // CRXJS writes the manifest last, so this edits the written file.
      writeBundle(options) {
        const file = path.join(options.dir ?? 'dist', 'manifest.json');
        if (!existsSync(file)) return;
        const m = JSON.parse(readFileSync(file, 'utf8')) as { web_accessible_resources?: { resources: string[] }[] };
        const injected = (r: string) => /^src\/content\/[\w.-]+\.iife\.js$/.test(r);
        const kept = (m.web_accessible_resources ?? [])
          .map((w) => ({ ...w, resources: w.resources.filter((r) => !injected(r)) }))
          .filter((w) => w.resources.length);
        if (kept.length) m.web_accessible_resources = kept;
        else delete m.web_accessible_resources;
        writeFileSync(file, JSON.stringify(m, null, 2));
      },
    },
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Extension pages the manifest does not name: the live tool reference (ot.help links MCP packs to it), the
    // offscreen document that parses fetched pages (#15) and reads PDFs with pdf.js (#19; pdf.js is a chunk of its
    // own, loaded on the first PDF), and the connect page an MCP client's user answers (#29).
    rollupOptions: {
      input: {
        docs: 'src/docs/index.html',
        offscreen: 'src/offscreen/index.html',
        connect: 'src/connect/index.html',
        // The settings page's YAML-check worker is an entry of this build, not a worker build of its own: it then
        // imports the yaml, zod and config-schema chunks the pages and the service worker already load (a separate
        // worker build copied all three, 206 KB). Its name has no hash, as the page starts it by path.
        [YAML_CHECK_WORKER_NAME]: 'src/ui/settings/yamlCheck.worker.ts',
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === YAML_CHECK_WORKER_NAME ? YAML_CHECK_WORKER_FILE : 'assets/[name]-[hash].js',
      },
    },
    target: 'chrome116',
    sourcemap: false,
  },
  server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
  legacy: {},
});
