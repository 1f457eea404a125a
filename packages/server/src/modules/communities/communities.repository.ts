import { sql, type Selectable } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import { containsPattern, escapeLike } from '../../lib/like.js';
import type { CommunitiesTable, CommunityMembersTable } from '../../database/schema.js';

export type CommunityRow = Omit<Selectable<CommunitiesTable>, 'logo'>;
export type MemberRow = Selectable<CommunityMembersTable>;

/** Every column but the logo bytes, which only the logo routes read. */
const COLUMNS = [
  'id',
  'slug',
  'data',
  'title',
  'searchText',
  'visibility',
  'typeId',
  'revisionId',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'logoChecksum',
] as const;

export interface CommunityQuery {
  /** Normalised query words; each must occur in the community's search text. */
  words: string[];
  /** The normalised whole query, for ranking exact and prefix title matches first. */
  phrase: string;
  sort: 'bestmatch' | 'newest' | 'oldest';
  offset: number;
  limit: number;
  /** Only communities this user is a member of. */
  memberOf?: number;
  /** Restricted communities are visible to their members (and to admins: `undefined`). */
  visibleTo?: { userId?: number };
  type?: string[];
  visibility?: string[];
  /** Only these communities (a record's communities). */
  ids?: string[];
  /** Not these (the suggestions for a record leave out those it is in or asked to join). */
  exclude?: string[];
}

/*
 * Membership filters are uncorrelated `id in (select …)`: SQLite evaluates the user's few
 * memberships once instead of probing the index for every community scanned.
 */

/** Trigram indexes know nothing of words shorter than a trigram. */
const TRIGRAM = 3;

/** Kysely queries for communities and their members. */
export class CommunitiesRepository {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  async insert(row: CommunityRow): Promise<void> {
    await this.db
      .insertInto('communities')
      .values({ ...row, data: row.data as string })
      .execute();
  }

  async get(id: string): Promise<CommunityRow | undefined> {
    return this.db
      .selectFrom('communities')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async getBySlug(slug: string): Promise<CommunityRow | undefined> {
    return this.db
      .selectFrom('communities')
      .select(COLUMNS)
      .where('slug', '=', slug)
      .executeTakeFirst();
  }

  async getMany(ids: string[]): Promise<CommunityRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('communities').select(COLUMNS).where('id', 'in', ids).execute();
  }

