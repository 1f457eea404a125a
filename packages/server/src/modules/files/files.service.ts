import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  FILES_LIST_MAX,
  FileMetadataBody,
  FilesUploadManifest,
  type ErrorCode,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import type { User } from '../users/users.service.js';
import type { LinkGrant } from '../records/records.shared.js';
import type { ByteRange, FileStore, StoredPart } from './storage/file-store.js';
import type { FilesRepository, FileRow, StoredFile } from './files.repository.js';
import { objectIdsOf, type FilesLifecycle } from './files.lifecycle.js';
import { changeSummary, readSummary, usedBytes } from './files.summary.js';
import { mimetypeOf } from './mimetypes.js';
import { uploadKeyOf } from './file-keys.js';
import { parseInitBody } from './init-body.js';
import { crashPoint } from '../../lib/crash-points.js';
import { parsedBody } from '../../lib/zod-errors.js';
import { parseClientJson } from '../../lib/client-text.js';
import type { FormPart } from '../../lib/form-parts.js';
import {
  FileBuckets,
  type BucketContext,
  type FileRef,
  type FileView,
  type FilesListView,
  type ListPage,
  type RecordsForFiles,
} from './files.buckets.js';
import { FileUploads } from './files.uploads.js';
import { FileCommits } from './files.commit.js';
import { FilesSweep } from './files.sweep.js';
import { fail, notFound } from './files.errors.js';

/** A file of a batch upload that was not stored, and why. */
export interface BatchFileError {
  key: string;
  status: number;
  code: ErrorCode;
  message: string;
}

/**
 * Draft and record files: InvenioRDM's files API (local and multipart transfers), with quotas
 * checked before bytes are stored, resumable multipart uploads, and bytes shared between versions.
 * The routes, the sweep scheduler and the CLI see this one service; uploads, commits and the
 * sweep are its parts, each in a file of its own, around the buckets they share.
 */
export class FilesService {
  private readonly buckets: FileBuckets;
  private readonly uploads: FileUploads;
  private readonly commits: FileCommits;
  private readonly sweep: FilesSweep;

  constructor(
    private readonly repo: FilesRepository,
    private readonly records: RecordsForFiles,
    private readonly lifecycle: FilesLifecycle,
    private readonly store: FileStore,
    private readonly config: Config,
  ) {
    this.buckets = new FileBuckets(repo, records, config);
    this.uploads = new FileUploads(repo, this.buckets, store, config);
    this.commits = new FileCommits(repo, this.buckets, this.uploads, store, config);
    this.sweep = new FilesSweep(repo, this.buckets, lifecycle, store, config, this.uploads.writing);
  }

  /** The draft's bucket, to read or to change (403 to whoever may not; 404 unknown). */
  draftContext(
    user: User | undefined,
    id: string,
    need: 'read' | 'review' = 'review',
    link?: LinkGrant,
  ): Promise<BucketContext> {
    return this.buckets.draftContext(user, id, need, link);
  }

  /** A published record's bucket, readable when its files are (403 otherwise). */
  recordContext(user: User | undefined, id: string, link?: LinkGrant): Promise<BucketContext> {
    return this.buckets.recordContext(user, id, link);
  }

  async list(context: BucketContext, page?: ListPage): Promise<FilesListView> {
    const size = page?.size ?? FILES_LIST_MAX;
    const offset = ((page?.page ?? 1) - 1) * size;
    const stored = await this.repo.listStoredPage(context.bucket, offset, size);
    // A first page that is not full is the whole bucket: no count needed.
    const total =
      offset === 0 && stored.length < size
        ? stored.length
        : await this.repo.countFiles(context.bucket);
    return { context, files: await this.withPartLinks(stored), total, page };
  }

  /** Open multipart uploads carry their part links, as in InvenioRDM's init answer. */
  private withPartLinks(stored: StoredFile[]): Promise<FileView[]> {
    return Promise.all(
      stored.map(async (file) => ({ ...file, ...(await this.uploads.partLinks(file.row)) })),
    );
  }

  /** The file under `key` with its object, or undefined when there is none. */
  lookup(context: BucketContext, key: string): Promise<StoredFile | undefined> {
    return this.buckets.lookup(context, key);
  }

  /** One file, with fresh part links while a multipart upload is open (InvenioRDM's refresh). */
  item(context: BucketContext, ref: FileRef): Promise<FileView> {
    return this.uploads.item(context, ref);
  }

