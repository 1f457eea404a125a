import os from 'node:os';
import { sql, type AliasedSelectQueryBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db, Engine } from '../../../database/database.js';
import { bulkInsert, type BulkColumn } from '../../../database/bulk.js';
import { readJson, type Database } from '../../../database/schema.js';
import { escapeLike } from '../../../lib/like.js';
import type { IndexedItem } from './kinds.js';

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

/**
 * An item ready to store: its JSON and everything it is found by, all as the text the columns
 * hold, so that an import's worker thread can hand a batch over as plain strings.
 */
export interface PreparedItem {
  id: string;
  /** The item as JSON. */
  data: string;
  sortKey: string;
  /** ` word word … `, so that a word prefix is `% token`. */
  searchText: string;
  /** Whole labels ('=…') and identifiers ('#…'), one per line. */
  extraTerms: string;
  facet: string | null;
  /** ` tag tag `, for the same reason. */
  tags: string;
  /** Every term (the words of searchText and the extra terms) as a JSON array of strings. */
  terms: string;
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

/**
 * An import in progress: it stores each item's terms as one row of a table that is expanded into
 * `vocabulary_terms` when it ends, rather than term by term.
 */
export interface BulkImport {
  termsTable: string;
  /** Items inserted so far. */
  inserted: number;
  /** Items of every type in the table when the import began. */
  itemsBefore: number;
  /** SQLite: the browse index's definition while it is dropped, to be built again at the end. */
  deferredIndex?: string;
  /** PostgreSQL: whether the items' statistics were refreshed inside the import (see restate). */
  restated?: boolean;
}

/** A range of terms, or a list of exact terms. */
export type TermMatch = TermRange | { equals: string[] };

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

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

const ITEM_BATCH = 1000;
const NAMES_BATCH = 500;
// Fewer inserts than this never pay for rebuilding the browse index (deferBrowseIndex).
const DEFER_INDEX_AFTER = 100_000;
// Inserts after which PostgreSQL's statistics are refreshed inside an import (restate).
const RESTATE_AFTER = 20_000;
// SQLite's auxiliary sorting threads during an import: one per further core, a few at most.
const SORT_THREADS = Math.min(4, os.availableParallelism() - 1);
const ITEM_COLUMNS: BulkColumn[] = [
  { name: 'pk', pg: 'integer' },
  { name: 'type', pg: 'text' },
  { name: 'id', pg: 'text' },
  { name: 'data', pg: 'jsonb' },
  { name: 'sort_key', pg: 'text' },
  { name: 'search_text', pg: 'text' },
  { name: 'extra_terms', pg: 'text' },
  { name: 'facet', pg: 'text' },
  { name: 'tags', pg: 'text' },
  { name: 'created_at', pg: 'text' },
  { name: 'updated_at', pg: 'text' },
  { name: 'revision_id', pg: 'integer' },
];
const TERM_COLUMNS: BulkColumn[] = [
  { name: 'type', pg: 'text' },
  { name: 'term', pg: 'text' },
  { name: 'item_pk', pg: 'integer' },
];
const PENDING_COLUMNS: BulkColumn[] = [
  { name: 'item_pk', pg: 'integer' },
  { name: 'terms', pg: 'text' },
];

/** The terms a stored row was indexed under: its words and its extra terms. */
function storedTerms(row: { searchText: string; extraTerms: string }): string[] {
  const words = row.searchText.split(' ').filter((w) => w !== '');
  const extra = row.extraTerms === '' ? [] : row.extraTerms.split('\n');
  return [...new Set([...words, ...extra])];
}

function toStored(row: ItemRow): StoredItem {
  return { ...row, pk: Number(row.pk), data: readJson<IndexedItem>(row.data) };
}

/** JSON with keys sorted, so that PostgreSQL's jsonb key order never reads as a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Kysely queries over `vocabulary_items` and `vocabulary_terms`. Every search is a range or
 * equality scan of the terms' primary key, in term order, so that the first page of a
 * suggestion never sorts more than it returns.
 */
export class VocabularyItemsRepository {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

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

