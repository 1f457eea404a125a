import {
  SqliteAdapter,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
} from 'kysely';
import type { Db } from '../../database/database.js';
import { inTransaction } from '../../database/unit-of-work.js';
import { escapeLike } from '../../lib/like.js';
import type { Database, RequestEventsTable, RequestsTable } from '../../database/schema.js';

export type RequestRow = Selectable<RequestsTable>;

/** Not created by `userId`: a guest's request (no creator) is nobody's own. */
function notCreatedBy(userId: number) {
  return (eb: ExpressionBuilder<RequestsFrom, 'r'>) =>
    eb.or([eb('r.createdBy', 'is', null), eb('r.createdBy', '!=', userId)]);
}

/**
 * The receiving community of a request of a type that always has one (every type but the access
 * requests, which go to a person).
 */
export function receivingCommunity(row: RequestRow): string {
  if (row.receiverCommunityId === null) throw new Error(`request ${row.id} has no community`);
  return row.receiverCommunityId;
}

/** The migration that made `request_reads`. */
const READS_MIGRATION = '0023_requests_inbox';
export type EventRow = Selectable<RequestEventsTable>;
/** The requests table as the search names it. */
type RequestsFrom = Database & { r: RequestsTable };

/**
 * A person and the roles through which a community's requests reach them: curating roles decide
 * on records, managing roles on who joins.
 */
export interface Involving {
  userId: number;
  curatorRoles: readonly string[];
  managerRoles: readonly string[];
}

/** The requests to join a community, which only its managing roles decide on. */
const MEMBERSHIP_REQUEST = 'community-membership-request';
/** Invitations, which their invited person decides on (`receiverUserId`), not the community. */
const INVITATION = 'community-invitation';

