import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import { sql } from '../../database/database.js';
import { searchWords } from '../../lib/search.js';
import type { Database } from '../../database/schema.js';
import type { RecordRow } from './records.repository.js';

type Executor = Db | Transaction<Database>;

export interface RecordSearch {
  q: string;
  sort: string;
  offset: number;
  limit: number;
  allVersions: boolean;
  resourceTypes: string[];
  accessStatuses: string[];
  /**
   * undefined = no restriction (admin); otherwise public records plus those this user owns or may
   * view as a member of one of the record's communities (InvenioRDM's `can_view`).
   */
  viewerId: number | null | undefined;
  /** Only records in this community (`GET /api/communities/{id}/records`). */
  communityId?: string;
}

export interface UserRecordSearch {
  ownerId: number;
  q: string;
  sort: string;
  offset: number;
  limit: number;
  isPublished?: boolean;
}

export interface UserRecordHit {
  kind: 'draft' | 'record';
  id: string;
}

/** Turns free text into each engine's prefix query; null when nothing searchable is left. */
function ftsQuery(engine: Engine, q: string): string | null {
  const terms = searchWords(q.normalize('NFKC'));
  if (terms.length === 0) return null;
  return engine === 'sqlite'
    ? terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' ')
    : terms.map((t) => `${t.toLowerCase()}:*`).join(' & ');
}

/**
 * The search queries over published records and over a user's own uploads, in each engine's
 * full-text index; the rows they find are read through RecordsRepository.
 */
export class RecordsSearchRepository {
  constructor(
    private readonly db: Db,
    readonly engine: Engine,
  ) {}

  private get x(): Executor {
    return this.db;
  }

