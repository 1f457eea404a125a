import type { Kysely, Migration } from 'kysely';

/**
 * The curators' inbox: a community's requests by latest activity (`sort=updated`), read from an
 * index in that order as `requests_receiver_created_idx` serves the newest first, so that the page
 * is the index's first entries rather than every request of the community sorted.
 */
export const requestsInbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('requests_receiver_activity_idx')
      .on('requests')
      .columns(['receiver_community_id', 'status', 'last_activity_at', 'number'])
      .execute();
  },
};
