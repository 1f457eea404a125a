import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/**
 * A site upgraded to grants that end and drafts that name who saved them: what was there keeps
 * working as before (no end, no one named), and a draft's saver going leaves the draft.
 */
describe.each(ENGINES)('migration 0031 over existing grants and drafts on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('leaves grants without an end and drafts without a saver; a saver deleted leaves the draft', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0030_record_files_listing')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const grantee = await db
      .insertInto('users')
      .values({ email: 'b@example.org', name: 'B', passwordHash: 'x', isAdmin: 0, createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('recordGrants')
      .values({
        id: 'g',
        parentId: 'p',
        userId: grantee.id,
        permission: 'manage',
        origin: null,
        position: 1,
        createdAt: now,
      })
      .execute();
    await db
      .insertInto('drafts')
      .values({
        id: 'd',
        parentId: 'p',
        versionIndex: 1,
        data: '{}',
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: 'T',
        searchText: 't',
        filesSummary: null,
        expiresAt: now,
        recordCreatedAt: null,
        unpublishedParentId: 'p',
      })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    expect(await db.selectFrom('recordGrants').select(['id', 'expiresAt']).execute()).toEqual([
      { id: 'g', expiresAt: null },
    ]);
    expect(await db.selectFrom('drafts').select(['id', 'updatedBy']).execute()).toEqual([
      { id: 'd', updatedBy: null },
    ]);
    await db.updateTable('drafts').set({ updatedBy: grantee.id }).execute();
    await db.deleteFrom('users').where('id', '=', grantee.id).execute();
    expect(await db.selectFrom('drafts').select(['id', 'updatedBy']).execute()).toEqual([
      { id: 'd', updatedBy: null },
    ]);
  });
});
