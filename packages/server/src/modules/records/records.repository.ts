import type { Kysely, Transaction } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import { sql } from '../../database/database.js';
import { preparedQuery } from '../../database/prepared.js';
import { inTransaction } from '../../database/unit-of-work.js';
import { searchDocument } from './search/document.js';
import { searchVectorOf, writeSearchEntries } from './search/index-writer.js';
import { DraftSearchIndex } from './search/draft-index.js';
import { jsonText, type Database } from '../../database/schema.js';
import {
  DRAFT_COLUMNS,
  RECORD_COLUMNS,
  type DraftRow,
  type ParentRow,
  type PidRow,
  type RecordRow,
} from './records.rows.js';

type Executor = Db | Transaction<Database>;

const draftContext = (db: Db) =>
  db
    .selectFrom('drafts')
    .innerJoin('parents', 'parents.id', 'drafts.parentId')
    // The owner's own file quota, which every file change checks: read here, not in a
    // statement of its own.
    .leftJoin('userQuotas', 'userQuotas.userId', 'parents.ownerId')
    .select(DRAFT_COLUMNS.map((c) => `drafts.${c}` as const))
    .select([
      'parents.ownerId as parentOwnerId',
      'parents.data as parentData',
      'parents.createdAt as parentCreatedAt',
      'parents.updatedAt as parentUpdatedAt',
      'userQuotas.maxFiles as ownerMaxFiles',
      'userQuotas.maxBytes as ownerMaxBytes',
      (eb) =>
        eb
          .exists(
            eb.selectFrom('records').select('records.id').whereRef('records.id', '=', 'drafts.id'),
          )
          .as('isPublished'),
      (eb) =>
        eb
          .selectFrom('drafts as d2')
          .select((e) => e.fn.max('d2.versionIndex').as('m'))
          .whereRef('d2.parentId', '=', 'drafts.parentId')
          .as('maxDraftVersion'),
    ]);
const draftContextQuery = preparedQuery((db: Db, id: string) =>
  draftContext(db).where('drafts.id', '=', id),
);
/** The same, locking the draft's row (PostgreSQL; SQLite's transaction holds the write lock). */
const lockedDraftContextQuery = preparedQuery((db: Db, id: string) =>
  draftContext(db).where('drafts.id', '=', id).forUpdate('drafts'),
);

/** Kysely queries for parents, drafts, published records and their PIDs; rows or undefined. */
export class RecordsRepository {
  private readonly draftIndex: DraftSearchIndex;

  constructor(
    private readonly db: Db,
    readonly engine: Engine,
  ) {
    this.draftIndex = new DraftSearchIndex(engine);
  }

  /** Runs `fn` in one transaction (joining an action's, see `inTransaction`). */
  transaction<T>(fn: (trx: RecordsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, () => fn(this));
  }

  /** The Kysely executor (inside a transaction: the transaction), for collaborating repositories. */
  get executor(): Db {
    return this.db;
  }

  private get x(): Executor {
    return this.db;
  }

  // ---- parents

  async insertParent(row: ParentRow): Promise<void> {
    await this.x
      .insertInto('parents')
      .values({ ...row, data: row.data as string })
      .execute();
  }

