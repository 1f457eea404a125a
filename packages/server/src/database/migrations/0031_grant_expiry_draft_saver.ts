import type { Kysely, Migration } from 'kysely';

/**
 * Three additions of issue 19's last part:
 * - `record_grants.expires_at` (`YYYY-MM-DD`, as a secret link's): a grant given by accepting an
 *   access request for a number of days ends when that day begins; null, as before, for ever.
 * - `access_requests` by parent: a `manage` grantee's inbox finds the access requests of the
 *   parents they manage from their grants, one parent at a time.
 * - `drafts.updated_by`: who saved the draft last, so that the editor can tell a person whose
 *   save was refused who saved before them. Empty on drafts saved before this migration.
 */
export const grantExpiryDraftSaver: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('record_grants').addColumn('expires_at', 'text').execute();
    await db.schema
      .createIndex('access_requests_parent_idx')
      .on('access_requests')
      .columns(['parent_id', 'request_id'])
      .execute();
    await db.schema
      .alterTable('drafts')
      .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
  },
};
