import type { Kysely, Migration } from 'kysely';

/**
 * A commit's lease on its file, and the indexes the leftovers sweep reads by store key.
 *
 * A file is `committing` while one request assembles and hashes its bytes. The request holds the
 * lease (`commit_lease`, a token of its own) until `commit_lease_until`, renewing it while it
 * works: a lease that has run out belongs to a process that died, and the next commit takes it
 * over and finishes the job, where the row used to stay `committing` for good. The token fences
 * the end of the commit: only the holder may complete the file or put it back to pending.
 */
export const fileCommitLease: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('record_files').addColumn('commit_lease', 'text').execute();
    await db.schema.alterTable('record_files').addColumn('commit_lease_until', 'text').execute();
    // "Does any row still refer to these bytes?", asked of every key the sweep finds in the store.
    await db.schema
      .createIndex('record_files_upload_key_idx')
      .on('record_files')
      .column('upload_key')
      .execute();
    await db.schema
      .createIndex('file_objects_store_key_idx')
      .on('file_objects')
      .column('store_key')
      .execute();
  },
};
