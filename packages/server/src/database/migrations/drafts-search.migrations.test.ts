import { parseSearchQuery } from '@cairn/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';
import { RECORD_SEARCH_FIELDS } from '../../modules/records/search/compile.js';
import { UserRecordsSearchRepository } from '../../modules/records/user-records-search.repository.js';

/** Drafts saved before drafts had a full-text index of their own. */
describe.each(ENGINES)('migration 0019 over existing drafts (%s)', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it("indexes them, so their owner's uploads search finds them by words, fields and terms", async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0017_records_search_fields')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const data = {
      metadata: {
        title: 'Arctic ice cores',
        description: '<p>Drilled in the Fram Strait.</p>',
        creators: [{ person_or_org: { family_name: 'Jørgensen', given_name: 'Åsa' } }],
        resource_type: { id: 'publication-article' },
        publication_date: '2023-04',
      },
      access: { record: 'public', files: 'public', embargo: { active: false } },
      files: { enabled: true },
    };
    await db
      .insertInto('drafts')
      .values({
        id: 'd1',
        parentId: 'p',
        versionIndex: 1,
        data: JSON.stringify(data),
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: 'Arctic ice cores',
        searchText: 'Arctic ice cores',
        expiresAt: now,
        recordCreatedAt: null,
        unpublishedParentId: 'p',
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

    const { ownerId } = await db
      .selectFrom('parents')
      .select('ownerId')
      .where('id', '=', 'p')
      .executeTakeFirstOrThrow();
    const uploads = new UserRecordsSearchRepository(db, engine);
    const found = async (q: string) =>
      (
        await uploads.searchUserRecords({
          ownerId,
          query: parseSearchQuery(q, RECORD_SEARCH_FIELDS),
          sort: 'updated-desc',
          offset: 0,
          limit: 10,
        })
      ).hits.map((h) => h.id);
    expect(await found('core')).toEqual(['d1']);
    expect(await found('asa')).toEqual(['d1']);
    expect(await found('metadata.title:fram')).toEqual([]);
    expect(await found('metadata.description:fram')).toEqual(['d1']);
    expect(await found('metadata.resource_type.id:publication')).toEqual(['d1']);
    expect(await found('files.entries.ext:csv')).toEqual(['d1']);
    expect(await found('access.status:open')).toEqual(['d1']);
    expect(await found('metadata.publication_date:[2023 TO 2024]')).toEqual(['d1']);
    expect(await found('metadata.publication_date:2022')).toEqual([]);
  });
});
