import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../../../database/database.js';
import type { SearchDocument } from './document.js';

/**
 * Writes what the searches keep of one published record or one draft (its `searchDocument`).
 * Called by the repositories in the transaction that writes the record or the draft, and by the
 * migrations that indexed the rows written before.
 */

/**
 * One searched table's full-text index: published records, or drafts (which only their owner
 * searches, in their uploads). The two are kept apart, not in one table keyed by kind, since a
 * draft editing a published record shares its id, and each SQLite FTS5 row is keyed by its own
 * table's rowid.
 */
export interface SearchTable {
  table: 'records' | 'drafts';
  /** SQLite's FTS5 table, whose rowid is the row's. */
  fts: 'records_search' | 'drafts_search';
  /** The (facet, value) rows, and the column holding the row's id. */
  terms: 'record_terms' | 'draft_terms';
  termsKey: 'record_id' | 'draft_id';
}

export const RECORDS_INDEX: SearchTable = {
  table: 'records',
  fts: 'records_search',
  terms: 'record_terms',
  termsKey: 'record_id',
};

export const DRAFTS_INDEX: SearchTable = {
  table: 'drafts',
  fts: 'drafts_search',
  terms: 'draft_terms',
  termsKey: 'draft_id',
};

/** What the writer needs of a document: its texts, and its terms of any facet. */
type Indexed = Pick<SearchDocument, 'title' | 'creators' | 'description' | 'rest'> & {
  terms: ReadonlyArray<{ facet: string; value: string }>;
};

/** The texts of a document in the order of their weights, A to D. */
const WEIGHTS = [
  ['title', 'A'],
  ['description', 'B'],
  ['creators', 'C'],
  ['rest', 'D'],
] as const;

/**
 * PostgreSQL's weighted vector of a document: A title, B description, C people, D the rest. The
 * repository writes it in the statement that writes the record, so a publish writes the row once.
 */
export function searchVectorOf(doc: Indexed): RawBuilder<unknown> {
  return sql.join(
    WEIGHTS.map(
      ([text, weight]) => sql`setweight(to_tsvector('english', ${doc[text]}), ${sql.lit(weight)})`,
    ),
    sql` || `,
  );
}

/**
 * What a row's INSERT or UPDATE sets for the search besides its own columns: PostgreSQL's vector
 * (not in the typed schema, since no read needs it), nothing on SQLite.
 */
export function searchColumns(engine: Engine, doc: Indexed): object {
  return engine === 'postgres' ? { searchVector: searchVectorOf(doc) } : {};
}

/**
 * The same vector for a bulk load, which sends each document's texts as one JSON array
 * (`searchVectorTexts`): `json` is the SQL of that array as jsonb.
 */
export function searchVectorOfTexts(json: string): string {
  return WEIGHTS.map(
    ([, weight], i) => `setweight(to_tsvector('english', ${json}->>${i}), '${weight}')`,
  ).join(' || ');
}

/** A document's texts as `searchVectorOfTexts` reads them. */
export function searchVectorTexts(doc: SearchDocument): string {
  return JSON.stringify(WEIGHTS.map(([text]) => doc[text]));
}

/**
 * The rest of the index beside the row: SQLite's FTS5 row (whose rowid is the row's, so a search
 * joins the two without a lookup by id) and the facet terms, on both engines.
 */
export async function writeSearchEntries(
  db: Kysely<unknown>,
  engine: Engine,
  id: string,
  doc: Indexed,
  index: SearchTable = RECORDS_INDEX,
): Promise<void> {
  await writeSearchTexts(db, engine, id, doc, index);
  await writeSearchTerms(db, id, doc, index);
}

/** SQLite's FTS5 row of the row `id` (PostgreSQL keeps its vector in the row itself). */
export async function writeSearchTexts(
  db: Kysely<unknown>,
  engine: Engine,
  id: string,
  doc: Indexed,
  { table, fts }: SearchTable,
): Promise<void> {
  if (engine !== 'sqlite') return;
  await sql`delete from ${sql.table(fts)} where rowid = (select rowid from ${sql.table(table)} where id = ${id})`.execute(
    db,
  );
  await sql`insert into ${sql.table(fts)} (rowid, title, creators, description, rest)
    select rowid, ${doc.title}, ${doc.creators}, ${doc.description}, ${doc.rest}
    from ${sql.table(table)} where id = ${id}`.execute(db);
}

/** The facet terms of the row `id`, replacing those it held. */
export async function writeSearchTerms(
  db: Kysely<unknown>,
  id: string,
  doc: Indexed,
  { terms, termsKey }: SearchTable,
): Promise<void> {
  await sql`delete from ${sql.table(terms)} where ${sql.ref(termsKey)} = ${id}`.execute(db);
  if (doc.terms.length > 0) {
    await sql`insert into ${sql.table(terms)} (facet, value, ${sql.ref(termsKey)}) values ${sql.join(
      doc.terms.map((t) => sql`(${t.facet}, ${t.value}, ${id})`),
    )}`.execute(db);
  }
}

/** Whether two documents index the same texts (the full-text index would not change). */
export function sameTexts(a: Indexed, b: Indexed): boolean {
  return WEIGHTS.every(([text]) => a[text] === b[text]);
}

/** Whether two documents hold the same terms, in any order (the terms would not change). */
export function sameTerms(a: Indexed, b: Indexed): boolean {
  const keys = (doc: Indexed) => doc.terms.map((t) => JSON.stringify([t.facet, t.value])).sort();
  const [x, y] = [keys(a), keys(b)];
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/** Removes a row's entries, before the row itself goes (SQLite finds the FTS5 row by its rowid). */
export async function deleteSearchEntries(
  db: Kysely<unknown>,
  engine: Engine,
  id: string,
  index: SearchTable,
): Promise<void> {
  if (engine === 'sqlite')
    await sql`delete from ${sql.table(index.fts)} where rowid = (select rowid from ${sql.table(index.table)} where id = ${id})`.execute(
      db,
    );
  await sql`delete from ${sql.table(index.terms)} where ${sql.ref(index.termsKey)} = ${id}`.execute(
    db,
  );
}
