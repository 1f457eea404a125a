import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Finds the one version of a parent that is marked the latest without reading the others: a
 * publish clears that mark, and looking for it through the parent's index read every earlier
 * version, so that publishing cost more the more versions a record had. Partial, so it holds one
 * entry a parent.
 */
export const recordsLatestOfParent: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('records_latest_of_parent_idx')
      .on('records')
      .column('parent_id')
      .where(sql.ref('is_latest'), '=', sql.lit(1))
      .execute();
  },
};
