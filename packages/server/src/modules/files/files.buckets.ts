import type { RecordData } from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { RecordDraftsService } from '../records/records-drafts.service.js';
import type { LinkGrant, RecordStore } from '../records/records.shared.js';
import type { PresignedPart } from './storage/file-store.js';
import type { FilesRepository, FileRow, StoredFile } from './files.repository.js';
import { draftBucket, recordBucket } from './files.lifecycle.js';
import {
  changeSummary,
  changeableSummary,
  entriesOf,
  needsEntries,
  summarise,
  type FilesSummary,
} from './files.summary.js';
import { keyProblem, normalizeKey } from './file-keys.js';

/** What files need of the records module: drafts and records as the caller may see them, and the lock. */
export interface RecordsForFiles {
  store: Pick<RecordStore, 'lockedDraft'>;
  access: Pick<RecordAccessService, 'draftForFiles' | 'recordForFiles'>;
  drafts: Pick<RecordDraftsService, 'previousVersionForImport'>;
}

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
  /** Who changes a draft's files: the draft then names them as who saved it last. */
  changedBy?: number;
}

export interface Quota {
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

/** A page of the files listing, as asked for (`?page=&size=`). */
export interface ListPage {
  page?: number | undefined;
  size?: number | undefined;
}

export interface FilesListView {
  context: BucketContext;
  files: FileView[];
  /** How many files the bucket holds. */
  total: number;
  /** The page asked for; none: the first FILES_LIST_MAX entries. */
  page?: ListPage | undefined;
  /** An init's answer past the listing's limit: the entries it announced, not the first page. */
  announced?: boolean;
}

/**
 * What every files operation starts from: the bucket a request may see or change, the file it
 * names, the owner's quota, and the draft's files summary under the draft's lock.
 */
export class FileBuckets {
  constructor(
    private readonly repo: FilesRepository,
    private readonly records: RecordsForFiles,
    private readonly config: Config,
  ) {}

  /** The draft's bucket, to read or to change (403 to whoever may not; 404 unknown). */
  async draftContext(
    user: User | undefined,
    id: string,
    need: 'read' | 'review' = 'review',
    link?: LinkGrant,
  ): Promise<BucketContext> {
    const loaded = await this.records.access.draftForFiles(user, id, need, link);
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
      ...(user ? { changedBy: user.id } : {}),
    };
  }

  /** A published record's bucket, readable when its files are (403 otherwise). */
  async recordContext(
    user: User | undefined,
    id: string,
    link?: LinkGrant,
  ): Promise<BucketContext> {
    const { row, parent, data } = await this.records.access.recordForFiles(user, id, link);
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

  /** The file under `key` with its object, or undefined when there is none. */
  async lookup(context: BucketContext, key: string): Promise<StoredFile | undefined> {
    // A key no file can have names nothing; a NUL from the URL would even make PostgreSQL fail.
    return keyProblem(key) ? undefined : this.repo.getStored(context.bucket, normalizeKey(key));
  }

  async find(context: BucketContext, ref: FileRef): Promise<StoredFile> {
    const file = ref.found ?? (await this.lookup(context, ref.key));
    if (file) return file;
    // The draft was published or discarded since it was read: answer as if this came after.
    if (context.isDraft && !(await this.repo.draftData(context.recordId))) throw pidDoesNotExist();
    throw new AppError('NOT_FOUND', `File with key ${ref.key} not found.`);
  }

  assertWritable(context: BucketContext): void {
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

  async quota(ownerId: number): Promise<Quota> {
    return this.withDefaults(await this.repo.userQuota(ownerId));
  }

  withDefaults(own: { maxFiles: number | null; maxBytes: number | null } | undefined) {
    return {
      maxFiles: own?.maxFiles ?? this.config.files.maxFilesPerRecord,
      maxBytes: own?.maxBytes ?? this.config.files.maxBytesPerRecord,
    };
  }

  async quotaOfContext(context: BucketContext): Promise<Quota> {
    return context.quota ?? this.quota(context.ownerId);
  }

  /**
   * The draft's summary as read with it, for the checks made before its lock (the locked ones
   * read it again): counted from the bucket when it was stored in its older form.
   */
  async summaryBeforeLock(context: BucketContext): Promise<FilesSummary> {
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
  async lockSummary(
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
  async lockedSummary(
    trx: FilesRepository,
    bucket: string,
    stored: unknown,
  ): Promise<FilesSummary> {
    return changeableSummary(stored) ?? summarise(await trx.listStored(bucket));
  }

  /**
   * Writes the summary (and `data`, when given) and bumps the draft's revision, as saved by
   * `changedBy` (none: the system's sweep). A draft back under the number of files whose entries
   * are embedded has them read, once: at most that many.
   */
  async writeSummary(
    trx: FilesRepository,
    recordId: string,
    summary: FilesSummary,
    data?: RecordData,
    changedBy?: number,
  ): Promise<void> {
    if (needsEntries(summary))
      summary.entries = entriesOf(await trx.listStored(draftBucket(recordId)));
    await trx.writeDraftFiles(recordId, summary, data && JSON.stringify(data), nowIso(), changedBy);
  }

  /**
   * Takes the deleted `rows` of a draft's bucket out of its summary inside `trx` (which holds the
   * draft's lock), clearing a default preview that named one of them, and writes the summary
   * (bumping the revision). `known`: files read before, whose objects need not be read again.
   */
  async removeEntries(
    trx: FilesRepository,
    recordId: string,
    { summary, defaultPreview }: { summary: FilesSummary; defaultPreview: string | null },
    rows: FileRow[],
    known: StoredFile[] = [],
    changedBy?: number,
  ): Promise<void> {
    // A completed file takes its size out of the totals: its entry's while they are embedded,
    // else its object's, as read before (objects never change) or now (still there: bytes are
    // freed only after this commits).
    const sizes = new Map(known.flatMap((f) => (f.object ? [[f.object.id, f.object.size]] : [])));
    const sizeOf = (row: FileRow) =>
      summary.entries?.[row.key]?.size ?? (row.objectId ? sizes.get(row.objectId) : undefined);
    const objects = await trx.objects(
      rows.flatMap((r) =>
        r.status === 'completed' && r.objectId && sizeOf(r) === undefined ? [r.objectId] : [],
      ),
    );
    for (const row of rows) {
      const size = sizeOf(row) ?? (row.objectId ? objects.get(row.objectId)?.size : undefined);
      changeSummary(summary, size === undefined ? { row } : { row, object: { size } }, undefined);
    }
    // Deleting the default preview clears it (InvenioRDM does the same).
    const data = rows.some((r) => r.key === defaultPreview)
      ? await trx.draftData(recordId)
      : undefined;
    if (data) delete data.files.default_preview;
    await this.writeSummary(trx, recordId, summary, data, changedBy);
  }
}