  /**
   * The files and bytes each record of `ownerId` may hold: the user's own quota where one was set,
   * else the configured one. The deposit page tells it to the uploader.
   */
  quotaOf(ownerId: number): Promise<{ maxFiles: number; maxBytes: number }> {
    return this.buckets.quota(ownerId);
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
    const { maxFiles, maxBytes } = await this.buckets.quotaOfContext(context);
    const created = await this.repo.transaction(async (trx) => {
      const { summary } = await this.buckets.lockSummary(trx, context);
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
      await this.buckets.writeSummary(trx, context.recordId, summary, undefined, context.changedBy);
      return { rows, total: summary.count };
    });
    crashPoint('init:rows-written');
    // Multipart uploads are started after the rows exist, so the sweep can always find and abort
    // them (and a request after a crash here starts them itself).
    for (const row of created.rows) await this.uploads.withUpload(row);
    if (created.total <= FILES_LIST_MAX) return this.list(context);
    // Listing a bucket of 10,000 files with every batch would make announcing them O(n²):
    // past the listing's limit, the answer holds what this request announced.
    const announced = await this.repo.storedByIds(created.rows.map((row) => row.id));
    return {
      context,
      files: await this.withPartLinks(announced),
      total: created.total,
      announced: true,
    };
  }

  /**
   * PUT …/content: streams the bytes to storage, hashing while they stream, never holding the
   * file in memory. The file stays pending until commit; a dropped connection leaves no bytes.
   */
  putContent(
    user: User | undefined,
    context: BucketContext,
    ref: FileRef,
    body: Readable,
    contentLength?: number,
  ): Promise<FileView> {
    return this.uploads.putContent(user, context, ref, body, contentLength);
  }

