import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { type ErrorItem, type RecordData } from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { RecordDraftsService } from '../records/records-drafts.service.js';
import type { RecordStore } from '../records/records.shared.js';

/** What files need of the records module: drafts and records as the caller may see them, and the lock. */
export interface RecordsForFiles {
  store: Pick<RecordStore, 'lockedDraft'>;
  access: Pick<RecordAccessService, 'draftForFiles' | 'recordForFiles'>;
  drafts: Pick<RecordDraftsService, 'previousVersionForImport'>;
}
import {
  FileStoreError,
  type ByteRange,
  type FileStore,
  type PresignedPart,
  type StoredBytes,
  type StoredPart,
} from './storage/file-store.js';
import type { FilesRepository, FileRow, StoredFile } from './files.repository.js';
import { draftBucket, objectIdsOf, recordBucket, type FilesLifecycle } from './files.lifecycle.js';
import {
  changeSummary,
  changeableSummary,
  readSummary,
  reservationOf,
  summarise,
  usedBytes,
  type FilesSummary,
} from './files.summary.js';
import { mimetypeOf } from './mimetypes.js';
import { keyProblem, normalizeKey } from './file-keys.js';
import { parseInitBody } from './init-body.js';
import { crashPoint } from '../../lib/crash-points.js';

/** A bucket as the files endpoints see it: who may change it, and where its entries live. */
export interface BucketContext {
  recordId: string;
  bucket: string;
  isDraft: boolean;
  /** Edit drafts of published records: entries are the record's, changes need a new version. */
  locked: boolean;
  filesEnabled: boolean;
  defaultPreview?: string;
  ownerId: number;
  /** The owner's quota, when it was read with the draft. */
  quota?: Quota;
  /** The files summary as read with the draft, for the checks made before its lock. */
  storedSummary?: unknown;
}

interface Quota {
  maxFiles: number;
  maxBytes: number;
}

export interface FileView extends StoredFile {
  parts?: PresignedPart[];
}

/** A file a request names: its key, and the file when the route has read it already. */
export interface FileRef {
  key: string;
  found?: StoredFile;
}

export interface FilesListView {
  context: BucketContext;
  files: FileView[];
}

function fail(message: string, errors?: ErrorItem[]): AppError {
  return new AppError('VALIDATION_FAILED', message, errors);
}

/**
 * Draft and record files: InvenioRDM's files API (local and multipart transfers), with quotas
 * checked before bytes are stored, resumable multipart uploads, and bytes shared between versions.
 */
export class FilesService {
  /** Store keys this process is writing whose rows do not name them yet (see the sweep). */
  private readonly writing = new Set<string>();
  /** Where the sweep's scan of stored objects, and of object rows, goes on next time. */
  private objectsCursor: string | undefined;
  private objectRowsCursor: string | undefined;

  constructor(
    private readonly repo: FilesRepository,
    private readonly records: RecordsForFiles,
    private readonly lifecycle: FilesLifecycle,
    private readonly store: FileStore,
    private readonly config: Config,
  ) {}

  // ---- access

  /** The draft's bucket, for its owner (403 others; 404 unknown). */
  async draftContext(user: User | undefined, id: string): Promise<BucketContext> {
    const loaded = await this.records.access.draftForFiles(user, id);
    const data = readJson<RecordData>(loaded.row.data);
    const own = loaded.ownerQuota;
    return {
      recordId: id,
      bucket: draftBucket(id),
      isDraft: true,
      locked: loaded.isPublished,
      filesEnabled: data.files.enabled,
      ...(data.files.default_preview ? { defaultPreview: data.files.default_preview } : {}),
      ownerId: loaded.parent.ownerId,
      ...(own ? { quota: this.withDefaults(own) } : {}),
      storedSummary: loaded.row.filesSummary,
    };
  }

  /** A published record's bucket, readable when its files are (403 otherwise). */
  async recordContext(user: User | undefined, id: string): Promise<BucketContext> {
    const { row, parent, data } = await this.records.access.recordForFiles(user, id);
    return {
      recordId: row.id,
      bucket: recordBucket(row.id),
      isDraft: false,
      locked: true,
      filesEnabled: data.files.enabled,
      ...(data.files.default_preview ? { defaultPreview: data.files.default_preview } : {}),
      ownerId: parent.ownerId,
    };
  }

