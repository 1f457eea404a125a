import { sql, type AliasedSelectQueryBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { SQLITE_CACHE_KIB, type Db, type Engine } from '../../../database/database.js';
import { bulkInsert, type BulkColumn } from '../../../database/bulk.js';
import { readJson, type Database } from '../../../database/schema.js';
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

/** An item ready to store: its JSON and everything it is found by. */
export interface PreparedItem {
  id: string;
  data: IndexedItem;
  sortKey: string;
  /** ` word word … `, so that a word prefix is `% token`. */
  searchText: string;
  /** Whole labels ('=…') and identifiers ('#…'). */
  extraTerms: string[];
  facet: string | null;
  /** ` tag tag `, for the same reason. */
  tags: string;
  /** Every term: the words of searchText and the extra terms. */
  terms: string[];
}

/** Which items a tier of a query is about, beyond its terms. */
export interface ItemFilters {
  /** Further query words, each of which must start a word of the item. */
  words: string[];
  facet?: string[];
  tags?: string[];
}

/** How an import in progress stores terms: into a table flushed when it ends, or directly. */
export interface BulkImport {
  termsTable?: string;
}

/** A range of terms (`from` ≤ term < `to`), or a list of exact terms. */
export type TermMatch = { from: string; to: string } | { equals: string[] };

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
const IMPORT_CACHE_KIB = 262_144;
const ITEM_COLUMNS: BulkColumn[] = [
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

  /** Items by primary key, in the order asked. */
  async byPks(pks: readonly number[]): Promise<StoredItem[]> {
    if (pks.length === 0) return [];
    const rows = await this.items()
      .where('pk', 'in', [...pks])
      .execute();
    const byPk = new Map(rows.map((r) => [Number(r.pk), toStored(r)]));
    return pks.map((pk) => byPk.get(pk)).filter((item): item is StoredItem => !!item);
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
    filters: Omit<ItemFilters, 'words'>,
  ) {
    let q = query;
    if (filters.facet) q = q.where('vocabularyItems.facet', 'in', filters.facet);
    if (filters.tags) {
      const tags = filters.tags;
      q = q.where((eb) =>
        eb.or(tags.map((tag) => eb('vocabularyItems.tags', 'like', `% ${tag} %`))),
      );
    }
    return q;
  }

  /**
   * Terms matching, restricted to items that pass the filters. The items table is only consulted
   * when there are filters: a one-word suggestion is a scan of the terms' index alone.
   */
  private termQuery(type: string, match: TermMatch, filters: ItemFilters) {
    let q = this.db.selectFrom('vocabularyTerms').where('vocabularyTerms.type', '=', type);
    q =
      'equals' in match
        ? q.where('vocabularyTerms.term', 'in', match.equals)
        : q
            .where('vocabularyTerms.term', '>=', match.from)
            .where('vocabularyTerms.term', '<', match.to);
    if (filters.words.length === 0 && !filters.facet && !filters.tags) return q;
    return q.where((eb) => {
      let items = eb
        .selectFrom('vocabularyItems')
        .select('vocabularyItems.pk')
        .whereRef('vocabularyItems.pk', '=', 'vocabularyTerms.itemPk');
      for (const word of filters.words) {
        items = items.where('vocabularyItems.searchText', 'like', `% ${word}%`);
      }
      return eb.exists(this.filtered(items, filters));
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
    const rows = await this.termQuery(type, match, filters)
      .select('vocabularyTerms.itemPk')
      .orderBy('vocabularyTerms.term')
      .orderBy('vocabularyTerms.itemPk')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => Number(r.itemPk));
  }

  /** How many distinct items match, counting no further than `cap`. */
  async countTerms(
    type: string,
    match: TermMatch,
    filters: ItemFilters,
    cap: number,
  ): Promise<number> {
    return this.countOf(
      this.termQuery(type, match, filters).select('vocabularyTerms.itemPk').distinct().limit(cap),
    );
  }

  /** The number of rows a (limited) query gives. */
  private async countOf(inner: { as(alias: 'm'): AliasedSelectQueryBuilder<object, 'm'> }) {
    const row = await this.db
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
    const rows = await this.termQuery(type, match, filters)
      .innerJoin('vocabularyItems', 'vocabularyItems.pk', 'vocabularyTerms.itemPk')
      .select(['vocabularyItems.pk', 'vocabularyItems.sortKey'])
      .distinct()
      .orderBy('vocabularyItems.sortKey')
      .orderBy('vocabularyItems.pk')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => Number(r.pk));
  }

  /** A page of items in alphabetical order, without a query. */
  async browse(
    type: string,
    filters: Omit<ItemFilters, 'words'>,
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

  async countBrowse(type: string, filters: Omit<ItemFilters, 'words'>, cap: number) {
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
      const terms: unknown[][] = [];
      for (const item of chunk) {
        const old = existing.get(item.id);
        if (!old) {
          fresh.push(item);
          continue;
        }
        if (canonicalJson(readJson(old.data)) === canonicalJson(item.data)) {
          counts.unchanged++;
          continue;
        }
        counts.updated++;
        const pk = Number(old.pk);
        await this.deleteTerms(db, type, pk, storedTerms(old), bulk);
        await db
          .updateTable('vocabularyItems')
          .set({
            data: JSON.stringify(item.data),
            sortKey: item.sortKey,
            searchText: item.searchText,
            extraTerms: item.extraTerms.join('\n'),
            facet: item.facet,
            tags: item.tags,
            updatedAt: now,
            revisionId: sql<number>`revision_id + 1`,
          })
          .where('pk', '=', pk)
          .execute();
        for (const term of item.terms) terms.push([type, term, pk]);
      }
      if (fresh.length > 0) {
        const inserted = await bulkInsert<{ pk: number; id: string }>(
          db,
          this.engine,
          'vocabulary_items',
          ITEM_COLUMNS,
          fresh.map((item) => [
            type,
            item.id,
            JSON.stringify(item.data),
            item.sortKey,
            item.searchText,
            item.extraTerms.join('\n'),
            item.facet,
            item.tags,
            now,
            now,
            1,
          ]),
          ['pk', 'id'],
        );
        const pkOf = new Map(inserted.map((r) => [r.id, Number(r.pk)]));
        for (const item of fresh) {
          const pk = pkOf.get(item.id)!;
          for (const term of item.terms) terms.push([type, term, pk]);
        }
        counts.inserted += fresh.length;
      }
      await bulkInsert(
        db,
        this.engine,
        bulk?.termsTable ?? 'vocabulary_terms',
        TERM_COLUMNS,
        terms,
      );
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
    if (bulk?.termsTable) {
      await sql`delete from ${sql.table(bulk.termsTable)} where item_pk = ${pk}`.execute(db);
    }
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
   * A transaction for a bulk import. On SQLite the page cache grows for its duration: inserting
   * millions of terms into one B-tree spills and re-reads pages otherwise, and a large import
   * then spends most of its time in I/O.
   */
  async bulkTransaction<T>(work: (trx: Trx, bulk: BulkImport) => Promise<T>): Promise<T> {
    const sqlite = this.engine === 'sqlite';
    if (sqlite) {
      await sql`pragma cache_size = ${sql.raw(String(-IMPORT_CACHE_KIB))}`.execute(this.db);
    }
    try {
      return await this.transaction(async (trx) => {
        // Terms in file order would land all over the terms' B-tree; collected in a plain
        // table and inserted sorted at the end, they are appended page after page.
        await sql`drop table if exists pending_terms`.execute(trx);
        await sql`create temp table pending_terms (type text, term text ${sql.raw(
          sqlite ? '' : 'collate "C"',
        )}, item_pk integer)`.execute(trx);
        // PostgreSQL sorts the pending terms in memory rather than in temporary files.
        if (!sqlite) await sql`set local work_mem = '256MB'`.execute(trx);
        const result = await work(trx, { termsTable: 'pending_terms' });
        await sql`insert into vocabulary_terms (type, term, item_pk)
          select type, term, item_pk from pending_terms order by type, term, item_pk`.execute(trx);
        await sql`drop table pending_terms`.execute(trx);
        return result;
      });
    } finally {
      if (sqlite) {
        await sql`pragma cache_size = ${sql.raw(String(-SQLITE_CACHE_KIB))}`.execute(this.db);
      }
    }
  }

  get database(): Db {
    return this.db;
  }
}