  /**
   * POST …/draft/files-upload (Cairn extension): announced files stored and committed one after
   * another as their parts stream in, each as `PUT …/content?commit=true` would. A file refused
   * for its own reason (a 4xx) is listed with it and the next file goes on; anything else (the
   * body cut off, the storage failing) ends the request, and what was committed before stays so:
   * a client that lost the answer reads which files are committed before it sends them again.
   */
  async uploadBatch(
    user: User | undefined,
    context: BucketContext,
    parts: AsyncIterable<FormPart>,
  ): Promise<{ committed: FileView[]; errors: BatchFileError[] }> {
    if (!user) throw permissionDenied();
    this.buckets.assertWritable(context);
    let manifest: FilesUploadManifest | undefined;
    let sent = 0;
    const committed: FileView[] = [];
    const errors: BatchFileError[] = [];
    const refuse = (key: string, error: AppError) =>
      errors.push({ key, status: error.status, code: error.code, message: error.message });
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (part.name !== 'files') continue;
        if (manifest) throw fail('The field "files" may be sent once.');
        manifest = parsedBody(FilesUploadManifest, parseClientJson(Buffer.from(part.value)));
        continue;
      }
      if (!manifest) {
        await part.skip();
        throw fail('The field "files" must come before the first content part.');
      }
      const entry = manifest[sent++];
      if (!entry || part.name !== 'content') {
        await part.skip();
        const why = entry
          ? `Expected a part named "content", not "${part.name}".`
          : `More content parts than the ${manifest.length} files named in "files".`;
        refuse(entry?.key ?? part.filename, fail(why));
        continue;
      }
      try {
        const ref = { key: entry.key };
        const stored = await this.uploads.putContent(
          user,
          context,
          ref,
          part.stream,
          entry.size,
          true,
        );
        committed.push(await this.commit(user, context, { key: stored.row.key, found: stored }));
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        await part.skip();
        refuse(entry.key, error);
      }
    }
    if (!manifest) throw fail('The field "files" is missing: a JSON list of {key, size}.');
    for (const entry of manifest.slice(sent))
      refuse(entry.key, fail('No content part was sent for this file.'));
    return { committed, errors };
  }

  /** PUT …/content/{n}: one part of a multipart upload, in any order, re-sendable. */
  putPart(
    user: User | undefined,
    context: BucketContext,
    ref: FileRef,
    part: number,
    body: Readable,
    contentMd5?: string,
  ): Promise<FileView> {
    return this.uploads.putPart(user, context, ref, part, body, contentMd5);
  }

  /** Cairn extension: the parts already received, so a client can resume after a reload. */
  receivedParts(
    context: BucketContext,
    ref: FileRef,
  ): Promise<{ row: FileRow; received: StoredPart[]; missing: number[] }> {
    return this.uploads.receivedParts(context, ref);
  }

  /** POST …/commit: the file becomes completed, with size and MD5 computed from the stored bytes. */
  commit(user: User | undefined, context: BucketContext, ref: FileRef): Promise<FileView> {
    return this.commits.commit(user, context, ref);
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
    const found = await this.buckets.find(context, ref);
    // The route takes bytes too, so its JSON is read here, after the file is found.
    const { metadata } = parsedBody(FileMetadataBody, body);
    // The answer is read inside: a publish may take the draft the moment this commits.
    const file = await this.repo.transaction(async (trx): Promise<StoredFile> => {
      const { summary } = await this.buckets.lockSummary(trx, context);
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
      changeSummary(summary, stored, stored);
      await this.buckets.writeSummary(trx, context.recordId, summary, undefined, context.changedBy);
      return stored;
    });
    return { ...file, ...(await this.uploads.partLinks(file.row)) };
  }

  /** DELETE …/files/{key}: removes the entry (aborting an unfinished upload); bytes go when unreferenced. */
  async delete(user: User | undefined, context: BucketContext, key: string): Promise<void> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const found = await this.buckets.find(context, { key });
    const { row } = found;
    // Init is allowed on a locked bucket (as upstream) but content is not: an entry that never
    // completed holds none of the record's bytes, and removing it must stay possible, or the
    // edit could never be published.
    if (row.status === 'completed') this.buckets.assertWritable(context);
    await this.deleteFiles(context, [row.id], [found]);
  }

  /** DELETE …/draft/files: removes every entry. */
  async deleteAll(user: User | undefined, context: BucketContext): Promise<void> {
    if (!user) throw permissionDenied();
    this.buckets.assertWritable(context);
    await this.deleteFiles(context, 'all');
  }

  /** Deletes the files `ids` (or all) that are still there, and frees what they held. */
  private async deleteFiles(
    context: BucketContext,
    ids: string[] | 'all',
    known: StoredFile[] = [],
  ): Promise<void> {
    const deleted = await this.repo.transaction(async (trx) => {
      const locked = await this.buckets.lockSummary(trx, context, { preview: true });
      // As they were when deleted, under the lock: a file committed meanwhile has bytes that are
      // no longer an upload's to free, but an object's, freed once nothing refers to it.
      const rows =
        ids === 'all' ? await trx.deleteBucket(context.bucket) : await trx.deleteFiles(ids);
      await this.buckets.removeEntries(
        trx,
        context.recordId,
        locked,
        rows,
        known,
        context.changedBy,
      );
      return rows;
    });
    await this.lifecycle.release(
      objectIdsOf(deleted),
      deleted.filter((r) => r.status !== 'completed'),
    );
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
    folder?: string,
  ): Promise<Array<{ name: string; size: number; mtime: Date; open: () => Promise<Readable> }>> {
    // A folder is a prefix of keys ending at a "/": "raw" holds "raw/a.csv", not "rawdata.csv".
    const prefix = folder ? `${folder.replace(/\/+$/, '')}/` : '';
    const views = (await this.repo.listStored(context.bucket)).flatMap((v) =>
      v.row.status === 'completed' && v.object && v.row.key.startsWith(prefix)
        ? [{ row: v.row, object: v.object }]
        : [],
    );
    if (prefix && views.length === 0)
      throw new AppError('NOT_FOUND', `No files in the folder ${prefix}`);
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
  async importFromPrevious(
    user: User | undefined,
    id: string,
    link?: LinkGrant,
  ): Promise<FilesListView> {
    const context = await this.records.store.lockedDraft(
      user,
      id,
      'review',
      async () => {
        const context = await this.buckets.draftContext(user, id, 'review', link);
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
        await this.buckets.writeSummary(
          this.repo,
          context.recordId,
          summary,
          undefined,
          context.changedBy,
        );
        return context;
      },
      link,
    );
    return this.list(context);
  }

  /**
   * The sweep, at start and then periodically: removes abandoned uploads and what killed ones
   * left in the store. Returns how many things it removed.
   */
  sweepAbandoned(): Promise<number> {
    return this.sweep.sweepAbandoned();
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
