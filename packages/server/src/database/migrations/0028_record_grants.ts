import type { Kysely, Migration } from 'kysely';

/**
 * Grants of a record's parent to people (all its versions share them, as in InvenioRDM). One row
 * per parent and person: the unique key is what makes two parallel grants to the same person one,
 * and a second grant a conflict rather than a duplicate. A person's own index answers "shared
 * with me" and the check of a grant on a record without reading the parent's other grants.
 * `position` keeps the order they were given in (a batch's grants share one time), which
 * InvenioRDM's grant indexes count in. Deleting a parent or a user deletes their grants.
 */
export const recordGrantsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('record_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('parent_id', 'text', (c) =>
        c.notNull().references('parents.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('permission', 'text', (c) => c.notNull())
      .addColumn('origin', 'text')
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('record_grants_parent_user_key', ['parent_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('record_grants_user_idx')
      .on('record_grants')
      .columns(['user_id', 'parent_id', 'permission'])
      .execute();
  },
};
