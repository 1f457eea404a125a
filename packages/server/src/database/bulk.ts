import { CompiledQuery, type Kysely } from 'kysely';
import type { Engine } from './database.js';

/** A column of a bulk insert, with the array type PostgreSQL unnests it as. */
export interface BulkColumn {
  name: string;
  pg: 'text' | 'integer' | 'jsonb';
  /**
   * PostgreSQL only: what is inserted, an SQL expression of the unnested value (given as SQL,
   * already cast to `pg`), for a column PostgreSQL computes from what is sent (a tsvector).
   */
  pgSelect?: (value: string) => string;
}

// SQLite binds at most 32,766 values in one statement.
const SQLITE_MAX_VALUES = 32_000;
const SQLITE_MAX_ROWS = 1024;
// Keeps one PostgreSQL message well under its limits and memory modest.
const PG_MAX_ROWS = 20_000;

/**
 * Inserts many rows in few statements, bypassing the query builder: on a million-row import
 * Kysely's building and compiling of each multi-row statement costs more than SQLite's work.
 * SQLite gets multi-row VALUES; PostgreSQL gets one array per column and `unnest`, so a
 * statement has as many parameters as columns whatever the number of rows.
 * Values must be in `columns` order; column names are trusted identifiers, never user input.
 */
export async function bulkInsert<R = Record<string, unknown>>(
  db: Pick<Kysely<unknown>, 'executeQuery'>,
  engine: Engine,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly unknown[][],
  returning: readonly string[] = [],
): Promise<R[]> {
  const out: R[] = [];
  const names = columns.map((c) => c.name).join(', ');
  const tail = returning.length > 0 ? ` returning ${returning.join(', ')}` : '';
  if (engine === 'postgres') {
    const selects = columns.map((c, i) => {
      const value = c.pg === 'jsonb' ? `c${i}::jsonb` : `c${i}`;
      return c.pgSelect ? c.pgSelect(value) : value;
    });
    const arrays = columns.map((c, i) => `$${i + 1}::${c.pg === 'integer' ? 'integer' : 'text'}[]`);
    const aliases = columns.map((_, i) => `c${i}`).join(', ');
    const text = `insert into ${table} (${names}) select ${selects.join(', ')} from unnest(${arrays.join(', ')}) as u(${aliases})${tail}`;
    for (let start = 0; start < rows.length; start += PG_MAX_ROWS) {
      const chunk = rows.slice(start, start + PG_MAX_ROWS);
      const params = columns.map((_, i) => chunk.map((row) => row[i]));
      out.push(...(await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows);
    }
    return out;
  }
  // Statements are prepared once per text and cached: chunks of a power-of-two size keep the
  // texts few (a size per bit), where any other count would prepare, and keep, a new one.
  let perStatement = SQLITE_MAX_ROWS;
  while (perStatement * columns.length > SQLITE_MAX_VALUES) perStatement /= 2;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  let start = 0;
  while (start < rows.length) {
    let size = perStatement;
    while (size > rows.length - start) size /= 2;
    const chunk = rows.slice(start, start + size);
    const text = `insert into ${table} (${names}) values ${Array.from(chunk, () => tuple).join(', ')}${tail}`;
    out.push(...(await db.executeQuery<R>(CompiledQuery.raw(text, chunk.flat()))).rows);
    start += size;
  }
  return out;
}
