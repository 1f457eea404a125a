import { type Kysely, type Migration } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * Which communities each record (parent) is in. `parents.data.communities` stays the record's
 * answer on the wire; this table copies its `ids` so a community's records page and the
 * "member of the record's communities may view it" rule are indexed joins, not JSON scans.
 */
export const recordCommunitiesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('record_communities')
      .addColumn('community_id', 'text', (c) =>
        c.notNull().references('communities.id').onDelete('cascade'),
      )
      .addColumn('parent_id', 'text', (c) =>
        c.notNull().references('parents.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('record_communities_pk', ['community_id', 'parent_id'])
      .execute();
    // "The communities of this record" starts from the parent.
    await db.schema
      .createIndex('record_communities_parent_idx')
      .on('record_communities')
      .columns(['parent_id', 'community_id'])
      .execute();

    // Records accepted into a community before this table existed. The app's connection maps
    // camelCase names to snake_case columns, as everywhere else.
    const parents = (await db
      .selectFrom('parents' as never)
      .select(['id' as never, 'data' as never, 'updatedAt' as never])
      .execute()) as Array<{ id: string; data: unknown; updatedAt: string }>;
    for (const parent of parents) {
      const data = (typeof parent.data === 'string' ? JSON.parse(parent.data) : parent.data) as {
        communities?: { ids?: unknown };
      };
      const ids = Array.isArray(data.communities?.ids) ? (data.communities.ids as string[]) : [];
      if (ids.length === 0) continue;
      await db
        .insertInto('record_communities' as never)
        .values(
          [...new Set(ids)].map((communityId) => ({
            communityId,
            parentId: parent.id,
            createdAt: parent.updatedAt,
          })),
        )
        .execute();
    }
  },
};
