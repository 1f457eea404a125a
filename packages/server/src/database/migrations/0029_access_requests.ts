import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * SQLite cannot drop a NOT NULL: the table is rebuilt from its own definition with the two
 * constraints taken out, its rows and indexes kept. Foreign keys are off meanwhile (outside any
 * transaction, which is how Kysely runs SQLite's migrations), so that dropping the old table does
 * not cascade to the events, reads and member requests that point at `requests`, and then checked.
 */
async function dropNotNullOnSqlite(db: AnyDb): Promise<void> {
  const table = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'requests'`.execute(db);
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master
    where type = 'index' and tbl_name = 'requests' and sql is not null`.execute(db);
  let definition = table.rows[0]!.sql.replace(
    /^CREATE TABLE "?requests"?/i,
    'create table "requests_rebuilt"',
  );
  for (const column of ['created_by', 'receiver_community_id']) {
    const notNull = new RegExp(`("${column}" \\w+) not null`, 'i');
    if (!notNull.test(definition)) throw new Error(`requests.${column} is not as expected`);
    definition = definition.replace(notNull, '$1');
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(definition).execute(trx);
      await sql`insert into requests_rebuilt select * from requests`.execute(trx);
      await sql`drop table requests`.execute(trx);
      await sql`alter table requests_rebuilt rename to requests`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('requests rebuilt with dangling references');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

/**
 * Access requests (InvenioRDM's `user-access-request` and `guest-access-request`): a reader asks
 * a record's owner for its restricted files. They are requests like the others (conversation,
 * decision, inbox), but between people: the owner receives them (`receiver_user_id`), not a
 * community, and a guest who made one has no account. So `receiver_community_id` and `created_by`
 * may now be empty, and a guest's request names their address (`creator_email`).
 *
 * `access_requests` holds who asked and for what, beside the request: the signed-in person, or
 * the guest's verified address and name. Its partial unique indexes let each person (or address)
 * have one open request per record parent, whatever races. `access_request_tokens` holds a
 * guest's asking until they follow the link sent to their address: only its hash is kept.
 */
export const accessRequestsMigration: Migration = {
  async up(db: AnyDb) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    if (pg) {
      await sql`alter table requests alter column receiver_community_id drop not null`.execute(db);
      await sql`alter table requests alter column created_by drop not null`.execute(db);
    } else {
      await dropNotNullOnSqlite(db);
    }
    // InvenioRDM's `created_by: {"email": …}` of a guest's request.
    await db.schema.alterTable('requests').addColumn('creator_email', 'text').execute();

    await db.schema
      .createTable('access_requests')
      .addColumn('request_id', 'text', (c) =>
        c.primaryKey().references('requests.id').onDelete('cascade'),
      )
      .addColumn('parent_id', 'text', (c) =>
        c.notNull().references('parents.id').onDelete('cascade'),
      )
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('email', 'text')
      .addColumn('full_name', 'text', (c) => c.notNull())
      // A guest's language, for the e-mail that answers them (they have no account to hold it).
      .addColumn('locale', 'text')
      .addColumn('is_open', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create unique index access_requests_open_user_idx
      on access_requests (parent_id, user_id) where is_open = 1 and user_id is not null`.execute(
      db,
    );
    await sql`create unique index access_requests_open_email_idx
      on access_requests (parent_id, email) where is_open = 1 and email is not null`.execute(db);

    await db.schema
      .createTable('access_request_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('locale', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
