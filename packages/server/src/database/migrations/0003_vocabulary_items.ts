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
      .addColumn('item_pk', 'integer', (c) =>
        c.notNull().references('vocabulary_items.pk').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('vocabulary_terms_pk', ['type', 'term', 'item_pk'])
      .$call((b) => (pg ? b : b.modifyEnd(sql`without rowid`)))
      .execute();
    await db.schema
      .createIndex('vocabulary_terms_item_idx')
      .on('vocabulary_terms')
      .column('item_pk')
      .execute();
  },
};
