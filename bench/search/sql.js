// The records search's SQL measured directly against the database: the statements the product
// issues for a request, captured from the server's own search service, then each timed and
// explained without HTTP, rendering or the other statements beside it. This is how the benchmark
// tells the cost of the hits (one page and the total) from the cost of counting the facets, which
// the API always does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { createServices, loadConfig, openDatabase } from '@cairn/server';
import { percentile } from '../lib/load.js';

/**
 * What each statement of a records search is, by its text.
 * @typedef {'hits' | 'total' | 'facet: terms' | 'facet: access status' | 'facet: year' | 'facet: community' | 'facet: all, with the total' | 'other'} StatementKind
 * @typedef {{kind: StatementKind, sql: string, parameters: readonly unknown[]}} Statement
 * @typedef {{kind: StatementKind, p50Ms: number, p95Ms: number}} StatementTiming
 */

/**
 * The times of `work` in ms, ascending: after one unmeasured run (counted when it took over a
 * second: then a cold cache is not what it measures), `runs` runs, or fewer once `maxSeconds`
 * have passed.
 * @param {() => Promise<unknown>} work
 * @param {number} runs
 * @param {number} maxSeconds
 */
async function repeat(work, runs, maxSeconds) {
  /** @type {number[]} */
  const times = [];
  const deadline = performance.now() + maxSeconds * 1000;
  const first = performance.now();
  await work();
  if (performance.now() - first > 1000) times.push(performance.now() - first);
  while (times.length < runs && (times.length === 0 || performance.now() < deadline)) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/** @param {string} text */
function kindOf(text) {
  const s = text.toLowerCase();
  if (s.startsWith('with found as materialized')) return 'facet: all, with the total';
  if (s.includes('from "record_terms"') && s.includes('group by')) return 'facet: terms';
  if (s.includes('group by "records"."access_status"')) return 'facet: access status';
  if (s.includes('group by substr(')) return 'facet: year';
  if (s.includes('inner join "record_communities"')) return 'facet: community';
  if (s.startsWith('select "records".') && s.includes(' limit ')) return 'hits';
  if (s.startsWith('select count(*)') && s.includes('from "records"')) return 'total';
  return 'other';
}

/**
 * A connection of the benchmark's own to the server's database, which captures the statements
 * of a search as the product makes them and replays them.
 * @param {{dataDir: string, databaseUrl?: string}} where
 */
export async function openSqlProbe(where) {
  const env = {
    CAIRN_DATA_DIR: where.dataDir,
    ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}),
  };
  const webDist = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));
  const config = loadConfig(env, { webDist: path.resolve(webDist) });
  /** @type {Statement[] | undefined} */
  let capturing;
  const handle = openDatabase(config.database, {
    statement(sql, parameters) {
      capturing?.push({ kind: kindOf(sql), sql, parameters });
    },
    rows() {},
  });
  const services = await createServices(config, handle);
  // Replays go through the driver itself, as Kysely hands it the statement: one connection, the
  // page cache the server gives its own.
  const sqlite =
    config.database.kind === 'sqlite'
      ? new Sqlite(config.database.file, { readonly: true })
      : undefined;
  sqlite?.pragma('cache_size = -65536');
  const client = where.databaseUrl
    ? new pg.Client({ connectionString: where.databaseUrl })
    : undefined;
  await client?.connect();

  /**
   * @param {Statement} s
   * @returns {Promise<unknown[]>}
   */
  async function execute(s) {
    if (sqlite) return sqlite.prepare(s.sql).all(.../** @type {any[]} */ (s.parameters));
    return (
      await /** @type {pg.Client} */ (client).query(s.sql, /** @type {any[]} */ (s.parameters))
    ).rows;
  }

  return {
    /**
     * The statements of an anonymous GET /api/records with these query parameters.
     * @param {Record<string, string>} query
     */
    async capture(query) {
      capturing = [];
      try {
        await services.search.search(undefined, query);
        return capturing.filter((s) => s.kind !== 'other');
      } finally {
        capturing = undefined;
      }
    },

    /**
     * Times the page and the total together (one after the other, as one request would wait
     * for both), then each facet statement alone.
     * @param {Statement[]} statements
     * @param {{runs: number, facetRuns: number, maxSeconds: number}} n at most `runs` (and
     *   `facetRuns`) runs each, fewer past `maxSeconds` (a quarter of it for each facet)
     */
    async time(statements, n) {
      const hits = statements.filter((s) => s.kind === 'hits' || s.kind === 'total');
      const hitTimes = await repeat(
        async () => {
          for (const s of hits) await execute(s);
        },
        n.runs,
        n.maxSeconds,
      );
      /** @type {StatementTiming[]} */
      const facets = [];
      for (const s of statements.filter((x) => x.kind.startsWith('facet'))) {
        const times = await repeat(() => execute(s), n.facetRuns, n.maxSeconds / 4);
        facets.push({ kind: s.kind, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) });
      }
      return { p50Ms: percentile(hitTimes, 50), p95Ms: percentile(hitTimes, 95), facets };
    },

    /**
     * Each statement's plan: SQLite's EXPLAIN QUERY PLAN as a tree, PostgreSQL's EXPLAIN
     * (ANALYZE, BUFFERS), which runs it.
     * @param {Statement} s
     */
    async explain(s) {
      if (sqlite) {
        const rows = /** @type {Array<{id: number, parent: number, detail: string}>} */ (
          sqlite.prepare(`explain query plan ${s.sql}`).all(.../** @type {any[]} */ (s.parameters))
        );
        /** @type {Map<number, number>} */
        const depth = new Map([[0, 0]]);
        return rows
          .map((r) => {
            const d = (depth.get(r.parent) ?? 0) + 1;
            depth.set(r.id, d);
            return `${'  '.repeat(d - 1)}${r.detail}`;
          })
          .join('\n');
      }
      const { rows } = await /** @type {pg.Client} */ (client).query(
        `explain (analyze, buffers) ${s.sql}`,
        /** @type {any[]} */ (s.parameters),
      );
      return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
    },

    async close() {
      sqlite?.close();
      await client?.end();
      await handle.close();
    },
  };
}
