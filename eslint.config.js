// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

import featureBoundaries from './eslint/feature-boundaries.js';

/** @typedef {{group: string[], message: string}} Ban */

/** @type {Ban} */
const noNode = {
  group: ['node:*', 'fs', 'path', 'crypto', 'http', 'os', 'stream'],
  message: 'shared and web run in the browser too: no Node built-ins. Put this in packages/server.',
};

/**
 * Which files may not import what (dependency direction), each with a message that says what to do
 * instead. ESLint applies only the last `no-restricted-imports` setting that matches a file, so a
 * block for a folder would silently drop the bans of the package around it; `importBans` gives every
 * glob the bans of each glob that contains it. Globs here either nest (`a/**` holds `a/b/**`) or
 * name disjoint files.
 *
 * @type {{files: string[], bans: Ban[]}[]}
 */
const restrictedImports = [
  {
    files: ['packages/shared/src/**'],
    bans: [
      noNode,
      {
        group: ['react', 'react-*', '@mantine/*'],
        message: 'shared is the domain: no React. Put UI in packages/web.',
      },
      {
        group: ['@cairn/server', '@cairn/web', '**/server/**', '**/web/**'],
        message: 'shared imports nothing of ours.',
      },
    ],
  },
  {
    files: ['packages/web/src/**'],
    bans: [
      noNode,
      {
        group: ['@cairn/server', '**/server/**'],
        message: 'web talks to the server over HTTP only; share types through @cairn/shared.',
      },
    ],
  },
  {
    files: ['packages/web/src/components/**'],
    bans: [
      {
        group: ['**/features/**'],
        message:
          'components know no domain: pass data in through props, or move this into a feature.',
      },
    ],
  },
  {
    files: ['packages/server/src/**'],
    bans: [
      {
        group: ['@cairn/web', 'react', '**/web/**'],
        message: 'the server serves the built web app as files; it never imports it.',
      },
    ],
  },
  {
    files: ['packages/server/src/**/*.routes.ts'],
    bans: [
      {
        group: ['kysely', '**/*.repository.js', '**/database/**'],
        message: 'routes never touch the database: call the service, which calls the repository.',
      },
    ],
  },
  {
    files: ['packages/server/src/**/*.repository.ts', 'packages/server/src/**/*.service.ts'],
    bans: [
      {
        group: ['fastify', '@fastify/*'],
        message:
          'services and repositories know no Fastify: take plain arguments, throw coded errors.',
      },
    ],
  },
];

/** Whether every file `inner` names is also one `outer` names (`outer` ends in `/**`). */
const contains = (/** @type {string} */ outer, /** @type {string} */ inner) =>
  outer.endsWith('/**') && inner.startsWith(outer.slice(0, -2));

/** One block per glob, holding its own bans and those of every glob around it, outermost first. */
function importBans() {
  const all = restrictedImports.flatMap(({ files, bans }) => files.map((glob) => ({ glob, bans })));
  return all
    .map(({ glob }) => {
      const around = all.filter((other) => other.glob === glob || contains(other.glob, glob));
      const patterns = [...new Set(around.flatMap((other) => other.bans))];
      return { glob, depth: around.length, patterns };
    })
    .sort((a, b) => a.depth - b.depth)
    .map(({ glob, patterns }) => ({
      files: [glob],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    }));
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        project: [
          './packages/server/tsconfig.test.json',
          './packages/web/tsconfig.json',
          './e2e/tsconfig.json',
          './bench/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    files: ['**/*.js', 'eslint.config.js', 'vitest.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Tests read JSON responses as loosely typed values; asserting on them is the point.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/src/test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['packages/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['packages/web/src/features/**'],
    plugins: { cairn: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'cairn/feature-boundaries': 'error' },
  },
  ...importBans(),
);
