import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * On PostgreSQL a record's words are kept as a stored `tsvector` beside its search text. The
 * expression index on `to_tsvector('simple', search_text)` found the matching rows, but a word
 * most records share (a search for "data") still made PostgreSQL rebuild the vector of every
 * match to test and rank it: about 0.15 ms a record, so 40 ms for a few hundred records and a
 * search under mixed load waiting half a second. The stored vector is built once, when a record is
 * written. Adding the column rewrites the records table once, at upgrade.
 *
 * SQLite's FTS5 table already keeps its own index, so it has nothing to change.
 */
export const recordsSearchVector: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter table records add column search_vector tsvector
      generated always as (to_tsvector('simple', search_text)) stored`.execute(db);
    await sql`create index records_search_vector_idx on records using gin (search_vector)`.execute(
      db,
    );
    await sql`drop index if exists records_search_idx`.execute(db);
  },
};
