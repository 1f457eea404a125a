import type { ExpressionBuilder, Selectable, Updateable } from 'kysely';
import { sql, type Db, type Engine } from '../../database/database.js';
import type { RecordData } from '@cairn/shared';
import { inTransaction } from '../../database/unit-of-work.js';
import { DraftSearchIndex } from '../records/search/draft-index.js';
import {
  jsonText,
  readJson,
  type Database,
  type FileObjectsTable,
  type RecordFilesTable,
} from '../../database/schema.js';

export type FileRow = Selectable<RecordFilesTable>;
export type FileObjectRow = Selectable<FileObjectsTable>;

/** A file entry, with the stored object behind it once it is completed. */
export interface StoredFile {
  row: FileRow;
  object?: FileObjectRow;
}

/** How many rows one insert carries: well under both engines' limits on bound values. */
const INSERT_ROWS = 500;

/** pg returns bigint columns as strings; every size leaves here as a number. */
function sizes<T extends Partial<FileRow>>(row: T): T {
  for (const k of ['declaredSize', 'partSize', 'uploadedSize'] as const) {
    if (row[k] !== null && row[k] !== undefined)
      (row as Record<string, unknown>)[k] = Number(row[k]);
  }
  return row;
}

/** Entries with their objects' columns beside them, for `stored`. */
function withObjects(db: Db) {
  return db
    .selectFrom('recordFiles')
    .leftJoin('fileObjects', 'fileObjects.id', 'recordFiles.objectId')
    .selectAll('recordFiles')
    .select([
      'fileObjects.storeKey as objectStoreKey',
      'fileObjects.size as objectSize',
      'fileObjects.checksum as objectChecksum',
      'fileObjects.createdAt as objectCreatedAt',
    ]);
}

type WithObject = FileRow & {
  objectStoreKey: string | null;
  objectSize: number | string | null;
  objectChecksum: string | null;
  objectCreatedAt: string | null;
};

function stored(joined: WithObject): StoredFile {
  const file: StoredFile = { row: sizes(fileRowOf(joined)) };
  const { objectId } = joined;
  if (objectId !== null && joined.objectStoreKey !== null) {
    file.object = {
      id: objectId,
      storeKey: joined.objectStoreKey,
      size: Number(joined.objectSize),
      checksum: joined.objectChecksum!,
      createdAt: joined.objectCreatedAt!,
    };
  }
  return file;
}

/**
 * The entry's own columns of a joined row, named one by one: a rest copy (`{ objectSize, ...row }`) of
 * each row of a 1,000-entry listing page cost several milliseconds of the page's 45–60 ms, and
 * a new column left out here is a type error.
 */
