import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Indexes for what the records search reads most per hit.
 *
 * - Facet counting reads a record's terms (facet and value) for every hit: an index of
 *   (record_id, facet, value) answers it from the index alone, without a lookup of each row.
 * - Date fields (`metadata.publication_date:[2000 TO 2005]`, `created:…`) had no index: a range read
 *   every record. Both dates get one.
 * - PostgreSQL: the GIN index of the whole weighted vector cannot tell a word of the title from the
 *   same word elsewhere, so `metadata.title:energy` on a word frequent in descriptions read most
 *   records to keep the few with it in the title. The title's words (weight A) and the people's
 *   (weight C, `metadata.creators…`) get GIN indexes of their own, over `ts_filter` of the same
 *   vector, so no second copy of the words is written. SQLite's FTS5 filters by column in its
 *   index already.
 */
export const recordsSearchNarrowing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('record_terms_record_values_idx')
      .on('record_terms')
      .columns(['record_id', 'facet', 'value'])
      .execute();
    await db.schema.dropIndex('record_terms_record_idx').execute();
    await db.schema
      .createIndex('records_publication_date_idx')
      .on('records')
      .column('publication_date')
      .execute();
    await db.schema.createIndex('records_created_idx').on('records').column('created_at').execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`create index records_title_words_idx on records using gin (ts_filter(search_vector, '{a}'))`.execute(
        db,
      );
      await sql`create index records_people_words_idx on records using gin (ts_filter(search_vector, '{c}'))`.execute(
        db,
      );
      // The planner's estimates for the new expressions come from statistics gathered on them.
      await sql`analyze records`.execute(db);
    }
  },
};