  /** Writes when the revision is still `revision`; false when someone else wrote first. */
  async update(
    id: string,
    revision: number,
    set: Partial<Omit<CommunityRow, 'id' | 'revisionId' | 'data'>> & {
      data?: string;
      logo?: Buffer | null;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('communities')
      .set({ ...set, revisionId: revision + 1 })
      .where('id', '=', id)
      .where('revisionId', '=', revision)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async logo(id: string): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('communities')
      .select('logo')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.logo ?? undefined;
  }

  /**
   * Live communities within the caller's scope: those `memberOf` belongs to, if given, and of
   * those the ones `visibleTo` may see (public ones, and restricted ones it is a member of).
   */
  private scoped(
    visibleTo?: { userId?: number },
    memberOf?: number,
    ids?: string[],
    exclude?: string[],
  ) {
    const memberships = (userId: number) =>
      this.db
        .selectFrom('communityMembers as m')
        .select('m.communityId')
        .where('m.userId', '=', userId);
    let q = this.db.selectFrom('communities as c').where('c.deletedAt', 'is', null);
    if (ids !== undefined) q = q.where('c.id', 'in', ids.length > 0 ? ids : ['']);
    if (exclude?.length) q = q.where('c.id', 'not in', exclude);
    if (memberOf !== undefined) q = q.where('c.id', 'in', memberships(memberOf));
    if (visibleTo) {
      const userId = visibleTo.userId;
      q = q.where((eb) =>
        userId === undefined
          ? eb('c.visibility', '=', 'public')
          : eb.or([eb('c.visibility', '=', 'public'), eb('c.id', 'in', memberships(userId))]),
      );
    }
    return q;
  }

  async search(query: CommunityQuery): Promise<{ rows: CommunityRow[]; total: number }> {
    let base = this.scoped(query.visibleTo, query.memberOf, query.ids, query.exclude);
    if (query.type?.length) base = base.where('c.typeId', 'in', query.type);
    if (query.visibility?.length) base = base.where('c.visibility', 'in', query.visibility);
    // Substring semantics on both engines: the LIKE decides, the trigram index only narrows.
    // PostgreSQL's planner serves LIKE from its pg_trgm index; SQLite needs the FTS5 table named.
    // A member's or a record's few communities are quicker to test one by one than to look up.
    const indexed = query.words.filter((w) => [...w].length >= TRIGRAM);
    const small = query.memberOf !== undefined || query.ids !== undefined;
    if (this.engine === 'sqlite' && indexed.length > 0 && !small) {
      const match = indexed.map((w) => `"${w.replaceAll('"', '""')}"`).join(' ');
      base = base.where(
        'c.id',
        'in',
        sql<string>`(select id from communities_fts where communities_fts match ${match})`,
      );
    }
    for (const word of query.words) {
      base = base.where(sql<boolean>`c.search_text like ${containsPattern(word)} escape '\\'`);
    }
    const count = async () =>
      Number(
        (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
      );
    // With words the matches are few: one pass counts them beside the page. Without, the count
    // alone is an index-only scan, cheaper than carrying every community through a window.
    const windowed = query.words.length > 0;
    let total = 0;
    if (!windowed) {
      total = await count();
      if (total === 0 || query.offset >= total) return { rows: [], total };
    }
    // The page's ids first, then their rows: sorting every match with its JSON body costs more
    // than the search itself.
    let page = base.select([
      'c.id',
      (windowed ? sql<number>`count(*) over ()` : sql<number>`0`).as('n'),
    ]);
    if (query.sort === 'bestmatch') {
      // Exact title first, then titles starting with the query, then the rest; newest within each.
      const title = sql<string>`lower(c.title)`;
      page = page.orderBy(
        sql`case when ${title} = ${query.phrase} then 0 when ${title} like ${`${escapeLike(query.phrase)}%`} escape '\\' then 1 else 2 end`,
      );
    }
    const found = await page
      .orderBy('c.createdAt', query.sort === 'oldest' ? 'asc' : 'desc')
      .orderBy('c.id')
      .offset(query.offset)
      .limit(query.limit)
      .execute();
    if (windowed) total = found[0] ? Number(found[0].n) : query.offset > 0 ? await count() : 0;
    const ids = found.map((r) => r.id);
    const byId = new Map((await this.getMany(ids)).map((r) => [r.id, r]));
    return { rows: ids.flatMap((id) => byId.get(id) ?? []), total };
  }

  /** Buckets of the `type` and `visibility` facets over what the caller may see. */
  async facetCounts(
    visibleTo?: { userId?: number },
    memberOf?: number,
    ids?: string[],
    exclude?: string[],
  ) {
    const counts = async (column: 'c.typeId' | 'c.visibility') => {
      const q = this.scoped(visibleTo, memberOf, ids, exclude)
        .select([column, (eb) => eb.fn.countAll<number>().as('n')])
        .where(column, 'is not', null)
        .groupBy(column);
      const rows = (await q.execute()) as Array<Record<string, unknown>>;
      const key = column === 'c.typeId' ? 'typeId' : 'visibility';
      return rows.map((r) => ({ key: String(r[key]), count: Number(r.n) }));
    };
    return { type: await counts('c.typeId'), visibility: await counts('c.visibility') };
  }

  // Members

  async member(communityId: string, userId: number): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('communityMembers')
      .selectAll()
      .where('communityId', '=', communityId)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  /** Whether the user has an open invitation to the community or request to join it. */
  async hasOpenMemberRequest(communityId: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('communityMemberRequests')
      .select('requestId')
      .where('communityId', '=', communityId)
      .where('userId', '=', userId)
      .where('isOpen', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The user's role in each of `communityIds` that it belongs to and, unless `withDeleted`, that
   * is live.
   */
  async rolesOf(
    userId: number,
    communityIds: string[],
    { withDeleted = false }: { withDeleted?: boolean } = {},
  ): Promise<Map<string, string>> {
    if (communityIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('communityMembers as m')
      .innerJoin('communities as c', 'c.id', 'm.communityId')
      .select(['m.communityId', 'm.role'])
      .where('m.userId', '=', userId)
      .$if(!withDeleted, (q) => q.where('c.deletedAt', 'is', null))
      .where('m.communityId', 'in', communityIds)
      .execute();
    return new Map(rows.map((r) => [r.communityId, r.role]));
  }

  async members(
    communityId: string,
    options: { visibleOnly: boolean; offset: number; limit: number; q: string; roles?: string[] },
  ) {
    let base = this.db
      .selectFrom('communityMembers as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .where('m.communityId', '=', communityId);
    if (options.visibleOnly) base = base.where('m.visible', '=', 1);
    if (options.roles?.length) base = base.where('m.role', 'in', options.roles);
    if (options.q) {
      const pattern = containsPattern(options.q.toLowerCase());
      base = base.where((eb) =>
        eb.or([
          sql<boolean>`lower(u.name) like ${pattern} escape '\\'`,
          sql<boolean>`lower(u.email) like ${pattern} escape '\\'`,
        ]),
      );
    }
    const countRow = await base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'm.communityId',
        'm.userId',
        'm.role',
        'm.visible',
        'm.revisionId',
        'm.createdAt',
        'm.updatedAt',
        'u.name',
        'u.email',
      ])
      .orderBy('u.name')
      .orderBy('m.userId')
      .offset(options.offset)
      .limit(options.limit)
      .execute();
    return { rows, total: Number(countRow.n) };
  }

  async countRole(communityId: string, role: string): Promise<number> {
    const row = await this.db
      .selectFrom('communityMembers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('communityId', '=', communityId)
      .where('role', '=', role)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async upsertMembers(rows: MemberRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('communityMembers')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['communityId', 'userId']).doUpdateSet((eb) => ({
          role: eb.ref('excluded.role'),
          visible: eb.ref('excluded.visible'),
          revisionId: eb.ref('excluded.revisionId'),
          updatedAt: eb.ref('excluded.updatedAt'),
        })),
      )
      .execute();
  }

  async removeMembers(communityId: string, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .deleteFrom('communityMembers')
      .where('communityId', '=', communityId)
      .where('userId', 'in', userIds)
      .execute();
  }

  /** Runs `fn` with a repository bound to one transaction. */
  async transaction<T>(fn: (repo: CommunitiesRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(new CommunitiesRepository(trx, this.engine)));
  }
}