  getParent(id: string): Promise<ParentRow | undefined> {
    return this.x.selectFrom('parents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The parent, locked until the transaction ends: the lock every state-changing action about
   * the record's versions, drafts, files and review takes first (ARCHITECTURE §7). On PostgreSQL
   * a row lock, which a second transaction waits for and then reads past with what the first
   * committed; on SQLite the transaction holds the write lock already (`inTransaction`).
   * Undefined when the parent is gone (its last draft was discarded meanwhile).
   */
  lockParent(id: string): Promise<ParentRow | undefined> {
    const query = this.x.selectFrom('parents').selectAll().where('id', '=', id);
    return (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  /**
   * The parent of a draft, locked as `lockParent` locks it: one round trip for the actions that
   * start from a draft's id. Undefined when there is no such draft (any more).
   */
  lockParentOfDraft(draftId: string): Promise<ParentRow | undefined> {
    const query = this.x
      .selectFrom('parents')
      .selectAll()
      .where('id', '=', (eb) =>
        eb.selectFrom('drafts').select('drafts.parentId').where('drafts.id', '=', draftId),
      );
    return (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  async getParents(ids: string[]): Promise<ParentRow[]> {
    if (ids.length === 0) return [];
    return this.x
      .selectFrom('parents')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async updateParent(id: string, data: string, updatedAt: string): Promise<void> {
    await this.x.updateTable('parents').set({ data, updatedAt }).where('id', '=', id).execute();
  }

  async deleteParent(id: string): Promise<void> {
    await this.x.deleteFrom('parents').where('id', '=', id).execute();
  }

  // ---- drafts

  getDraft(id: string): Promise<DraftRow | undefined> {
    return this.x
      .selectFrom('drafts')
      .select(DRAFT_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * A draft with everything answering a read needs, in one query: its parent, whether the record
   * is published, and the highest draft version of the parent (is_latest_draft). With `lock`,
   * the draft's row stays locked until the transaction ends.
   */
  async getDraftContext(
    id: string,
    lock = false,
  ): Promise<
    | {
        row: DraftRow;
        parent: ParentRow;
        isPublished: boolean;
        maxDraftVersion: number;
        ownerQuota: { maxFiles: number | null; maxBytes: number | null };
      }
    | undefined
  > {
    // The draft's row locked after its parent's, so that its file entries hold still while a
    // publish, discard or import reads them: file changes lock the same row (FilesRepository).
    const query = lock && this.engine === 'postgres' ? lockedDraftContextQuery : draftContextQuery;
    const [found] = await query(this.x, id);
    if (!found) return undefined;
    const {
      parentOwnerId,
      parentData,
      parentCreatedAt,
      parentUpdatedAt,
      isPublished,
      maxDraftVersion,
      ownerMaxFiles,
      ownerMaxBytes,
      ...row
    } = found;
    return {
      row,
      parent: {
        id: row.parentId,
        ownerId: parentOwnerId,
        data: parentData,
        createdAt: parentCreatedAt,
        updatedAt: parentUpdatedAt,
      },
      isPublished: Boolean(isPublished),
      maxDraftVersion: Number(maxDraftVersion ?? row.versionIndex),
      ownerQuota: {
        maxFiles: ownerMaxFiles,
        maxBytes: ownerMaxBytes === null ? null : Number(ownerMaxBytes),
      },
    };
  }

  async getDrafts(ids: string[]): Promise<DraftRow[]> {
    if (ids.length === 0) return [];
    return this.x.selectFrom('drafts').select(DRAFT_COLUMNS).where('id', 'in', ids).execute();
  }

  draftsOfParent(parentId: string): Promise<DraftRow[]> {
    return this.x
      .selectFrom('drafts')
      .select(DRAFT_COLUMNS)
      .where('parentId', '=', parentId)
      .orderBy('versionIndex', 'desc')
      .execute();
  }

  /** Inserts a draft with its entries in the drafts' search index (its owner searches it). */
  async insertDraft(row: DraftRow): Promise<void> {
    const { data, filesSummary } = row;
    const search = this.draftIndex.columns(row.id, data);
    await this.x
      .insertInto('drafts')
      .values({ ...row, data: data as string, filesSummary: jsonText(filesSummary), ...search })
      .execute();
    await this.draftIndex.write(this.x, row);
  }

  /**
   * Writes a draft only if nobody wrote it since `read` was read (at its revision), so two
   * concurrent saves can never silently overwrite each other. Returns false when the revision
   * moved on. The search entries are rewritten where the data changed them (`DraftSearchIndex`).
   * `parsed` spares parsing both JSON texts again when the caller holds them parsed (a save of a
   * draft with 2,000 creators parses about 400 KB each).
   */
  async updateDraft(
    read: Pick<DraftRow, 'id' | 'revisionId' | 'data'>,
    set: Pick<DraftRow, 'data' | 'updatedAt' | 'title' | 'searchText' | 'updatedBy'>,
    parsed?: { previous: unknown; data: unknown },
  ): Promise<boolean> {
    const { id, revisionId } = read;
    const entries = this.draftIndex.saved(
      id,
      parsed?.data ?? set.data,
      parsed?.previous ?? read.data,
    );
    const result = await this.x
      .updateTable('drafts')
      .set({ ...set, data: set.data as string, revisionId: revisionId + 1 })
      .set(entries.columns)
      .where('id', '=', id)
      .where('revisionId', '=', revisionId)
      .returning('filesSummary')
      .executeTakeFirst();
    if (result) await entries.write(this.x, result.filesSummary);
    return result !== undefined;
  }

  async deleteDraft(id: string): Promise<void> {
    await this.draftIndex.remove(this.x, id);
    await this.x.deleteFrom('drafts').where('id', '=', id).execute();
  }

  // ---- records

  getRecord(id: string): Promise<RecordRow | undefined> {
    return this.x
      .selectFrom('records')
      .select(RECORD_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async getRecords(ids: string[]): Promise<RecordRow[]> {
    if (ids.length === 0) return [];
    return this.x.selectFrom('records').select(RECORD_COLUMNS).where('id', 'in', ids).execute();
  }

  latestRecord(parentId: string): Promise<RecordRow | undefined> {
    return this.x
      .selectFrom('records')
      .select(RECORD_COLUMNS)
      .where('parentId', '=', parentId)
      .where('deletedAt', 'is', null)
      .orderBy('versionIndex', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async maxVersionIndex(parentId: string): Promise<number> {
    const [r, d] = await Promise.all([
      this.x
        .selectFrom('records')
        .select((eb) => eb.fn.max('versionIndex').as('m'))
        .where('parentId', '=', parentId)
        .executeTakeFirst(),
      this.x
        .selectFrom('drafts')
        .select((eb) => eb.fn.max('versionIndex').as('m'))
        .where('parentId', '=', parentId)
        .executeTakeFirst(),
    ]);
    return Math.max(Number(r?.m ?? 0), Number(d?.m ?? 0));
  }

  /** Inserts or replaces a published record and keeps the search index in step. */
  async upsertRecord(row: RecordRow): Promise<void> {
    const doc = searchDocument(row);
    // PostgreSQL's weighted words go in the same statement (a second UPDATE would write the row
    // twice); the column is not in the typed schema, since no read needs it.
    const values = {
      ...row,
      data: row.data as string,
      filesSummary: jsonText(row.filesSummary),
      tombstone: jsonText(row.tombstone),
      ...((this.engine === 'postgres' ? { searchVector: searchVectorOf(doc) } : {}) as object),
    };
    await this.x
      .insertInto('records')
      .values(values)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ ...values, createdAt: undefined, id: undefined }),
      )
      .execute();
    await writeSearchEntries(this.x as unknown as Kysely<unknown>, this.engine, row.id, doc);
  }

  /**
   * Marks exactly one version of a parent as the latest. Only the version that held the mark is
   * written: clearing it on every earlier version made each publish cost as many row writes as the
   * parent had versions.
   */
  async setLatest(parentId: string, id: string): Promise<void> {
    await this.x
      .updateTable('records')
      .set({ isLatest: 0 })
      .where('parentId', '=', parentId)
      // A literal, not a parameter: SQLite uses the partial index on the latest versions only
      // when the query itself says `is_latest = 1`.
      .where('isLatest', '=', sql.lit(1))
      .where('id', '!=', id)
      .execute();
    await this.x
      .updateTable('records')
      .set({ isLatest: 1 })
      .where('id', '=', id)
      .where('isLatest', '=', 0)
      .execute();
  }

  /**
   * Marks a record deleted with its tombstone, or (null) restores it. Its last change moves, so
   * that an incremental harvest learns of either.
   */
  async markDeleted(id: string, tombstone: string | null, now: string): Promise<void> {
    await this.x
      .updateTable('records')
      .set({
        deletedAt: tombstone === null ? null : now,
        tombstone,
        updatedAt: now,
        ...(tombstone === null ? {} : { isLatest: 0 }),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Leaves a parent without a latest version: each of its versions is deleted. */
  async clearLatest(parentId: string): Promise<void> {
    await this.x
      .updateTable('records')
      .set({ isLatest: 0 })
      .where('parentId', '=', parentId)
      .where('isLatest', '=', sql.lit(1))
      .execute();
  }

  async bumpRecordRevision(
    id: string,
    data: string,
    updatedAt: string,
    set: Partial<Pick<RecordRow, 'accessRecord' | 'embargoUntil' | 'accessStatus'>> = {},
  ): Promise<void> {
    await this.x
      .updateTable('records')
      .set((eb) => ({ data, updatedAt, revisionId: eb('revisionId', '+', 1), ...set }))
      .where('id', '=', id)
      .execute();
  }

  /** Published versions of a parent, newest first; restricted ones only when asked for. */
  async listVersions(
    parentId: string,
    offset: number,
    limit: number,
    includeRestricted: boolean,
  ): Promise<{ rows: RecordRow[]; total: number }> {
    let base = this.x
      .selectFrom('records')
      .where('parentId', '=', parentId)
      .where('deletedAt', 'is', null);
    if (!includeRestricted) base = base.where('accessRecord', '=', 'public');
    const [rows, count] = await Promise.all([
      base
        .select(RECORD_COLUMNS)
        .orderBy('versionIndex', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Records whose embargo ended by `today`: the sweep lifts them. */
  expiredEmbargoes(today: string, limit: number): Promise<RecordRow[]> {
    return this.x
      .selectFrom('records')
      .select(RECORD_COLUMNS)
      .where('embargoUntil', 'is not', null)
      .where('embargoUntil', '<=', today)
      .limit(limit)
      .execute();
  }

  /** Whether `userId` is a member of one of the parent's communities (it may then view it). */
  async isMemberOfCommunityOf(parentId: string, userId: number): Promise<boolean> {
    const row = await this.x
      .selectFrom('recordCommunities as rc')
      .innerJoin('communityMembers as m', 'm.communityId', 'rc.communityId')
      .select('rc.communityId')
      .where('rc.parentId', '=', parentId)
      .where('m.userId', '=', userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The community ids of a parent, in the order they were added. */
  async communitiesOf(parentId: string): Promise<string[]> {
    const rows = await this.x
      .selectFrom('recordCommunities')
      .select('communityId')
      .where('parentId', '=', parentId)
      .orderBy('createdAt')
      .orderBy('communityId')
      .execute();
    return rows.map((r) => r.communityId);
  }

  /**
   * Rewrites the parent's community rows to exactly `ids` (kept in step with its data). A change
   * is a change of every published version: their OAI-PMH sets follow the communities, and an
   * incremental harvest finds records by their last change.
   */
  async setCommunities(parentId: string, ids: string[], now: string): Promise<void> {
    const current = new Set(await this.communitiesOf(parentId));
    const wanted = new Set(ids);
    const gone = [...current].filter((id) => !wanted.has(id));
    const added = [...wanted].filter((id) => !current.has(id));
    if (gone.length > 0)
      await this.x
        .deleteFrom('recordCommunities')
        .where('parentId', '=', parentId)
        .where('communityId', 'in', gone)
        .execute();
    if (added.length > 0)
      await this.x
        .insertInto('recordCommunities')
        .values(added.map((communityId) => ({ communityId, parentId, createdAt: now })))
        .execute();
    if (gone.length > 0 || added.length > 0)
      await this.x
        .updateTable('records')
        .set({ updatedAt: now })
        .where('parentId', '=', parentId)
        .execute();
  }

  // ---- pids

  findPid(scheme: string, identifier: string): Promise<PidRow | undefined> {
    return this.x
      .selectFrom('pids')
      .selectAll()
      .where('scheme', '=', scheme)
      .where('identifier', '=', identifier.toLowerCase())
      .executeTakeFirst();
  }

  async insertPid(
    row: Omit<PidRow, 'registrationAttempts' | 'registrationError' | 'nextAttemptAt'> &
      Partial<PidRow>,
  ): Promise<void> {
    await this.x
      .insertInto('pids')
      .values({
        registrationAttempts: 0,
        registrationError: null,
        nextAttemptAt: null,
        ...row,
        identifier: row.identifier.toLowerCase(),
      })
      .execute();
  }

  async updatePid(scheme: string, identifier: string, set: Partial<PidRow>): Promise<void> {
    await this.x
      .updateTable('pids')
      .set(set)
      .where('scheme', '=', scheme)
      .where('identifier', '=', identifier.toLowerCase())
      .execute();
  }

  async deletePid(scheme: string, identifier: string): Promise<void> {
    await this.x
      .deleteFrom('pids')
      .where('scheme', '=', scheme)
      .where('identifier', '=', identifier.toLowerCase())
      .execute();
  }

  pidsOfRecord(recordId: string): Promise<PidRow[]> {
    return this.x.selectFrom('pids').selectAll().where('recordId', '=', recordId).execute();
  }

  /** Managed DOIs of published records still waiting for DataCite, due now. */
  /**
   * Queues the managed DOIs of these records (or parents: their concept DOIs) for registration
   * again, those DataCite has or is about to have; reserved ones wait for their publish.
   */
  async requeueDois(recordIds: string[]): Promise<void> {
    await this.x
      .updateTable('pids')
      .set({ status: 'publishing', nextAttemptAt: null, registrationAttempts: 0 })
      .where('scheme', '=', 'doi')
      .where('recordId', 'in', recordIds)
      .where('provider', '!=', 'external')
      .where('status', 'in', ['registered', 'publishing'])
      .execute();
  }

  pendingRegistrations(now: string, limit: number): Promise<PidRow[]> {
    return this.x
      .selectFrom('pids')
      .selectAll()
      .where('scheme', '=', 'doi')
      .where('status', '=', 'publishing')
      .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
      .limit(limit)
      .execute();
  }
}
