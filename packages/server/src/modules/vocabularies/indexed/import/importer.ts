import { AppError } from '../../../../errors.js';
import type { IndexedItem, IndexedType } from '../kinds.js';
import type { UpsertCounts } from '../items.repository.js';
import type { VocabularyItemsService } from '../items.service.js';
import { SourceSyntaxError } from './readers.js';
import { importRecords, type ImportFormat } from './sources.js';

/** One unusable record: the line it starts on and every reason. */
export interface ImportProblem {
  line: number;
  reason: string;
}

/** The import stored nothing: the file has these problems (the first ones, up to a limit). */
export class ImportFailed extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(problems.map((p) => `line ${p.line}: ${p.reason}`).join('\n'));
    this.name = 'ImportFailed';
  }
}

export interface ImportResult extends UpsertCounts {
  records: number;
}

export interface ImportOptions {
  format: ImportFormat;
  /** Locale that plain-text titles (awards' CSV) are given in. */
  locale: string;
  /** Called after each stored batch with the records read so far. */
  onBatch?: (records: number) => void;
}

const BATCH = 2000;
// Enough to show what is wrong with a file without listing a million identical lines.
const MAX_PROBLEMS = 20;

function reasonOf(error: unknown): string {
  if (error instanceof AppError && error.errors?.length) {
    return error.errors.map((e) => `${e.field}: ${e.messages.join(' ')}`).join('; ');
  }
  return (error as Error).message;
}

/**
 * Streams a dump into one vocabulary in a single transaction: every record is validated by the
 * API's own schema and references resolved; the first problem stops the writing, the rest of
 * the file is still read to report up to MAX_PROBLEMS, and nothing is stored unless all is well.
 * Re-importing the same dump changes nothing (unchanged items are not rewritten).
 */
export async function importVocabulary(
  items: VocabularyItemsService,
  type: IndexedType,
  bytes: AsyncIterable<Buffer | string>,
  options: ImportOptions,
): Promise<ImportResult> {
  const result: ImportResult = { records: 0, inserted: 0, updated: 0, unchanged: 0 };
  const problems: ImportProblem[] = [];
  await items.bulkTransaction(async (trx, bulk) => {
    let batch: Array<{ line: number; item: IndexedItem }> = [];
    const flush = async () => {
      const resolved = await items.resolve(
        type,
        batch.map((b) => b.item),
        trx,
      );
      const ok: IndexedItem[] = [];
      resolved.forEach((r, i) => {
        if ('item' in r) ok.push(r.item);
        else
          problems.push({
            line: batch[i]!.line,
            reason: reasonOf(new AppError('VALIDATION_FAILED', undefined, r.problems)),
          });
      });
      if (problems.length === 0) {
        const counts = await items.write(type, ok, trx, bulk);
        result.inserted += counts.inserted;
        result.updated += counts.updated;
        result.unchanged += counts.unchanged;
      }
      batch = [];
      options.onBatch?.(result.records);
    };
    try {
      for await (const record of importRecords(type, options.format, bytes, options.locale)) {
        result.records++;
        if ('error' in record) {
          problems.push({ line: record.line, reason: record.error });
        } else {
          try {
            batch.push({ line: record.line, item: items.validate(type, record.value) });
          } catch (error) {
            problems.push({ line: record.line, reason: reasonOf(error) });
          }
        }
        if (problems.length >= MAX_PROBLEMS) break;
        if (batch.length >= BATCH) await flush();
      }
      if (problems.length < MAX_PROBLEMS && batch.length > 0) await flush();
    } catch (error) {
      if (!(error instanceof SourceSyntaxError)) throw error;
      problems.push({ line: error.line, reason: error.message });
    }
    // Throwing rolls the transaction back: a file with problems leaves nothing behind.
    if (problems.length > 0) throw new ImportFailed(problems.slice(0, MAX_PROBLEMS));
  });
  return result;
}
