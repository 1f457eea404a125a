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
          // A file's own module graph cost more than many files' tests: every file imported
          // Fastify, Zod, the AWS SDK and the whole app afresh in a new process, 4 to 5 s of a
          // core each, more than half the time of a small file. Files share a worker's modules
          // instead; each still builds its own app, database and child servers, and the helpers
          // that change process-wide things (spies, fake timers, process.env) undo them.
          isolate: false,
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
          // The journeys run one after another in one worker that keeps its modules: each file
          // imported the app and Playwright afresh in a process of its own, about 4 s a file.
          // Each still starts its own server on a fresh database and its own Chromium. A
          // non-isolated project with one worker needs a group of its own: after the others, as
          // it ran before.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
