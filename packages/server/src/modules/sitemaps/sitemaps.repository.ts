import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../database/database.js';
import type { Database } from '../../database/schema.js';

/** What the sitemaps list: the landing pages of records, the pages of communities. */
export const SITEMAP_SECTIONS = ['records', 'communities'] as const;
export type SitemapSection = (typeof SITEMAP_SECTIONS)[number];

/** Where a sitemap starts: after this entry of its section's order. */
export interface SitemapCursor {
  key: string;
  id: string;
}

/** One sitemap of a section: where it starts (none: at the beginning) and its newest change. */
export interface SitemapPage {
  after?: SitemapCursor;
  lastmod?: string;
}

/** One page a sitemap lists: its id or slug, its last change, and its place in the order. */
export interface SitemapEntry {
  cursor: SitemapCursor;
  name: string;
  lastmod: string;
}

/** Rows read per statement while a sitemap is written out. */
const CHUNK = 1_000;

type Listed = SelectQueryBuilder<
  Database,
  'records' | 'communities',
  { key: string; id: string; name: string; lastmod: string }
>;

interface SectionQuery {
  /** What a crawler may be told of, with the columns every section answers. */
  listed: (db: Db) => Listed;
  /** The order of the walk: a key that grows as entries are added, then the id. */
  key: RawBuilder<string>;
  id: RawBuilder<string>;
}

/**
 * Each section's entries in an order new entries join at the end of (first publication,
 * creation), so that a sitemap's start stays put between the index and the sitemaps a crawler
 * reads after it; an entry that leaves (restricted, deleted) only shifts later ones forward,
 * which a crawler sees twice rather than never.
 */
const SECTIONS: Record<SitemapSection, SectionQuery> = {
  records: {
    // Every published version whose record is public: each has its own landing page and DOI.
    // The one place that decides which records a crawler is told of (`records_sitemap_idx`
    // holds exactly these).
    listed: (db) =>
      db
        .selectFrom('records')
        .where('records.accessRecord', '=', 'public')
        .where('records.deletedAt', 'is', null)
        .select([
          'records.publishedAt as key',
          'records.id as id',
          'records.id as name',
          'records.updatedAt as lastmod',
        ]),
    key: sql.ref<string>('records.published_at'),
    id: sql.ref<string>('records.id'),
  },
  communities: {
    listed: (db) =>
      db
        .selectFrom('communities')
        .where('communities.visibility', '=', 'public')
        .where('communities.deletedAt', 'is', null)
        .select([
          'communities.createdAt as key',
          'communities.id as id',
          'communities.slug as name',
          'communities.updatedAt as lastmod',
        ]),
    key: sql.ref<string>('communities.created_at'),
    id: sql.ref<string>('communities.id'),
  },
};

/** The pages crawlers are told of, walked by keyset so that any sitemap costs the same. */
export class SitemapsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The sitemaps of a section, `size` entries each: one statement over the section's index
   * numbers the entries and keeps the last key and newest change of each run of `size`.
   * It reads every key once (the index alone), which is what knowing how many sitemaps there
   * are costs; the sitemaps themselves start from their cursor.
   */
  async pages(section: SitemapSection, size: number): Promise<SitemapPage[]> {
    const q = SECTIONS[section];
    const per = sql.lit(size);
    const numbered = q
      .listed(this.db)
      .select(sql<number>`row_number() over (order by ${q.key}, ${q.id})`.as('n'));
    const runs = await this.db
      .selectFrom(numbered.as('t'))
      .select([
        sql<string>`max(t.lastmod)`.as('lastmod'),
        sql<string | null>`max(case when t.n % ${per} = 0 then t.key end)`.as('lastKey'),
        sql<string | null>`max(case when t.n % ${per} = 0 then t.id end)`.as('lastId'),
      ])
      .groupBy(sql`(t.n - 1) / ${per}`)
      .orderBy(sql`(t.n - 1) / ${per}`)
      .execute();
    return runs.map((run, i) => {
      const before = runs[i - 1];
      return {
        ...(before?.lastKey && before.lastId
          ? { after: { key: before.lastKey, id: before.lastId } }
          : {}),
        lastmod: run.lastmod,
      };
    });
  }

  /** The entries of one sitemap: at most `size` after `after`, read a chunk at a time. */
  async *entries(
    section: SitemapSection,
    after: SitemapCursor | undefined,
    size: number,
  ): AsyncGenerator<SitemapEntry[]> {
    const q = SECTIONS[section];
    let cursor = after;
    let left = size;
    while (left > 0) {
      const limit = Math.min(CHUNK, left);
      let query = q.listed(this.db);
      if (cursor) {
        query = query.where(sql<boolean>`(${q.key}, ${q.id}) > (${cursor.key}, ${cursor.id})`);
      }
      const rows = await query.orderBy(q.key).orderBy(q.id).limit(limit).execute();
      if (rows.length > 0) {
        yield rows.map((r) => ({
          cursor: { key: r.key, id: r.id },
          name: r.name,
          lastmod: r.lastmod,
        }));
      }
      if (rows.length < limit) return;
      const last = rows[rows.length - 1]!;
      cursor = { key: last.key, id: last.id };
      left -= rows.length;
    }
  }
}
