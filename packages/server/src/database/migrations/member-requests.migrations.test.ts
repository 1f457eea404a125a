import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Requests made before invitations existed, and the rule of one open invitation a person. */
describe.each(ENGINES)('migration 0025 over existing requests on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('leaves earlier requests addressed to their community and allows one open invitation a person', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0024_mail_outbox')).error).toBeUndefined();
    const now = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({ email: 'a@example.org', name: 'A', passwordHash: 'x', isAdmin: 0, createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const community = '00000000-0000-4000-8000-00000000000c';
    await db
      .insertInto('communities')
      .values({
        id: community,
        slug: 'glaciers',
        data: JSON.stringify({ metadata: { title: 'Glaciers' }, access: { visibility: 'public' } }),
        title: 'Glaciers',
        searchText: ' glaciers ',
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
    const request = (id: string, type: string) => ({
      id,
      type,
      status: 'submitted',
      title: 'T',
      createdBy: user.id,
      receiverCommunityId: community,
      topicRecordId: null,
      expiresAt: null,
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    });
    await db.insertInto('requests').values(request('r-before', 'community-submission')).execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const kept = await db.selectFrom('requests').selectAll().where('id', '=', 'r-before').execute();
    expect(kept).toMatchObject([{ receiverCommunityId: community, receiverUserId: null }]);

    const pending = (requestId: string, isOpen: number) =>
      db
        .insertInto('communityMemberRequests')
        .values({
          requestId,
          communityId: community,
          userId: user.id,
          role: 'reader',
          visible: 1,
          isOpen,
          createdAt: now,
        })
        .execute();
    for (const id of ['i-1', 'i-2', 'i-3'])
      await db
        .insertInto('requests')
        .values({ ...request(id, 'community-invitation'), receiverUserId: user.id })
        .execute();
    await pending('i-1', 0);
    await pending('i-2', 1);
    // A second open one for the same person and community is refused; closed ones may be many.
    await expect(pending('i-3', 1)).rejects.toThrow();
    await pending('i-3', 0);
    // Removing a request removes what it would have made.
    await db.deleteFrom('requests').where('id', '=', 'i-2').execute();
    const left = await db
      .selectFrom('communityMemberRequests')
      .select('requestId')
      .orderBy('requestId')
      .execute();
    expect(left.map((r) => r.requestId)).toEqual(['i-1', 'i-3']);
  });
});
