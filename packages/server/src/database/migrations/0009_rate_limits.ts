import type { Kysely, Migration } from 'kysely';

/**
 * Throttling counters: one row per action, kind of key and key, counting attempts in a fixed
 * window that ends at `reset_at`. In the database, not in memory, so that every app server
 * behind a load balancer counts against the same limit.
 */
export const rateLimitsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'text', (c) => c.notNull())
      .execute();
    // The sweep deletes ended windows.
    await db.schema
      .createIndex('rate_limits_reset_idx')
      .on('rate_limits')
      .column('reset_at')
      .execute();
  },
};
