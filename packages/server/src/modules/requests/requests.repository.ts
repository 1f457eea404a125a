import { SqliteAdapter, sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../database/database.js';
import { inTransaction } from '../../database/unit-of-work.js';
import { escapeLike } from '../../lib/like.js';
import type { RequestEventsTable, RequestsTable } from '../../database/schema.js';

export type RequestRow = Selectable<RequestsTable>;
export type EventRow = Selectable<RequestEventsTable>;

export interface RequestQuery {
  /**
   * Requests this user created or, through a curating role, received once submitted; undefined:
   * all (admins).
   */
  involving?: { userId: number; curatorRoles: readonly string[] };
  receiverCommunityId?: string;
  topicRecordId?: string;
  statuses?: string[];
  types?: string[];
  q: string;
  sort: 'bestmatch' | 'newest' | 'oldest';
  offset: number;
  limit: number;
}

/** Kysely queries for requests and their timeline events. */
export class RequestsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<RequestsTable>): Promise<RequestRow> {
    await this.db.insertInto('requests').values(row).execute();
    return (await this.get(row.id))!;
  }

  async get(id: string): Promise<RequestRow | undefined> {
    return this.db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The request, locked until the transaction ends (after the topic's parent: ARCHITECTURE §7),
   * so its status is decided on as it is now. SQLite's transaction holds the write lock already.
   */
  async getForUpdate(id: string): Promise<RequestRow | undefined> {
    const query = this.db.selectFrom('requests').selectAll().where('id', '=', id);
    const postgres = !(this.db.getExecutor().adapter instanceof SqliteAdapter);
    return (postgres ? query.forUpdate() : query).executeTakeFirst();
  }

  /** Writes when the revision is still `revision`; false when someone else wrote first. */
  async update(
    id: string,
    revision: number,
    set: Partial<
      Pick<
        RequestRow,
        'status' | 'title' | 'expiresAt' | 'updatedAt' | 'lastActivityAt' | 'receiverCommunityId'
      >
    >,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('requests')
      .set({ ...set, revisionId: revision + 1 })
      .where('id', '=', id)
      .where('revisionId', '=', revision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('requests').where('id', '=', id).execute();
  }

  async search(query: RequestQuery): Promise<{ rows: RequestRow[]; total: number }> {
    let base = this.db.selectFrom('requests as r');
    if (query.involving) {
      const { userId, curatorRoles } = query.involving;
      base = base.where((eb) =>
        eb.or([
          eb('r.createdBy', '=', userId),
          // A request not yet submitted is its creator's alone.
          eb.and([
            eb('r.status', '!=', 'created'),
            eb(
              'r.receiverCommunityId',
              'in',
              eb
                .selectFrom('communityMembers as m')
                .select('m.communityId')
                .where('m.userId', '=', userId)
                .where('m.role', 'in', curatorRoles),
            ),
          ]),
        ]),
      );
    }
    if (query.receiverCommunityId)
      base = base.where('r.receiverCommunityId', '=', query.receiverCommunityId);
    if (query.topicRecordId) base = base.where('r.topicRecordId', '=', query.topicRecordId);
    if (query.statuses) base = base.where('r.status', 'in', query.statuses);
    if (query.types?.length) base = base.where('r.type', 'in', query.types);
    if (query.q) {
      const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
      base = base.where(sql<boolean>`lower(r.title) like ${pattern} escape '\\'`);
    }
    const countRow = await base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll('r')
      .orderBy('r.createdAt', query.sort === 'oldest' ? 'asc' : 'desc')
      .orderBy('r.number', query.sort === 'oldest' ? 'asc' : 'desc')
      .offset(query.offset)
      .limit(query.limit)
      .execute();
    return { rows, total: Number(countRow.n) };
  }

  /** Open requests whose expiry date has passed, oldest first. */
  async due(now: string, limit: number): Promise<RequestRow[]> {
    return this.db
      .selectFrom('requests')
      .selectAll()
      .where('status', '=', 'submitted')
      .where('expiresAt', 'is not', null)
      .where('expiresAt', '<=', now)
      .orderBy('expiresAt')
      .limit(limit)
      .execute();
  }

  // Events

  async insertEvent(row: EventRow): Promise<void> {
    await this.db
      .insertInto('requestEvents')
      .values({ ...row, payload: JSON.stringify(row.payload) })
      .execute();
  }

  async getEvent(requestId: string, id: string): Promise<EventRow | undefined> {
    return this.db
      .selectFrom('requestEvents')
      .selectAll()
      .where('requestId', '=', requestId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async updateEvent(
    id: string,
    revision: number,
    set: { type?: string; payload: unknown; updatedAt: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('requestEvents')
      .set({ ...set, payload: JSON.stringify(set.payload), revisionId: revision + 1 })
      .where('id', '=', id)
      .where('revisionId', '=', revision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async events(
    requestId: string,
    offset: number,
    limit: number,
  ): Promise<{ rows: EventRow[]; total: number }> {
    const countRow = await this.db
      .selectFrom('requestEvents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('requestId', '=', requestId)
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('requestEvents')
      .selectAll()
      .where('requestId', '=', requestId)
      .orderBy('createdAt')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
    return { rows, total: Number(countRow.n) };
  }

  /** Runs `fn` in one transaction (joining an action's, see `inTransaction`). */
  async transaction<T>(fn: (repo: RequestsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, () => fn(this));
  }
}
