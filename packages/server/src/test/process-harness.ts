import path from 'node:path';
import { openDatabase, type DatabaseHandle, type Engine } from '../database/database.js';
import {
  callApi,
  createProcessDatabase,
  type ApiAnswer,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from './server-process.js';

/** A guard against hangs only: every wait ends on a state, never on a duration. */
export const GUARD_MS = 120_000;

/** Waits until `check` gives a value (not undefined or false), polling; fails after the guard. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > GUARD_MS) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A `cairn serve` child process on data of its own (a folder, and a PostgreSQL database of its
 * own on that engine), the test's own view of that database, and an account to call the API as:
 * for tests that kill the server and start it again on the same data.
 */
export interface ProcessHarness {
  readonly engine: Engine;
  /** What every start gets (the test adds to it per start). */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  /** The server started last (dead, once killed). */
  readonly server: ServerProcess;
  readonly db: DatabaseHandle;
  /** The account's `Authorization` header. */
  readonly headers: Record<string, string>;
  /** Starts the server again on the same data, with `extra` settings, killing it first. */
  restart(extra?: Record<string, string>): Promise<void>;
  /** A request as the harness's account. */
  api(method: string, url: string, body?: unknown): Promise<ApiAnswer>;
  close(): Promise<void>;
}

export async function startProcessHarness(
  engine: Engine,
  env: Record<string, string>,
): Promise<ProcessHarness> {
  const data = await tempDataDir();
  const database = engine === 'postgres' ? await createProcessDatabase() : undefined;
  const base = {
    NODE_ENV: 'test',
    CAIRN_DATA_DIR: data.dir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  let server = await startServerProcess(base);
  const db = openDatabase(
    database
      ? { kind: 'postgres', url: database.url }
      : { kind: 'sqlite', file: path.join(data.dir, 'cairn.sqlite') },
  );
  const { headers } = await processUser(base);
  return {
    engine,
    env: base,
    dataDir: data.dir,
    get server() {
      return server;
    },
    db,
    headers,
    async restart(extra = {}) {
      await server.kill();
      server = await startServerProcess({ ...base, ...extra });
    },
    api: (method, url, body) => callApi(server.url, method, url, headers, body),
    async close() {
      await server.kill();
      await db.close();
      await database?.drop();
      await data.remove();
    },
  };
}
