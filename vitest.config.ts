import { defineConfig } from 'vitest/config';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('./packages/shared/src/index.ts', import.meta.url));
const alias = { '@cairn/shared': shared };

export default defineConfig({
  test: {
    // Vitest's default leaves one core free, so a two-core CI machine ran every file one after
    // another while the second core idled whenever a test waited on PostgreSQL, a child server or
    // Ceph. The browser tests stay one at a time (their project runs no files in parallel).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: '.vitest-results.json' }]]
      : ['default'],
    projects: [
      {
        // The lint configuration's own rules: which file may import what.
        test: { name: 'config', include: ['eslint.config.test.js'] },
      },
      {
        resolve: { alias },
        test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          globalSetup: ['packages/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/src/test/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
