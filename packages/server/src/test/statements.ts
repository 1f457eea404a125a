import type { DatabaseObserver } from '../database/database.js';

/** What one piece of work cost the database. */
export interface Cost {
  /** Every statement sent, in order, `begin` and `commit` included. */
  statements: string[];
  /** Rows the queries returned to the app. */
  rows: number;
}

/**
 * Counts what the app sends to its database (pass it as the test app's `observer`): each
 * statement is a round trip, so their number per request is what a request costs the database
 * beyond the work each one does, and the rows returned show work that grows with the data.
 */
export class StatementCounter implements DatabaseObserver {
  private sent: string[] = [];
  private returned = 0;

  statement(sql: string): void {
    this.sent.push(sql);
  }

  rows(count: number): void {
    this.returned += count;
  }

  /** The cost of `work` alone; nothing else may use the app's database meanwhile. */
  async measure<T>(work: () => Promise<T>): Promise<Cost & { result: T }> {
    this.sent = [];
    this.returned = 0;
    const result = await work();
    return { result, statements: [...this.sent], rows: this.returned };
  }
}
