import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * A curator's inbox counted and paged from the receiving community's indexes alone. A curator of
 * busy communities sees thousands of requests: the count of a list, and the choice of its page
 * among them, read only the key and the list's order (search: `RequestsRepository.search`), but
 * the filters beside them ask the creator (not its own requests twice), the type, the title (the
 * inbox's search) and the invited person (a community's list shows the invitations of whoever
 * reads it). Held in the two indexes by community and status, every one of those
 * thousands is read from the index, in the community's order, instead of from its table row,
 * scattered over the table by the time it arrived: 1,000 requests, up to 1,000 table pages. The
 * page's own rows are then read by their keys.
 *
 * PostgreSQL keeps the extra columns out of the index's order (`include`); SQLite, which has no
 * such clause, keeps them after the columns of the order, which leaves that order as it was.
 */
export const requestsInboxCovering: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    const indexes = [
      { name: 'requests_receiver_created_idx', order: 'created_at' },
      { name: 'requests_receiver_activity_idx', order: 'last_activity_at' },
    ];
    for (const { name, order } of indexes) {
      await db.schema.dropIndex(name).execute();
      const key = `receiver_community_id, status, ${order}, number`;
      const rest = 'created_by, type, title, receiver_user_id';
      await sql
        .raw(
          pg
            ? `create index ${name} on requests (${key}) include (${rest})`
            : `create index ${name} on requests (${key}, ${rest})`,
        )
        .execute(db);
    }
  },
};
