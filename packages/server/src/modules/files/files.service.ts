import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  MULTIPART_MAX_PARTS,
  MULTIPART_MAX_PART,
  type ErrorItem,
  type RecordData,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import type { RecordsService } from '../records/records.service.js';
import {
  FileStoreError,
  type ByteRange,
  type FileStore,
  type PresignedPart,
  type StoredPart,
} from './storage/file-store.js';
import type { FilesRepository, FileRow, FileObjectRow } from './files.repository.js';
import {
  draftBucket,
  recordBucket,
  summarise,
  type FilesLifecycle,
  type FilesSummary,
} from './files.lifecycle.js';
import { mimetypeOf } from './mimetypes.js';

const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
const INIT_KEYS = new Set([
  'key',
  'size',
  'checksum',
  'metadata',
  'access',
  'storage_class',
  'transfer',
]);
const TRANSFER_KEYS = new Set(['type', 'parts', 'part_size', 'url']);
const S3_MIN_PART = 5 * 1024 * 1024;

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
}

export interface FileView {
  row: FileRow;
  object?: FileObjectRow;
  parts?: PresignedPart[];
}

export interface FilesListView {
  context: BucketContext;
  files: FileView[];
}

interface InitEntry {
  key: string;
  keyNormalized: string;
  size?: number;
  checksum?: string;
  metadata?: Record<string, unknown>;
  transfer: { type: 'L' | 'M'; parts?: number; partSize?: number };
}

function fail(message: string, errors?: ErrorItem[]): AppError {
  return new AppError('VALIDATION_FAILED', message, errors);
}

/** NFC, so "é" typed two ways is one key (SPEC §5: files compared by normalised name). */
export function normalizeKey(key: string): string {
  return key.normalize('NFC');
}

/** Why a key cannot name a file, or undefined when it can. Keys may hold folders ("a/b.csv"). */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'Missing data for required field.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'File names must not contain control characters.';
  if (key.includes('\\')) return 'File names must use "/" between folders, not "\\".';
  const segments = key.split('/');
  if (key.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    return 'File names must be relative paths without empty, "." or ".." parts.';
  }
  if (Buffer.byteLength(key) > MAX_KEY_BYTES)
    return `File names must be at most ${MAX_KEY_BYTES} bytes long.`;
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    return `Each folder or file name must be at most ${MAX_SEGMENT_BYTES} bytes long.`;
  }
  return undefined;
}

function isNonNegativeInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * Draft and record files: InvenioRDM's files API (local and multipart transfers), with quotas
 * checked before bytes are stored, resumable multipart uploads, and bytes shared between versions.
 */
export class FilesService {
  constructor(
    private readonly repo: FilesRepository,
    private readonly records: RecordsService,
    private readonly lifecycle: FilesLifecycle,
    private readonly store: FileStore,
    private readonly config: Config,
  ) {}

  // ---- access

  /** The draft's bucket, for its owner (403 others; 404 unknown). */
  async draftContext(user: User | undefined, id: string): Promise<BucketContext> {
    const loaded = await this.records.draftForFiles(user, id);
    const data = readJson<RecordData>(loaded.row.data);
    return {
      recordId: id,
      bucket: draftBucket(id),
      isDraft: true,
      locked: loaded.isPublished,
      filesEnabled: data.files.enabled,
      ...(data.files.default_preview ? { defaultPreview: data.files.default_preview } : {}),
      ownerId: loaded.parent.ownerId,
    };
  }

