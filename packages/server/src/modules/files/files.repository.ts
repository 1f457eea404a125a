import type { Selectable, Updateable } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import type { RecordData } from '@cairn/shared';
import { inTransaction } from '../../database/unit-of-work.js';
import {
  jsonText,
  readJson,
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

  /** Unfinished uploads last touched before `before` (the sweep frees them). */
  async stalePending(before: string, limit: number): Promise<FileRow[]> {
    const rows = await this.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('status', 'in', ['pending', 'committing'])
      .where('updatedAt', '<', before)
      .limit(limit)
      .execute();
    return rows.map(sizes);
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