  async list(context: BucketContext): Promise<FilesListView> {
    const stored = await this.repo.listStored(context.bucket);
    // Open multipart uploads carry their part links, as in InvenioRDM's init answer.
    const files = await Promise.all(
      stored.map(async (file) => ({ ...file, ...(await this.partLinks(file.row)) })),
    );
    return { context, files };
  }

  /** The file under `key` with its object, or undefined when there is none. */
  async lookup(context: BucketContext, key: string): Promise<StoredFile | undefined> {
    // A key no file can have names nothing; a NUL from the URL would even make PostgreSQL fail.
    return keyProblem(key) ? undefined : this.repo.getStored(context.bucket, normalizeKey(key));
  }

  private async find(context: BucketContext, ref: FileRef): Promise<StoredFile> {
    const file = ref.found ?? (await this.lookup(context, ref.key));
    if (file) return file;
    // The draft was published or discarded since it was read: answer as if this came after.
    if (context.isDraft && !(await this.repo.draftData(context.recordId))) throw pidDoesNotExist();
    throw new AppError('NOT_FOUND', `File with key ${ref.key} not found.`);
  }

  /** One file, with fresh part links while a multipart upload is open (InvenioRDM's refresh). */
  async item(context: BucketContext, ref: FileRef): Promise<FileView> {
    const file = await this.find(context, ref);
    return { ...file, ...(await this.partLinks(file.row)) };
  }