  /** A published record's bucket, readable when its files are (403 otherwise). */
  async recordContext(user: User | undefined, id: string): Promise<BucketContext> {
    const { row, parent, data } = await this.records.recordForFiles(user, id);
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

  private async views(rows: FileRow[]): Promise<FileView[]> {
    const objects = new Map(
      (await this.repo.getObjects(rows.flatMap((r) => (r.objectId ? [r.objectId] : [])))).map(
        (o) => [o.id, o],
      ),
    );
    return rows.map((row) => ({
      row,
      ...(row.objectId && objects.get(row.objectId) ? { object: objects.get(row.objectId) } : {}),
    }));
  }

  async list(context: BucketContext): Promise<FilesListView> {
    const views = await this.views(await this.repo.listBucket(context.bucket));
    // Open multipart uploads carry their part links, as in InvenioRDM's init answer.
    const files = await Promise.all(
      views.map(async (v) => ({ ...v, ...(await this.partLinks(v.row)) })),
    );
    return { context, files };
  }

  private async find(context: BucketContext, key: string): Promise<FileRow> {
    // A key no file can have names nothing; a NUL from the URL would even make PostgreSQL fail.
    const row = keyProblem(key)
      ? undefined
      : await this.repo.getFile(context.bucket, normalizeKey(key));
    if (row) return row;
    // The draft was published or discarded since it was read: answer as if this came after.
    if (context.isDraft && !(await this.repo.draftData(context.recordId))) throw pidDoesNotExist();
    throw new AppError('NOT_FOUND', `File with key ${key} not found.`);
  }

  /** One file, with fresh part links while a multipart upload is open (InvenioRDM's refresh). */
  async item(context: BucketContext, key: string): Promise<FileView> {
    const row = await this.find(context, key);
    const [view] = await this.views([row]);
    return { ...view!, ...(await this.partLinks(row)) };
  }

  private async partLinks(row: FileRow): Promise<{ parts?: PresignedPart[] }> {
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

  private async quota(ownerId: number): Promise<{ maxFiles: number; maxBytes: number }> {
    const own = await this.repo.userQuota(ownerId);
    return {
      maxFiles: own?.maxFiles ?? this.config.files.maxFilesPerRecord,
      maxBytes: own?.maxBytes ?? this.config.files.maxBytesPerRecord,
    };
  }

  /**
   * Bytes the bucket holds, has received or has announced, without `except`: a pending file's
   * uploaded bytes count too, or two files of undeclared size could each fill the quota.
   */
  private async usedBytes(repo: FilesRepository, bucket: string, except?: string): Promise<number> {
    const rows = (await repo.listBucket(bucket)).filter((r) => r.id !== except);
    const objects = new Map(
      (await repo.getObjects(rows.flatMap((r) => (r.objectId ? [r.objectId] : [])))).map((o) => [
        o.id,
        o,
      ]),
    );
    return rows.reduce(
      (sum, r) =>
        sum +
        (r.objectId
          ? (objects.get(r.objectId)?.size ?? 0)
          : Math.max(r.uploadedSize ?? 0, r.declaredSize ?? 0)),
      0,
    );
  }

  /**
   * Rewrites the draft's files summary (and `data`, when given) and bumps its revision, inside
   * `repo`'s transaction.
   */
  private async refreshDraft(
    repo: FilesRepository,
    recordId: string,
    data?: RecordData,
  ): Promise<FilesSummary> {
    const summary = await summarise(repo, await repo.listBucket(draftBucket(recordId)));
    await repo.writeDraftFiles(recordId, summary, data && JSON.stringify(data), nowIso());
    return summary;
  }

  private parseInit(body: unknown, user: User): InitEntry[] {
    if (!Array.isArray(body))
      throw fail('A validation error occurred.', [
        { field: '0._schema', messages: ['Invalid input type.'] },
      ]);
    if (body.length === 0) throw fail('No files to upload.');
    const errors: ErrorItem[] = [];
    let transferFailure: string | undefined;
    const entries: InitEntry[] = [];
    body.forEach((raw: unknown, i: number): void => {
      const at = (field: string, message: string): void => {
        errors.push({ field: `${i}.${field}`, messages: [message] });
      };
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        return at('_schema', 'Invalid input type.');
      const e = raw as Record<string, unknown>;
      for (const k of Object.keys(e)) if (!INIT_KEYS.has(k)) at(k, 'Unknown field.');
      const key = typeof e.key === 'string' ? e.key : undefined;
      if (key === undefined)
        at('key', e.key === undefined ? 'Missing data for required field.' : 'Not a valid string.');
      const problem = key === undefined ? undefined : keyProblem(key);
      if (problem) at('key', problem);
      if (e.size !== undefined && !isNonNegativeInt(e.size)) at('size', 'Not a valid integer.');
      if (
        e.checksum !== undefined &&
        (typeof e.checksum !== 'string' || !/^md5:[0-9a-f]{32}$/i.test(e.checksum))
      ) {
        at('checksum', 'Checksum must look like md5:<32 hexadecimal digits>.');
      }
      if (
        e.metadata !== undefined &&
        (typeof e.metadata !== 'object' || e.metadata === null || Array.isArray(e.metadata))
      ) {
        at('metadata', 'Not a valid mapping type.');
      }
      const transfer = e.transfer ?? { type: 'L' };
      if (typeof transfer !== 'object' || transfer === null || Array.isArray(transfer))
        return at('transfer', 'Transfer metadata must be a dictionary.');
      const t = transfer as Record<string, unknown>;
      for (const k of Object.keys(t))
        if (!TRANSFER_KEYS.has(k)) at(`transfer.${k}`, 'Unknown field.');
      const type = t.type ?? 'L';
      if (type === 'F' || type === 'R') {
        if (!user.isAdmin)
          throw new AppError(
            'PERMISSION_DENIED',
            `Transfer type ${type} is reserved to administrators.`,
          );
        return at(
          'transfer.type',
          `Transfer type ${type} is not supported by this repository; use L or M.`,
        );
      }
      if (type !== 'L' && type !== 'M')
        return at(
          'transfer.type',
          `Unsupported transfer type ${typeof type === 'string' ? type : JSON.stringify(type)}; use L (one request) or M (multipart).`,
        );
      const entry: InitEntry = {
        key: key ?? '',
        keyNormalized: normalizeKey(key ?? ''),
        ...(isNonNegativeInt(e.size) ? { size: e.size } : {}),
        ...(typeof e.checksum === 'string' ? { checksum: e.checksum.toLowerCase() } : {}),
        ...(e.metadata && typeof e.metadata === 'object'
          ? { metadata: e.metadata as Record<string, unknown> }
          : {}),
        transfer: { type },
      };
      if (type === 'M') {
        // The transfer's own refusals are top-level messages, as upstream raises them (§1.6).
        if (e.size === undefined) transferFailure ??= 'Multipart file transfer requires file size.';
        if (t.parts === undefined) at('transfer.parts', 'Multipart file transfer requires parts.');
        else if (!isNonNegativeInt(t.parts) || t.parts < 1 || t.parts > MULTIPART_MAX_PARTS) {
          at('transfer.parts', `Parts must be a whole number from 1 to ${MULTIPART_MAX_PARTS}.`);
        }
        if (t.part_size === undefined) {
          if (this.store.kind === 'local')
            transferFailure ??= 'Multipart file transfer to local storage requires part_size.';
        } else if (
          !isNonNegativeInt(t.part_size) ||
          t.part_size < 1 ||
          t.part_size > MULTIPART_MAX_PART
        ) {
          at(
            'transfer.part_size',
            `part_size must be a whole number of bytes from 1 to ${MULTIPART_MAX_PART}.`,
          );
        }
        if (isNonNegativeInt(e.size) && isNonNegativeInt(t.parts) && t.parts >= 1) {
          const partSize =
            isNonNegativeInt(t.part_size) && t.part_size > 0
              ? t.part_size
              : Math.ceil(e.size / t.parts);
          if (partSize * t.parts < e.size || (t.parts > 1 && partSize * (t.parts - 1) >= e.size)) {
            at(
              'transfer.part_size',
              `${t.parts} parts of ${partSize} bytes do not add up to a file of ${e.size} bytes.`,
            );
          } else if (this.store.kind === 's3' && t.parts > 1 && partSize < S3_MIN_PART) {
            at(
              'transfer.part_size',
              `Parts must be at least ${S3_MIN_PART} bytes (except the last) with this storage.`,
            );
          }
          entry.transfer = { type: 'M', parts: t.parts, partSize };
        }
      }
      entries.push(entry);
    });
    if (errors.length > 0) throw fail('A validation error occurred.', errors);
    if (transferFailure) throw fail(transferFailure);
    return entries;
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
    const entries = this.parseInit(body, user);
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e.keyNormalized)) throw fail(`File with key ${e.key} already exists.`);
      seen.add(e.keyNormalized);
      if (!this.config.files.allowEmpty && e.size === 0)
        throw fail(`Empty files are not accepted: ${e.key}.`);
    }
    const { maxFiles, maxBytes } = await this.quota(context.ownerId);
    const created = await this.repo.transaction(async (trx) => {
      // Published or discarded since the draft was read: as if this came after (404).
      if (!(await trx.lockDraft(context.recordId))) throw pidDoesNotExist();
      const existing = await trx.listBucket(context.bucket);
      for (const e of entries) {
        if (existing.some((r) => r.keyNormalized === e.keyNormalized))
          throw fail(`File with key ${e.key} already exists.`);
      }
      if (existing.length + entries.length > maxFiles) {
        throw fail(
          `Uploading selected files will result in exceeding the max amount per record. This record may hold at most ${maxFiles} files.`,
        );
      }
      const announced = entries.reduce((sum, e) => sum + (e.size ?? 0), 0);
      const used = await this.usedBytes(trx, context.bucket);
      if (used + announced > maxBytes) {
        throw fail(
          `File size limit exceeded. Uploading the selected files would result in ${used + announced} bytes of storage use, exceeding the limit of ${maxBytes} bytes.`,
        );
      }
      const now = nowIso();
      const rows: FileRow[] = [];
      for (const e of entries) {
        const id = crypto.randomUUID();
        const uploadKey = `uploads/${id.slice(0, 2)}/${id}`;
        const row: FileRow = {
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
          createdAt: now,
          updatedAt: now,
        };
        await trx.insertFile(row);
        rows.push(row);
      }
      await this.refreshDraft(trx, context.recordId);
      return rows;
    });
    // Multipart uploads are opened after the rows exist, so the sweep can always find and abort them.
    for (const row of created) {
      if (row.transferType !== 'M') continue;
      const uploadId = await this.store.createMultipart(row.uploadKey!, {
        size: row.declaredSize!,
        partSize: row.partSize!,
        parts: row.parts!,
      });
      await this.repo.updateFile(row.id, { uploadId });
    }
    return this.list(context);
  }

  private storeFailure(error: unknown, key: string): never {
    if (error instanceof FileStoreError) {
      switch (error.reason) {
        case 'too-large':
          throw fail(
            `File size limit exceeded: ${key} is larger than announced or than this record's remaining quota.`,
          );
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
    key: string,
    body: Readable,
    contentLength?: number,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    this.assertWritable(context);
    const row = await this.find(context, key);
    if (row.transferType === 'M')
      throw fail('Can not set content for multipart file, use the parts instead.');
    if (row.status !== 'pending') throw fail(`File with key "${row.key}" is already committed.`);
    const { maxBytes } = await this.quota(context.ownerId);
    const remaining = maxBytes - (await this.usedBytes(this.repo, context.bucket, row.id));
    const maxSize = Math.max(0, remaining);
    // A body announced too large is refused before a byte of it is read.
    if (contentLength !== undefined && contentLength > maxSize) {
      throw fail(
        `File size limit exceeded: ${row.key} is larger than announced or than this record's remaining quota.`,
      );
    }
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
    const uploadKey = `uploads/${row.id.slice(0, 2)}/${row.id}-${crypto.randomBytes(8).toString('hex')}`;
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
    for (;;) {
      const current = await this.repo.getFile(context.bucket, row.keyNormalized);
      if (current?.id !== row.id || current.status !== 'pending') {
        await this.store.delete(uploadKey);
        throw fail(`File with key "${row.key}" is already committed.`);
      }
      const set = {
        uploadKey,
        uploadedSize: stored.size,
        uploadedChecksum: `md5:${stored.md5}`,
        updatedAt: nowIso(),
      };
      // Compare-and-set on the previous key: of two uploads racing, each frees what it replaced.
      if (await this.repo.updateFile(row.id, set, 'pending', current.uploadKey)) {
        if (current.uploadKey && current.uploadKey !== uploadKey) {
          await this.store.delete(current.uploadKey);
        }
        break;
      }
    }
    return this.item(context, key);
  }

  /** PUT …/content/{n}: one part of a multipart upload, in any order, re-sendable. */
  async putPart(
    user: User | undefined,
    context: BucketContext,
    key: string,
    part: number,
    body: Readable,
    contentMd5?: string,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    this.assertWritable(context);
    const row = await this.find(context, key);
    // Checked first: a committed multipart file has become an "L" file.
    if (row.status !== 'pending') throw fail(`File with key "${row.key}" is already committed.`);
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
    await this.repo.updateFile(row.id, { updatedAt: nowIso() });
    return this.item(context, key);
  }

  /** Cairn extension: the parts already received, so a client can resume after a reload. */
  async receivedParts(
    context: BucketContext,
    key: string,
  ): Promise<{ row: FileRow; received: StoredPart[]; missing: number[] }> {
    const row = await this.find(context, key);
    if (row.transferType !== 'M' || row.status !== 'pending' || !row.uploadId || !row.parts) {
      return { row, received: [], missing: [] };
    }
    const received = await this.store.listParts(row.uploadKey!, row.uploadId);
    const have = new Set(received.map((p) => p.part));
    const missing = Array.from({ length: row.parts }, (_, i) => i + 1).filter((n) => !have.has(n));
    return { row, received, missing };
  }

  /**
   * POST …/commit: the file becomes completed, with size and MD5 computed from the stored bytes.
   * Two commits at once: exactly one wins, the other gets 400.
   */
  async commit(user: User | undefined, context: BucketContext, key: string): Promise<FileView> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const found = await this.find(context, key);
    if (found.status !== 'pending')
      throw fail(`File with key "${found.key}" is already committed.`);
    if (found.transferType === 'L' && found.uploadedChecksum === null) {
      throw fail(`The content of ${found.key} has not been uploaded yet.`);
    }
    const frozen = await this.repo.updateFile(
      found.id,
      { status: 'committing', updatedAt: nowIso() },
      'pending',
    );
    if (!frozen) throw fail(`File with key "${found.key}" is already committed.`);
    // Read again now that the file is frozen: an upload that finished meanwhile moved its key.
    const row = (await this.repo.getFile(context.bucket, found.keyNormalized)) ?? found;
    let assembled = false;
    let committed: FileView;
    try {
      let size: number;
      let checksum: string;
      if (row.transferType === 'M') {
        if (!row.uploadId || !row.parts) {
          throw fail('The multipart upload is not ready yet; retry in a moment.');
        }
        const stored = await this.store
          .completeMultipart(row.uploadKey!, row.uploadId, row.parts)
          .catch((error: unknown) => this.storeFailure(error, row.key));
        assembled = true;
        size = stored.size;
        checksum = `md5:${stored.md5}`;
      } else {
        size = row.uploadedSize!;
        checksum = row.uploadedChecksum!;
      }
      if (size === 0 && !this.config.files.allowEmpty) throw fail('Empty files are not accepted.');
      if (row.declaredChecksum && row.declaredChecksum !== checksum) {
        throw fail(
          `The checksum of the received bytes (${checksum}) does not match the one announced (${row.declaredChecksum}). Upload the content again.`,
        );
      }
      // Uploads of unannounced size are held to the quota as they stream; two at once could
      // still pass together, so the sum is checked once more before the file counts.
      const { maxBytes } = await this.quota(context.ownerId);
      const others = await this.usedBytes(this.repo, context.bucket, row.id);
      if (others + size > maxBytes) {
        throw fail(
          `File size limit exceeded. Committing ${row.key} would result in ${others + size} bytes of storage use, exceeding the limit of ${maxBytes} bytes.`,
        );
      }
      const objectId = crypto.randomUUID();
      // The answer is read inside: a publish may take the draft the moment this commits.
      committed = await this.repo.transaction(async (trx) => {
        // Published or discarded since the draft was read: as if this came after (404).
        if (!(await trx.lockDraft(context.recordId))) throw pidDoesNotExist();
        await trx.insertObject({
          id: objectId,
          storeKey: row.uploadKey!,
          size,
          checksum,
          createdAt: nowIso(),
        });
        const completed = await trx.updateFile(
          row.id,
          { status: 'completed', objectId, uploadId: null, transferType: 'L', updatedAt: nowIso() },
          'committing',
        );
        // Deleted while its bytes were being assembled: no object may outlive the entry.
        if (!completed) throw new AppError('NOT_FOUND', `File with key ${key} not found.`);
        await this.refreshDraft(trx, context.recordId);
        return this.item(context, key);
      });
    } catch (error) {
      // A refused commit leaves the entry as it was (its `updated` included).
      const reset: Partial<FileRow> = { status: 'pending', updatedAt: found.updatedAt };
      if (assembled) {
        // Assembling consumed the parts: the refused bytes go, and a fresh upload takes the parts
        // again, so the file stays a pending multipart file rather than one nobody can finish.
        await this.store.delete(row.uploadKey!);
        reset.updatedAt = nowIso();
        reset.uploadId = await this.store.createMultipart(row.uploadKey!, {
          size: row.declaredSize!,
          partSize: row.partSize!,
          parts: row.parts!,
        });
      }
      await this.repo.updateFile(row.id, reset, 'committing');
      throw error;
    }
    return committed;
  }

  /** PUT …/files/{key}: replaces the file's metadata. */
  async updateMetadata(
    user: User | undefined,
    context: BucketContext,
    key: string,
    body: unknown,
  ): Promise<FileView> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const row = await this.find(context, key);
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
    return this.repo.transaction(async (trx) => {
      // Published or discarded since the draft was read: as if this came after (404).
      if (!(await trx.lockDraft(context.recordId))) throw pidDoesNotExist();
      await trx.updateFile(row.id, {
        metadata: metadata ? JSON.stringify(metadata) : null,
        updatedAt: nowIso(),
      });
      await this.refreshDraft(trx, context.recordId);
      return this.item(context, key);
    });
  }

  /** DELETE …/files/{key}: removes the entry (aborting an unfinished upload); bytes go when unreferenced. */
  async delete(user: User | undefined, context: BucketContext, key: string): Promise<void> {
    if (!user) throw permissionDenied();
    if (!context.isDraft) throw permissionDenied();
    const row = await this.find(context, key);
    // Init is allowed on a locked bucket (as upstream) but content is not: an entry that never
    // completed holds none of the record's bytes, and removing it must stay possible, or the
    // edit could never be published.
    if (row.status === 'completed') this.assertWritable(context);
    await this.deleteRows(context, [row]);
  }

  /** DELETE …/draft/files: removes every entry. */
  async deleteAll(user: User | undefined, context: BucketContext): Promise<void> {
    if (!user) throw permissionDenied();
    this.assertWritable(context);
    await this.deleteRows(context, await this.repo.listBucket(context.bucket));
  }

  private async deleteRows(context: BucketContext, rows: FileRow[]): Promise<void> {
    await this.repo.transaction(async (trx) => {
      // Published or discarded since the draft was read: as if this came after (404).
      if (!(await trx.lockDraft(context.recordId))) throw pidDoesNotExist();
      await this.removeEntries(trx, context.recordId, rows);
    });
    await this.lifecycle.release(
      rows.flatMap((r) => (r.objectId ? [r.objectId] : [])),
      rows.filter((r) => r.status !== 'completed'),
    );
  }

  /**
   * Removes entries of a draft's bucket inside `trx` (which holds the draft's lock), clearing a
   * default preview that named one of them, and rewrites the summary (bumping the revision).
   */
  private async removeEntries(
    trx: FilesRepository,
    recordId: string,
    rows: FileRow[],
  ): Promise<void> {
    for (const row of rows) await trx.deleteFile(row.id);
    // Deleting the default preview clears it (InvenioRDM does the same).
    const data = await trx.draftData(recordId);
    const preview = data?.files.default_preview;
    const clears = data !== undefined && rows.some((r) => r.key === preview);
    if (clears) delete data.files.default_preview;
    await this.refreshDraft(trx, recordId, clears ? data : undefined);
  }

  /** Bytes of a completed file, or of a range of it; the object row tells size and MD5. */
  async content(
    context: BucketContext,
    key: string,
    range?: ByteRange,
  ): Promise<{ view: FileView; open: () => Promise<Readable> }> {
    const view = await this.item(context, key);
    const object = view.object;
    if (view.row.status !== 'completed' || !object) {
      throw new AppError(
        'NOT_FOUND',
        `File with key ${key} has no content yet (its upload is not committed).`,
      );
    }
    return { view, open: () => this.store.read(object.storeKey, range) };
  }

  /** Every completed file of the bucket, for the zip archive (400 past the configured size cap). */
  async archive(
    context: BucketContext,
  ): Promise<Array<{ name: string; size: number; mtime: Date; open: () => Promise<Readable> }>> {
    const views = (await this.views(await this.repo.listBucket(context.bucket))).flatMap((v) =>
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
    const context = await this.records.lockedDraft(user, id, 'review', async () => {
      const context = await this.draftContext(user, id);
      const previous = await this.records.previousVersionForImport(id);
      const field = (message: string) =>
        fail(message, [{ field: 'files.enabled', messages: [message] }]);
      if (!context.filesEnabled) throw field('Files support must be enabled.');
      if (!previous.filesEnabled) throw field('The record has no files.');
      if ((await this.repo.listBucket(context.bucket)).length > 0) {
        throw field('Please remove all files first.');
      }
      const source = await this.repo.listBucket(recordBucket(previous.id));
      if (source.length === 0) throw field('The record has no files.');
      await this.lifecycle.importFrom(this.repo.executor, previous.id, id);
      await this.refreshDraft(this.repo, context.recordId);
      return context;
    });
    return this.list(context);
  }

  /**
   * The sweep: unfinished uploads untouched for longer than the configured age are removed with
   * their bytes, and multipart uploads no entry knows of are aborted. Returns how many.
   */
  async sweepAbandoned(): Promise<number> {
    const hours = this.config.files.pendingMaxAgeHours;
    const before = new Date(Date.now() - hours * 3600_000);
    const stale = await this.repo.stalePending(before.toISOString(), 200);
    let swept = 0;
    for (const row of stale) {
      const recordId = row.bucket.slice(row.bucket.indexOf(':') + 1);
      const removed = await this.repo.transaction(async (trx) => {
        await trx.lockDraft(recordId);
        // Touched (or committed) since it was listed: a commit's object would share its bytes.
        const current = await trx.getFile(row.bucket, row.keyNormalized);
        if (current?.id !== row.id || current.updatedAt !== row.updatedAt) return false;
        if (row.bucket === draftBucket(recordId)) await this.removeEntries(trx, recordId, [row]);
        else await trx.deleteFile(row.id);
        return true;
      });
      if (!removed) continue;
      await this.lifecycle.dropUpload(row);
      swept++;
    }
    let orphans = 0;
    if (this.store.listStaleMultipart) {
      const known = await this.repo.uploadIdsInUse();
      for (const upload of await this.store.listStaleMultipart(before)) {
        if (known.has(upload.uploadId)) continue;
        await this.store.abortMultipart(upload.key, upload.uploadId);
        orphans++;
      }
    }
    return swept + orphans;
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

/** A key in a URL path: each folder part escaped, the slashes kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
