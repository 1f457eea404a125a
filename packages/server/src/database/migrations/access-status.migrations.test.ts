import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Published records stored before their access status had a column of its own. */
describe.each(ENGINES)('migration 0011 over existing records on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('fills access_status from each record as InvenioRDM computes it', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0008_vocabulary_words_index')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const cases: Array<[string, object, boolean, string]> = [
      ['r-open', { record: 'public', files: 'public', embargo: { active: false } }, true, 'open'],
      [
        'r-meta',
        { record: 'public', files: 'public', embargo: { active: false } },
        false,
        'metadata-only',
      ],
      [
        'r-files',
        { record: 'public', files: 'restricted', embargo: { active: false } },
        true,
        'restricted',
      ],
      [
        'r-rec',
        { record: 'restricted', files: 'restricted', embargo: { active: false } },
        true,
        'restricted',
      ],
      [
        'r-emb',
        { record: 'public', files: 'restricted', embargo: { active: true, until: '2099-01-01' } },
        false,
        'embargoed',
      ],
    ];
    let version = 0;
    for (const [id, access, filesEnabled] of cases) {
      await db
        .insertInto('records')
        .values({
          id,
          parentId: 'p',
          versionIndex: ++version,
          data: JSON.stringify({ metadata: {}, access, files: { enabled: filesEnabled } }),
          revisionId: 1,
          createdAt: now,
          updatedAt: now,
          title: id,
          searchText: id,
          isLatest: 0,
          publicationDate: '2024',
          resourceType: 'dataset',
          accessRecord: (access as { record: string }).record,
          embargoUntil: null,
          publishedAt: now,
          deletedAt: null,
          filesSummary: null,
        } as never)
        .execute();
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('records')
      .select(['id', 'accessStatus'])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.accessStatus]))).toEqual(
      Object.fromEntries(cases.map(([id, , , status]) => [id, status])),
    );
  });
});