  /** Items by primary key, in the order asked. */
  async byPks(pks: readonly number[]): Promise<StoredItem[]> {
    if (pks.length === 0) return [];
    const rows = await this.items()
      .where('pk', 'in', [...pks])
      .execute();
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

  async count(type: string): Promise<number> {
    const row = await this.db
      .selectFrom('vocabularyItems')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', type)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

  /**
   * Inserts new items and updates changed ones, with their terms; unchanged items are left alone
   * so that importing the same dump twice changes nothing (not even revisions).
   */
  async upsert(
    db: Trx,
    type: string,
    batch: readonly PreparedItem[],
    now: string,
    bulk?: BulkImport,
  ): Promise<UpsertCounts> {
    const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
    // The last occurrence of an id in a batch wins, as it would across batches.
    const unique = [...new Map(batch.map((item) => [item.id, item])).values()];
    for (let i = 0; i < unique.length; i += ITEM_BATCH) {
      const chunk = unique.slice(i, i + ITEM_BATCH);
      const existing = new Map(
        (
          await db
            .selectFrom('vocabularyItems')
            .select(['pk', 'id', 'data', 'searchText', 'extraTerms'])
            .where('type', '=', type)
            .where(
              'id',
              'in',
              chunk.map((item) => item.id),
            )
            .execute()
        ).map((r) => [r.id, r]),
      );
      const fresh: PreparedItem[] = [];
      const terms: Array<[number, string]> = [];
      for (const item of chunk) {
        const old = existing.get(item.id);
        if (!old) {
          fresh.push(item);
          continue;
        }
        // SQLite gives back the text it was given: the same dump again is the same text, no
        // parsing needed. PostgreSQL's jsonb comes back as a value, in its own key order.
        if (
          old.data === item.data ||
          canonicalJson(readJson(old.data)) === canonicalJson(JSON.parse(item.data))
        ) {
          counts.unchanged++;
          continue;
        }
        counts.updated++;
        const pk = Number(old.pk);
        await this.deleteTerms(db, type, pk, storedTerms(old), bulk);
        await db
          .updateTable('vocabularyItems')
          .set({
            data: item.data,
            sortKey: item.sortKey,
            searchText: item.searchText,
            extraTerms: item.extraTerms,
            facet: item.facet,
            tags: item.tags,
            updatedAt: now,
            revisionId: sql<number>`revision_id + 1`,
          })
          .where('pk', '=', pk)
          .execute();
        terms.push([pk, item.terms]);
      }
      if (fresh.length > 0) {
        // Keys given rather than returned: appended in key order, and nothing to read back.
        const keys = await this.newKeys(db, fresh.length);
        await bulkInsert(
          db,
          this.engine,
          'vocabulary_items',
          ITEM_COLUMNS,
          fresh.map((item, n) => {
            terms.push([keys[n]!, item.terms]);
            return [
              keys[n],
              type,
              item.id,
              item.data,
              item.sortKey,
              item.searchText,
              item.extraTerms,
              item.facet,
              item.tags,
              now,
              now,
              1,
            ];
          }),
        );
        counts.inserted += fresh.length;
        if (bulk) {
          bulk.inserted += fresh.length;
          await this.deferBrowseIndex(db, bulk);
          await this.restate(db, bulk);
        }
      }
      if (bulk) {
        await bulkInsert(db, this.engine, bulk.termsTable, PENDING_COLUMNS, terms);
      } else {
        const rows = terms.flatMap(([pk, json]) =>
          (JSON.parse(json) as string[]).map((term) => [type, term, pk]),
        );
        await bulkInsert(db, this.engine, 'vocabulary_terms', TERM_COLUMNS, rows);
      }
    }
    return counts;
  }

  private async deleteTerms(
    db: Trx,
    type: string,
    pk: number,
    terms: readonly string[],
    bulk?: BulkImport,
  ) {
    if (terms.length === 0) return;
    await db
      .deleteFrom('vocabularyTerms')
      .where('type', '=', type)
      .where('itemPk', '=', pk)
      .where('term', 'in', [...terms])
      .execute();
    // An item stored earlier in the same import has its terms still waiting.
    if (bulk) {
      await sql`delete from ${sql.table(bulk.termsTable)} where item_pk = ${pk}`.execute(db);
    }
  }

  /**
   * Keys for `count` new items, ascending. On SQLite the import's transaction holds the write
   * lock from its first insert on (and an insert after a concurrent commit fails rather than
   * reuse a key); AUTOINCREMENT's rule, never a key used before, is kept by starting past
   * `sqlite_sequence`. PostgreSQL takes them from the column's sequence, as a default would.
   */
  private async newKeys(db: Trx, count: number): Promise<number[]> {
    if (this.engine === 'sqlite') {
      const { rows } = await sql<{ last: number }>`select max(
          coalesce((select max(pk) from vocabulary_items), 0),
          coalesce((select seq from sqlite_sequence where name = 'vocabulary_items'), 0)) as last`.execute(
        db,
      );
      const last = Number(rows[0]!.last);
      return Array.from({ length: count }, (_, n) => last + 1 + n);
    }
    const { rows } = await sql<{ pk: string }>`select nextval(
        pg_get_serial_sequence('vocabulary_items', 'pk')) as pk
      from generate_series(1, ${count})`.execute(db);
    return rows.map((r) => Number(r.pk)).sort((x, y) => x - y);
  }

  /**
   * SQLite: once an import has inserted many items, drops the browse index (type, sort key) for
   * the rest of it. Names arrive in no particular order of their sort key, so each one lands
   * somewhere in that index: over a million names that cost about half the time of inserting
   * the rows, and building the index again at the end, from sorted keys, a fraction of it. Not
   * for a few items into a large table, whose index would be rebuilt whole; after half as many
   * inserts as the table held, the rebuild costs at most about what the inserts did. Inside the
   * import's transaction: an interrupted import gets the index back with everything else, and
   * other connections go on reading the index of the last commit meanwhile. PostgreSQL would
   * lock readers out of the table instead: it keeps its index.
   */
  private async deferBrowseIndex(db: Trx, bulk: BulkImport) {
    if (this.engine !== 'sqlite' || bulk.deferredIndex !== undefined) return;
    if (bulk.inserted < Math.max(DEFER_INDEX_AFTER, bulk.itemsBefore / 2)) return;
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master
      where type = 'index' and name = 'vocabulary_items_sort_idx'`.execute(db);
    if (!rows[0]) return;
    await sql`drop index vocabulary_items_sort_idx`.execute(db);
    bulk.deferredIndex = rows[0].sql;
  }

  /**
   * PostgreSQL: refreshes the items' statistics once an import has inserted many, inside its
   * transaction (ANALYZE counts the transaction's own rows). Statistics taken while a type was
   * empty say it has no rows, and the planner then looks each batch's ids up by scanning the
   * type's rows in the browse index rather than probing the (type, id) index for each: every
   * batch reads all the rows inserted before it (a million names took 14 minutes instead of
   * one). Such statistics come from the ANALYZE after an import of another type (bulkTransaction)
   * or from autovacuum.
   */
  private async restate(db: Trx, bulk: BulkImport) {
    if (this.engine !== 'postgres' || bulk.restated || bulk.inserted < RESTATE_AFTER) return;
    await sql`analyze vocabulary_items`.execute(db);
    bulk.restated = true;
  }

  /** Deletes one item and its terms; false when there was none. */
  async delete(type: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('vocabularyItems')
        .select(['pk', 'searchText', 'extraTerms'])
        .where('type', '=', type)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return false;
      await this.deleteTerms(trx, type, Number(row.pk), storedTerms(row));
      await trx.deleteFrom('vocabularyItems').where('pk', '=', row.pk).execute();
      return true;
    });
  }
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * A transaction for a bulk import: terms wait in a table and go into their index sorted when
   * the work is done, and on SQLite the browse index may be rebuilt then (deferBrowseIndex).
   */
  async bulkTransaction<T>(
    type: string,
    work: (trx: Trx, bulk: BulkImport) => Promise<T>,
  ): Promise<T> {
    const sqlite = this.engine === 'sqlite';
    if (sqlite) {
      // Sorting is most of SQLite's work at the end; by then the parsing is done and the other
      // cores are free to take part.
      await sql`pragma threads = ${sql.raw(String(SORT_THREADS))}`.execute(this.db);
    }
    try {
      const result = await this.transaction(async (trx) => {
        // Terms in file order would land all over the terms' B-tree: they wait here, one row of
        // JSON per item (a tenth of the rows to insert), and go in sorted when the import ends,
        // appended page after page.
        await sql`drop table if exists pending_terms`.execute(trx);
        await sql`create temp table pending_terms (item_pk integer primary key, terms text not null)`.execute(
          trx,
        );
        const bulk: BulkImport = {
          termsTable: 'pending_terms',
          inserted: 0,
          itemsBefore: sqlite ? await this.countAll(trx) : 0,
        };
        const result = await work(trx, bulk);
        if (sqlite) {
          await sql`insert into vocabulary_terms (type, term, item_pk)
            select ${type}, t.value, p.item_pk from pending_terms as p, json_each(p.terms) as t
            order by t.value, p.item_pk`.execute(trx);
          if (bulk.deferredIndex) await sql.raw(bulk.deferredIndex).execute(trx);
        } else {
          // PostgreSQL sorts the terms in memory rather than in temporary files.
          await sql`set local work_mem = '256MB'`.execute(trx);
          await sql`insert into vocabulary_terms (type, term, item_pk)
            select ${type}, t.term, p.item_pk
            from pending_terms as p, jsonb_array_elements_text(p.terms::jsonb) as t(term)
            order by t.term collate "C", p.item_pk`.execute(trx);
        }
        await sql`drop table pending_terms`.execute(trx);
        return result;
      });
      // PostgreSQL plans by statistics that autovacuum may refresh only minutes later, if it
      // runs at all: until then a suggestion over a table grown by a million rows is planned as
      // if it were empty (a bitmap scan of a whole range for a one-letter count). A sample of the
      // tables takes a second or so.
      if (!sqlite) await sql`analyze vocabulary_items, vocabulary_terms`.execute(this.db);
      return result;
    } finally {
      if (sqlite) await sql`pragma threads = 0`.execute(this.db);
    }
  }

  private async countAll(db: Trx): Promise<number> {
    const row = await db
      .selectFrom('vocabularyItems')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  get database(): Db {
    return this.db;
  }
}
