import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  ENGINES,
  seedParent,
  testMigrator,
  type TestDatabase,
} from '../../test/databases.js';

/** Requests stored before the community indexes held what the inbox's filters ask. */
describe.each(ENGINES)('migration 0027 over existing requests on %s', (engine) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  /** The columns of an index, in order, its PostgreSQL `include` list after them. */
  async function columnsOf(d: TestDatabase, index: string): Promise<string[]> {
    if (d.config.kind === 'sqlite') {
      const { rows } = await sql<{
        name: string;
      }>`select name from pragma_index_info(${index}) order by seqno`.execute(d.handle.db);
      return rows.map((r) => r.name);
    }
    const { rows } = await sql<{ name: string }>`
      select a.attname as name
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where c.relname = ${index} and n.nspname = ${d.config.schema}
      order by k.position`.execute(d.handle.db);
    return rows.map((r) => r.name);
  }

  it('rebuilds both community indexes with the creator, type, title and invited person, keeping every request', async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    const migrator = testMigrator(database);
    expect((await migrator.migrateTo('0025_community_member_requests')).error).toBeUndefined();
    const now = new Date().toISOString();
    await seedParent(database, now);
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('communities')
      .values({
        id: 'c',
        slug: 'c',
        data: '{}',
        title: 'C',
        searchText: ' c ',
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
    const ids = [randomUUID(), randomUUID()];
    await db
      .insertInto('requests')
      .values(
        ids.map((id, i) => ({
          id,
          type: 'community-inclusion',
          status: i === 0 ? 'submitted' : 'declined',
          title: `Request ${i}`,
          createdBy: user.id,
          receiverCommunityId: 'c',
          receiverUserId: null,
          topicRecordId: null,
          expiresAt: null,
          revisionId: 1,
          createdAt: now,
          updatedAt: now,
          lastActivityAt: now,
        })),
      )
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const order = (column: string) => ['receiver_community_id', 'status', column, 'number'];
    const rest = ['created_by', 'type', 'title', 'receiver_user_id'];
    expect(await columnsOf(database, 'requests_receiver_created_idx')).toEqual([
      ...order('created_at'),
      ...rest,
    ]);
    expect(await columnsOf(database, 'requests_receiver_activity_idx')).toEqual([
      ...order('last_activity_at'),
      ...rest,
    ]);
    const rows = await db
      .selectFrom('requests')
      .select(['id', 'status'])
      .where('receiverCommunityId', '=', 'c')
      .orderBy('number')
      .execute();
    expect(rows).toEqual([
      { id: ids[0], status: 'submitted' },
      { id: ids[1], status: 'declined' },
    ]);
  });
});
