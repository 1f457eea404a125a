import crypto from 'node:crypto';
import type { Db, Engine } from '../../database/database.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { afterCommit } from '../../database/unit-of-work.js';
import type { FileStore } from './storage/file-store.js';
import { FilesRepository, type FileObjectRow, type FileRow } from './files.repository.js';
import { extensionOf } from './mimetypes.js';
import { crashPoint } from '../../lib/crash-points.js';

/** One entry of a draft's or record's `files.entries` (keyed by file name in record JSON). */
export interface SummaryEntry {
  id: string;
  key: string;
  size: number;
  checksum: string | null;
  mimetype: string;
  ext: string | null;
  storage_class: 'L';
  metadata: Record<string, unknown>;
  access: { hidden: boolean };
  status: string;
}

/** The files section of a draft or record as stored beside it (`files_summary`). */
export interface FilesSummary {
  entries: Record<string, SummaryEntry>;
  count: number;
  total_bytes: number;
  /** Entries whose transfer has not completed: publish waits for them. */
  pending: number;
}

export const EMPTY_SUMMARY: FilesSummary = { entries: {}, count: 0, total_bytes: 0, pending: 0 };

export const draftBucket = (id: string) => `draft:${id}`;
export const recordBucket = (id: string) => `record:${id}`;

export function readSummary(value: unknown): FilesSummary {
  return value === null || value === undefined ? EMPTY_SUMMARY : readJson<FilesSummary>(value);
}

/** Builds the summary from a bucket's rows and the objects behind the completed ones. */
export async function summarise(repo: FilesRepository, rows: FileRow[]): Promise<FilesSummary> {
  const objects = new Map(
    (await repo.getObjects(rows.flatMap((r) => (r.objectId ? [r.objectId] : [])))).map((o) => [
      o.id,
      o,
    ]),
  );
  const summary: FilesSummary = { entries: {}, count: 0, total_bytes: 0, pending: 0 };
  for (const row of rows) {
    const object = row.objectId ? objects.get(row.objectId) : undefined;
    const completed = row.status === 'completed' && object !== undefined;
    summary.entries[row.key] = {
      id: row.id,
      key: row.key,
      size: completed ? object.size : (row.declaredSize ?? 0),
      checksum: completed ? object.checksum : null,
      mimetype: row.mimetype,
      ext: extensionOf(row.key) ?? null,
      storage_class: 'L',
      metadata: row.metadata ? readJson<Record<string, unknown>>(row.metadata) : {},
      access: { hidden: false },
      status: completed ? 'completed' : row.status,
    };
    summary.count++;
    if (completed) summary.total_bytes += object.size;
    else summary.pending++;
  }
  return summary;
}

/**
 * What the draft lifecycle does to files, inside the records service's transactions: publishing
 * moves the draft bucket's entries to the record bucket, editing copies them back (locked), and
 * discarding drops them. Entries are references: no byte is ever copied, and bytes are deleted
 * (after the transaction) only when nothing refers to them any more.
 */
