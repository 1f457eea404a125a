import { AsyncLocalStorage } from 'node:async_hooks';
import { SqliteAdapter, sql, type Kysely, type Transaction, type TransactionBuilder } from 'kysely';
import type { Database } from './schema.js';

/**
 * One transaction for a whole state-changing action, however many services and repositories it
 * goes through (a request's accept publishes a draft, which moves its files): `inTransaction`
 * opens it, and every query made through the database handle while it runs, in the same async
 * flow, goes to that transaction; a `transaction()` started inside joins it instead of opening a
 * second one. The records service locks the record's parent as the transaction's first step, so
 * the action reads and writes everything about the record alone (ARCHITECTURE §7, locking).
 *
 * Written here rather than taken from a library: what it needs is Node's own AsyncLocalStorage
 * and a handle that looks like Kysely's, so the repositories keep their code unchanged.
 */
interface Unit {
  root: Kysely<Database>;
  trx: Transaction<Database>;
  /** False once the callback has returned: a stray promise's query then goes to the pool. */
  open: boolean;
  /** What must wait for the commit: freeing bytes, waking the DOI queue. */
  deferred: Array<() => Promise<void> | void>;
}

const current = new AsyncLocalStorage<Unit>();
const roots = new WeakMap<object, Kysely<Database>>();

function openUnit(root: Kysely<Database>): Unit | undefined {
  const unit = current.getStore();
  return unit?.open && unit.root === root ? unit : undefined;
}

/**
 * The handle every repository is given: `root` itself, except inside `inTransaction`, where it
 * stands for that transaction.
 */
export function transactional(root: Kysely<Database>): Kysely<Database> {
  const handle = new Proxy(root, {
    get(target, property) {
      const unit = openUnit(target);
      if (unit && property === 'transaction') {
        const joined = {
          execute: <T>(fn: (trx: Transaction<Database>) => Promise<T>) => fn(unit.trx),
        };
        return () => joined as unknown as TransactionBuilder<Database>;
      }
      const source: Kysely<Database> = unit ? unit.trx : target;
      const value: unknown = Reflect.get(source, property, source);
      return typeof value === 'function' ? (value.bind(source) as unknown) : value;
    },
  });
  roots.set(handle, root);
  return handle;
}

/**
 * Runs `fn` in one transaction of `db` (a handle made by `transactional`), or within the one
 * already open in this async flow. Work deferred with `afterCommit` runs once it has committed,
 * outside it; a rollback drops it.
 *
 * On SQLite the transaction's first statement is a write, which takes the database's write lock
 * at once: a transaction that read first and wrote later could be refused its write (busy) by a
 * writer in another process, and its reads could be older than that writer's commit.
 */
export async function inTransaction<T>(db: Kysely<Database>, fn: () => Promise<T>): Promise<T> {
  const root = roots.get(db);
  if (!root) {
    // A repository built on a transaction itself: its queries are in that transaction already.
    if (db.isTransaction) return fn();
    throw new Error('inTransaction needs the handle made by transactional()');
  }
  if (openUnit(root)) return fn();
  const deferred: Unit['deferred'] = [];
  const result = await root.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`update parents set id = id where 0`.execute(trx);
    }
    const unit: Unit = { root, trx, open: true, deferred };
    return current.run(unit, async () => {
      try {
        return await fn();
      } finally {
        unit.open = false;
      }
    });
  });
  for (const task of deferred) await task();
  return result;
}

/**
 * Runs `task` after the enclosing `inTransaction` commits (never, if it rolls back), or now when
 * there is none. For effects outside the database: a rolled-back publish must not have deleted
 * bytes or told DataCite.
 */
export async function afterCommit(task: () => Promise<void> | void): Promise<void> {
  const unit = current.getStore();
  if (unit?.open) unit.deferred.push(task);
  else await task();
}
