import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import { permissionDenied, type AppError } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import type { User } from '../users/users.service.js';
import {
  FileStoreError,
  type FileStore,
  type PresignedPart,
  type StoredPart,
} from './storage/file-store.js';
import type { FilesRepository, FileRow } from './files.repository.js';
import { changeSummary, reservationOf, usedBytes } from './files.summary.js';
import { encodeKey, uploadKeyOf } from './file-keys.js';
import { crashPoint } from '../../lib/crash-points.js';
import type { BucketContext, FileBuckets, FileRef, FileView } from './files.buckets.js';
import {
  assertPending,
  fail,
  notFound,
  notPending,
  storeFailure,
  tooLargeMessage,
} from './files.errors.js';

/**
 * Bytes going in: a file's content in one request, or the parts of a multipart upload (started
 * late when a crash left it unstarted, its part links presigned by the store or answered here).
 */
export class FileUploads {
  /** Store keys this process is writing whose rows do not name them yet (see the sweep). */
  readonly writing = new Set<string>();

  constructor(
    private readonly repo: FilesRepository,
    private readonly buckets: FileBuckets,
    private readonly store: FileStore,
    private readonly config: Config,
  ) {}

  /** One file, with fresh part links while a multipart upload is open (InvenioRDM's refresh). */
  async item(context: BucketContext, ref: FileRef): Promise<FileView> {
    const file = await this.buckets.find(context, ref);
    return { ...file, ...(await this.partLinks(file.row)) };
  }

  /**
   * The row with its multipart upload started. Init starts them once the rows are written, so a
   * crash in between leaves rows without one: whichever request needs it first starts it (only
   * one wins; a loser's upload is aborted), so the file can still be uploaded.
   */
  async withUpload(row: FileRow): Promise<FileRow> {
    if (
      row.transferType !== 'M' ||
      row.status !== 'pending' ||
      row.uploadId ||
      !row.uploadKey ||
      !row.parts ||
      !row.partSize ||
      row.declaredSize === null
    )
      return row;
    const uploadId = await this.store.createMultipart(row.uploadKey, {
      size: row.declaredSize,
      partSize: row.partSize,
      parts: row.parts,
    });
    if (await this.repo.startUpload(row.id, uploadId)) return { ...row, uploadId };
    await this.store.abortMultipart(row.uploadKey, uploadId);
    return (await this.repo.getFile(row.bucket, row.keyNormalized)) ?? row;
  }

  async partLinks(found: FileRow): Promise<{ parts?: PresignedPart[] }> {
    const row = await this.withUpload(found);
    if (
      row.transferType !== 'M' ||
      row.status !== 'pending' ||
      !row.parts ||
      !row.uploadKey ||
      !row.uploadId
    )
      return {};
    const numbers = Array.from({ length: row.parts }, (_, i) => i + 1);
    if (this.store.presignParts) {
      return {
        parts: await this.store.presignParts(
          row.uploadKey,
          row.uploadId,
          numbers,
          this.config.files.partUrlSeconds,
        ),
      };
    }
    const expiration = new Date(Date.now() + this.config.files.partUrlSeconds * 1000)
      .toISOString()
      .replace('Z', '+00:00');
    const base = `${this.config.siteUrl}/api/records/${encodeURIComponent(row.bucket.slice('draft:'.length))}/draft/files/${encodeKey(row.key)}/content`;
    return { parts: numbers.map((part) => ({ part, url: `${base}/${part}`, expiration })) };
  }