export interface RequestQuery {
  /**
   * Requests this user created or, through a curating role, received once submitted; undefined:
   * all (admins).
   */
  involving?: Involving;
  /** Received by one of these communities. */
  receiverCommunityIds?: string[];
  /** Created by this user (the inbox's "created by me"). */
  createdBy?: number;
  topicRecordId?: string;
  statuses?: string[];
  types?: string[];
  q: string;
  /** `updated`: the latest activity first. */
  sort: 'bestmatch' | 'newest' | 'oldest' | 'updated';
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
    const requests = () => this.requestsFrom();
    /** The filters every part of the search shares. */
    const filtered = (base: ReturnType<typeof requests>) => {
      let b = base;
      const communities = query.receiverCommunityIds;
      if (communities)
        b =
          communities.length === 1
            ? b.where('r.receiverCommunityId', '=', communities[0]!)
            : b.where('r.receiverCommunityId', 'in', communities);
      if (query.createdBy !== undefined) b = b.where('r.createdBy', '=', query.createdBy);
      if (query.topicRecordId) b = b.where('r.topicRecordId', '=', query.topicRecordId);
      if (query.statuses) b = b.where('r.status', 'in', query.statuses);
      if (query.types?.length) b = b.where('r.type', 'in', query.types);
      if (query.q) {
        const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
        b = b.where(sql<boolean>`lower(r.title) like ${pattern} escape '\\'`);
      }
      return b;
    };
    const involving = query.involving;
    // Only the key and the list's order are read to count and to choose the page: the receiving
    // community's indexes hold them (and what the filters ask) beside its id, so that a curator's
    // thousands of requests are counted and ordered from the index alone; the page's rows are
    // read afterwards, by their keys.
    const keys = (b: ReturnType<typeof requests>) =>
      b.select((eb) => [
        'r.number',
        eb.ref(query.sort === 'updated' ? 'r.lastActivityAt' : 'r.createdAt').as('sortKey'),
      ]);
    let listed;
    if (involving && query.createdBy === involving.userId) {
      // Its own requests only: what it created it may see in every status, through its index.
      listed = keys(filtered(requests()));
    } else if (involving && !query.receiverCommunityIds) {
      const { userId } = involving;
      // Across communities, the requests it sent and those its communities received (not sent
      // by it) are each read through their own index and put together before the order: as one
      // OR beside the status, both engines read every request of that status (everyone's open
      // requests) through the status index.
      const sent = filtered(requests().where('r.createdBy', '=', userId));
      const received = filtered(
        requests()
          .where((eb) => this.receivedBy(eb, involving))
          .where(notCreatedBy(userId)),
      );
      // Invitations to it, through the index of the people requests are addressed to.
      const invited = filtered(
        requests()
          .where('r.receiverUserId', '=', userId)
          .where('r.status', '!=', 'created')
          .where(notCreatedBy(userId)),
      );
      // Access requests about records it manages by a grant, from its grants (their index by
      // person) to the parents' requests (theirs by parent), then each request by its key.
      const managed = filtered(this.managedBy(userId).where(notCreatedBy(userId)));
      listed = keys(sent).unionAll(keys(received)).unionAll(keys(invited)).unionAll(keys(managed));
    } else if (involving) {
      // Within one community, its index narrows to the community and gives the list's order.
      const { userId } = involving;
      listed = keys(
        filtered(requests()).where((eb) =>
          eb.or([
            eb('r.createdBy', '=', userId),
            this.receivedBy(eb, involving),
            eb.and([eb('r.receiverUserId', '=', userId), eb('r.status', '!=', 'created')]),
          ]),
        ),
      );
    } else {
      listed = keys(filtered(requests()));
    }
    // One shape for the three: a subquery SQLite flattens and PostgreSQL pulls up, but the union.
    const source = this.db.selectFrom(listed.as('listed')).selectAll('listed');
    const count = async () =>
      Number(
        (
          await this.db
            .selectFrom(source.as('c'))
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const direction = query.sort === 'oldest' ? 'asc' : 'desc';
    /** The page's keys; with `counted`, each with the number of requests listed. */
    const keysOf = (counted: boolean) =>
      this.db
        .selectFrom(listed.as('listed'))
        .select([
          'listed.number',
          (counted ? sql<number>`count(*) over ()` : sql<number>`0`).as('total'),
        ])
        .orderBy('listed.sortKey', direction)
        .orderBy('listed.number', direction)
        .offset(query.offset)
        .limit(query.limit)
        .execute();
    let total: number;
    let page: Array<{ number: number; total: number }>;
    if (query.q) {
      // A search tries the title of every request listed: one pass counts the matches beside the
      // page, where a count of its own would try every title again.
      page = await keysOf(true);
      total = page[0] ? Number(page[0].total) : query.offset === 0 ? 0 : await count();
    } else {
      // Otherwise the count and the page are each read from the index, side by side on
      // PostgreSQL's pool (SQLite runs one statement at a time anyway).
      [total, page] = await Promise.all([count(), keysOf(false)]);
    }
    const found =
      page.length === 0
        ? []
        : await this.db
            .selectFrom('requests')
            .selectAll()
            .where(
              'number',
              'in',
              page.map((p) => p.number),
            )
            .execute();
    const byNumber = new Map(found.map((r) => [r.number, r]));
    // A request deleted between the two statements (a discarded review) is left out.
    const rows = page.flatMap((p) => byNumber.get(p.number) ?? []);
    return { rows, total };
  }

  /**
   * Submitted requests addressed to a community where the person decides on them: curating roles
   * on records, managing roles on who joins (a request not yet submitted is its creator's alone;
   * an invitation is its invited person's, see `receiverUserId`).
   */
  private receivedBy(eb: ExpressionBuilder<RequestsFrom, 'r'>, involving: Involving) {
    const communitiesWhere = (roles: readonly string[]) =>
      eb
        .selectFrom('communityMembers as m')
        .select('m.communityId')
        .where('m.userId', '=', involving.userId)
        .where('m.role', 'in', roles);
    return eb.and([
      eb('r.status', '!=', 'created'),
      eb('r.type', '!=', INVITATION),
      eb('r.receiverCommunityId', 'in', communitiesWhere(involving.curatorRoles)),
      eb.or([
        eb('r.type', '!=', MEMBERSHIP_REQUEST),
        eb('r.receiverCommunityId', 'in', communitiesWhere(involving.managerRoles)),
      ]),
    ]);
  }

  /**
   * Submitted access requests about a record whose parent the person manages by a `manage`
   * grant that has not run out (the owner receives them as `receiverUserId`; a grantee decides
   * them beside the owner, as a co-owner).
   */
  private managedBy(userId: number) {
    const day = new Date().toISOString().slice(0, 10);
    // Joined in this order, which SQLite keeps for a CROSS JOIN: as a condition on the requests,
    // both engines would read every request of the status to try it.
    const joined = this.db
      .selectFrom('recordGrants as g')
      .crossJoin('accessRequests as ar')
      .crossJoin('requests as r')
      .whereRef('ar.parentId', '=', 'g.parentId')
      .whereRef('r.id', '=', 'ar.requestId')
      .where('g.userId', '=', userId)
      .where('g.permission', '=', 'manage')
      .where((w) => w.or([w('g.expiresAt', 'is', null), w('g.expiresAt', '>', day)]))
      .where('r.status', '!=', 'created')
      .where('r.receiverUserId', '!=', userId);
    // The filters and the listing name the requests' columns only (`r`).
    return joined as unknown as ReturnType<RequestsRepository['requestsFrom']>;
  }

  private requestsFrom() {
    return this.db.selectFrom('requests as r');
  }

  /**
   * The comments (not log entries) of each request, for a page of search hits: one statement,
   * each request's events found through its timeline index.
   */
  async commentCounts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('requestEvents')
      .select(['requestId', (eb) => eb.fn.countAll<number>().as('n')])
      .where('requestId', 'in', ids)
      .where('type', '=', 'C')
      .groupBy('requestId')
      .execute();
    return new Map(rows.map((r) => [r.requestId, Number(r.n)]));
  }

