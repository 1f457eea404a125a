import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Invitations to communities and requests to join them. Both are requests (they have a
 * conversation, a decision and an expiry like submissions); an invitation's receiver is a person
 * rather than a community, so requests gain `receiver_user_id`, with the index that finds a
 * person's invitations for their inbox.
 *
 * `community_member_requests` holds what the membership would be once accepted: the role offered
 * (or, for a request to join, chosen by the managers before they accept) and the visibility. A
 * closed one stays (`is_open` 0) so that the community's list of invitations shows what became of
 * them; the partial unique index lets each person have at most one open invitation or request per
 * community, whatever races.
 */
export const communityMemberRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('requests')
      .addColumn('receiver_user_id', 'integer', (c) => c.references('users.id'))
      .execute();
    // Partial: the requests addressed to communities (nearly all) are not in it, so neither
    // engine can take it for a way to read those.
    await sql`create index requests_receiver_user_idx
      on requests (receiver_user_id, status, created_at, number)
      where receiver_user_id is not null`.execute(db);

    await db.schema
      .createTable('community_member_requests')
      .addColumn('request_id', 'text', (c) =>
        c.primaryKey().references('requests.id').onDelete('cascade'),
      )
      .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id'))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('visible', 'integer', (c) => c.notNull())
      .addColumn('is_open', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`create unique index community_member_requests_open_idx
      on community_member_requests (community_id, user_id) where is_open = 1`.execute(db);
    // The community's list of invitations, newest first.
    await db.schema
      .createIndex('community_member_requests_community_idx')
      .on('community_member_requests')
      .columns(['community_id', 'created_at'])
      .execute();
  },
};
