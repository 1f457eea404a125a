import { FILES_EMBEDDED_MAX } from '@cairn/shared';
import { readJson } from '../../database/schema.js';
import type { FileRow, StoredFile } from './files.repository.js';
import { extensionOf } from './mimetypes.js';

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
  /** `completed`, or `pending` for an entry whose transfer has not completed (committing too). */
  status: string;
}

/**
 * The files section of a draft or record as stored beside it (`files_summary`): what its JSON
 * shows, and the totals the files' checks need, so that a file change reads one row, however
 * many files the draft holds, and changes what that file contributes. Its size is bounded: the
 * entries are kept only up to {@link FILES_EMBEDDED_MAX} files, or each change of a draft of
 * 10,000 files would read and write 2.5 MB of them.
 */
export interface FilesSummary {
  /** Absent above {@link FILES_EMBEDDED_MAX} files: the JSON then leaves them out. */
  entries?: Record<string, SummaryEntry>;
  count: number;
  /** Bytes of the completed entries. */
  total_bytes: number;
  /** Entries whose transfer has not completed: publish waits for them. */
  pending: number;
  /**
   * Bytes the unfinished entries hold against the quota (`reservationOf`). Summaries written
   * before it was kept lack it, and are counted again from the bucket at their next change.
   */
  reserved_bytes: number;
  /**
   * Files per type (`fileTypeOf`), for the search's file-type facet, which read them from the
   * entries. Summaries written before it was kept lack it, and are counted again from the
   * bucket at their next change.
   */
  types: Record<string, number>;
}

export const EMPTY_SUMMARY: Readonly<FilesSummary> = Object.freeze({
  entries: Object.freeze({}),
  count: 0,
  total_bytes: 0,
  pending: 0,
  reserved_bytes: 0,
  types: Object.freeze({}),
});

function emptySummary(): FilesSummary {
  return { ...EMPTY_SUMMARY, entries: {}, types: {} };
}

/** The type a file counts as in the search's facet: its extension, lower case, if it has one. */
export function fileTypeOf(key: string): string | undefined {
  const ext = key.includes('.') ? key.split('.').pop()?.toLowerCase() : undefined;
  return ext && /^[\p{L}\p{N}]{1,16}$/u.test(ext) ? ext : undefined;
}

/** The file types of a stored summary; one written before `types` was kept has its entries. */
export function fileTypesOf(summary: FilesSummary): string[] {
  if (summary.types) return Object.keys(summary.types);
  const types = new Set<string>();
  for (const entry of Object.values(summary.entries ?? {})) {
    const type = fileTypeOf(entry.key);
    if (type) types.add(type);
  }
  return [...types];
}

/** The summary as stored, for reading: none stored means no file. */
export function readSummary(value: unknown): FilesSummary {
  return value === null || value === undefined ? EMPTY_SUMMARY : readJson<FilesSummary>(value);
}

/**
 * The stored summary, to be changed in place, or undefined when it predates `reserved_bytes`
 * and must be counted from the bucket. None stored means no file: every change that gives a
 * draft entries writes its summary in the same transaction.
 */
export function changeableSummary(value: unknown): FilesSummary | undefined {
  if (value === null || value === undefined) return emptySummary();
  const summary = readJson<FilesSummary>(value);
  return typeof summary.reserved_bytes === 'number' && summary.types ? summary : undefined;
}

function isCompleted(file: StoredFile): file is Required<StoredFile> {
  return file.row.status === 'completed' && file.object !== undefined;
}

/**
 * What an unfinished file holds of the quota: what it announced or, once its content arrived,
 * what it received, whichever is more; or two files of undeclared size could each fill it.
 */
export function reservationOf(file: CountedFile): number {
  if (file.row.status === 'completed' && file.object) return 0;
  return Math.max(file.row.uploadedSize ?? 0, file.row.declaredSize ?? 0);
}

/** Bytes the bucket holds or has reserved: the quota counts both. */
export function usedBytes(summary: FilesSummary): number {
  return summary.total_bytes + summary.reserved_bytes;
}

function entryOf(file: StoredFile): SummaryEntry {
  const { row } = file;
  const completed = isCompleted(file);
  return {
    id: row.id,
    key: row.key,
    size: completed ? file.object.size : (row.declaredSize ?? 0),
    checksum: completed ? file.object.checksum : null,
    mimetype: row.mimetype,
    ext: extensionOf(row.key) ?? null,
    storage_class: 'L',
    metadata: row.metadata ? readJson<Record<string, unknown>>(row.metadata) : {},
    access: { hidden: false },
    // A commit in progress is not a change of the draft: its lease is taken without the
    // draft's lock, and the files API shows such a file as pending too.
    status: completed ? 'completed' : 'pending',
  };
}

/** A file as the summary counts it: a completed one's size is its object's. */
export interface CountedFile {
  row: FileRow;
  object?: { size: number };
}

/**
 * Takes the file `before` out of the summary and puts `after` in (either may be absent: a file
 * added or removed). `before` is the file as the summary counts it, read under the draft's
 * lock, with its object when it is completed (its size is taken out). An entry that keeps its
 * key keeps its place. Past {@link FILES_EMBEDDED_MAX} files the entries are dropped; below it
 * again they are missing until `needsEntries` has them read.
 */
export function changeSummary(
  summary: FilesSummary,
  before: CountedFile | undefined,
  after: StoredFile | undefined,
): void {
  if (before) {
    summary.count--;
    if (before.row.status === 'completed' && before.object)
      summary.total_bytes -= before.object.size;
    else {
      summary.pending--;
      summary.reserved_bytes -= reservationOf(before);
    }
    countType(summary, before.row.key, -1);
    if (summary.entries && before.row.key !== after?.row.key)
      delete summary.entries[before.row.key];
  }
  if (after) {
    summary.count++;
    if (isCompleted(after)) summary.total_bytes += after.object.size;
    else {
      summary.pending++;
      summary.reserved_bytes += reservationOf(after);
    }
    countType(summary, after.row.key, 1);
    if (summary.entries) summary.entries[after.row.key] = entryOf(after);
  }
  if (summary.count > FILES_EMBEDDED_MAX) delete summary.entries;
}

function countType(summary: FilesSummary, key: string, by: number): void {
  const type = fileTypeOf(key);
  if (!type) return;
  const n = (summary.types[type] ?? 0) + by;
  if (n > 0) summary.types[type] = n;
  else delete summary.types[type];
}

/** Whether the summary has few enough files to embed their entries but lacks them. */
export function needsEntries(summary: FilesSummary): boolean {
  return summary.entries === undefined && summary.count <= FILES_EMBEDDED_MAX;
}

/** The entries of all of a bucket's files, in the order they are listed. */
export function entriesOf(files: StoredFile[]): Record<string, SummaryEntry> {
  return Object.fromEntries(files.map((file) => [file.row.key, entryOf(file)]));
}

/** The summary counted from all of a bucket's files, in the order they are listed. */
export function summarise(files: StoredFile[]): FilesSummary {
  const summary = emptySummary();
  for (const file of files) changeSummary(summary, undefined, file);
  return summary;
}
