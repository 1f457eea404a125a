import { sql, type AliasedSelectQueryBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db, Engine } from '../../../database/database.js';
import { readJson, type Database } from '../../../database/schema.js';
import { escapeLike } from '../../../lib/like.js';
import type { IndexedItem } from './kinds.js';
import { VocabularyItemWrites } from './items.writes.js';

/** An item as stored, with its bookkeeping. */
export interface StoredItem {
  pk: number;
  type: string;
  id: string;
  data: IndexedItem;
  createdAt: string;
  updatedAt: string;
  revisionId: number;
}

/** A range of terms: `from` ≤ term < `to`. */
export interface TermRange {
  from: string;
  to: string;
}

/** Which items a tier of a query is about, beyond its terms. */
export interface ItemFilters {
  /** Term ranges the item must also have a term in, one each: the further words of a query. */
  ranges?: TermRange[];
  /** Word prefixes the item's own words must also start with, tested on its text. */
  words?: string[];
  facet?: string[];
  tags?: string[];
}

/** A range of terms, or a list of exact terms. */
export type TermMatch = TermRange | { equals: string[] };

type Trx = Kysely<Database>;
type ItemRow = {
  pk: number;
  type: string;
  id: string;
  data: unknown;
  createdAt: string;
  updatedAt: string;
  revisionId: number;
};

const NAMES_BATCH = 500;

function toStored(row: ItemRow): StoredItem {
  return { ...row, pk: Number(row.pk), data: readJson<IndexedItem>(row.data) };
}

/**
 * Kysely queries over `vocabulary_items` and `vocabulary_terms`. Every search is a range or
 * equality scan of the terms' primary key, in term order, so that the first page of a
 * suggestion never sorts more than it returns.
 */
export class VocabularyItemsRepository {
  /** Inserts, updates and deletes, and the transactions of imports. */
  readonly writes: VocabularyItemWrites;

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {
    this.writes = new VocabularyItemWrites(db, engine);
  }

  private items(db: Trx = this.db) {
    return db
      .selectFrom('vocabularyItems')
      .select(['pk', 'type', 'id', 'data', 'createdAt', 'updatedAt', 'revisionId']);
  }

  async get(type: string, id: string): Promise<StoredItem | undefined> {
    const row = await this.items().where('type', '=', type).where('id', '=', id).executeTakeFirst();
    return row ? toStored(row) : undefined;
  }

