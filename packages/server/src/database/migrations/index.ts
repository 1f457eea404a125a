import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

// Migrations are written once for both engines; the few differences (identity columns, jsonb,
// full-text indexes) are chosen by engine here rather than kept as two migration trees.
type AnyDb = Kysely<unknown>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const initial: Migration = {
  async up(db: AnyDb) {
    const pg = isPostgres(db);
    const json = pg ? 'jsonb' : 'text';
    const identity = pg ? 'serial' : 'integer';

    await db.schema
      .createTable('users')
      .addColumn('id', identity, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('tokens')
      .addColumn('id', identity, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();

    await db.schema
      .createTable('parents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('data', json, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('parents_owner_idx').on('parents').column('owner_id').execute();

    for (const table of ['drafts', 'records'] as const) {
      let t = db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('parent_id', 'text', (c) => c.notNull().references('parents.id'))
        .addColumn('version_index', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .addColumn('revision_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''));
      if (table === 'drafts') {
        t = t
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('record_created_at', 'text');
      } else {
        t = t
          .addColumn('is_latest', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('publication_date', 'text', (c) => c.notNull())
          .addColumn('resource_type', 'text', (c) => c.notNull())
          .addColumn('access_record', 'text', (c) => c.notNull())
          .addColumn('embargo_until', 'text')
          .addColumn('published_at', 'text', (c) => c.notNull())
          .addColumn('deleted_at', 'text');
      }
      await t.execute();
      await db.schema
        .createIndex(`${table}_parent_idx`)
        .on(table)
        .columns(['parent_id', 'version_index'])
        .execute();
      await db.schema.createIndex(`${table}_updated_idx`).on(table).column('updated_at').execute();
    }
    await db.schema
      .createIndex('records_latest_idx')
      .on('records')
      .columns(['is_latest', 'published_at'])
      .execute();
    await db.schema
      .createIndex('records_embargo_idx')
      .on('records')
      .column('embargo_until')
      .execute();

    await db.schema
      .createTable('pids')
      .addColumn('scheme', 'text', (c) => c.notNull())
      .addColumn('identifier', 'text', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('registration_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('registration_error', 'text')
      .addColumn('next_attempt_at', 'text')
      .addPrimaryKeyConstraint('pids_pk', ['scheme', 'identifier'])
      .execute();
    await db.schema.createIndex('pids_record_idx').on('pids').column('record_id').execute();
    await db.schema
      .createIndex('pids_pending_idx')
      .on('pids')
      .columns(['status', 'next_attempt_at'])
      .execute();

    await db.schema
      .createTable('vocabularies')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('title', json, (c) => c.notNull())
      .addColumn('description', json)
      .addColumn('icon', 'text')
      .addColumn('props', json)
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint('vocabularies_pk', ['type', 'id'])
      .execute();

    // Full-text search over published records: each engine's own index behind one repository.
    if (pg) {
      await sql`create index records_search_idx on records using gin (to_tsvector('simple', search_text))`.execute(
        db,
      );
    } else {
      await sql`create virtual table records_fts using fts5(id unindexed, search_text, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      );
    }
  },
};

/** Every migration, in order. Names sort lexically; never rename or edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
};
