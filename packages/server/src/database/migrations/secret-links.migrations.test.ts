import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** A site upgraded to secret links: its records had none, and a parent's go with it. */
describe.each(ENGINES)('migration 0026 over existing records on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('starts every record without links, keeps one token per link, and drops a parent’s links with it', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0024_mail_outbox')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('secretLinks').selectAll().execute()).toEqual([]);

    const link = {
      parentId: 'p',
      token: 't',
      tokenHash: 'h',
      permission: 'view',
      createdAt: now,
      expiresAt: null,
    };
    await db
      .insertInto('secretLinks')
      .values({ ...link, id: 'a' })
      .execute();
    const row = await db.selectFrom('secretLinks').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ ...link, id: 'a', description: '' });
    // Two links never share a token: a token names one link.
    await expect(
      db
        .insertInto('secretLinks')
        .values({ ...link, id: 'b' })
        .execute(),
    ).rejects.toThrow();
    // Nor is there a link of no parent.
    await expect(
      db
        .insertInto('secretLinks')
        .values({ ...link, id: 'c', tokenHash: 'other', parentId: 'missing' })
        .execute(),
    ).rejects.toThrow();

    await db.deleteFrom('parents').where('id', '=', 'p').execute();
    expect(await db.selectFrom('secretLinks').selectAll().execute()).toEqual([]);
  });
});