export class FilesLifecycle {
  constructor(
    private readonly store: FileStore,
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  private repo(db: Db): FilesRepository {
    return new FilesRepository(db, this.engine);
  }

  /** Copies `from` bucket's completed entries into `to` (which is emptied first). */
  private async copyBucket(
    repo: FilesRepository,
    from: string,
    to: string,
  ): Promise<{ summary: FilesSummary; released: string[] }> {
    const released = (await repo.listBucket(to)).flatMap((r) => (r.objectId ? [r.objectId] : []));
    await repo.deleteBucket(to);
    const now = nowIso();
    for (const row of await repo.listBucket(from)) {
      if (row.status !== 'completed') continue;
      await repo.insertFile({
        ...row,
        id: crypto.randomUUID(),
        bucket: to,
        uploadKey: null,
        uploadId: null,
        createdAt: row.createdAt,
        updatedAt: now,
      });
    }
    return { summary: await summarise(repo, await repo.listBucket(to)), released };
  }

  /** Counts of the draft's entries, for publish's checks. */
  async draftCounts(db: Db, id: string): Promise<{ completed: number; pending: number }> {
    const rows = await this.repo(db).listBucket(draftBucket(id));
    const pending = rows.filter((r) => r.status !== 'completed').length;
    return { completed: rows.length - pending, pending };
  }

  /**
   * At publish: the record bucket becomes the draft's entries; returns the record's summary.
   * The caller holds the draft's lock and has checked that every entry is complete; this checks
   * again, so that no mistake elsewhere can publish over a record's files with fewer: an edit
   * draft's entries are the record's (its bucket is locked), so a record entry missing from the
   * draft means the draft is not what publish was told, and nothing is written.
   */
  async publish(db: Db, id: string): Promise<{ summary: FilesSummary; released: string[] }> {
    const repo = this.repo(db);
    const drafted = await repo.listBucket(draftBucket(id));
    if (drafted.some((r) => r.status !== 'completed'))
      throw new Error(`publish of ${id}: the draft has files not completed`);
    const kept = new Set(drafted.map((r) => r.keyNormalized));
    const lost = (await repo.listBucket(recordBucket(id))).filter(
      (r) => !kept.has(r.keyNormalized),
    );
    if (lost.length > 0)
      throw new Error(
        `publish of ${id}: would drop the record's ${lost.map((r) => r.key).join(', ')}`,
      );
    const result = await this.copyBucket(repo, draftBucket(id), recordBucket(id));
    const draftRows = await repo.listBucket(draftBucket(id));
    await repo.deleteBucket(draftBucket(id));
    result.released.push(...draftRows.flatMap((r) => (r.objectId ? [r.objectId] : [])));
    crashPoint('publish:files-moved');
    return result;
  }

  /** At edit of a published record: its entries, shared, in the new draft's bucket. */
  async edit(db: Db, id: string): Promise<FilesSummary> {
    return (await this.copyBucket(this.repo(db), recordBucket(id), draftBucket(id))).summary;
  }

  /** At files-import: the previous version's entries, shared, in the new-version draft. */
  async importFrom(db: Db, fromRecordId: string, toDraftId: string): Promise<FilesSummary> {
    const { summary } = await this.copyBucket(
      this.repo(db),
      recordBucket(fromRecordId),
      draftBucket(toDraftId),
    );
    crashPoint('files-import:copied');
    return summary;
  }

  /** At discard: the draft's entries go; returns the upload state and objects to free afterwards. */
  async discard(db: Db, id: string): Promise<{ released: string[]; uploads: FileRow[] }> {
    const repo = this.repo(db);
    const rows = await repo.listBucket(draftBucket(id));
    await repo.deleteBucket(draftBucket(id));
    return {
      released: rows.flatMap((r) => (r.objectId ? [r.objectId] : [])),
      uploads: rows.filter((r) => r.status !== 'completed'),
    };
  }

  /**
   * Frees what a committed transaction released: unfinished uploads, and objects nothing refers
   * to any more. Called inside an action's transaction it waits for the commit, so a rolled-back
   * publish can never have lost bytes.
   */
  async release(objectIds: string[], uploads: FileRow[] = []): Promise<void> {
    await afterCommit(() => this.releaseNow(objectIds, uploads));
  }

  private async releaseNow(objectIds: string[], uploads: FileRow[]): Promise<void> {
    crashPoint('release:before-bytes');
    const repo = this.repo(this.db);
    for (const upload of uploads) await this.dropUpload(upload);
    const orphans: FileObjectRow[] = await repo.unreferencedObjects([...new Set(objectIds)]);
    for (const object of orphans) {
      await repo.deleteObject(object.id);
      await this.store.delete(object.storeKey);
    }
  }

  /**
   * Frees the bytes of an unfinished upload: a pending single PUT's, a multipart upload's parts,
   * and what a commit that never finished had assembled under the upload's key.
   */
  async dropUpload(row: FileRow): Promise<void> {
    if (row.status === 'completed' || !row.uploadKey) return;
    if (row.uploadId) await this.store.abortMultipart(row.uploadKey, row.uploadId);
    await this.store.delete(row.uploadKey);
  }
}