  async searchRecords(s: RecordSearch): Promise<{ rows: RecordRow[]; total: number }> {
    let query = this.x.selectFrom('records').where('records.deletedAt', 'is', null);
    if (!s.allVersions) query = query.where('records.isLatest', '=', 1);
    if (s.resourceTypes.length > 0)
      query = query.where('records.resourceType', 'in', s.resourceTypes);
    if (s.communityId !== undefined)
      query = query.where('records.parentId', 'in', this.parentsIn(s.communityId));
    if (s.viewerId !== undefined) {
      const viewer = s.viewerId;
      query = query.where((eb) =>
        viewer === null
          ? eb('records.accessRecord', '=', 'public')
          : eb.or([
              eb('records.accessRecord', '=', 'public'),
              eb('records.parentId', 'in', this.parentsViewableBy(viewer)),
            ]),
      );
    }
    if (s.accessStatuses.length > 0)
      query = query.where('records.accessStatus', 'in', s.accessStatuses);
    const fts = ftsQuery(this.engine, s.q);
    if (s.q && !fts) return { rows: [], total: 0 };
    if (fts) {
      query =
        this.engine === 'sqlite'
          ? query.where(
              'records.id',
              'in',
              sql<string>`(select id from records_fts where records_fts match ${fts})`,
            )
          : query.where(sql<boolean>`records.search_vector @@ to_tsquery('simple', ${fts})`);
    }
    let ordered = query.selectAll('records');
    switch (s.sort) {
      case 'oldest':
        ordered = ordered.orderBy('records.publishedAt', 'asc');
        break;
      case 'version':
        ordered = ordered.orderBy('records.versionIndex', 'desc');
        break;
      case 'bestmatch':
        ordered =
          this.engine === 'sqlite' && fts
            ? ordered.orderBy(
                sql`(select bm25(records_fts) from records_fts where records_fts.id = records.id and records_fts match ${fts})`,
              )
            : fts
              ? ordered.orderBy(
                  sql`ts_rank(records.search_vector, to_tsquery('simple', ${fts}))`,
                  'desc',
                )
              : ordered;
        break;
      default:
        ordered = ordered.orderBy('records.publishedAt', 'desc');
    }
    const [rows, count] = await Promise.all([
      ordered.orderBy('records.id').offset(s.offset).limit(s.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Facet counts of the records a search can see (without the facet's own filter). */
  async resourceTypeCounts(
    viewerId: number | null | undefined,
    communityId?: string,
  ): Promise<Array<{ key: string; count: number }>> {
    let query = this.x
      .selectFrom('records')
      .where('deletedAt', 'is', null)
      .where('isLatest', '=', 1);
    if (communityId !== undefined)
      query = query.where('parentId', 'in', this.parentsIn(communityId));
    if (viewerId !== undefined) {
      query = query.where((eb) =>
        viewerId === null
          ? eb('accessRecord', '=', 'public')
          : eb.or([
              eb('accessRecord', '=', 'public'),
              eb('parentId', 'in', this.parentsViewableBy(viewerId)),
            ]),
      );
    }
    const rows = await query
      .select(['resourceType', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('resourceType')
      .orderBy('n', 'desc')
      .execute();
    return rows.map((r) => ({ key: r.resourceType, count: Number(r.n) }));
  }

  /** Parents in one community. */
  private parentsIn(communityId: string) {
    return this.x
      .selectFrom('recordCommunities')
      .select('recordCommunities.parentId')
      .where('recordCommunities.communityId', '=', communityId);
  }

  /**
   * Parents whose restricted records `userId` may still view: its own, and those in a community
   * it is a member of (any role). Uncorrelated, so each side is evaluated once per query.
   */
  private parentsViewableBy(userId: number) {
    return this.x
      .selectFrom('parents')
      .select('parents.id')
      .where('parents.ownerId', '=', userId)
      .union(
        this.x
          .selectFrom('recordCommunities as rc')
          .select('rc.parentId as id')
          .where(
            'rc.communityId',
            'in',
            this.x
              .selectFrom('communityMembers as m')
              .select('m.communityId')
              .where('m.userId', '=', userId),
          ),
      );
  }

  /**
   * The caller's uploads: every draft, plus latest published records that have no open draft
   * (a record being edited shows as its draft, as InvenioRDM does).
   */
  async searchUserRecords(
    s: UserRecordSearch,
  ): Promise<{ hits: UserRecordHit[]; total: number; published: number; drafts: number }> {
    const like = s.q ? `%${s.q.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
    const owned = (eb: { selectFrom: Db['selectFrom'] }) =>
      eb.selectFrom('parents').select('parents.id').where('parents.ownerId', '=', s.ownerId);
    let drafts = this.x
      .selectFrom('drafts')
      .select([
        'drafts.id',
        sql<string>`'draft'`.as('kind'),
        'drafts.updatedAt',
        'drafts.createdAt',
        'drafts.versionIndex',
        'drafts.title',
      ])
      .where('drafts.parentId', 'in', owned(this.x));
    let records = this.x
      .selectFrom('records')
      .select([
        'records.id',
        sql<string>`'record'`.as('kind'),
        'records.updatedAt',
        'records.createdAt',
        'records.versionIndex',
        'records.title',
      ])
      .where('records.parentId', 'in', owned(this.x))
      .where('records.deletedAt', 'is', null)
      .where('records.isLatest', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('drafts').select('drafts.id').whereRef('drafts.id', '=', 'records.id'),
          ),
        ),
      );
    if (like) {
      drafts = drafts.where(sql<boolean>`lower(drafts.search_text) like ${like} escape '\\'`);
      records = records.where(sql<boolean>`lower(records.search_text) like ${like} escape '\\'`);
    }
    // is_published is true for records and for drafts editing a published record.
    const draftsPublished = drafts.where((eb) =>
      eb.exists(
        eb.selectFrom('records').select('records.id').whereRef('records.id', '=', 'drafts.id'),
      ),
    );
    const draftsUnpublished = drafts.where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('records').select('records.id').whereRef('records.id', '=', 'drafts.id'),
        ),
      ),
    );
    const countOf = async (
      q:
        | SelectQueryBuilder<Database, 'drafts', object>
        | SelectQueryBuilder<Database, 'records', object>,
    ) => {
      const row = await this.x
        .selectFrom(q.as('c'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const [nRecords, nDraftsPublished, nDraftsUnpublished] = await Promise.all([
      countOf(records),
      countOf(draftsPublished),
      countOf(draftsUnpublished),
    ]);
    const published = nRecords + nDraftsPublished;
    const unpublished = nDraftsUnpublished;
    const union =
      s.isPublished === true
        ? records.unionAll(draftsPublished)
        : s.isPublished === false
          ? draftsUnpublished
          : records.unionAll(drafts);
    const total =
      s.isPublished === true
        ? published
        : s.isPublished === false
          ? unpublished
          : published + unpublished;
    const sortColumn = s.sort === 'newest' || s.sort === 'oldest' ? 'createdAt' : 'updatedAt';
    const direction = s.sort === 'oldest' || s.sort === 'updated-asc' ? 'asc' : 'desc';
    const rows = await this.x
      .selectFrom(union.as('u'))
      .select(['u.id', 'u.kind'])
      .orderBy(s.sort === 'version' ? 'u.versionIndex' : `u.${sortColumn}`, direction)
      .orderBy('u.id')
      .offset(s.offset)
      .limit(s.limit)
      .execute();
    return {
      hits: rows.map((r) => ({ id: r.id, kind: r.kind as 'draft' | 'record' })),
      total,
      published,
      drafts: unpublished,
    };
  }
}
