import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../../../database/database.js';
import type { SearchDocument } from './document.js';

/**
 * Writes what the records search keeps of one published record (its `searchDocument`). Called by
 * the repository in the transaction that writes the record, and by the migration that indexed the
 * records published before the search had fields.
 */

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
export function searchVectorOf(doc: SearchDocument): RawBuilder<unknown> {
  return sql.join(
    WEIGHTS.map(
      ([text, weight]) => sql`setweight(to_tsvector('english', ${doc[text]}), ${sql.lit(weight)})`,
    ),
    sql` || `,
  );
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
 * The rest of the index beside the record's row: SQLite's FTS5 row (whose rowid is the record's,
 * so a search joins the two without a lookup by id) and the facet terms, on both engines.
 */
export async function writeSearchEntries(
  db: Kysely<unknown>,
  engine: Engine,
  id: string,
  doc: SearchDocument,
): Promise<void> {
  if (engine === 'sqlite') {
    await sql`delete from records_search where rowid = (select rowid from records where id = ${id})`.execute(
      db,
    );
    await sql`insert into records_search (rowid, title, creators, description, rest)
      select rowid, ${doc.title}, ${doc.creators}, ${doc.description}, ${doc.rest}
      from records where id = ${id}`.execute(db);
  }
  await sql`delete from record_terms where record_id = ${id}`.execute(db);
  if (doc.terms.length > 0) {
    await sql`insert into record_terms (facet, value, record_id) values ${sql.join(
      doc.terms.map((t) => sql`(${t.facet}, ${t.value}, ${id})`),
    )}`.execute(db);
  }
}
