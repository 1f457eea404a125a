import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../database/database.js';
import type { AccessRequestsTable, AccessRequestTokensTable } from '../../database/schema.js';

export type AccessRequestRow = Selectable<AccessRequestsTable>;
export type AccessRequestTokenRow = Selectable<AccessRequestTokensTable>;

/** Kysely queries for who asked for access to records, and guests' unconfirmed requests. */
export class AccessRequestsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<AccessRequestsTable>): Promise<void> {
    await this.db.insertInto('accessRequests').values(row).execute();
  }

  byRequest(requestId: string): Promise<AccessRequestRow | undefined> {
    return this.db
      .selectFrom('accessRequests')
      .selectAll()
      .where('requestId', '=', requestId)
      .executeTakeFirst();
  }

  /**
   * Which of the requests `requestIds` are about a parent `userId` holds a `manage` grant on
   * that is still good on `day`: those they decide as a co-owner.
   */
  async managedBy(userId: number, requestIds: string[], day: string): Promise<Set<string>> {
    if (requestIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('accessRequests as ar')
      .innerJoin('recordGrants as g', 'g.parentId', 'ar.parentId')
      .select('ar.requestId')
      .where('ar.requestId', 'in', requestIds)
      .where('g.userId', '=', userId)
      .where('g.permission', '=', 'manage')
      .where((w) => w.or([w('g.expiresAt', 'is', null), w('g.expiresAt', '>', day)]))
      .execute();
    return new Set(rows.map((r) => r.requestId));
  }

  /** The open request of a person (by user id or by address) for the parent, if any. */
  openFor(
    parentId: string,
    who: { userId: number } | { email: string },
  ): Promise<AccessRequestRow | undefined> {
    let query = this.db
      .selectFrom('accessRequests')
      .selectAll()
      .where('parentId', '=', parentId)
      .where('isOpen', '=', 1);
    query =
      'userId' in who
        ? query.where('userId', '=', who.userId)
        : query.where('email', '=', who.email);
    return query.executeTakeFirst();
  }

  async close(requestId: string): Promise<void> {
    await this.db
      .updateTable('accessRequests')
      .set({ isOpen: 0 })
      .where('requestId', '=', requestId)
      .execute();
  }

  async insertToken(row: AccessRequestTokenRow): Promise<void> {
    await this.db.insertInto('accessRequestTokens').values(row).execute();
  }

  tokenByHash(tokenHash: string): Promise<AccessRequestTokenRow | undefined> {
    return this.db
      .selectFrom('accessRequestTokens')
      .selectAll()
      .where('tokenHash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Whether this call removed the token: of two parallel confirmations only one does. */
  async deleteToken(tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('accessRequestTokens')
      .where('tokenHash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Forgets unconfirmed requests past their time (run when a guest asks). */
  async deleteExpiredTokens(now: string): Promise<void> {
    await this.db.deleteFrom('accessRequestTokens').where('expiresAt', '<=', now).execute();
  }
}
