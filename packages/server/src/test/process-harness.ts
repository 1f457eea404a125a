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

/**
 * Two `cairn serve` child processes on one PostgreSQL database of their own, each with a data
 * folder of its own (the first one's is `env.CAIRN_DATA_DIR`, for the commands that make
 * accounts), and the test's own view of that database: for tests of what two servers do at once.
 */
export interface ServerPair {
  readonly servers: ServerProcess[];
  readonly env: Record<string, string>;
  readonly db: DatabaseHandle;
  /** A request to the server `i % 2`. */
  readonly via: (
    i: number,
  ) => (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => Promise<ApiAnswer>;
  close(): Promise<void>;
}

export async function startServerPair(extra: Record<string, string>): Promise<ServerPair> {
  const cleanups: Array<() => Promise<void>> = [];
  const servers: ServerProcess[] = [];
  const database = await createProcessDatabase();
  cleanups.push(database.drop);
  const env: Record<string, string> = { NODE_ENV: 'test', DATABASE_URL: database.url, ...extra };
  for (let i = 0; i < 2; i++) {
    const data = await tempDataDir();
    cleanups.push(data.remove);
    env.CAIRN_DATA_DIR ??= data.dir;
    servers.push(await startServerProcess({ ...env, CAIRN_DATA_DIR: data.dir }));
  }
  const db = openDatabase({ kind: 'postgres', url: database.url });
  return {
    servers,
    env,
    db,
    via: (i) => (method, url, headers, body) =>
      callApi(servers[i % 2]!.url, method, url, headers, body),
    async close() {
      for (const server of servers) await server.kill();
      await db.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
