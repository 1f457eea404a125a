import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Db, Engine } from '../../../database/database.js';
import { bulkInsert, type BulkColumn } from '../../../database/bulk.js';
import { readJson, type Database } from '../../../database/schema.js';

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

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

type Trx = Kysely<Database>;

const ITEM_BATCH = 1000;
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

/** JSON with keys sorted, so that PostgreSQL's jsonb key order never reads as a change. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Writes to `vocabulary_items` and `vocabulary_terms`: an admin's item at a time, or an import's
 * batches inside one bulk transaction that defers what is cheaper done once at its end (the
 * terms' index, on SQLite the browse index, PostgreSQL's statistics).
 */
export class VocabularyItemWrites {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

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
}
