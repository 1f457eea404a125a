import { sql } from 'kysely';
import type { Db, DatabaseObserver, Engine } from '../database/database.js';

/** One statement the app sent, with its parameters, to be explained. */
export interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * Keeps the statements the app sends while `capture` runs (pass it as the test app's observer):
 * the plans of what a route really sends, not of a query written again for the test.
 */
export class StatementCapture implements DatabaseObserver {
  private captured: Captured[] | undefined;

  statement(text: string, parameters: readonly unknown[]): void {
    this.captured?.push({ sql: text, parameters });
  }

  rows(): void {}

  /** The SELECT statements of `work`, and what it returned. */
  async capture<T>(work: () => Promise<T>): Promise<{ result: T; statements: Captured[] }> {
    this.captured = [];
    try {
      const result = await work();
      return { result, statements: this.captured.filter((s) => /^\s*\(?select/i.test(s.sql)) };
    } finally {
      this.captured = undefined;
    }
  }
}

/** One step of a plan: the table it reads, how, and the whole line or node for the message. */
export interface PlanStep {
  table: string;
  /** SQLite: SCAN or SEARCH; PostgreSQL: the node type (Seq Scan, Index Scan, Sort…). */
  how: string;
  /** SQLite: what follows the table (`USING INDEX x (a=?)`); PostgreSQL: the index condition. */
  detail: string;
  /** PostgreSQL: the index read, if any. */
  index?: string;
}

/**
 * The steps of the plan each engine chooses for `s`. On PostgreSQL sequential scans are priced
 * out first: test tables of a few thousand rows are rightly read whole, so a sequential scan that
 * remains is one no index could replace.
 */
export async function planOf(
  db: Db,
  engine: Engine,
  s: Captured,
  /**
   * `bitmapScans: false` prices PostgreSQL's bitmap scans out too, for a test that asks whether
   * an index alone can answer: over a test table's few thousand rows a bitmap scan, which visits
   * the rows, is rightly cheaper than an index-only scan.
   */
  options: { bitmapScans?: boolean } = {},
): Promise<PlanStep[]> {
  const parameters = s.parameters as unknown[];
  if (engine === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>({
      ...sql`select 1`.compile(db),
      sql: `explain query plan ${s.sql}`,
      parameters,
    });
    return rows.map((r) => {
      const m = /^(SCAN|SEARCH) (\w+)(.*)$/.exec(r.detail);
      return m
        ? { how: m[1]!, table: m[2]!, detail: m[3]!.trim() }
        : { how: r.detail, table: '', detail: '' };
    });
  }
  const { rows } = await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    if (options.bitmapScans === false) await sql`set local enable_bitmapscan = off`.execute(trx);
    return trx.executeQuery<{ 'QUERY PLAN': unknown }>({
      ...sql`select 1`.compile(trx),
      sql: `explain (format json) ${s.sql}`,
      parameters,
    });
  });
  const steps: PlanStep[] = [];
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const walk = (node: Record<string, unknown>) => {
    steps.push({
      how: text(node['Node Type']),
      table: text(node['Relation Name']),
      detail: text(node['Index Cond']),
      index: text(node['Index Name']),
    });
    for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? [])
      walk(child);
  };
  const plan = rows[0]!['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>;
  walk(plan[0]!.Plan);
  return steps;
}

/**
 * The steps that read one of `tables` whole: SQLite's SCAN (an FTS5 table aside, which answers
 * its MATCH from its own index) and its SEARCH through an index that does not narrow to the
 * rows asked for (`narrow` says which do: `(parent_id=?)`, say), PostgreSQL's sequential scans
 * and index scans without a condition (an index read end to end for its order).
 */
export function wholeReads(
  steps: PlanStep[],
  tables: ReadonlySet<string>,
  narrow: RegExp,
): PlanStep[] {
  return steps.filter((p) => {
    if (!tables.has(p.table)) return false;
    if (p.how === 'SCAN') return !p.detail.startsWith('VIRTUAL TABLE');
    if (p.how === 'SEARCH') return !narrow.test(p.detail);
    return p.how === 'Seq Scan' || (/^Index (Only )?Scan$/.test(p.how) && p.detail === '');
  });
}

/**
 * What autovacuum does to a live table, done now: fresh statistics, and every page marked
 * all-visible so that PostgreSQL may answer from an index alone. A vacuum can mark only the rows
 * no open transaction of the database might still not see, and the test files running beside
 * this one share the database: while one of them holds a transaction, pages stay unmarked and the
 * planner rightly prefers to read the rows. So the vacuum is repeated until every page is marked,
 * or it fails saying why, instead of a plan test failing by the timing of others.
 */
export async function vacuumUntilAllVisible(db: Db, table: string, waitMs = 60_000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    const { rows } = await sql<{ pages: number; visible: number }>`
      select relpages as pages, relallvisible as visible from pg_class
      where oid = to_regclass(${table})`.execute(db);
    const { pages, visible } = rows[0]!;
    if (visible >= pages) return;
    if (Date.now() > until)
      throw new Error(
        `${visible} of the ${pages} pages of ${table} are all-visible after vacuuming for ${waitMs} ms: a transaction of the database stays open`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
