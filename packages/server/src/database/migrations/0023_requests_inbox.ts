import type { Kysely, Migration } from 'kysely';

/**
 * The curators' inbox: a community's requests by latest activity (`sort=updated`), read from an
 * index in that order as `requests_receiver_created_idx` serves the newest first, so that the page
 * is the index's first entries rather than every request of the community sorted; and what each
 * person has seen of each request (`request_reads`), so that the inbox marks the unread ones.
 */
export const requestsInbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('requests_receiver_activity_idx')
      .on('requests')
      .columns(['receiver_community_id', 'status', 'last_activity_at', 'number'])
      .execute();

    // One row a person and request, written when the person opens it; its key finds a page's
    // rows for the person. Gone with the request or the person.
    await db.schema
      .createTable('request_reads')
      .addColumn('request_id', 'text', (c) =>
        c.notNull().references('requests.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('request_reads_pk', ['user_id', 'request_id'])
      .execute();
  },
};
