import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** A site upgraded to grants: its records had none; a parent's and a person's go with them. */
describe.each(ENGINES)('migration 0028 over existing records on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('starts every record without grants, keeps one grant per person, and drops them with the parent or the person', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0027_requests_inbox_covering')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('recordGrants').selectAll().execute()).toEqual([]);

    const grantee = await db
      .insertInto('users')
      .values({ email: 'b@example.org', name: 'B', passwordHash: 'x', isAdmin: 0, createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const grant = {
      parentId: 'p',
      userId: grantee.id,
      permission: 'view',
      position: 1,
      createdAt: now,
    };
    await db
      .insertInto('recordGrants')
      .values({ ...grant, id: 'a', origin: null })
      .execute();
    expect(await db.selectFrom('recordGrants').selectAll().execute()).toEqual([
      // Without an end (migration 0031's column).
      { ...grant, id: 'a', origin: null, expiresAt: null },
    ]);
    // A second grant to the same person on the same parent is refused by the key itself.
    await expect(
      db
        .insertInto('recordGrants')
        .values({ ...grant, id: 'b', permission: 'edit', origin: null })
        .execute(),
    ).rejects.toThrow();
    // Nor is there a grant of no parent, or to nobody.
    await expect(
      db
        .insertInto('recordGrants')
        .values({ ...grant, id: 'c', parentId: 'missing', origin: null })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('recordGrants')
        .values({ ...grant, id: 'd', userId: grantee.id + 100, origin: null })
        .execute(),
    ).rejects.toThrow();

    await db.deleteFrom('users').where('id', '=', grantee.id).execute();
    expect(await db.selectFrom('recordGrants').selectAll().execute()).toEqual([]);
    await db
      .insertInto('users')
      .values({ email: 'c@example.org', name: 'C', passwordHash: 'x', isAdmin: 0, createdAt: now })
      .execute();
    const other = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'c@example.org')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('recordGrants')
      .values({ ...grant, id: 'e', userId: other.id, origin: 'api:1' })
      .execute();
    await db.deleteFrom('parents').where('id', '=', 'p').execute();
    expect(await db.selectFrom('recordGrants').selectAll().execute()).toEqual([]);
  });
});
