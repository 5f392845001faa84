import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import manifest from './manifest.json' with { type: 'json' };

// One build for every entry of the extension; CRXJS reads the manifest and bundles what it names.
export default defineConfig({
  plugins: [crx({ manifest })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: false,
  },
  server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
  legacy: {},
});
