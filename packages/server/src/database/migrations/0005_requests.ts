import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * Requests (community submissions and inclusions) and their timeline events (comments and log
 * entries). `number` is the human-facing sequence InvenioRDM shows next to the uuid.
 */
export const requestsMigration: Migration = {
  async up(db: AnyDb) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    const json = pg ? 'jsonb' : 'text';
    const identity = pg ? 'serial' : 'integer';

    await db.schema
      .createTable('requests')
      .addColumn('number', identity, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('receiver_community_id', 'text', (c) => c.notNull().references('communities.id'))
      .addColumn('topic_record_id', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('revision_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('last_activity_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('requests_receiver_idx')
      .on('requests')
      .columns(['receiver_community_id', 'status'])
      .execute();
    await db.schema
      .createIndex('requests_creator_idx')
      .on('requests')
      .column('created_by')
      .execute();
    await db.schema
      .createIndex('requests_topic_idx')
      .on('requests')
      .column('topic_record_id')
      .execute();
    await db.schema
      .createIndex('requests_expiry_idx')
      .on('requests')
      .columns(['status', 'expires_at'])
      .execute();

    await db.schema
      .createTable('request_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('requests.id').onDelete('cascade'),
      )
      // 'C' comment, 'L' log event (accepted, declined, comment_deleted…).
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', json, (c) => c.notNull())
      // null: the system (automatic acceptance, expiry).
      .addColumn('created_by', 'integer', (c) => c.references('users.id'))
      .addColumn('revision_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('request_events_request_idx')
      .on('request_events')
      .columns(['request_id', 'created_at'])
      .execute();
  },
};
