import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import { fileURLToPath } from 'node:url';
import manifest from './manifest.json' with { type: 'json' };

// One build for every entry of the extension; CRXJS reads the manifest and bundles what it names.
export default defineConfig({
  plugins: [
    {
      // The MCP SDK imports its Ajv validator eagerly; Otto never uses it (Ajv needs eval). See src/mcp/ajvStub.ts.
      name: 'otto-stub-mcp-ajv',
      enforce: 'pre',
      resolveId(source, importer) {
        if (/ajv-provider\.js$/.test(source) && importer?.includes('@modelcontextprotocol')) {
          return fileURLToPath(new URL('./src/mcp/ajvStub.ts', import.meta.url));
        }
        return null;
      },
    },
    crx({ manifest }),
    {
      // Building `reader.iife.ts?iife` also emits an ES-module copy of Readability that nothing loads (the worker
      // injects src/content/reader.iife.js): drop it when no other output refers to it.
      name: 'otto-drop-orphan-reader-chunk',
      enforce: 'post',
      generateBundle(_options, bundle) {
        for (const [fileName, out] of Object.entries(bundle)) {
          if (!/^assets\/reader\.iife\.ts-[\w-]+\.js$/.test(fileName) || out.type !== 'chunk') continue;
          const base = fileName.split('/').pop()!;
          const used = Object.values(bundle).some(
            (o) => o !== out && (o.type === 'chunk' ? o.code.includes(base) : String(o.source).includes(base)),
          );
          if (!used) delete bundle[fileName];
        }
      },
    },
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: false,
  },
  server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
  legacy: {},
});
