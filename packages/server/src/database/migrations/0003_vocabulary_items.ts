import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * The large vocabularies (names, affiliations, funders, awards, subjects) live in one table of
 * items and one table of search terms, so that a suggestion is an index range scan on either
 * engine and both engines rank alike: the text is normalised by Cairn, not by the database.
 */
export const vocabularyItems: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('vocabulary_items')
      .addColumn('pk', pg ? 'serial' : 'integer', (c) =>
        pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('data', pg ? 'jsonb' : 'text', (c) => c.notNull())
      // The normalised display name: the browse order, and the text the query filters look in.
      .addColumn('sort_key', 'text', (c) => c.notNull())
      .addColumn('search_text', 'text', (c) => c.notNull())
      // The item's label and identifier terms, one per line: with the words of search_text,
      // exactly the terms to delete when the item changes, whatever the code computes today.
      .addColumn('extra_terms', 'text', (c) => c.notNull())
      // Subjects' scheme or awards' funder: the one facet each type filters by.
      .addColumn('facet', 'text')
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('revision_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addUniqueConstraint('vocabulary_items_type_id', ['type', 'id'])
      .execute();
    await db.schema
      .createIndex('vocabulary_items_sort_idx')
      .on('vocabulary_items')
      .columns(['type', 'sort_key', 'pk'])
      .execute();

    // One row per word, per whole label (prefixed '=') and per identifier (prefixed '#'). Byte
    // order on both engines ("C" collation) keeps prefix ranges identical and index-only.
    const term = pg ? sql`text collate "C"` : sql`text`;
    await db.schema
      .createTable('vocabulary_terms')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('term', term, (c) => c.notNull())
      // No foreign key and no index by item: both would cost more than the terms themselves on
      // a million-name import. An item's own row lists its terms (search_text, extra_terms).
      .addColumn('item_pk', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('vocabulary_terms_pk', ['type', 'term', 'item_pk'])
      .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
      .execute();
  },
};
