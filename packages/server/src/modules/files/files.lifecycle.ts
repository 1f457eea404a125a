import crypto from 'node:crypto';
import type { Db, Engine } from '../../database/database.js';
import { nowIso } from '../../database/database.js';
import { afterCommit } from '../../database/unit-of-work.js';
import type { FileStore } from './storage/file-store.js';
import { FilesRepository, type FileRow, type StoredFile } from './files.repository.js';
import { summarise, type FilesSummary } from './files.summary.js';
import { crashPoint } from '../../lib/crash-points.js';
import { keyProblem, normalizeKey } from './file-keys.js';

export const draftBucket = (id: string) => `draft:${id}`;
export const recordBucket = (id: string) => `record:${id}`;

/** The objects `rows` refer to, which may be unreferenced once they are gone. */
export const objectIdsOf = (rows: FileRow[]): string[] =>
  rows.flatMap((r) => (r.objectId ? [r.objectId] : []));

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

  /**
   * Whether the draft holds a file under `key`: for a check that the summary's entries answer
   * while they are embedded, and one indexed lookup once a draft has too many files for that.
   */
  async draftHasFile(db: Db, draftId: string, key: string): Promise<boolean> {
    if (keyProblem(key)) return false;
    return (await this.repo(db).getFile(draftBucket(draftId), normalizeKey(key))) !== undefined;
  }

  private repo(db: Db): FilesRepository {
    return new FilesRepository(db, this.engine);
  }

  /**
   * Copies the completed ones of `files` into bucket `to`, which is emptied first: rows only, in
   * a few statements, and the summary from what was copied, without reading it back.
   */
  private async copyInto(
    repo: FilesRepository,
    files: StoredFile[],
    to: string,
  ): Promise<{ summary: FilesSummary; replaced: FileRow[] }> {
    const replaced = await repo.deleteBucket(to);
    const now = nowIso();
    const copies = files
      .filter((file) => file.row.status === 'completed')
      .map((file) => ({
        ...file,
        row: {
          ...file.row,
          id: crypto.randomUUID(),
          bucket: to,
          uploadKey: null,
          uploadId: null,
          updatedAt: now,
        },
      }));
    await repo.insertFiles(copies.map((copy) => copy.row));
    return { summary: summarise(copies), replaced };
  }

  /**
   * At publish: the record bucket becomes the draft's entries; returns the record's summary.
   * The caller holds the draft's lock and has checked that every entry is complete; this checks
   * again, so that no mistake elsewhere can publish over a record's files with fewer: an edit
   * draft's entries are the record's (its bucket is locked), so a record entry missing from the
   * draft means the draft is not what publish was told, and the transaction is rolled back.
   */
  async publish(db: Db, id: string): Promise<{ summary: FilesSummary; released: string[] }> {
    const repo = this.repo(db);
    const drafted = await repo.listStored(draftBucket(id));
    if (drafted.some((file) => file.row.status !== 'completed'))
      throw new Error(`publish of ${id}: the draft has files not completed`);
    const kept = new Set(drafted.map((file) => file.row.keyNormalized));
    const { summary, replaced } = await this.copyInto(repo, drafted, recordBucket(id));
    const lost = replaced.filter((r) => !kept.has(r.keyNormalized));
    if (lost.length > 0)
      throw new Error(
        `publish of ${id}: would drop the record's ${lost.map((r) => r.key).join(', ')}`,
      );
    const released = objectIdsOf([...replaced, ...(await repo.deleteBucket(draftBucket(id)))]);
    crashPoint('publish:files-moved');
    return { summary, released };
  }

  /** At edit of a published record: its entries, shared, in the new draft's bucket. */
  async edit(db: Db, id: string): Promise<FilesSummary> {
    const repo = this.repo(db);
    return (await this.copyInto(repo, await repo.listStored(recordBucket(id)), draftBucket(id)))
      .summary;
  }

  /** At files-import: the previous version's entries, shared, in the new-version draft. */
  async importFrom(db: Db, fromRecordId: string, toDraftId: string): Promise<FilesSummary> {
    const repo = this.repo(db);
    const { summary } = await this.copyInto(
      repo,
      await repo.listStored(recordBucket(fromRecordId)),
      draftBucket(toDraftId),
    );
    crashPoint('files-import:copied');
    return summary;
  }

  /** At discard: the draft's entries go; returns the upload state and objects to free afterwards. */
  async discard(db: Db, id: string): Promise<{ released: string[]; uploads: FileRow[] }> {
    const rows = await this.repo(db).deleteBucket(draftBucket(id));
    return {
      released: objectIdsOf(rows),
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
    for (const upload of uploads) await this.dropUpload(upload);
    const orphans = await this.repo(this.db).deleteUnreferencedObjects([...new Set(objectIds)]);
    for (const object of orphans) await this.store.delete(object.storeKey);
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