  /**
   * The row with its multipart upload started. Init starts them once the rows are written, so a
   * crash in between leaves rows without one: whichever request needs it first starts it (only
   * one wins; a loser's upload is aborted), so the file can still be uploaded.
   */
  private async withUpload(row: FileRow): Promise<FileRow> {
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

  private async partLinks(found: FileRow): Promise<{ parts?: PresignedPart[] }> {
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

  private assertWritable(context: BucketContext): void {
    if (!context.isDraft) throw permissionDenied();
    if (context.locked) {
      throw new AppError(
        'PERMISSION_DENIED',
        'Bucket is locked for modifications. To change the files of a published record, create a new version.',
      );
    }
  }

  /**
   * The files and bytes each record of `ownerId` may hold: the user's own quota where one was set,
   * else the configured one. The deposit page tells it to the uploader.
   */
  quotaOf(ownerId: number): Promise<{ maxFiles: number; maxBytes: number }> {
    return this.quota(ownerId);
  }

  private async quota(ownerId: number): Promise<Quota> {
    return this.withDefaults(await this.repo.userQuota(ownerId));
  }

  private withDefaults(own: { maxFiles: number | null; maxBytes: number | null } | undefined) {
    return {
      maxFiles: own?.maxFiles ?? this.config.files.maxFilesPerRecord,
      maxBytes: own?.maxBytes ?? this.config.files.maxBytesPerRecord,
    };
  }

  private async quotaOfContext(context: BucketContext): Promise<Quota> {
    return context.quota ?? this.quota(context.ownerId);
  }

  /**
   * The draft's summary as read with it, for the checks made before its lock (the locked ones
   * read it again): counted from the bucket when it was stored in its older form.
   */
  private async summaryBeforeLock(context: BucketContext): Promise<FilesSummary> {
    return (
      changeableSummary(context.storedSummary) ??
      summarise(await this.repo.listStored(context.bucket))
    );
  }

  /**
   * Takes the draft's lock and reads its files summary, which every file change then changes by
   * what that file contributes (the entry, the counts, the bytes held against the quota): one
   * row, however many files the draft holds. 404 when the draft is gone (published or discarded
   * meanwhile: as if this came after).
   */
  private async lockSummary(
    trx: FilesRepository,
    context: BucketContext,
    options: { preview?: boolean } = {},
  ): Promise<{ summary: FilesSummary; defaultPreview: string | null }> {
    const locked = await trx.lockDraft(context.recordId, options);
    if (!locked) throw pidDoesNotExist();
    return {
      summary: await this.lockedSummary(trx, context.bucket, locked.filesSummary),
      defaultPreview: locked.defaultPreview,
    };
  }

  /**
   * The summary `lockDraft` read, or, stored in its older form, counted from the bucket: under
   * the lock, before this change writes anything.
   */
  private async lockedSummary(
    trx: FilesRepository,
    bucket: string,
    stored: unknown,
  ): Promise<FilesSummary> {
    return changeableSummary(stored) ?? summarise(await trx.listStored(bucket));
  }

  /** Writes the summary (and `data`, when given) and bumps the draft's revision. */
  private async writeSummary(
    trx: FilesRepository,
    recordId: string,
    summary: FilesSummary,
    data?: RecordData,
  ): Promise<void> {
    await trx.writeDraftFiles(recordId, summary, data && JSON.stringify(data), nowIso());
  }

  /**
   * POST …/draft/files: announces files (201 with every entry of the draft). Quotas are checked
   * here, before any byte is sent: the number of files, and the bytes announced.
   */
  async init(
    user: User | undefined,
    context: BucketContext,
    body: unknown,
  ): Promise<FilesListView> {
    if (!user) throw permissionDenied();
    if (!context.filesEnabled) throw new AppError('PERMISSION_DENIED', 'Files are not enabled.');
    if (!context.isDraft) throw permissionDenied();
    const entries = parseInitBody(body, { isAdmin: user.isAdmin, storeKind: this.store.kind });
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e.keyNormalized)) throw fail(`File with key ${e.key} already exists.`);
      seen.add(e.keyNormalized);
      if (!this.config.files.allowEmpty && e.size === 0)
        throw fail(`Empty files are not accepted: ${e.key}.`);
    }
    const { maxFiles, maxBytes } = await this.quotaOfContext(context);
    const created = await this.repo.transaction(async (trx) => {
      const { summary } = await this.lockSummary(trx, context);
      const now = nowIso();
      const rows = entries.map((e): FileRow => {
        const id = crypto.randomUUID();
        const uploadKey = uploadKeyOf(id, false);
        return {
          id,
          bucket: context.bucket,
          key: e.key,
          keyNormalized: e.keyNormalized,
          status: 'pending',
          transferType: e.transfer.type,
          declaredSize: e.size ?? null,
          declaredChecksum: e.checksum ?? null,
          partSize: e.transfer.partSize ?? null,
          parts: e.transfer.parts ?? null,
          mimetype: mimetypeOf(e.key),
          metadata: e.metadata ? JSON.stringify(e.metadata) : null,
          objectId: null,
          uploadKey,
          uploadId: null,
          uploadedSize: null,
          uploadedChecksum: null,
          commitLease: null,
          commitLeaseUntil: null,
          createdAt: now,
          updatedAt: now,
        };
      });
      // The bucket's unique key tells which names are taken, without reading its entries; a
      // refusal below rolls the insert back.
      const inserted = await trx.insertFiles(rows, { skipTaken: true });
      const taken = rows.find((row) => !inserted.has(row.id));
      if (taken) throw fail(`File with key ${taken.key} already exists.`);
      if (summary.count + entries.length > maxFiles) {
        throw fail(
          `Uploading selected files will result in exceeding the max amount per record. This record may hold at most ${maxFiles} files.`,
        );
      }
      const announced = entries.reduce((sum, e) => sum + (e.size ?? 0), 0);
      const used = usedBytes(summary);
      if (used + announced > maxBytes) {
        throw fail(
          `File size limit exceeded. Uploading the selected files would result in ${used + announced} bytes of storage use, exceeding the limit of ${maxBytes} bytes.`,
        );
      }
      // In the order a listing gives them: by creation, then by name.
      for (const row of [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)))
        changeSummary(summary, undefined, { row });
      await this.writeSummary(trx, context.recordId, summary);
      return rows;
    });
    crashPoint('init:rows-written');
    // Multipart uploads are started after the rows exist, so the sweep can always find and abort
    // them (and a request after a crash here starts them itself).
    for (const row of created) await this.withUpload(row);
    return this.list(context);
  }

  private storeFailure(error: unknown, key: string): never {
    if (error instanceof FileStoreError) {
      switch (error.reason) {
        case 'too-large':
          throw fail(tooLargeMessage(key));
        case 'size-mismatch':
          throw fail(error.message);
        case 'checksum-mismatch':
          throw fail(
            'The Content-MD5 of the part does not match the bytes received; the part was discarded.',
          );
        case 'aborted':
          throw fail('The file upload transfer failed, please try again.');
        case 'missing-parts':
          throw fail(error.message);
        case 'not-found':
          throw new AppError('NOT_FOUND', error.message);
      }
    }
    throw error;
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
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    this.assertWritable(context);
    const found = await this.find(context, ref);
    const { row } = found;
    const key = ref.key;
    if (row.transferType === 'M')
      throw fail('Can not set content for multipart file, use the parts instead.');
    assertPending(row);
    const { maxBytes } = await this.quotaOfContext(context);
    const others = usedBytes(await this.summaryBeforeLock(context)) - reservationOf(found);
    const maxSize = Math.max(0, maxBytes - others);
    // A body announced too large is refused before a byte of it is read.
    if (contentLength !== undefined && contentLength > maxSize)
      throw fail(tooLargeMessage(row.key));
    if (
      contentLength !== undefined &&
      row.declaredSize !== null &&
      row.declaredSize > 0 &&
      contentLength !== row.declaredSize
    ) {
      throw fail(
        `File size mismatch: ${row.key} was announced as ${row.declaredSize} bytes at initialisation.`,
      );
    }
    // Each attempt writes under a key of its own: an upload still streaming when the file is
    // committed (or re-uploaded) can then never overwrite bytes that are already in use.
    const uploadKey = uploadKeyOf(row.id, true);
    // Until the row names them, the sweep of leftovers must not take these bytes for a crash's.
    this.writing.add(uploadKey);
    try {
      let stored;
      try {
        stored = await this.store.put(uploadKey, body, {
          maxSize,
          ...(row.declaredSize !== null && row.declaredSize > 0
            ? { expectedSize: row.declaredSize }
            : {}),
        });
      } catch (error) {
        if (error instanceof FileStoreError && error.reason === 'size-mismatch') {
          throw fail(
            `File size mismatch: ${row.key} was announced as ${row.declaredSize} bytes at initialisation.`,
          );
        }
        this.storeFailure(error, row.key);
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
        const summary = await this.lockedSummary(trx, context.bucket, locked.filesSummary);
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
        changeSummary(summary, current, { row: updated });
        // What the file holds against the quota changed; what clients see of the draft did not.
        await trx.writeFilesSummary(context.recordId, summary);
        return { replaced: current.uploadKey, updated };
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
    this.assertWritable(context);
    const row = await this.withUpload((await this.find(context, ref)).row);
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
      this.storeFailure(error, row.key);
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
    const row = await this.withUpload((await this.find(context, ref)).row);
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
      const { row: now } = await this.find(context, { key: ref.key });
      if (now.id !== row.id || now.status === 'pending') throw error;
      return { row: now, received: [], missing: [] };
    }
    const have = new Set(received.map((p) => p.part));
    const missing = Array.from({ length: row.parts }, (_, i) => i + 1).filter((n) => !have.has(n));
    return { row, received, missing };
  }

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
    const found = await this.withUpload((await this.find(context, ref)).row);
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
      const { maxBytes } = await this.quotaOfContext(context);
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
        const { summary } = await this.lockSummary(trx, context);
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
        changeSummary(summary, row, { row: completed, object });
        await this.writeSummary(trx, context.recordId, summary);
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
        const summary = await this.lockedSummary(trx, context.bucket, locked.filesSummary);
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
        changeSummary(summary, row, { row: kept });
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

  /** PUT …/files/{key}: replaces the file's metadata. */
  async updateMetadata(
    user: User | undefined,
    context: BucketContext,
    ref: FileRef,
    body: unknown,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const found = await this.find(context, ref);
    const metadata = (body as { metadata?: unknown } | undefined)?.metadata;
    if (
      metadata !== undefined &&
      metadata !== null &&
      (typeof metadata !== 'object' || Array.isArray(metadata))
    ) {
      throw fail('A validation error occurred.', [
        { field: 'metadata', messages: ['Not a valid mapping type.'] },
      ]);
    }
    // The answer is read inside: a publish may take the draft the moment this commits.
    const file = await this.repo.transaction(async (trx): Promise<StoredFile> => {
      const { summary } = await this.lockSummary(trx, context);
      const updated = await trx.updateFile(found.row.id, {
        metadata: metadata ? JSON.stringify(metadata) : null,
        updatedAt: nowIso(),
      });
      if (!updated) throw notFound(ref.key);
      // Objects never change: the one read before is the one this file has, unless it was
      // committed meanwhile.
      const stored: StoredFile =
        updated.objectId === null
          ? { row: updated }
          : updated.objectId === found.object?.id
            ? { row: updated, object: found.object }
            : ((await trx.getStored(updated.bucket, updated.keyNormalized)) ?? { row: updated });
      // Metadata counts for nothing: the entry changes in place, the totals stay.
      changeSummary(summary, updated, stored);
      await this.writeSummary(trx, context.recordId, summary);
      return stored;
    });
    return { ...file, ...(await this.partLinks(file.row)) };
  }

  /** DELETE …/files/{key}: removes the entry (aborting an unfinished upload); bytes go when unreferenced. */
  async delete(user: User | undefined, context: BucketContext, key: string): Promise<void> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const { row } = await this.find(context, { key });
    // Init is allowed on a locked bucket (as upstream) but content is not: an entry that never
    // completed holds none of the record's bytes, and removing it must stay possible, or the
    // edit could never be published.
    if (row.status === 'completed') this.assertWritable(context);
    await this.deleteFiles(context, [row.id]);
  }

  /** DELETE …/draft/files: removes every entry. */
  async deleteAll(user: User | undefined, context: BucketContext): Promise<void> {
    if (!user) throw permissionDenied();
    this.assertWritable(context);
    await this.deleteFiles(context, 'all');
  }

  /** Deletes the files `ids` (or all) that are still there, and frees what they held. */
  private async deleteFiles(context: BucketContext, ids: string[] | 'all'): Promise<void> {
    const deleted = await this.repo.transaction(async (trx) => {
      const locked = await this.lockSummary(trx, context, { preview: true });
      // As they were when deleted, under the lock: a file committed meanwhile has bytes that are
      // no longer an upload's to free, but an object's, freed once nothing refers to it.
      const rows =
        ids === 'all' ? await trx.deleteBucket(context.bucket) : await trx.deleteFiles(ids);
      await this.removeEntries(trx, context.recordId, locked, rows);
      return rows;
    });
    await this.lifecycle.release(
      objectIdsOf(deleted),
      deleted.filter((r) => r.status !== 'completed'),
    );
  }

  /**
   * Takes the deleted `rows` of a draft's bucket out of its summary inside `trx` (which holds the
   * draft's lock), clearing a default preview that named one of them, and writes the summary
   * (bumping the revision).
   */
  private async removeEntries(
    trx: FilesRepository,
    recordId: string,
    { summary, defaultPreview }: { summary: FilesSummary; defaultPreview: string | null },
    rows: FileRow[],
  ): Promise<void> {
    for (const row of rows) changeSummary(summary, row, undefined);
    // Deleting the default preview clears it (InvenioRDM does the same).
    const data = rows.some((r) => r.key === defaultPreview)
      ? await trx.draftData(recordId)
      : undefined;
    if (data) delete data.files.default_preview;
    await this.writeSummary(trx, recordId, summary, data);
  }

  /** Bytes of a completed file, or of a range of it; the object row tells size and MD5. */
  async content(
    context: BucketContext,
    ref: FileRef,
  ): Promise<{ view: FileView; open: (range?: ByteRange) => Promise<Readable> }> {
    const view = await this.item(context, ref);
    const object = view.object;
    if (view.row.status !== 'completed' || !object) {
      throw new AppError(
        'NOT_FOUND',
        `File with key ${ref.key} has no content yet (its upload is not committed).`,
      );
    }
    return { view, open: (range) => this.store.read(object.storeKey, range) };
  }

  /** Every completed file of the bucket, for the zip archive (400 past the configured size cap). */
  async archive(
    context: BucketContext,
  ): Promise<Array<{ name: string; size: number; mtime: Date; open: () => Promise<Readable> }>> {
    const views = (await this.repo.listStored(context.bucket)).flatMap((v) =>
      v.row.status === 'completed' && v.object ? [{ row: v.row, object: v.object }] : [],
    );
    const total = views.reduce((s, v) => s + v.object.size, 0);
    const cap = this.config.files.archiveMaxBytes;
    if (cap > 0 && total > cap) {
      throw fail(
        `Archive download is only available for records with total file size up to ${cap} bytes.`,
      );
    }
    return views.map((v) => ({
      name: v.row.key,
      size: v.object.size,
      mtime: new Date(v.row.updatedAt),
      open: () => this.store.read(v.object.storeKey),
    }));
  }

  /**
   * POST …/actions/files-import: the previous version's files, as shared references (no byte is
   * copied), into a new-version draft that has none. Under the parent's lock: of parallel
   * imports one wins, the others find the files there (400).
   */
  async importFromPrevious(user: User | undefined, id: string): Promise<FilesListView> {
    const context = await this.records.store.lockedDraft(user, id, 'review', async () => {
      const context = await this.draftContext(user, id);
      const previous = await this.records.drafts.previousVersionForImport(id);
      const field = (message: string) =>
        fail(message, [{ field: 'files.enabled', messages: [message] }]);
      if (!context.filesEnabled) throw field('Files support must be enabled.');
      if (!previous.filesEnabled) throw field('The record has no files.');
      // Read under the draft's lock, which every file change takes.
      if (readSummary(context.storedSummary).count > 0) {
        throw field('Please remove all files first.');
      }
      const summary = await this.lifecycle.importFrom(this.repo.executor, previous.id, id);
      // Throwing rolls back the import, which copied nothing.
      if (summary.count === 0) throw field('The record has no files.');
      await this.writeSummary(this.repo, context.recordId, summary);
      return context;
    });
    return this.list(context);
  }

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
          const summary = await this.lockedSummary(trx, row.bucket, locked.filesSummary);
          await trx.deleteFiles([row.id]);
          await this.removeEntries(trx, recordId, { ...locked, summary }, [current]);
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

  /** Sets (or clears, with nulls) a user's own quota, overriding the configured defaults. */
  async setUserQuota(
    userId: number,
    maxFiles: number | null,
    maxBytes: number | null,
  ): Promise<void> {
    await this.repo.setUserQuota(userId, maxFiles, maxBytes);
  }
}

