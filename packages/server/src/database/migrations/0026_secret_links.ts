import type { Kysely, Migration } from 'kysely';

/**
 * Secret links of a record's parent (all its versions share them, as in InvenioRDM). The token is
 * kept as it was made, because the owner reads it back to copy the link again; its SHA-256 is the
 * key a request's `?token=` is looked up by, so the lookup never compares the secret itself.
 * `expires_at` is a date: the link works until that day begins (UTC), as InvenioRDM's does.
 */
export const secretLinksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('secret_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('parent_id', 'text', (c) =>
        c.notNull().references('parents.id').onDelete('cascade'),
      )
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('permission', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .execute();
    await db.schema
      .createIndex('secret_links_parent_idx')
      .on('secret_links')
      .columns(['parent_id', 'created_at'])
      .execute();
  },
};