  async getMany(type: string, ids: readonly string[], db: Trx = this.db): Promise<StoredItem[]> {
    if (ids.length === 0) return [];
    const rows = await this.items(db)
      .where('type', '=', type)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toStored);
  }

  private namesQuery(type: string, db: Trx) {
    const name =
      this.engine === 'sqlite'
        ? sql<string>`json_extract(data, '$.name')`
        : sql<string>`data ->> 'name'`;
    return db
      .selectFrom('vocabularyItems')
      .select(['id', name.as('name')])
      .where('type', '=', type);
  }

  /** The display names of the items among `ids` that exist, by id. */
  async names(type: string, ids: readonly string[], db: Trx = this.db) {
    const names = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += NAMES_BATCH) {
      const rows = await this.namesQuery(type, db)
        .where('id', 'in', unique.slice(i, i + NAMES_BATCH))
        .execute();
      for (const row of rows) names.set(row.id, row.name);
    }
    return names;
  }

  /** Every item's display name of a type with at most `max` items, by id; else undefined. */
  async allNames(type: string, max: number, db: Trx = this.db) {
    const rows = await this.namesQuery(type, db)
      .limit(max + 1)
      .execute();
    return rows.length > max ? undefined : new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Which items own each of `terms` (exact terms: `#identifier`, `=label`), in batches. */
  async termOwners(
    type: string,
    terms: readonly string[],
  ): Promise<Array<{ term: string; pk: number }>> {
    const unique = [...new Set(terms)];
    const out: Array<{ term: string; pk: number }> = [];
    for (let i = 0; i < unique.length; i += NAMES_BATCH) {
      const rows = await this.db
        .selectFrom('vocabularyTerms')
        .select(['term', 'itemPk'])
        .where('type', '=', type)
        .where('term', 'in', unique.slice(i, i + NAMES_BATCH))
        .execute();
      for (const row of rows) out.push({ term: row.term, pk: Number(row.itemPk) });
    }
    return out;
  }

  /** Items by primary key, in the order asked. */
  async byPks(pks: readonly number[]): Promise<StoredItem[]> {
    if (pks.length === 0) return [];
    const unique = [...new Set(pks)];
    const rows = [];
    for (let i = 0; i < unique.length; i += NAMES_BATCH) {
      rows.push(
        ...(await this.items()
          .where('pk', 'in', unique.slice(i, i + NAMES_BATCH))
          .execute()),
      );
    }
    const byPk = new Map(rows.map((r) => [Number(r.pk), toStored(r)]));
    return pks.map((pk) => byPk.get(pk)).filter((item): item is StoredItem => !!item);
  }

  /** The search text (` word word `) of items by primary key. */
  async searchTexts(pks: readonly number[]): Promise<Map<number, string>> {
    if (pks.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('vocabularyItems')
      .select(['pk', 'searchText'])
      .where('pk', 'in', [...pks])
      .execute();
    return new Map(rows.map((r) => [Number(r.pk), r.searchText]));
  }

  /** The distinct facet values of a type (subject schemes, award funders, countries). */
  async facets(type: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('vocabularyItems')
      .select('facet')
      .distinct()
      .where('type', '=', type)
      .where('facet', 'is not', null)
      .execute();
    return rows.map((r) => r.facet!);
  }

  private filtered<O>(
    query: SelectQueryBuilder<Database, 'vocabularyItems', O>,
    filters: ItemFilters,
  ) {
    let q = query;
    if (filters.facet) q = q.where('vocabularyItems.facet', 'in', filters.facet);
    if (filters.tags) {
      const tags = filters.tags;
      q = q.where((eb) =>
        // A tag's `%` and `_` are characters: LIKE would read them as wildcards.
        eb.or(
          tags.map(
            (tag) =>
              sql<boolean>`vocabulary_items.tags like ${`% ${escapeLike(tag)} %`} escape '\\'`,
          ),
        ),
      );
    }
    return q;
  }

  /**
   * Terms matching, restricted to items that pass the filters. The items table is only consulted
   * for a facet or tags: a suggestion, of one word or several, reads the terms' index alone.
   */
  private termQuery(db: Trx, type: string, match: TermMatch, filters: ItemFilters) {
    let q = db.selectFrom('vocabularyTerms').where('vocabularyTerms.type', '=', type);
    q =
      'equals' in match
        ? q.where('vocabularyTerms.term', 'in', match.equals)
        : q
            .where('vocabularyTerms.term', '>=', match.from)
            .where('vocabularyTerms.term', '<', match.to);
    for (const range of filters.ranges ?? []) {
      // Uncorrelated: both engines read the range once into a set (SQLite an ephemeral index,
      // PostgreSQL a hash) and test each term row against it.
      q = q.where(
        'vocabularyTerms.itemPk',
        'in',
        db
          .selectFrom('vocabularyTerms as r')
          .select('r.itemPk')
          .where('r.type', '=', type)
          .where('r.term', '>=', range.from)
          .where('r.term', '<', range.to),
      );
    }
    if (filters.words?.length) {
      const words = filters.words;
      // A seek per term row into the narrow index of the items' words (SQLite picks the wide
      // table otherwise; PostgreSQL has no such index and reads the item by its key).
      const items =
        this.engine === 'sqlite'
          ? sql`vocabulary_items as w indexed by vocabulary_items_words_idx`
          : sql`vocabulary_items as w`;
      // Query words hold letters and digits only: nothing in them is a LIKE wildcard.
      q = q.where(
        sql<boolean>`exists (select 1 from ${items} where w.pk = vocabulary_terms.item_pk and ${sql.join(
          words.map((word) => sql`w.search_text like ${`% ${word}%`}`),
          sql` and `,
        )})`,
      );
    }
    if (!filters.facet && !filters.tags) return q;
    return q.where((eb) =>
      eb.exists(
        this.filtered(
          eb
            .selectFrom('vocabularyItems')
            .select('vocabularyItems.pk')
            .whereRef('vocabularyItems.pk', '=', 'vocabularyTerms.itemPk'),
          filters,
        ),
      ),
    );
  }

  /**
   * Runs term queries. On PostgreSQL, those with further words' sets run with nested loops
   * disabled: the planner estimates a prefix range ('mehmet' up to the last code point) at a
   * row or so, and would rescan the other word's range for each row read, seconds where reading
   * it into a hash once takes milliseconds.
   */
  private reading<T>(filters: ItemFilters, work: (db: Trx) => Promise<T>): Promise<T> {
    if (this.engine !== 'postgres' || !filters.ranges?.length) return work(this.db);
    return this.db.transaction().execute(async (trx) => {
      await sql`set local enable_nestloop = off`.execute(trx);
      return work(trx);
    });
  }

  /** Item keys whose terms match, in term order (an item may come more than once). */
  async matchTerms(
    type: string,
    match: TermMatch,
    filters: ItemFilters,
    limit: number,
    offset: number,
  ): Promise<number[]> {
    const rows = await this.reading(filters, (db) =>
      this.termQuery(db, type, match, filters)
        .select('vocabularyTerms.itemPk')
        .orderBy('vocabularyTerms.term')
        .orderBy('vocabularyTerms.itemPk')
        .limit(limit)
        .offset(offset)
        .execute(),
    );
    return rows.map((r) => Number(r.itemPk));
  }

  /**
   * How many term rows each range has, counting no further than `cap` for each: what it costs
   * to read a range, for choosing how to answer a query of several words.
   */
  async rangeSizes(type: string, ranges: readonly TermRange[], cap: number): Promise<number[]> {
    const row = await this.db
      .selectNoFrom((eb) =>
        ranges.map((range, i) =>
          eb
            .selectFrom(
              eb
                .selectFrom('vocabularyTerms')
                .select('itemPk')
                .where('type', '=', type)
                .where('term', '>=', range.from)
                .where('term', '<', range.to)
                .limit(cap)
                .as('r'),
            )
            .select((c) => c.fn.countAll<number>().as('n'))
            .as(`n${i}`),
        ),
      )
      .executeTakeFirstOrThrow();
    return ranges.map((_, i) => Number((row as Record<string, unknown>)[`n${i}`]));
  }

  /** How many distinct items match, counting no further than `cap`. */
  async countTerms(
    type: string,
    match: TermMatch,
    filters: ItemFilters,
    cap: number,
  ): Promise<number> {
    return this.reading(filters, async (db) => {
      const distinct = () =>
        this.termQuery(db, type, match, filters)
          .select('vocabularyTerms.itemPk')
          .distinct()
          .limit(cap);
      // SQLite makes rows distinct as they come and stops at the limit. PostgreSQL sorts or
      // hashes all of them first, over a one-letter range a quarter of a million: the distinct
      // items of a few more rows than `cap` settle it nearly always, since `cap` of them are
      // `cap` and fewer rows than asked for are the whole range.
      if (this.engine === 'sqlite') return this.countOf(distinct(), db);
      const rows = cap + Math.ceil(cap / 4);
      const sample = await db
        .selectFrom(
          this.termQuery(db, type, match, filters)
            .select('vocabularyTerms.itemPk')
            .limit(rows)
            .as('m'),
        )
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          eb.fn.count<number>('m.itemPk').distinct().as('items'),
        ])
        .executeTakeFirstOrThrow();
      const items = Number(sample.items);
      if (items >= cap || Number(sample.n) < rows) return Math.min(items, cap);
      return this.countOf(distinct(), db);
    });
  }

  /** The number of rows a (limited) query gives. */
  private async countOf(
    inner: { as(alias: 'm'): AliasedSelectQueryBuilder<object, 'm'> },
    db: Trx = this.db,
  ) {
    const row = await db
      .selectFrom(inner.as('m'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Matching items in alphabetical order (for `sort=name` with a query), at most `cap`. */
  async sortedTermMatches(
    type: string,
    match: TermMatch,
    filters: ItemFilters,
    limit: number,
    offset: number,
  ): Promise<number[]> {
    const rows = await this.reading(filters, (db) =>
      this.termQuery(db, type, match, filters)
        .innerJoin('vocabularyItems', 'vocabularyItems.pk', 'vocabularyTerms.itemPk')
        .select(['vocabularyItems.pk', 'vocabularyItems.sortKey'])
        .distinct()
        .orderBy('vocabularyItems.sortKey')
        .orderBy('vocabularyItems.pk')
        .limit(limit)
        .offset(offset)
        .execute(),
    );
    return rows.map((r) => Number(r.pk));
  }

  /** A page of items in alphabetical order, without a query. */
  async browse(
    type: string,
    filters: ItemFilters,
    limit: number,
    offset: number,
  ): Promise<StoredItem[]> {
    const rows = await this.filtered(this.items().where('type', '=', type), filters)
      .orderBy('sortKey')
      .orderBy('pk')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toStored);
  }

  async countBrowse(type: string, filters: ItemFilters, cap: number) {
    return this.countOf(
      this.filtered(
        this.db.selectFrom('vocabularyItems').select('pk').where('type', '=', type),
        filters,
      ).limit(cap),
    );
  }
}
