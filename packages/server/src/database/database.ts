import {
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type KyselyConfig,
  type KyselyPlugin,
} from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { transactional } from './unit-of-work.js';

export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  /** Every query goes through it; inside `inTransaction` it stands for that transaction. */
  db: Db;
  /**
   * For the reads that may lag the primary by a replica's delay: the records search. A read
   * replica when `DATABASE_READ_URL` is set, `db` itself otherwise.
   */
  reader: Db;
  engine: Engine;
  close(): Promise<void>;
  /** PostgreSQL's connection pool, for its figures (metrics); SQLite has none. */
  pool?: PoolFigures;
}

export interface PoolFigures {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly max: number;
}

const STATEMENT_CACHE_SIZE = 500;
/** SQLite's page cache per connection, in KiB. */
export const SQLITE_CACHE_KIB = 65_536;

/**
 * Kysely prepares every statement anew, and preparing costs more than running a primary-key
 * read: a small LRU of prepared statements roughly halves the database time of a draft GET.
 * Safe because better-sqlite3 runs statements synchronously and Cairn never streams results.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      let statement = cache.get(query);
      if (statement) {
        cache.delete(query);
      } else {
        statement = sqlite.prepare(query);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(query, statement);
      return statement;
    },
  };
}

/**
 * Sees every statement sent to the database, transaction control included, and how many rows
 * each query returned: the tests hold the statements a request costs to a count with it.
 */
export interface DatabaseObserver {
  /**
   * `parameters`: the values bound to the statement's placeholders, in order; `via`: 'reader'
   * when it went to the read replica's pool.
   */
  statement(sql: string, parameters: readonly unknown[], via?: 'reader'): void;
  rows(count: number): void;
}

/** Kysely's query log and a result hook reporting to `observer`; nothing without one. */
function observing(observer: DatabaseObserver | undefined, via?: 'reader'): Partial<KyselyConfig> {
  if (!observer) return {};
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: ({ result }) => {
      observer.rows(result.rows.length);
      return Promise.resolve(result);
    },
  };
  return {
    // Failed statements too: they made their round trip all the same.
    log: (event) => observer.statement(event.query.sql, event.query.parameters, via),
    plugins: [counter],
  };
}

/** Opens the configured database (SQLite file in WAL mode, or a PostgreSQL pool). */
export function openDatabase(
  database: Config['database'],
  observer?: DatabaseObserver,
): DatabaseHandle {
  if (database.kind === 'sqlite') {
    const { plugins: observers = [], ...observed } = observing(observer);
    if (database.file !== ':memory:')
      fs.mkdirSync(path.dirname(database.file), { recursive: true });
    const sqlite = new SqliteDatabase(database.file);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL is durable in WAL mode across application crashes; only an OS crash can lose the last commit.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // SQLite's default 2 MB page cache thrashes on the vocabularies' million-row indexes.
    sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true }), ...observers],
      ...observed,
    });
    const handle = transactional(db);
    return { db: handle, reader: handle, engine: 'sqlite', close: () => db.destroy() };
  }
  const { pool, db } = postgresPool(database.url, database.schema, observer);
  const replica =
    database.readUrl === undefined
      ? undefined
      : // Read-only on its side too: a replica refuses writes anyway, and a primary's address
        // given here by mistake must not take any either.
        postgresPool(database.readUrl, database.schema, observer, 'reader');
  const handle = transactional(db);
  return {
    db: handle,
    reader: replica?.db ?? handle,
    engine: 'postgres',
    close: async () => {
      await db.destroy();
      await replica?.db.destroy();
    },
    pool: {
      get totalCount() {
        return pool.totalCount;
      },
      get idleCount() {
        return pool.idleCount;
      },
      get waitingCount() {
        return pool.waitingCount;
      },
      max: pool.options.max ?? 10,
    },
  };
}

/** A PostgreSQL pool and the Kysely over it; `via` 'reader' makes every transaction read-only. */
function postgresPool(
  url: string,
  schema: string | undefined,
  observer: DatabaseObserver | undefined,
  via?: 'reader',
) {
  const { plugins: observers = [], ...observed } = observing(observer, via);
  const settings = [
    ...(schema ? [`-c search_path=${schema}`] : []),
    ...(via === 'reader' ? ['-c default_transaction_read_only=on'] : []),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
  });
  // A connection that dies (a restarted or unreachable server) emits an error event, which with
  // no listener ends the process: the pool's own while the connection is idle, the client's
  // while it is in use. The query in flight fails with it anyway, the pool drops the connection,
  // and readiness reports the database.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true }), ...observers],
    ...observed,
  });
  return { pool, db };
}

/** `now()` as the ISO string Cairn stores (UTC, millisecond precision). */
export function nowIso(): string {
  return new Date().toISOString();
}

export { sql };
