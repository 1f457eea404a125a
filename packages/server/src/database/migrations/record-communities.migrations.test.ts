import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  migratorOf,
  type TestDatabase,
} from '../../test/databases.js';
import { CommunitiesRepository } from '../../modules/communities/communities.repository.js';

/** A database that ran issue 4's first migrations and holds records in communities already. */
describe.each(ENGINES)('migrations 0006 and 0007 over existing data on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('copies parent.communities into record_communities and indexes existing communities', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = migratorOf(database);
    expect((await migrator.migrateTo('0005_requests')).error).toBeUndefined();
    const now = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ email: 'a@example.org', name: 'A', passwordHash: 'x', isAdmin: 0, createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const community = (id: string, slug: string, text: string) =>
      db
        .insertInto('communities')
        .values({
          id,
          slug,
          data: JSON.stringify({ metadata: { title: slug }, access: { visibility: 'public' } }),
          title: slug,
          searchText: ` ${text} `,
          visibility: 'public',
          typeId: null,
          revisionId: 1,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
          logo: null,
          logoChecksum: null,
        })
        .execute();
    const a = '00000000-0000-4000-8000-00000000000a';
    const b = '00000000-0000-4000-8000-00000000000b';
    await community(a, 'glaciers', 'glaciers glacier research');
    await community(b, 'rivers', 'rivers river delta');
    const parent = (id: string, communities: object) =>
      db
        .insertInto('parents')
        .values({
          id,
          ownerId: user.id,
          data: JSON.stringify({ access: {}, communities, pids: {} }),
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    await parent('aaaaa-00001', { ids: [a, b], default: a });
    await parent('aaaaa-00002', {});

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('recordCommunities')
      .select(['parentId', 'communityId'])
      .orderBy('communityId')
      .execute();
    expect(rows).toEqual([
      { parentId: 'aaaaa-00001', communityId: a },
      { parentId: 'aaaaa-00001', communityId: b },
    ]);
    const repo = new CommunitiesRepository(db, engine);
    const found = await repo.search({
      words: ['glacier'],
      phrase: 'glacier',
      sort: 'bestmatch',
      offset: 0,
      limit: 5,
    });
    expect(found.rows.map((r) => r.slug)).toEqual(['glaciers']);
    expect(found.total).toBe(1);
  });
});
