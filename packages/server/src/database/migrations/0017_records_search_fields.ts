import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { searchDocument } from '../../modules/records/search/document.js';
import { searchVectorOf, writeSearchEntries } from '../../modules/records/search/index-writer.js';

const BATCH = 500;

/**
 * The records search learns fields, relevance and facets. Its full-text index keeps a record's
 * title, people, description and the rest apart, weighted in that order (SQLite: the FTS5 table
 * `records_search`, keyed by the record's rowid, with Porter stemming and accents folded;
 * PostgreSQL: a `tsvector` with weights A–D and English stemming, written by Cairn with the record
 * instead of generated from one text), and each facet value a record has (resource type and
 * subtype, file type, language, subject) is a row of `record_terms`, indexed by facet and value,
 * so filtering and counting need no LIKE over stored JSON. Existing records are indexed here, five
 * hundred at a time.
 */
export const recordsSearchFields: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('record_terms')
      .addColumn('facet', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('record_terms_pkey', ['facet', 'value', 'record_id'])
      .execute();
    await db.schema
      .createIndex('record_terms_record_idx')
      .on('record_terms')
      .columns(['record_id', 'facet'])
      .execute();
    if (pg) {
      await sql`drop index if exists records_search_vector_idx`.execute(db);
      await sql`alter table records drop column search_vector`.execute(db);
      await sql`alter table records add column search_vector tsvector`.execute(db);
      await sql`create index records_search_vector_idx on records using gin (search_vector)`.execute(
        db,
      );
    } else {
      await sql`drop table records_fts`.execute(db);
      await sql`create virtual table records_search using fts5(title, creators, description, rest, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
    }
    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; data: unknown; filesSummary: unknown }>`
        select id, data, files_summary as "filesSummary" from records
        where id > ${after} order by id limit ${BATCH}
      `.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        const doc = searchDocument(row);
        if (pg)
          await sql`update records set search_vector = ${searchVectorOf(doc)} where id = ${row.id}`.execute(
            db,
          );
        await writeSearchEntries(db, pg ? 'postgres' : 'sqlite', row.id, doc);
      }
      after = rows[rows.length - 1]!.id;
    }
  },
};
