import { sql } from 'kysely';
import type { Db } from '../../database/database.js';

/** The throttling counters (`rate_limits`), shared by every app server on the database. */
export class RateLimitsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Counts one attempt under `key` in one statement, so that concurrent attempts on any server
   * each get their own count: a window that has ended starts again at 1.
   */
  async hit(
    key: string,
    windowMs: number,
    now = new Date(),
  ): Promise<{ hits: number; resetAt: string }> {
    const at = now.toISOString();
    const resetAt = new Date(now.getTime() + windowMs).toISOString();
    const ended = sql<boolean>`rate_limits.reset_at <= ${at}`;
    return this.db
      .insertInto('rateLimits')
      .values({ key, hits: 1, resetAt })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          hits: sql<number>`case when ${ended} then 1 else rate_limits.hits + 1 end`,
          resetAt: sql<string>`case when ${ended} then ${resetAt} else rate_limits.reset_at end`,
        }),
      )
      .returning(['hits', 'resetAt'])
      .executeTakeFirstOrThrow();
  }

  /** Forgets windows that have ended; the number of rows removed. */
  async deleteEnded(now = new Date()): Promise<number> {
    const result = await this.db
      .deleteFrom('rateLimits')
      .where('resetAt', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
