import { type Kysely, type Migration } from 'kysely';

/**
 * OAI-PMH harvests published records in the order of their last change, page after page from
 * where the previous page stopped (`updated_at`, then `id` among records changed in the same
 * millisecond, as a bulk load makes them). With both columns in one index, page 1,000 of a
 * harvest is as cheap as page 1; the single-column index it replaces serves every other use of
 * `updated_at` as the composite's prefix.
 */
export const recordsHarvestOrder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('records_changed_idx')
      .on('records')
      .columns(['updated_at', 'id'])
      .execute();
    await db.schema.dropIndex('records_updated_idx').execute();
  },
};
