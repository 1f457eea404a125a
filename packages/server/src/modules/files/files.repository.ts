import type { ExpressionBuilder, Selectable, Updateable } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import type { RecordData } from '@cairn/shared';
import { inTransaction } from '../../database/unit-of-work.js';
import {
  jsonText,
  readJson,
  type Database,
  type FileObjectsTable,
  type RecordFilesTable,
} from '../../database/schema.js';

export type FileRow = Selectable<RecordFilesTable>;
export type FileObjectRow = Selectable<FileObjectsTable>;

/** pg returns bigint columns as strings; every size leaves here as a number. */
function sizes<T extends Partial<FileRow>>(row: T): T {
  for (const k of ['declaredSize', 'partSize', 'uploadedSize'] as const) {
    if (row[k] !== null && row[k] !== undefined)
      (row as Record<string, unknown>)[k] = Number(row[k]);
  }
  return row;
}

/**
 * A file no request is working on: pending, or `committing` under a lease that had run out at
 * `now` (its commit's process died).
 */
function unfinishedAndFree(now: string) {
  return (eb: ExpressionBuilder<Database, 'recordFiles'>) =>
    eb.or([
      eb('status', '=', 'pending'),
      eb.and([
        eb('status', '=', 'committing'),
        eb.or([eb('commitLeaseUntil', 'is', null), eb('commitLeaseUntil', '<', now)]),
      ]),
    ]);
}

/** Kysely queries for file entries of draft and record buckets and the stored objects behind them. */
export class FilesRepository {
  constructor(
    private readonly db: Db,
    readonly engine: Engine,
  ) {}

  get executor(): Db {
    return this.db;
  }

  async draftData(id: string): Promise<RecordData | undefined> {
    const row = await this.db
      .selectFrom('drafts')
      .select('data')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && readJson<RecordData>(row.data);
  }

  /** Runs `fn` in one transaction (joining an action's, see `inTransaction`). */
  transaction<T>(fn: (trx: FilesRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, () => fn(this));
  }

