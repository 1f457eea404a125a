import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../database/database.js';
import type { CommunityMemberRequestsTable } from '../../database/schema.js';
import { containsPattern } from '../../lib/like.js';

export type MemberRequestRow = Selectable<CommunityMemberRequestsTable>;

/** A pending or closed invitation or request to join, with its request and its person. */
export interface MemberRequestHit extends MemberRequestRow {
  status: string;
  expiresAt: string | null;
  updatedAt: string;
  createdBy: number | null;
  name: string;
  email: string;
}

/** Kysely queries for what invitations and requests to join would make of their people. */
export class MembershipsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<CommunityMemberRequestsTable>): Promise<void> {
    await this.db.insertInto('communityMemberRequests').values(row).execute();
  }

  async byRequest(requestId: string): Promise<MemberRequestRow | undefined> {
    return this.db
      .selectFrom('communityMemberRequests')
      .selectAll()
      .where('requestId', '=', requestId)
      .executeTakeFirst();
  }

  /** The person's open invitation or request to join the community, if any. */
  async openFor(communityId: string, userId: number): Promise<MemberRequestRow | undefined> {
    return this.db
      .selectFrom('communityMemberRequests')
      .selectAll()
      .where('communityId', '=', communityId)
      .where('userId', '=', userId)
      .where('isOpen', '=', 1)
      .executeTakeFirst();
  }

  async close(requestId: string): Promise<void> {
    await this.db
      .updateTable('communityMemberRequests')
      .set({ isOpen: 0 })
      .where('requestId', '=', requestId)
      .execute();
  }

  async setRole(requestIds: string[], set: { role?: string; visible?: number }): Promise<void> {
    if (requestIds.length === 0) return;
    await this.db
      .updateTable('communityMemberRequests')
      .set(set)
      .where('requestId', 'in', requestIds)
      .execute();
  }

  /**
   * A community's invitations or requests to join (`type`), open ones first and then the newest,
   * found through the community's index; `q` matches the person's name or e-mail address.
   */
  async search(
    communityId: string,
    type: string,
    options: { q: string; isOpen?: boolean; offset: number; limit: number },
  ): Promise<{ rows: MemberRequestHit[]; total: number }> {
    let base = this.db
      .selectFrom('communityMemberRequests as p')
      .innerJoin('requests as r', 'r.id', 'p.requestId')
      .innerJoin('users as u', 'u.id', 'p.userId')
      .where('p.communityId', '=', communityId)
      .where('r.type', '=', type);
    if (options.isOpen !== undefined) base = base.where('p.isOpen', '=', options.isOpen ? 1 : 0);
    if (options.q) {
      const pattern = containsPattern(options.q.toLowerCase());
      base = base.where((eb) =>
        eb.or([
          sql<boolean>`lower(u.name) like ${pattern} escape '\\'`,
          sql<boolean>`lower(u.email) like ${pattern} escape '\\'`,
        ]),
      );
    }
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      base
        .selectAll('p')
        .select(['r.status', 'r.expiresAt', 'r.updatedAt', 'r.createdBy', 'u.name', 'u.email'])
        .orderBy('p.isOpen', 'desc')
        .orderBy('p.createdAt', 'desc')
        .orderBy('p.requestId')
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
