import type { SearchQuery } from '@cairn/shared';
import type { SelectQueryBuilder } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import { sql } from '../../database/database.js';
import type { Database } from '../../database/schema.js';
import { RecordQueryCompiler } from './search/compile.js';
import { DRAFTS_INDEX } from './search/index-writer.js';
import { today } from './records.shared.js';

export interface UserRecordSearch {
  ownerId: number;
  /** The parsed `q`, the records search's syntax; null lists everything. */
  query: SearchQuery | null;
  sort: string;
  offset: number;
  limit: number;
  isPublished?: boolean;
  /** InvenioRDM's `shared_with_me`: the records others granted `ownerId` instead of theirs. */
  sharedWithMe?: boolean;
}

export interface UserRecordHit {
  kind: 'draft' | 'record';
  id: string;
}

/**
 * The search over a user's own uploads (`GET /api/user/records`), with the records search's query
 * syntax compiled once for the published records' full-text index and once for the drafts'; the
 * rows it finds are read through RecordsRepository. Every statement starts from the owner's
 * parents (their index by owner) and reaches the drafts and records through each parent, or, for
 * words, from their matches in the full-text index, kept when they are the owner's: no table is
 * read whole, and the page sorts the owner's rows only.
 */
export class UserRecordsSearchRepository {
  private readonly records: RecordQueryCompiler;
  private readonly drafts: RecordQueryCompiler;

  constructor(
    private readonly db: Db,
    engine: Engine,
  ) {
    this.records = new RecordQueryCompiler(engine);
    this.drafts = new RecordQueryCompiler(engine, DRAFTS_INDEX);
  }

  private get x(): Db {
    return this.db;
  }

  /**
   * The caller's uploads: every draft, plus latest published records that have no open draft
   * (a record being edited shows as its draft, as InvenioRDM does).
   */
  async searchUserRecords(
    s: UserRecordSearch,
  ): Promise<{ hits: UserRecordHit[]; total: number; published: number; drafts: number }> {
    type From = { selectFrom: Db['selectFrom'] };
    // The parents shared with the caller, by the permissions given (all when none are named).
    const shared = (eb: From, permissions?: string[]) => {
      const grants = eb
        .selectFrom('recordGrants')
        .select('recordGrants.parentId as id')
        .where('recordGrants.userId', '=', s.ownerId)
        // A grant that ran out shares nothing any more.
        .where((w) =>
          w.or([
            w('recordGrants.expiresAt', 'is', null),
            w('recordGrants.expiresAt', '>', today()),
          ]),
        );
      return permissions ? grants.where('recordGrants.permission', 'in', permissions) : grants;
    };
    const owned = (eb: From) =>
      s.sharedWithMe
        ? shared(eb)
        : eb.selectFrom('parents').select('parents.id').where('parents.ownerId', '=', s.ownerId);
    // A grant to view opens no draft: its holder sees the published record in its place.
    const ownedDrafts = (eb: From) =>
      s.sharedWithMe ? shared(eb, ['preview', 'edit', 'manage']) : owned(eb);
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
      .where('drafts.parentId', 'in', ownedDrafts(this.x));
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
      // Offered the index on is_latest, SQLite read every latest record of everyone and kept the
      // owner's; a unary + keeps that index out of its choice, so it reads each parent's versions.
      .where(sql<boolean>`+records.is_latest = 1`)
      .where((eb) => {
        const noDraft = eb.not(
          eb.exists(
            eb.selectFrom('drafts').select('drafts.id').whereRef('drafts.id', '=', 'records.id'),
          ),
        );
        return s.sharedWithMe
          ? eb.or([noDraft, eb('records.parentId', 'in', shared(this.x, ['view']))])
          : noDraft;
      });
    if (s.query !== null) {
      drafts = drafts.where(this.drafts.compile(s.query).where);
      records = records.where(this.records.compile(s.query).where);
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