  /**
   * Serialises file changes of one draft (PostgreSQL row lock on the draft; SQLite writers are
   * serialised already), so the files summary written with each change never misses another's,
   * and a publish or discard (which lock the same row after the parent's) sees their entries
   * whole. False when the draft is gone: published or discarded meanwhile.
   */
  async lockDraft(id: string): Promise<boolean> {
    const query = this.db.selectFrom('drafts').select('id').where('id', '=', id);
    const row = await (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    return row !== undefined;
  }

  async listBucket(bucket: string): Promise<FileRow[]> {
    const rows = await this.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('bucket', '=', bucket)
      .orderBy('createdAt')
      .orderBy('key')
      .execute();
    return rows.map(sizes);
  }

  async getFile(bucket: string, keyNormalized: string): Promise<FileRow | undefined> {
    const row = await this.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('bucket', '=', bucket)
      .where('keyNormalized', '=', keyNormalized)
      .executeTakeFirst();
    return row && sizes(row);
  }

  async insertFile(row: FileRow): Promise<void> {
    await this.db
      .insertInto('recordFiles')
      .values({ ...row, metadata: jsonText(row.metadata) })
      .execute();
  }

  /** Updates a file only while it is in `fromStatus`; false when someone else moved it on. */
  async updateFile(
    id: string,
    set: Partial<FileRow>,
    fromStatus?: string,
    fromUploadKey?: string | null,
  ): Promise<boolean> {
    const values = {
      ...set,
      ...(set.metadata === undefined ? {} : { metadata: jsonText(set.metadata) }),
    } as Updateable<RecordFilesTable>;
    let q = this.db.updateTable('recordFiles').set(values).where('id', '=', id);
    if (fromStatus) q = q.where('status', '=', fromStatus);
    if (fromUploadKey !== undefined) {
      q =
        fromUploadKey === null
          ? q.where('uploadKey', 'is', null)
          : q.where('uploadKey', '=', fromUploadKey);
    }
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteFile(id: string): Promise<void> {
    await this.db.deleteFrom('recordFiles').where('id', '=', id).execute();
  }

  async deleteBucket(bucket: string): Promise<void> {
    await this.db.deleteFrom('recordFiles').where('bucket', '=', bucket).execute();
  }

  async insertObject(row: FileObjectRow): Promise<void> {
    await this.db.insertInto('fileObjects').values(row).execute();
  }

  async getObjects(ids: string[]): Promise<FileObjectRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('fileObjects')
      .selectAll()
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  /** Objects among `ids` that no file entry refers to any more. */
  async unreferencedObjects(ids: string[]): Promise<FileObjectRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('fileObjects')
      .selectAll()
      .where('id', 'in', ids)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('recordFiles')
              .select('recordFiles.id')
              .whereRef('recordFiles.objectId', '=', 'fileObjects.id'),
          ),
        ),
      )
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  async deleteObject(id: string): Promise<void> {
    await this.db.deleteFrom('fileObjects').where('id', '=', id).execute();
  }

  /**
   * Unfinished uploads last touched before `before` (the sweep frees them): pending ones, and
   * commits whose lease ran out at `now` (a commit still running is never swept).
   */
  async stalePending(before: string, now: string, limit: number): Promise<FileRow[]> {
    const rows = await this.db
      .selectFrom('recordFiles')
      .selectAll()
      .where(unfinishedAndFree(now))
      .where('updatedAt', '<', before)
      .limit(limit)
      .execute();
    return rows.map(sizes);
  }

  /**
   * Freezes a file for a commit holding `token` until `until`: a pending file, or one whose
   * previous commit's lease ran out at `now` (its process died). False when someone else holds it.
   */
  async takeCommitLease(id: string, token: string, until: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('recordFiles')
      .set({ status: 'committing', commitLease: token, commitLeaseUntil: until, updatedAt: now })
      .where('id', '=', id)
      .where(unfinishedAndFree(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a pending file's multipart upload, unless another request recorded one first. */
  async startUpload(id: string, uploadId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('recordFiles')
      .set({ uploadId })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('uploadId', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Extends the lease `token` holds; false when it no longer holds it. */
  async renewCommitLease(id: string, token: string, until: string): Promise<boolean> {
    return this.updateLeased(id, token, { commitLeaseUntil: until });
  }

  /** Changes a committing file only while `token` still holds its lease. */
  async updateLeased(id: string, token: string, set: Partial<FileRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('recordFiles')
      .set(set as Updateable<RecordFilesTable>)
      .where('id', '=', id)
      .where('status', '=', 'committing')
      .where('commitLease', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Bytes of the bucket's completed files, without `except`. */
  async committedBytes(bucket: string, except: string): Promise<number> {
    const row = await this.db
      .selectFrom('recordFiles')
      .innerJoin('fileObjects', 'fileObjects.id', 'recordFiles.objectId')
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<number | string>('fileObjects.size'), eb.lit(0)).as('total'),
      )
      .where('recordFiles.bucket', '=', bucket)
      .where('recordFiles.status', '=', 'completed')
      .where('recordFiles.id', '!=', except)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Which of `keys` (store keys) neither a file's upload nor a stored object refers to. */
  async unreferencedStoreKeys(keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const [uploads, objects] = await Promise.all([
      this.db
        .selectFrom('recordFiles')
        .select('uploadKey')
        .where('uploadKey', 'in', keys)
        .execute(),
      this.db.selectFrom('fileObjects').select('storeKey').where('storeKey', 'in', keys).execute(),
    ]);
    const used = new Set([...uploads.map((r) => r.uploadKey), ...objects.map((r) => r.storeKey)]);
    return keys.filter((key) => !used.has(key));
  }

  /** A page of object rows in id order after `after`, with the cursor of the next page. */
  async objectsPage(after: string, limit: number): Promise<{ ids: string[]; next?: string }> {
    const rows = await this.db
      .selectFrom('fileObjects')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
    const ids = rows.map((r) => r.id);
    return ids.length === limit ? { ids, next: ids[ids.length - 1]! } : { ids };
  }

  async uploadIdsInUse(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('recordFiles')
      .select('uploadId')
      .where('uploadId', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.uploadId!));
  }

  async userQuota(
    userId: number,
  ): Promise<{ maxFiles: number | null; maxBytes: number | null } | undefined> {
    const row = await this.db
      .selectFrom('userQuotas')
      .select(['maxFiles', 'maxBytes'])
      .where('userId', '=', userId)
      .executeTakeFirst();
    return (
      row && {
        maxFiles: row.maxFiles,
        maxBytes: row.maxBytes === null ? null : Number(row.maxBytes),
      }
    );
  }

  async setUserQuota(
    userId: number,
    maxFiles: number | null,
    maxBytes: number | null,
  ): Promise<void> {
    await this.db
      .insertInto('userQuotas')
      .values({ userId, maxFiles, maxBytes })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ maxFiles, maxBytes }))
      .execute();
  }

  /** Writes the draft's files summary and bumps its revision: clients see every file change. */
  async writeDraftFiles(
    draftId: string,
    summary: unknown,
    data: string | undefined,
    updatedAt: string,
  ): Promise<void> {
    await this.db
      .updateTable('drafts')
      .set((eb) => ({
        filesSummary: jsonText(summary),
        revisionId: eb('revisionId', '+', 1),
        updatedAt,
        ...(data === undefined ? {} : { data }),
      }))
      .where('id', '=', draftId)
      .execute();
  }
}
