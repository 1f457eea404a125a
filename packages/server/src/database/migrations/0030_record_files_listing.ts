import type { Kysely, Migration } from 'kysely';

/**
 * The files listing in its order (creation, then name), a page at a time: a bucket of 10,000
 * files is read a page from the index, not sorted whole for every page.
 */
export const recordFilesListing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('record_files_listing_idx')
      .on('record_files')
      .columns(['bucket', 'created_at', 'key'])
      .execute();
  },
};