/** Where every byte the files service stores lives in the store (the sweep looks nowhere else). */
const UPLOADS_PREFIX = 'uploads/';

/** How many stored objects, and object rows, one run of the sweep looks at. */
const LEFTOVERS_PAGE = 1000;

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

function tooLargeMessage(key: string): string {
  return `File size limit exceeded: ${key} is larger than announced or than this record's remaining quota.`;
}

function notFound(key: string): AppError {
  return new AppError('NOT_FOUND', `File with key ${key} not found.`);
}

/** Why content cannot be sent to a file that is no longer pending. */
function notPending(row: FileRow): AppError {
  return row.status === 'committing'
    ? new AppError(
        'CONFLICT',
        `File with key "${row.key}" is being committed; its content can no longer change.`,
      )
    : fail(`File with key "${row.key}" is already committed.`);
}

function assertPending(row: FileRow): void {
  if (row.status !== 'pending') throw notPending(row);
}

/**
 * Where a file's bytes go in the store: the init's key for a multipart upload, or a key of its
 * own for each one-request upload attempt and each multipart upload started again.
 */
function uploadKeyOf(fileId: string, attempt: boolean): string {
  const base = `${UPLOADS_PREFIX}${fileId.slice(0, 2)}/${fileId}`;
  return attempt ? `${base}-${crypto.randomBytes(8).toString('hex')}` : base;
}

/** A key in a URL path: each folder part escaped, the slashes kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
