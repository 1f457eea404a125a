import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import { AppError, permissionDenied } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import type { User } from '../users/users.service.js';
import { FileStoreError, type FileStore, type StoredBytes } from './storage/file-store.js';
import type { FilesRepository, FileRow } from './files.repository.js';
import { changeSummary, readSummary } from './files.summary.js';
import { uploadKeyOf } from './file-keys.js';
import { crashPoint } from '../../lib/crash-points.js';
import type { BucketContext, FileBuckets, FileRef, FileView } from './files.buckets.js';
import type { FileUploads } from './files.uploads.js';
import { fail, notFound, notPending } from './files.errors.js';

/**
 * Commits: a pending file becomes completed, its size and MD5 computed from the stored bytes
 * (assembled from its parts for a multipart upload) and checked against what was announced and
 * against the quota, under a lease that tells a commit still running from one whose process died.
 */
export class FileCommits {
  constructor(
    private readonly repo: FilesRepository,
    private readonly buckets: FileBuckets,
    private readonly uploads: FileUploads,
    private readonly store: FileStore,
    private readonly config: Config,
  ) {}

  /**
   * POST …/commit: the file becomes completed, with size and MD5 computed from the stored bytes.
   *
   * The commit holds a lease on the file (status `committing`), renewed while it works, so that
   * a second commit can tell one still running (409, however many app servers there are) from
   * one whose process died: that one's lease runs out and the next commit takes it over, and
   * finishes it from wherever it stopped (the store completes an assembled upload again). Only
   * the lease's holder may complete the file or put it back to pending.
   */
  async commit(user: User | undefined, context: BucketContext, ref: FileRef): Promise<FileView> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const found = await this.uploads.withUpload((await this.buckets.find(context, ref)).row);
    if (found.status === 'completed') throw notPending(found);
    if (found.transferType === 'L' && found.uploadedChecksum === null) {
      throw fail(`The content of ${found.key} has not been uploaded yet.`);
    }
    const token = crypto.randomUUID();
    // The file as the lease froze it: an upload that finished meanwhile moved its key.
    let row: FileRow | undefined;
    for (let attempt = 1; ; attempt++) {
      row = await this.repo.takeCommitLease(found.id, token, this.leaseEnd(), nowIso());
      if (row) break;
      // Pending again (the other commit was refused meanwhile): try once more.
      const busy = await this.commitBusy(context, found);
      if (busy || attempt >= 3) throw busy ?? new AppError('CONFLICT');
    }
    const renewal = setInterval(() => {
      this.repo.renewCommitLease(row.id, token, this.leaseEnd()).catch(() => undefined);
    }, this.config.files.commitLeaseSeconds * 333);
    renewal.unref();
    try {
      return await this.completeLeased(context, found, row, token);
    } finally {
      clearInterval(renewal);
    }
  }

  private leaseEnd(): string {
    return new Date(Date.now() + this.config.files.commitLeaseSeconds * 1000).toISOString();
  }

  /**
   * Why the lease could not be had: the file is committed, gone, or held by a commit still
   * running; undefined when it is pending again.
   */
  private async commitBusy(context: BucketContext, found: FileRow): Promise<AppError | undefined> {
    const current = await this.repo.getFile(context.bucket, found.keyNormalized);
    if (current?.id !== found.id) return notFound(found.key);
    if (current.status === 'pending') return undefined;
    if (current.status !== 'committing') return notPending(current);
    const left = Date.parse(current.commitLeaseUntil ?? '') - Date.now();
    return new AppError(
      'CONFLICT',
      `File with key "${found.key}" is being committed by another request. If that request was cut off, send the commit again after ${this.config.files.commitLeaseSeconds} seconds.`,
      undefined,
      undefined,
      { 'retry-after': String(Math.max(1, Math.ceil(left / 1000))) },
    );
  }

  /** The commit's work, under the lease `token` holds on `row`. */
  private async completeLeased(
    context: BucketContext,
    found: FileRow,
    row: FileRow,
    token: string,
  ): Promise<FileView> {
    let assembled: StoredBytes | undefined;
    let committed: FileView;
    try {
      const { maxBytes } = await this.buckets.quotaOfContext(context);
      let size: number;
      let checksum: string;
      if (row.transferType === 'M') {
        if (!row.uploadId || !row.parts || row.declaredSize === null) {
          throw new CommitRefused(
            fail('The multipart upload is not ready yet; retry in a moment.'),
          );
        }
        // Refused before the parts are assembled, so that they stay as they are.
        assertCommitFits(
          readSummary(context.storedSummary).total_bytes,
          row,
          row.declaredSize,
          maxBytes,
        );
        try {
          assembled = await this.store.completeMultipart(row.uploadKey!, row.uploadId, row.parts);
        } catch (error) {
          if (error instanceof FileStoreError && error.reason === 'missing-parts') {
            throw new CommitRefused(fail(error.message));
          }
          if (error instanceof FileStoreError && error.reason === 'not-found') {
            throw new CommitRefused(
              fail(`The uploaded parts of ${row.key} are gone; send them again.`),
              'fresh-upload',
            );
          }
          throw error;
        }
        crashPoint('commit:assembled');
        size = assembled.size;
        checksum = `md5:${assembled.md5}`;
      } else {
        size = row.uploadedSize!;
        checksum = row.uploadedChecksum!;
      }
      const wrongBytes = assembled ? 'fresh-upload' : 'untouched';
      // Parts sent straight to the bucket never pass through here: their sum is known only now,
      // and a file counted against the quota at its announced size must not turn out larger.
      if (assembled && size !== row.declaredSize) {
        throw new CommitRefused(
          fail(
            `File size mismatch: ${row.key} was announced as ${row.declaredSize} bytes at initialisation.`,
          ),
          wrongBytes,
        );
      }
      if (size === 0 && !this.config.files.allowEmpty) {
        throw new CommitRefused(fail('Empty files are not accepted.'), wrongBytes);
      }
      if (row.declaredChecksum && row.declaredChecksum !== checksum) {
        throw new CommitRefused(
          fail(
            `The checksum of the received bytes (${checksum}) does not match the one announced (${row.declaredChecksum}). Upload the content again.`,
          ),
          wrongBytes,
        );
      }
      const objectId = crypto.randomUUID();
      committed = await this.repo.transaction(async (trx) => {
        const { summary } = await this.buckets.lockSummary(trx, context);
        // Under the lock: of commits running side by side, each sees the others' results.
        assertCommitFits(
          summary.total_bytes,
          row,
          size,
          maxBytes,
          assembled ? 'keep-content' : 'untouched',
        );
        const object = {
          id: objectId,
          storeKey: row.uploadKey!,
          size,
          checksum,
          createdAt: nowIso(),
        };
        await trx.insertObject(object);
        const completed = await trx.updateLeased(row.id, token, {
          status: 'completed',
          objectId,
          uploadId: null,
          transferType: 'L',
          commitLease: null,
          commitLeaseUntil: null,
          updatedAt: nowIso(),
        });
        if (!completed) throw new LeaseLost();
        // `row` is the file as the summary counts it: while leased, nothing else changes it.
        changeSummary(summary, { row }, { row: completed, object });
        await this.buckets.writeSummary(
          trx,
          context.recordId,
          summary,
          undefined,
          context.changedBy,
        );
        return { row: completed, object };
      });
    } catch (error) {
      if (error instanceof CommitRefused) {
        await this.undoCommit(context, found, row, token, error.undo, assembled);
        throw error.error;
      }
      if (error instanceof LeaseLost) {
        // Deleted meanwhile (no object may outlive its entry), or taken over after a stall.
        throw (await this.commitBusy(context, found)) ?? new AppError('CONFLICT');
      }
      // Anything else (the store failed, the database went away) may have left the bytes
      // assembled: the file stays `committing`, its lease given up, and the next commit
      // finishes what this one started.
      await this.repo
        .updateLeased(row.id, token, { commitLeaseUntil: EXPIRED })
        .catch(() => undefined);
      throw error;
    }
    return committed;
  }

  /**
   * Puts a refused commit's file back to pending, as far as the store allows: as it was when
   * nothing was assembled; with its assembled bytes kept as its content when only the quota
   * stood in the way; as a new multipart upload when the bytes were wrong or lost.
   */
  private async undoCommit(
    context: BucketContext,
    found: FileRow,
    row: FileRow,
    token: string,
    undo: CommitUndo,
    assembled: StoredBytes | undefined,
  ): Promise<void> {
    const pending = { status: 'pending', commitLease: null, commitLeaseUntil: null };
    if (undo === 'untouched') {
      // A refused commit leaves the entry as it was (its `updated` included).
      await this.repo.updateLeased(row.id, token, { ...pending, updatedAt: found.updatedAt });
      return;
    }
    if (undo === 'keep-content' && assembled) {
      // What the file holds against the quota is now what was assembled: changed under the
      // draft's lock, with the summary that counts it.
      await this.repo.transaction(async (trx) => {
        const locked = await trx.lockDraft(context.recordId);
        if (!locked) return;
        const summary = await this.buckets.lockedSummary(trx, context.bucket, locked.filesSummary);
        const kept = await trx.updateLeased(row.id, token, {
          ...pending,
          transferType: 'L',
          uploadId: null,
          partSize: null,
          parts: null,
          uploadedSize: assembled.size,
          uploadedChecksum: `md5:${assembled.md5}`,
          updatedAt: nowIso(),
        });
        if (!kept) return;
        changeSummary(summary, { row }, { row: kept });
        await trx.writeFilesSummary(context.recordId, summary);
      });
      return;
    }
    // The parts are spent: a new upload, under a key of its own, takes them again.
    const uploadKey = uploadKeyOf(row.id, true);
    const uploadId = await this.store.createMultipart(uploadKey, {
      size: row.declaredSize!,
      partSize: row.partSize!,
      parts: row.parts!,
    });
    const reset = await this.repo.updateLeased(row.id, token, {
      ...pending,
      uploadKey,
      uploadId,
      updatedAt: nowIso(),
    });
    if (reset) {
      await this.store.delete(row.uploadKey!);
      await this.store.abortMultipart(row.uploadKey!, row.uploadId!);
    } else {
      await this.store.abortMultipart(uploadKey, uploadId);
    }
  }
}