  /**
   * Records that the user has seen the request as it is now (its latest activity); a later mark
   * never goes back in time, so parallel or out-of-order marks leave the latest.
   */
  async markSeen(requestId: string, userId: number, seenAt: string): Promise<void> {
    await this.db
      .insertInto('requestReads')
      .values({ requestId, userId, seenAt })
      .onConflict((oc) =>
        oc
          .columns(['userId', 'requestId'])
          .doUpdateSet({ seenAt })
          .where('requestReads.seenAt', '<', seenAt),
      )
      .execute();
  }

  /**
   * When this database began keeping read marks: when migration 0023 ran, as the migrator
   * recorded it. Empty if that record is missing (every request then counts as never opened).
   */
  async readsSince(): Promise<string> {
    const { rows } = await sql<{
      timestamp: string;
    }>`select timestamp from kysely_migration where name = ${READS_MIGRATION}`.execute(this.db);
    return rows[0]?.timestamp ?? '';
  }

  /** What the user has seen of each of `ids` it ever opened, by the primary key. */
  async seenOf(userId: number, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('requestReads')
      .select(['requestId', 'seenAt'])
      .where('userId', '=', userId)
      .where('requestId', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.requestId, r.seenAt]));
  }

  /**
   * Submitted requests waiting for the person's decision (the header's count): those its
   * communities received, where its role decides them, those addressed to it, and the access
   * requests about records it manages by a grant.
   */
  async countAwaiting(involving: Involving): Promise<number> {
    const count = (where: (eb: ExpressionBuilder<RequestsFrom, 'r'>) => Expression<SqlBool>) =>
      this.db
        .selectFrom('requests as r')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('r.status', '=', 'submitted')
        .where(where)
        .executeTakeFirstOrThrow();
    // Counted apart, each through its own index: those to its communities, its invitations and
    // access requests to it, and access requests about records it manages by a grant.
    const [received, invited, managed] = await Promise.all([
      count((eb) => this.receivedBy(eb, involving)),
      count((eb) => eb('r.receiverUserId', '=', involving.userId)),
      this.managedBy(involving.userId)
        .where('r.status', '=', 'submitted')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return Number(received.n) + Number(invited.n) + Number(managed.n);
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
