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
 * many files the draft holds, and changes what that file contributes.
 */
export interface FilesSummary {
  entries: Record<string, SummaryEntry>;
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
}

export const EMPTY_SUMMARY: Readonly<FilesSummary> = Object.freeze({
  entries: Object.freeze({}),
  count: 0,
  total_bytes: 0,
  pending: 0,
  reserved_bytes: 0,
});

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
  if (value === null || value === undefined) return { ...EMPTY_SUMMARY, entries: {} };
  const summary = readJson<FilesSummary>(value);
  return typeof summary.reserved_bytes === 'number' ? summary : undefined;
}

function isCompleted(file: StoredFile): file is Required<StoredFile> {
  return file.row.status === 'completed' && file.object !== undefined;
}

/**
 * What an unfinished file holds of the quota: what it announced or, once its content arrived,
 * what it received, whichever is more; or two files of undeclared size could each fill it.
 */
export function reservationOf(file: StoredFile): number {
  if (isCompleted(file)) return 0;
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

/**
 * Takes the file `before` out of the summary and puts `after` in (either may be absent: a file
 * added or removed). `before` is the file's row as the summary counts it, read under the
 * draft's lock; what its entry says (completed, and its size) is taken out with it, so that a
 * removal needs no object. An entry that keeps its key keeps its place.
 */
export function changeSummary(
  summary: FilesSummary,
  before: FileRow | undefined,
  after: StoredFile | undefined,
): void {
  if (before) {
    const entry = summary.entries[before.key];
    summary.count--;
    if (entry?.status === 'completed') summary.total_bytes -= entry.size;
    else {
      summary.pending--;
      summary.reserved_bytes -= reservationOf({ row: before });
    }
    if (before.key !== after?.row.key) delete summary.entries[before.key];
  }
  if (after) {
    const entry = entryOf(after);
    summary.count++;
    if (entry.status === 'completed') summary.total_bytes += entry.size;
    else {
      summary.pending++;
      summary.reserved_bytes += reservationOf(after);
    }
    summary.entries[after.row.key] = entry;
  }
}

/** The summary counted from all of a bucket's files, in the order they are listed. */
export function summarise(files: StoredFile[]): FilesSummary {
  const summary: FilesSummary = { ...EMPTY_SUMMARY, entries: {} };
  for (const file of files) changeSummary(summary, undefined, file);
  return summary;
}
