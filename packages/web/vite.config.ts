import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The browser bundles shared's TypeScript source: shared is built for Node, not for the browser.
const sharedSource = fileURLToPath(new URL('../shared/src/index.ts', import.meta.url));

// The description editor (TipTap, ProseMirror) is left out of every library group: it then lands
// in the lazy chunk of the one component that imports it.
const LIBRARIES =
  /node_modules[\\/](?!@tiptap|@mantine[\\/]tiptap|prosemirror-|linkifyjs|orderedmap|rope-sequence|w3c-keyname)/;

const APP = /[\\/]packages[\\/](web|shared)[\\/]src[\\/]/;

// Library subgroups smaller than this (source bytes) join a neighbour rather than make a request
// of their own.
const MERGE_BELOW_BYTES = 0;

// Vite needs a default export; the rest of the package uses named exports only.
/**
 * Runs the entry script as soon as it has loaded rather than once the page has been parsed: the
 * deposit page's draft arrives at the end of its body after the server has prepared it (pages
 * module), and the app meanwhile starts, fetches the page's code and renders its frame.
 */
const asyncEntry: Plugin = {
  name: 'cairn-async-entry',
  // `vite dev` serves the source entry, and no draft streams there.
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html) => {
      const tag = '<script type="module" crossorigin';
      if (!html.includes(tag)) throw new Error('cairn-async-entry: no entry script in index.html');
      return html.replace(tag, '<script type="module" async crossorigin');
    },
  },
};

export default defineConfig({
  plugins: [react(), asyncEntry],
  resolve: { alias: { '@cairn/shared': sharedSource } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server reads which chunks each page needs, to have the browser fetch them with the
    // app's own instead of after it (pages module, page-assets.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // Each page is a chunk of its own (app/routes.tsx), and so are the libraries: those the
        // app's frame needs on every page in one chunk, the others split by the set of pages that
        // use them (`entriesAware`), so that a page loads only the libraries it uses (the deposit
        // form's drag and drop and virtualiser stay off the other pages).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 3,
            },
            { name: 'vendor', test: LIBRARIES, tags: ['$initial'], priority: 1 },
            { name: 'app', test: APP, tags: ['$initial'], priority: 1 },

            {
              name: 'vendor-pages',
              test: LIBRARIES,
              entriesAware: true,
              entriesAwareMergeThreshold: MERGE_BELOW_BYTES,
            },
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
