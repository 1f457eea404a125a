import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Accounts made before e-mail notifications existed. */
describe.each(ENGINES)('migration 0024 over existing accounts on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('leaves everyone receiving e-mail, and starts with an empty outbox', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0022_records_sitemap')).error).toBeUndefined();
    await seedParent(database, new Date().toISOString());
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const users = await db.selectFrom('users').select(['email', 'emailNotifications']).execute();
    expect(users).toEqual([{ email: 'a@example.org', emailNotifications: 1 }]);
    expect(await db.selectFrom('mailOutbox').selectAll().execute()).toEqual([]);
  });
});
