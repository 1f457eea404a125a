import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The sitemaps' walk over the public records (`modules/sitemaps`): in order of first publication,
 * a page at a time from a cursor, and once over every key to cut the walk into sitemaps. Partial,
 * so that it holds only what a crawler may be told of; `updated_at` is in it so that the cutting
 * and each sitemap's `lastmod` read the index alone.
 */
export const recordsSitemap: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('records_sitemap_idx')
      .on('records')
      // The filter's columns too: SQLite reads a row for the terms of a partial index's condition
      // unless the index holds them, which PostgreSQL does not need.
      .columns(['published_at', 'id', 'updated_at', 'access_record', 'deleted_at'])
      .where(sql.ref('access_record'), '=', sql.lit('public'))
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  },
};
