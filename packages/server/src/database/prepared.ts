import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

const SENTINEL = '\u0000cairn-param-';

/**
 * A query built and compiled once per database, then run with new parameter values. Building a
 * Kysely query (parse, freeze, CamelCase transform, compile) costs more than running a
 * primary-key read, so the few queries on every request's path are prepared this way.
 *
 * `build` receives placeholder values and must use each of them exactly as a bound value.
 */
export function preparedQuery<P extends readonly string[], R>(
  build: (db: Kysely<Database>, ...params: P) => Compilable<R>,
): (db: Kysely<Database>, ...params: P) => Promise<R[]> {
  const compiled = new WeakMap<object, { query: CompiledQuery<R>; slots: number[] }>();
  return async (db, ...params) => {
    const executor = db.getExecutor();
    let entry = compiled.get(executor.adapter);
    if (!entry) {
      const placeholders = params.map((_, i) => `${SENTINEL}${i}`) as unknown as P;
      const query = build(db, ...placeholders).compile();
      const slots = query.parameters.map((value) => {
        const slot =
          typeof value === 'string' && value.startsWith(SENTINEL)
            ? Number(value.slice(SENTINEL.length))
            : -1;
        if (slot < 0) throw new Error('preparedQuery: every bound value must be a parameter');
        return slot;
      });
      entry = { query, slots };
      compiled.set(executor.adapter, entry);
    }
    const query: CompiledQuery<R> = {
      ...entry.query,
      parameters: entry.slots.map((slot) => params[slot]),
    };
    return (await db.executeQuery(query)).rows;
  };
}
