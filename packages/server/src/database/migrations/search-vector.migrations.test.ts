import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Records published before PostgreSQL kept their words as a stored vector. */
describe.skipIf(!ENGINES.includes('postgres'))('migration 0014 over existing records', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('gives existing records a vector that searches find, and keeps it current on change', async () => {
    database = await createTestDatabase('postgres');
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0013_one_unpublished_draft')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    await db
      .insertInto('records')
      .values({
        id: 'r1',
        parentId: 'p',
        versionIndex: 1,
        data: '{}',
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: 'Arctic ice cores',
        searchText: 'Arctic ice cores from the Fram Strait',
        isLatest: 1,
        publicationDate: '2024',
        resourceType: 'dataset',
        accessRecord: 'public',
        accessStatus: 'open',
        embargoUntil: null,
        publishedAt: now,
        deletedAt: null,
        filesSummary: null,
      })
      .execute();
    // Up to the migration after it: 0017 replaced the generated vector with a weighted one.
    expect((await migrator.migrateTo('0016_user_locale_names')).error).toBeUndefined();

    const matching = async (word: string) =>
      (
        await sql<{
          id: string;
        }>`select id from records where search_vector @@ to_tsquery('simple', ${word})`.execute(db)
      ).rows.map((r) => r.id);
    expect(await matching('fram')).toEqual(['r1']);
    await db
      .updateTable('records')
      .set({ searchText: 'Antarctic firn' } as never)
      .where('id', '=', 'r1')
      .execute();
    expect(await matching('fram')).toEqual([]);
    expect(await matching('firn')).toEqual(['r1']);

    const indexes = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'records'`.execute(db);
    const names = indexes.rows.map((r) => r.indexname);
    expect(names).toContain('records_search_vector_idx');
    expect(names).not.toContain('records_search_idx');
  });
});
