import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { draftSearchDocument } from '../../modules/records/search/document.js';
import { DraftSearchIndex } from '../../modules/records/search/draft-index.js';
import { searchVectorOf } from '../../modules/records/search/index-writer.js';

const BATCH = 500;

/**
 * A person's uploads are searched with the records search's query syntax, drafts included: drafts
 * get a full-text index of the same shape as the records' (SQLite: the FTS5 table `drafts_search`,
 * keyed by the draft's rowid; PostgreSQL: a weighted `drafts.search_vector` with a GIN index) and
 * their facet terms, in `draft_terms`, which also hold the access status and publication date a
 * draft has no column for. Existing drafts are indexed here, five hundred at a time.
 *
 * Also: an index serving a community's requests list in its order (below).
 */
export const draftsSearch: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('draft_terms')
      .addColumn('facet', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('draft_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('draft_terms_pkey', ['facet', 'value', 'draft_id'])
      .execute();
    await db.schema
      .createIndex('draft_terms_draft_idx')
      .on('draft_terms')
      .columns(['draft_id', 'facet'])
      .execute();
    if (pg) {
      await sql`alter table drafts add column search_vector tsvector`.execute(db);
      await sql`create index drafts_search_vector_idx on drafts using gin (search_vector)`.execute(
        db,
      );
    } else {
      await sql`create virtual table drafts_search using fts5(title, creators, description, rest, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
    }

    // A community's open requests in the order its curators list them (newest first): the page
    // is the index's first entries instead of every open request of the community sorted.
    await db.schema
      .createIndex('requests_receiver_created_idx')
      .on('requests')
      .columns(['receiver_community_id', 'status', 'created_at', 'number'])
      .execute();

    const index = new DraftSearchIndex(pg ? 'postgres' : 'sqlite');
    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; data: unknown; filesSummary: unknown }>`
        select id, data, files_summary as "filesSummary" from drafts
        where id > ${after} order by id limit ${BATCH}
      `.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        if (pg)
          await sql`update drafts set search_vector = ${searchVectorOf(draftSearchDocument(row))} where id = ${row.id}`.execute(
            db,
          );
        await index.write(db, row);
      }
      after = rows[rows.length - 1]!.id;
    }
  },
};