/** A lease that has run out: the next commit may take the file over at once. */
const EXPIRED = new Date(0).toISOString();

/**
 * How a refused commit puts its file back: `untouched` (nothing assembled), `keep-content` (the
 * assembled bytes become the file's content), `fresh-upload` (a new multipart upload).
 */
type CommitUndo = 'untouched' | 'keep-content' | 'fresh-upload';

/** A commit refused for the caller's reasons: the file goes back to pending, as `undo` says. */
class CommitRefused extends Error {
  constructor(
    readonly error: AppError,
    readonly undo: CommitUndo = 'untouched',
  ) {
    super(error.message);
  }
}

/** The commit's lease was no longer its own when it came to complete the file. */
class LeaseLost extends Error {}

/**
 * Refuses a commit that would take the committed files (`committed` bytes) past the quota. Only
 * committed files count: every pending one fitted its reservation, which only a quota lowered
 * meanwhile breaks.
 */
function assertCommitFits(
  committed: number,
  row: FileRow,
  size: number,
  maxBytes: number,
  undo: CommitUndo = 'untouched',
): void {
  const total = committed + size;
  if (total > maxBytes) {
    throw new CommitRefused(
      fail(
        `File size limit exceeded. Committing ${row.key} would result in ${total} bytes of storage use, exceeding the limit of ${maxBytes} bytes.`,
      ),
      undo,
    );
  }
}