  /**
   * PUT …/content: streams the bytes to storage, hashing while they stream, never holding the
   * file in memory. The file stays pending until commit; a dropped connection leaves no bytes.
   */
  async putContent(
    user: User | undefined,
    context: BucketContext,
    ref: FileRef,
    body: Readable,
    contentLength?: number,
    /** The body is one part of a form, whose length only `contentLength` tells: hold it to it. */
    exactLength = false,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    this.buckets.assertWritable(context);
    const found = await this.buckets.find(context, ref);
    const { row } = found;
    const key = ref.key;
    if (row.transferType === 'M')
      throw fail('Can not set content for multipart file, use the parts instead.');
    assertPending(row);
    const { maxBytes } = await this.buckets.quotaOfContext(context);
    const others = usedBytes(await this.buckets.summaryBeforeLock(context)) - reservationOf(found);
    const maxSize = Math.max(0, maxBytes - others);
    // A body announced too large is refused before a byte of it is read.
    if (contentLength !== undefined && contentLength > maxSize)
      throw fail(tooLargeMessage(row.key));
    // The size init announced; 0 or none leaves it to the bytes.
    const announced =
      row.declaredSize !== null && row.declaredSize > 0 ? row.declaredSize : undefined;
    const notAsAnnounced = () =>
      fail(
        `File size mismatch: ${row.key} was announced as ${row.declaredSize} bytes at initialisation.`,
      );
    if (contentLength !== undefined && announced !== undefined && contentLength !== announced)
      throw notAsAnnounced();
    // Each attempt writes under a key of its own: an upload still streaming when the file is
    // committed (or re-uploaded) can then never overwrite bytes that are already in use.
    const uploadKey = uploadKeyOf(row.id, true);
    // Until the row names them, the sweep of leftovers must not take these bytes for a crash's.
    this.writing.add(uploadKey);
    try {
      let stored;
      try {
        const expectedSize = announced ?? (exactLength ? contentLength : undefined);
        stored = await this.store.put(uploadKey, body, {
          maxSize,
          ...(expectedSize === undefined ? {} : { expectedSize }),
        });
      } catch (error) {
        if (error instanceof FileStoreError && error.reason === 'size-mismatch') {
          throw announced !== undefined
            ? notAsAnnounced()
            : fail(
                `File size mismatch: ${row.key} was listed as ${contentLength} bytes, and its content part holds another number.`,
              );
        }
        storeFailure(error, row.key);
      }
      crashPoint('upload:stored');
      // The bytes become the file's reservation under the draft's lock: of uploads of unannounced
      // size streaming side by side, those that no longer fit are refused now, never at commit.
      const outcome = await this.repo.transaction<
        { refused: AppError } | { replaced: string | null; updated: FileRow }
      >(async (trx) => {
        const locked = await trx.lockDraft(context.recordId);
        if (!locked) return { refused: notFound(key) };
        const current = await trx.getFile(context.bucket, row.keyNormalized);
        if (current?.id !== row.id) return { refused: notFound(key) };
        if (current.status !== 'pending') return { refused: notPending(current) };
        const summary = await this.buckets.lockedSummary(trx, context.bucket, locked.filesSummary);
        const others = usedBytes(summary) - reservationOf({ row: current });
        if (others + Math.max(stored.size, row.declaredSize ?? 0) > maxBytes) {
          return { refused: fail(tooLargeMessage(row.key)) };
        }
        const updated = await trx.updateFile(
          row.id,
          {
            uploadKey,
            uploadedSize: stored.size,
            uploadedChecksum: `md5:${stored.md5}`,
            updatedAt: nowIso(),
          },
          'pending',
        );
        // A commit takes its lease without the draft's lock, so it may have frozen the file since
        // it was read: the bytes it commits are then the ones before these, and stay.
        if (!updated) return { refused: notPending({ ...current, status: 'committing' }) };
        changeSummary(summary, { row: current }, { row: updated });
        // What the file holds against the quota changed; what clients see of the draft did not.
        await trx.writeFilesSummary(context.recordId, summary);
        // No bytes were ever stored under the key the announcement gave: nothing to delete, and
        // a deletion asks the store's holds first (a few system calls a file of a folder).
        return { replaced: current.uploadedChecksum === null ? null : current.uploadKey, updated };
      });
      if ('refused' in outcome) {
        await this.store.delete(uploadKey);
        throw outcome.refused;
      }
      // The bytes of an earlier attempt are nobody's any more.
      if (outcome.replaced && outcome.replaced !== uploadKey) {
        await this.store.delete(outcome.replaced);
      }
      return { row: outcome.updated };
    } finally {
      this.writing.delete(uploadKey);
    }
  }

  /** PUT …/content/{n}: one part of a multipart upload, in any order, re-sendable. */
  async putPart(
    user: User | undefined,
    context: BucketContext,
    ref: FileRef,
    part: number,
    body: Readable,
    contentMd5?: string,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    this.buckets.assertWritable(context);
    const row = await this.withUpload((await this.buckets.find(context, ref)).row);
    // Checked first: a committed multipart file has become an "L" file.
    assertPending(row);
    if (row.transferType !== 'M' || !row.parts || !row.partSize || row.declaredSize === null) {
      throw fail(
        'This file was not initialised for a multipart transfer; upload its content in one request.',
      );
    }
    if (part < 1) throw fail('Part numbers start at 1.');
    if (!Number.isSafeInteger(part) || part > row.parts) {
      throw fail('Part number is higher than total parts sent in multipart initialization.');
    }
    if (!row.uploadId) throw fail('The multipart upload is not ready yet; retry in a moment.');
    const expectedSize =
      part < row.parts ? row.partSize : row.declaredSize - row.partSize * (row.parts - 1);
    try {
      await this.store.putPart(row.uploadKey!, row.uploadId, part, body, {
        expectedSize,
        ...(contentMd5 ? { contentMd5 } : {}),
      });
    } catch (error) {
      if (error instanceof FileStoreError && error.reason === 'size-mismatch') {
        throw fail(
          'Size of this part must be equal to part_size sent in multipart initialization.',
        );
      }
      storeFailure(error, row.key);
    }
    const touched = await this.repo.updateFile(row.id, { updatedAt: nowIso() });
    // Moved on meanwhile (a commit took it): answer with what it is now.
    if (touched?.status !== 'pending') return this.item(context, { key: ref.key });
    return { row: touched, ...(await this.partLinks(touched)) };
  }

  /** Cairn extension: the parts already received, so a client can resume after a reload. */
  async receivedParts(
    context: BucketContext,
    ref: FileRef,
  ): Promise<{ row: FileRow; received: StoredPart[]; missing: number[] }> {
    const row = await this.withUpload((await this.buckets.find(context, ref)).row);
    if (row.transferType !== 'M' || row.status === 'completed' || !row.uploadId || !row.parts) {
      return { row, received: [], missing: [] };
    }
    let received: StoredPart[];
    try {
      received = await this.store.listParts(row.uploadKey!, row.uploadId);
    } catch (error) {
      if (!(error instanceof FileStoreError && error.reason === 'not-found')) throw error;
      // A commit (running, done, or cut off) has assembled them: there are no parts to list any
      // more, and sending the commit again completes the file if nothing else did.
      const { row: now } = await this.buckets.find(context, { key: ref.key });
      if (now.id !== row.id || now.status === 'pending') throw error;
      return { row: now, received: [], missing: [] };
    }
    const have = new Set(received.map((p) => p.part));
    const missing = Array.from({ length: row.parts }, (_, i) => i + 1).filter((n) => !have.has(n));
    return { row, received, missing };
  }
}
