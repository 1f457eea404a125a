import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/**
 * A site upgraded to access requests: its requests, their timelines, reads and member requests
 * survive the rebuild of `requests` (SQLite), which now takes requests to a person from a guest.
 */
describe.each(ENGINES)('migration 0029 over existing requests on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('keeps every request and what points at it, and takes requests of no community and no account', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0028_record_grants')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const owner = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await sql`insert into communities (id, slug, data, title, search_text, visibility, revision_id, created_at, updated_at)
      values ('c', 'c', '{}', 'C', '', 'public', 1, ${now}, ${now})`.execute(db);
    const request = {
      id: 'r1',
      type: 'community-submission',
      status: 'submitted',
      title: 'T',
      createdBy: owner.id,
      receiverCommunityId: 'c',
      receiverUserId: null,
      topicRecordId: null,
      expiresAt: null,
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    };
    await db.insertInto('requests').values(request).execute();
    const event = {
      id: 'e1',
      requestId: 'r1',
      type: 'C',
      payload: '{"content":"hi"}',
      createdBy: owner.id,
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
    };
    await db.insertInto('requestEvents').values(event).execute();
    await db
      .insertInto('requestReads')
      .values({ requestId: 'r1', userId: owner.id, seenAt: now })
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('requests').selectAll().execute()).toEqual([
      { ...request, number: 1, creatorEmail: null },
    ]);
    expect(await db.selectFrom('requestEvents').select('id').execute()).toEqual([{ id: 'e1' }]);
    expect(await db.selectFrom('requestReads').select('requestId').execute()).toEqual([
      { requestId: 'r1' },
    ]);

    // A guest's request to the record's owner: no account, no community; numbers go on.
    await db
      .insertInto('requests')
      .values({
        ...request,
        id: 'r2',
        type: 'guest-access-request',
        createdBy: null,
        creatorEmail: 'guest@example.org',
        receiverCommunityId: null,
        receiverUserId: owner.id,
      })
      .execute();
    const numbers = await db.selectFrom('requests').select('number').orderBy('number').execute();
    expect(numbers.map((r) => r.number)).toEqual([1, 2]);
    const open = {
      requestId: 'r2',
      parentId: 'p',
      recordId: 'p',
      userId: null,
      email: 'guest@example.org',
      fullName: 'Guest',
      locale: 'de',
      isOpen: 1,
      createdAt: now,
    };
    await db.insertInto('accessRequests').values(open).execute();
    // One open request per address and parent, whatever races.
    await db
      .insertInto('requests')
      .values({ ...request, id: 'r3', createdBy: null, receiverCommunityId: null })
      .execute();
    await expect(
      db
        .insertInto('accessRequests')
        .values({ ...open, requestId: 'r3' })
        .execute(),
    ).rejects.toThrow();
    // The events still go with their request, and an access request with it.
    await db.deleteFrom('requests').where('id', 'in', ['r1', 'r2']).execute();
    expect(await db.selectFrom('requestEvents').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('accessRequests').select('requestId').execute()).toEqual([]);
  });
});