function fileRowOf(r: WithObject): FileRow {
  return {
    id: r.id,
    bucket: r.bucket,
    key: r.key,
    keyNormalized: r.keyNormalized,
    status: r.status,
    transferType: r.transferType,
    declaredSize: r.declaredSize,
    declaredChecksum: r.declaredChecksum,
    partSize: r.partSize,
    parts: r.parts,
    mimetype: r.mimetype,
    metadata: r.metadata,
    objectId: r.objectId,
    uploadKey: r.uploadKey,
    uploadId: r.uploadId,
    uploadedSize: r.uploadedSize,
    uploadedChecksum: r.uploadedChecksum,
    commitLease: r.commitLease,
    commitLeaseUntil: r.commitLeaseUntil,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
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

/** An object no file entry refers to. */
function unreferenced(eb: ExpressionBuilder<Database, 'fileObjects'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('recordFiles')
        .select('recordFiles.id')
        .whereRef('recordFiles.objectId', '=', 'fileObjects.id'),
    ),
  );
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
   * serialised already), so each change reads the files summary as the one before left it, and
   * a publish or discard (which lock the same row after the parent's) sees their entries whole.
   * Returns the stored summary and, with `preview`, the draft's default preview; undefined when
   * the draft is gone: published or discarded meanwhile.
   */
  async lockDraft(
    id: string,
    options: { preview?: boolean } = {},
  ): Promise<{ filesSummary: unknown; defaultPreview: string | null } | undefined> {
    const preview =
      this.engine === 'postgres'
        ? sql<string | null>`${sql.ref('data')} #>> '{files,default_preview}'`
        : sql<string | null>`json_extract(${sql.ref('data')}, '$.files.default_preview')`;
    const query = this.db
      .selectFrom('drafts')
      .select(['filesSummary', (options.preview ? preview : sql<null>`null`).as('defaultPreview')])
      .where('id', '=', id);
    return (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  /** Every entry of the bucket with its object, in one statement. */
  async listStored(bucket: string): Promise<StoredFile[]> {
    const rows = await withObjects(this.db)
      .where('recordFiles.bucket', '=', bucket)
      .orderBy('recordFiles.createdAt')
      .orderBy('recordFiles.key')
      .execute();
    return rows.map(stored);
  }

  /**
   * A page of the bucket's entries with their objects, in the order `listStored` gives them,
   * read from the listing's index (migration 0030).
   */
  async listStoredPage(bucket: string, offset: number, limit: number): Promise<StoredFile[]> {
    const rows = await withObjects(this.db)
      .where('recordFiles.bucket', '=', bucket)
      .orderBy('recordFiles.createdAt')
      .orderBy('recordFiles.key')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(stored);
  }

  /** How many entries the bucket holds, counted from its index. */
  async countFiles(bucket: string): Promise<number> {
    const row = await this.db
      .selectFrom('recordFiles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('bucket', '=', bucket)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The entries `ids` with their objects, in the listing's order, a few hundred a statement. */
  async storedByIds(ids: string[]): Promise<StoredFile[]> {
    const files: StoredFile[] = [];
    for (let start = 0; start < ids.length; start += INSERT_ROWS) {
      const rows = await withObjects(this.db)
        .where('recordFiles.id', 'in', ids.slice(start, start + INSERT_ROWS))
        .orderBy('recordFiles.createdAt')
        .orderBy('recordFiles.key')
        .execute();
      files.push(...rows.map(stored));
    }
    return files;
  }

  /** The objects `ids`, a few hundred a statement. */
  async objects(ids: string[]): Promise<Map<string, FileObjectRow>> {
    const found = new Map<string, FileObjectRow>();
    if (ids.length === 0) return found;
    for (let start = 0; start < ids.length; start += INSERT_ROWS) {
      const rows = await this.db
        .selectFrom('fileObjects')
        .selectAll()
        .where('id', 'in', ids.slice(start, start + INSERT_ROWS))
        .execute();
      for (const row of rows) found.set(row.id, { ...row, size: Number(row.size) });
    }
    return found;
  }

  /** One entry with its object, in one statement. */
  async getStored(bucket: string, keyNormalized: string): Promise<StoredFile | undefined> {
    const row = await withObjects(this.db)
      .where('recordFiles.bucket', '=', bucket)
      .where('recordFiles.keyNormalized', '=', keyNormalized)
      .executeTakeFirst();
    return row && stored(row);
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

  /**
   * Inserts entries, a few hundred a statement. With `skipTaken`, an entry whose key the bucket
   * holds already is left out; returns the ids of those inserted.
   */
  async insertFiles(rows: FileRow[], options: { skipTaken?: boolean } = {}): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (let start = 0; start < rows.length; start += INSERT_ROWS) {
      const values = rows
        .slice(start, start + INSERT_ROWS)
        .map((row) => ({ ...row, metadata: jsonText(row.metadata) }));
      const query = this.db.insertInto('recordFiles').values(values);
      const done = await (
        options.skipTaken
          ? query.onConflict((oc) => oc.columns(['bucket', 'keyNormalized']).doNothing())
          : query
      )
        .returning('id')
        .execute();
      for (const { id } of done) inserted.add(id);
    }
    return inserted;
  }

  /**
   * Updates a file only while it is in `fromStatus`; returns it as it is now, or undefined when
   * someone else moved it on.
   */
  async updateFile(
    id: string,
    set: Partial<FileRow>,
    fromStatus?: string,
    fromUploadKey?: string | null,
  ): Promise<FileRow | undefined> {
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
    const row = await q.returningAll().executeTakeFirst();
    return row && sizes(row);
  }

  /** Deletes the entries among `ids` that still exist; returns them as they were. */
  async deleteFiles(ids: string[]): Promise<FileRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .deleteFrom('recordFiles')
      .where('id', 'in', ids)
      .returningAll()
      .execute();
    return rows.map(sizes);
  }

  /** Empties the bucket; returns what it held. */
  async deleteBucket(bucket: string): Promise<FileRow[]> {
    const rows = await this.db
      .deleteFrom('recordFiles')
      .where('bucket', '=', bucket)
      .returningAll()
      .execute();
    return rows.map(sizes);
  }

  async insertObject(row: FileObjectRow): Promise<void> {
    await this.db.insertInto('fileObjects').values(row).execute();
  }

  /** Objects among `ids` that no file entry refers to any more. */
  async unreferencedObjects(ids: string[]): Promise<FileObjectRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('fileObjects')
      .selectAll()
      .where('id', 'in', ids)
      .where(unreferenced)
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  /** Deletes the objects among `ids` that no file entry refers to any more; returns them. */
  async deleteUnreferencedObjects(ids: string[]): Promise<FileObjectRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .deleteFrom('fileObjects')
      .where('id', 'in', ids)
      .where(unreferenced)
      .returningAll()
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
   * previous commit's lease ran out at `now` (its process died). Returns the file as frozen, or
   * undefined when someone else holds it.
   */
  async takeCommitLease(
    id: string,
    token: string,
    until: string,
    now: string,
  ): Promise<FileRow | undefined> {
    const row = await this.db
      .updateTable('recordFiles')
      .set({ status: 'committing', commitLease: token, commitLeaseUntil: until, updatedAt: now })
      .where('id', '=', id)
      .where(unfinishedAndFree(now))
      .returningAll()
      .executeTakeFirst();
    return row && sizes(row);
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
    return (await this.updateLeased(id, token, { commitLeaseUntil: until })) !== undefined;
  }

  /**
   * Changes a committing file only while `token` still holds its lease; returns it as it is now,
   * or undefined when the lease is no longer `token`'s.
   */
  async updateLeased(
    id: string,
    token: string,
    set: Partial<FileRow>,
  ): Promise<FileRow | undefined> {
    const row = await this.db
      .updateTable('recordFiles')
      .set(set as Updateable<RecordFilesTable>)
      .where('id', '=', id)
      .where('status', '=', 'committing')
      .where('commitLease', '=', token)
      .returningAll()
      .executeTakeFirst();
    return row && sizes(row);
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

  /**
   * Writes the draft's files summary and bumps its revision: clients see every file change. The
   * draft's search entries follow: its file types, and its texts when the data changed too.
   */
  async writeDraftFiles(
    draftId: string,
    summary: unknown,
    data: string | undefined,
    updatedAt: string,
    changedBy?: number,
  ): Promise<void> {
    const index = new DraftSearchIndex(this.engine);
    const row = await this.db
      .updateTable('drafts')
      .set((eb) => ({
        filesSummary: jsonText(summary),
        revisionId: eb('revisionId', '+', 1),
        updatedAt,
        updatedBy: changedBy ?? null,
        ...(data === undefined ? {} : { data, ...index.columns(draftId, data) }),
      }))
      .where('id', '=', draftId)
      .returning([index.storedFileTypes(draftId).as('storedFileTypes')])
      .executeTakeFirst();
    if (!row) return;
    const written = { id: draftId, filesSummary: summary };
    if (data === undefined) await index.writeFileTypes(this.db, written, row.storedFileTypes);
    else await index.write(this.db, { ...written, data });
  }

  /**
   * Writes the draft's files summary where nothing a client sees changed (the bytes an upload
   * holds against the quota): the revision stays, or a save racing an upload would be refused.
   */
  async writeFilesSummary(draftId: string, summary: unknown): Promise<void> {
    await this.db
      .updateTable('drafts')
      .set({ filesSummary: jsonText(summary) })
      .where('id', '=', draftId)
      .execute();
  }
}
