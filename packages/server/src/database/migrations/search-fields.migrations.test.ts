import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Records published before the records search had fields, weights and facet terms. */
describe.each(ENGINES)('migration 0017 over existing records (%s)', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('indexes their title, people and facets, so field queries and facets find them', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0016_user_locale_names')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const data = {
      metadata: {
        title: 'Arctic ice cores',
        description: '<p>Drilled in the Fram Strait.</p>',
        creators: [{ person_or_org: { family_name: 'Jørgensen', given_name: 'Åsa' } }],
        resource_type: { id: 'publication-article' },
        languages: [{ id: 'dan' }],
        subjects: [{ subject: 'Glaciology' }],
      },
    };
    await db
      .insertInto('records')
      .values({
        id: 'r1',
        parentId: 'p',
        versionIndex: 1,
        data: JSON.stringify(data),
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: 'Arctic ice cores',
        searchText: 'Arctic ice cores',
        isLatest: 1,
        publicationDate: '2024',
        resourceType: 'publication-article',
        accessRecord: 'public',
        accessStatus: 'open',
        embargoUntil: null,
        publishedAt: now,
        deletedAt: null,
        filesSummary: JSON.stringify({
          entries: { 'cores.CSV': { key: 'cores.CSV' } },
          count: 1,
          total_bytes: 1,
          pending: 0,
          reserved_bytes: 0,
        }),
      })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const inTitle = async (word: string) =>
      engine === 'sqlite'
        ? (
            await sql<{
              n: number;
            }>`select count(*) as n from records_search where records_search match ${`{title} : ${word}`}`.execute(
              db,
            )
          ).rows[0]!.n
        : (
            await sql<{
              n: number;
            }>`select count(*) as n from records where search_vector @@ to_tsquery('english', ${`${word}:A`})`.execute(
              db,
            )
          ).rows[0]!.n;
    expect(Number(await inTitle('core'))).toBe(1);
    expect(Number(await inTitle('fram'))).toBe(0);
    const terms = await db
      .selectFrom('recordTerms')
      .select(['facet', 'value'])
      .where('recordId', '=', 'r1')
      .orderBy('facet')
      .orderBy('value')
      .execute();
    expect(terms).toEqual([
      { facet: 'file_type', value: 'csv' },
      { facet: 'language', value: 'dan' },
      { facet: 'resource_subtype', value: 'publication-article' },
      { facet: 'resource_type', value: 'publication' },
      { facet: 'subject', value: 'Glaciology' },
    ]);
  });
});
