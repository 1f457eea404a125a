// @ts-check
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The sources are linted from memory, so no TypeScript program knows them: type-aware rules are
// turned off here; the import rules under test need no types.
const eslint = new ESLint({
  cwd: import.meta.dirname,
  overrideConfigFile: 'eslint.config.js',
  overrideConfig: [tseslint.configs.disableTypeChecked],
});

/** The import rules `code` breaks when it sits at `filePath`. */
async function importProblems(code, filePath) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'cairn/feature-boundaries')
    .map((m) => m.ruleId);
}

const use = (specifier) => `import x from '${specifier}';\nexport default x;\n`;

describe('import bans', () => {
  it.each([
    ['packages/shared/src/record.ts', 'node:fs'],
    ['packages/shared/src/record.ts', 'react'],
    ['packages/shared/src/record.ts', '../../server/src/app.js'],
    ['packages/web/src/api/client.ts', 'node:fs'],
    ['packages/web/src/api/client.ts', '@cairn/server'],
    // A folder's own bans come on top of its package's, never instead of them.
    ['packages/web/src/components/Widget.tsx', '@cairn/server'],
    ['packages/web/src/components/Widget.tsx', '../../../server/src/app.js'],
    ['packages/web/src/components/Widget.tsx', 'node:path'],
    ['packages/web/src/components/form/Field.tsx', '../../features/deposit/api'],
    ['packages/web/src/features/records/RecordPage.tsx', '@cairn/server'],
    ['packages/server/src/app.ts', '@cairn/web'],
    ['packages/server/src/records/records.routes.ts', 'kysely'],
    ['packages/server/src/records/records.routes.ts', '../../../web/src/main.js'],
    ['packages/server/src/records/records.service.ts', 'fastify'],
    ['packages/server/src/records/records.service.ts', 'react'],
    ['packages/server/src/records/records.repository.ts', '@fastify/multipart'],
    ['packages/server/src/records/records.repository.ts', '@cairn/web'],
  ])('%s may not import %s', async (file, specifier) => {
    expect(await importProblems(use(specifier), file)).toEqual(['no-restricted-imports']);
  });

  it.each([
    ['packages/shared/src/record.ts', 'zod'],
    ['packages/web/src/components/Widget.tsx', '@mantine/core'],
    ['packages/web/src/components/Widget.tsx', '@cairn/shared'],
    ['packages/server/src/app.ts', 'node:fs'],
    ['packages/server/src/records/records.routes.ts', 'fastify'],
    ['packages/server/src/records/records.repository.ts', 'kysely'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await importProblems(use(specifier), file)).toEqual([]);
  });
});

describe('web feature boundaries', () => {
  it.each([
    ['packages/web/src/features/communities/CommunityPage.tsx', '../deposit/community/api'],
    ['packages/web/src/features/deposit/community/Modal.tsx', '../../communities/CurationPolicy'],
    ['packages/web/src/features/records/RecordPage.tsx', '../../features/dashboard/api'],
    ['packages/web/src/features/shared/Thing.tsx', '../records/api'],
  ])('%s may not import %s', async (file, specifier) => {
    expect(await importProblems(use(specifier), file)).toEqual(['cairn/feature-boundaries']);
  });

  it('holds for re-exports and lazy imports too', async () => {
    const file = 'packages/web/src/features/records/index.ts';
    const code =
      "export { a } from '../dashboard/api';\nexport const b = () => import('../deposit/DepositPage');\n";
    expect(await importProblems(code, file)).toEqual([
      'cairn/feature-boundaries',
      'cairn/feature-boundaries',
    ]);
  });

  it.each([
    ['packages/web/src/features/records/RecordPage.tsx', './landing'],
    ['packages/web/src/features/deposit/files/FileTable.tsx', '../api'],
    // A folder inside a feature that happens to share another feature's name is still its own.
    ['packages/web/src/features/deposit/community/Modal.tsx', '../records/x'],
    ['packages/web/src/features/records/RecordPage.tsx', '../shared/useVersionLabel'],
    ['packages/web/src/features/deposit/community/Modal.tsx', '../../shared/CurationPolicy'],
    ['packages/web/src/features/records/RecordPage.tsx', '../../components/PageLoader'],
    ['packages/web/src/features/records/RecordPage.tsx', '../../api/client'],
    ['packages/web/src/features/records/RecordPage.tsx', '../../app/query-client'],
    ['packages/web/src/features/records/RecordPage.tsx', '../../bootstrap'],
    ['packages/web/src/features/records/RecordPage.tsx', '@cairn/shared'],
    ['packages/web/src/app/routes.tsx', '../features/records/RecordPage'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await importProblems(use(specifier), file)).toEqual([]);
  });
});
