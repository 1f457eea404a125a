import type { Config } from '../../config.js';
import type { FilesRepository } from './files.repository.js';
import { draftBucket, type FilesLifecycle } from './files.lifecycle.js';
import type { FileStore } from './storage/file-store.js';
import { UPLOADS_PREFIX } from './file-keys.js';
import { crashPoint } from '../../lib/crash-points.js';
import type { FileBuckets } from './files.buckets.js';

/** How many stored objects, and object rows, one run of the sweep looks at. */
const LEFTOVERS_PAGE = 1000;

/** Frees what abandoned and killed uploads leave behind, in the database and in the store. */
export class FilesSweep {
  /** Where the sweep's scan of stored objects, and of object rows, goes on next time. */
  private objectsCursor: string | undefined;
  private objectRowsCursor: string | undefined;

  constructor(
    private readonly repo: FilesRepository,
    private readonly buckets: FileBuckets,
    private readonly lifecycle: FilesLifecycle,
    private readonly store: FileStore,
    private readonly config: Config,
    /** Store keys this process is writing whose rows do not name them yet. */
    private readonly writing: ReadonlySet<string>,
  ) {}

  /**
   * The sweep, at start and then periodically: unfinished uploads untouched for longer than the
   * configured age are removed with their bytes, and what killed uploads left in the store is
   * freed (see {@link sweepLeftovers}). Returns how many things it removed.
   */
  async sweepAbandoned(): Promise<number> {
    const hours = this.config.files.pendingMaxAgeHours;
    const now = Date.now();
    const before = new Date(now - hours * 3600_000);
    const stale = await this.repo.stalePending(
      before.toISOString(),
      new Date(now).toISOString(),
      200,
    );
    let swept = 0;
    for (const row of stale) {
      const recordId = row.bucket.slice(row.bucket.indexOf(':') + 1);
      const removed = await this.repo.transaction(async (trx) => {
        const locked = await trx.lockDraft(recordId, { preview: true });
        // Touched (or committed) since it was listed: a commit's object would share its bytes.
        const current = await trx.getFile(row.bucket, row.keyNormalized);
        if (current?.id !== row.id || current.updatedAt !== row.updatedAt) return false;
        if (locked && row.bucket === draftBucket(recordId)) {
          const summary = await this.buckets.lockedSummary(trx, row.bucket, locked.filesSummary);
          await trx.deleteFiles([row.id]);
          await this.buckets.removeEntries(trx, recordId, { ...locked, summary }, [current]);
        } else await trx.deleteFiles([row.id]);
        return true;
      });
      if (!removed) continue;
      crashPoint('sweep:row-removed');
      await this.lifecycle.dropUpload(row);
      swept++;
    }
    return swept + (await this.sweepLeftovers(now, before));
  }

  /**
   * Frees what an upload killed mid-way leaves: temporary files, multipart uploads no row knows,
   * stored objects no row refers to (a page of the store per run), and object rows no file
   * refers to (a request killed between its transaction and freeing the bytes). The database
   * says what is in use; the age threshold spares what another server may be writing right
   * now, and this process's own writes are never touched.
   */
  private async sweepLeftovers(now: number, pendingBefore: Date): Promise<number> {
    const untouchedSince = new Date(now - this.config.files.leftoverMinutes * 60_000);
    let removed = 0;
    if (this.store.sweepTemporary) removed += await this.store.sweepTemporary(untouchedSince);
    if (this.store.listStaleMultipart) {
      // Listed before the rows are read: an upload started in between is then known, or young.
      const since = new Date(Math.max(untouchedSince.getTime(), pendingBefore.getTime()));
      const uploads = await this.store.listStaleMultipart(since);
      const known = await this.repo.uploadIdsInUse();
      for (const upload of uploads) {
        if (known.has(upload.uploadId)) continue;
        await this.store.abortMultipart(upload.key, upload.uploadId);
        removed++;
      }
    }
    // Object rows first: their bytes are then no longer referenced when the store is listed.
    const rows = await this.repo.objectsPage(this.objectRowsCursor ?? '', LEFTOVERS_PAGE);
    this.objectRowsCursor = rows.next;
    const orphans = await this.repo.unreferencedObjects(rows.ids);
    for (const object of orphans) {
      if (!(Date.parse(object.createdAt) < untouchedSince.getTime())) continue;
      await this.repo.deleteObject(object.id);
      await this.store.delete(object.storeKey);
      removed++;
    }
    if (this.store.listObjects) {
      const page = await this.store.listObjects({
        prefix: UPLOADS_PREFIX,
        ...(this.objectsCursor === undefined ? {} : { after: this.objectsCursor }),
        limit: LEFTOVERS_PAGE,
        olderThan: untouchedSince,
      });
      this.objectsCursor = page.next;
      const unused = await this.repo.unreferencedStoreKeys(page.keys);
      for (const key of unused) {
        if (this.writing.has(key)) continue;
        await this.store.delete(key);
        removed++;
      }
    }
    return removed;
  }
}
