import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * Communities and their members. The community body (metadata, access, theme…) is one JSON
 * column, as InvenioRDM stores it; what search, sorting and permission checks read is copied
 * into columns so none of them parses JSON.
 */
export const communitiesMigration: Migration = {
  async up(db: AnyDb) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    const json = pg ? 'jsonb' : 'text';
    const blob = pg ? 'bytea' : 'blob';

    await db.schema
      .createTable('communities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Lower case; a deleted community keeps its slug reserved, as in InvenioRDM.
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('data', json, (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('type_id', 'text')
      .addColumn('revision_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deleted_at', 'text')
      .addColumn('logo', blob)
      .addColumn('logo_checksum', 'text')
      .execute();
    await db.schema
      .createIndex('communities_created_idx')
      .on('communities')
      .columns(['deleted_at', 'created_at'])
      .execute();

    await db.schema
      .createTable('community_members')
      .addColumn('community_id', 'text', (c) =>
        c.notNull().references('communities.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('revision_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('community_members_pk', ['community_id', 'user_id'])
      .execute();
    // "My communities" and every permission check start from the user.
    await db.schema
      .createIndex('community_members_user_idx')
      .on('community_members')
      .columns(['user_id', 'community_id'])
      .execute();
  },
};
