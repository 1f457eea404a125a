import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A parent holds at most one draft that was never published (its first version or its next
 * one): `unpublished_parent_id` is the parent's id on such a draft and null on the edit draft
 * of a published record, under a unique index. The records service already hands every caller
 * the one new-version draft under the parent's lock; the index keeps that true whatever code
 * writes drafts next.
 *
 * Before this, parallel "new version" calls could each make a draft. Those drafts are left as
 * they were (nobody's work is thrown away): only the newest of each parent is marked, the others
 * can still be published or discarded.
 */
export const oneUnpublishedDraftMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('drafts').addColumn('unpublished_parent_id', 'text').execute();
    await sql`
      update drafts set unpublished_parent_id = parent_id
      where id = (
        select d.id from drafts d
        where d.parent_id = drafts.parent_id
          and not exists (select 1 from records r where r.id = d.id)
        order by d.version_index desc, d.id
        limit 1
      )`.execute(db);
    await db.schema
      .createIndex('drafts_one_unpublished_per_parent')
      .on('drafts')
      .column('unpublished_parent_id')
      .unique()
      .execute();
  },
};
