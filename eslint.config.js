// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Import rules whose messages say what to do instead (STYLE.md, dependency direction). */
const restrict = (/** @type {{group: string[], message: string}[]} */ patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

const noNode = {
  group: ['node:*', 'fs', 'path', 'crypto', 'http', 'os', 'stream'],
  message: 'shared and web run in the browser too: no Node built-ins. Put this in packages/server.',
};

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
    files: ['packages/shared/src/**'],
    rules: restrict([
      noNode,
      {
        group: ['react', 'react-*', '@mantine/*'],
        message: 'shared is the domain: no React. Put UI in packages/web.',
      },
      {
        group: ['@cairn/server', '@cairn/web', '**/server/**', '**/web/**'],
        message: 'shared imports nothing of ours.',
      },
    ]),
  },
  {
    files: ['packages/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      ...restrict([
        noNode,
        {
          group: ['@cairn/server', '**/server/**'],
          message: 'web talks to the server over HTTP only; share types through @cairn/shared.',
        },
      ]),
    },
  },
  {
    files: ['packages/web/src/components/**'],
    rules: restrict([
      noNode,
      {
        group: ['**/features/**'],
        message:
          'components know no domain: pass data in through props, or move this into a feature.',
      },
    ]),
  },
  {
    files: ['packages/server/src/**'],
    rules: restrict([
      {
        group: ['@cairn/web', 'react', '**/web/**'],
        message: 'the server serves the built web app as files; it never imports it.',
      },
    ]),
  },
  {
    files: ['packages/server/src/**/*.routes.ts'],
    rules: restrict([
      {
        group: ['kysely', '**/*.repository.js', '**/database/**'],
        message: 'routes never touch the database: call the service, which calls the repository.',
      },
    ]),
  },
  {
    files: ['packages/server/src/**/*.repository.ts', 'packages/server/src/**/*.service.ts'],
    rules: restrict([
      {
        group: ['fastify', '@fastify/*'],
        message:
          'services and repositories know no Fastify: take plain arguments, throw coded errors.',
      },
    ]),
  },
);
