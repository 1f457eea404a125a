import crypto from 'node:crypto';
import { Migrator } from 'kysely';
import pg from 'pg';
import {
  openDatabase,
  type DatabaseHandle,
  type DatabaseObserver,
  type Engine,
} from '../database/database.js';
import type { Config } from '../config.js';
import { migrations } from '../database/migrations/index.js';

/** SQLite always; PostgreSQL too when CAIRN_TEST_DATABASE_URL points at a server (CI does). */
export const ENGINES: Engine[] = process.env.CAIRN_TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestDatabase {
  handle: DatabaseHandle;
  config: Config['database'];
  /** Closes connections and removes everything the test created. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database of the given engine: in-memory SQLite, or a PostgreSQL schema of its
 * own, so test files running in parallel (and runs on a shared server) never see each other's data.
 */
export async function createTestDatabase(
  engine: Engine,
  observer?: DatabaseObserver,
  options: { readReplica?: boolean | undefined } = {},
): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const config = { kind: 'sqlite' as const, file: ':memory:' };
    const handle = openDatabase(config, observer);
    return { handle, config, drop: () => handle.close() };
  }
  const url = process.env.CAIRN_TEST_DATABASE_URL;
  if (!url) throw new Error('CAIRN_TEST_DATABASE_URL is not set');
  const schema = `cairn_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  // The test server has no replica: the read pool connects to the primary, read-only, which is
  // what the search may rely on of a replica.
  const config = {
    kind: 'postgres' as const,
    url,
    schema,
    ...(options.readReplica ? { readUrl: url } : {}),
  };
  const handle = openDatabase(config, observer);
  return {
    handle,
    config,
    async drop() {
      await handle.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/** A migrator over every migration, for tests that start from an older schema. */
export function testMigrator(database: TestDatabase): Migrator {
  const schema = database.config.kind === 'postgres' ? database.config.schema : undefined;
  return new Migrator({
    db: database.handle.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * A user and the parent `p` they own, written straight to the tables, for migration tests that
 * put rows in place as an older schema held them.
 */
export async function seedParent(database: TestDatabase, now: string): Promise<void> {
  const { db } = database.handle;
  const user = await db
    .insertInto('users')
    .values({ email: 'a@example.org', name: 'A', passwordHash: 'x', isAdmin: 0, createdAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('parents')
    .values({ id: 'p', ownerId: user.id, data: '{}', createdAt: now, updatedAt: now })
    .execute();
}
