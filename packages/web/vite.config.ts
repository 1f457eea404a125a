import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The browser bundles shared's TypeScript source: shared is built for Node, not for the browser.
const sharedSource = fileURLToPath(new URL('../shared/src/index.ts', import.meta.url));

// Vite needs a default export; the rest of the package uses named exports only.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@cairn/shared': sharedSource } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server serves dist/index.html and /assets/* as files; it never reads a manifest.
    manifest: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            // citeproc is loaded only when a citation is shown: never part of the first paint.
            { name: 'citation', test: /node_modules[\\/](@citation-js|citeproc)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:5000',
      '/logout': 'http://127.0.0.1:5000',
    },
  },
});
