import { AppError } from '../../../../errors.js';
import type { PreparedItem } from '../items.writes.js';
import { INDEXED_KINDS, type IndexedItem, type IndexedType } from '../kinds.js';
import { prepareItem, resolveReferences, validateItem, type ReferenceNames } from '../prepare.js';
import { SourceSyntaxError } from './readers.js';
import { importRecords, type ImportFormat } from './sources.js';

/** One unusable record: the line it starts on and every reason. */
export interface ImportProblem {
  line: number;
  reason: string;
}

/** What to read: the vocabulary, the dump's format and the locale of plain-text titles. */
export interface PipelineOptions {
  type: IndexedType;
  format: ImportFormat;
  locale: string;
}

/** Rows ready to store, the problems of the records they came from, and the records read so far. */
export interface PreparedBatch {
  items: PreparedItem[];
  problems: ImportProblem[];
  records: number;
}

const BATCH = 2000;
// Enough to show what is wrong with a file without listing a million identical lines.
export const MAX_PROBLEMS = 20;
// Batches whose references are being looked up while the next ones are read: a lookup goes to
// the database's thread and back, and reading on meanwhile keeps this thread busy.
const LOOKAHEAD = 2;

function reasonOf(error: unknown): string {
  if (error instanceof AppError && error.errors?.length) {
    return error.errors.map((e) => `${e.field}: ${e.messages.join(' ')}`).join('; ');
  }
  return (error as Error).message;
}

/**
 * A dump's records as rows, in batches in file order: read, mapped to the API's shape, validated
 * by the API's own schema, references resolved through `namesOf`, search terms computed. Once a
 * record has a problem no more rows are prepared (nothing will be stored), but reading goes on
 * until MAX_PROBLEMS are found, to report them together; a malformed file ends with its syntax
 * error as the last problem. Problems come in line order within a batch.
 */
export async function* preparedBatches(
  options: PipelineOptions,
  bytes: AsyncIterable<Buffer | string>,
  namesOf: ReferenceNames,
): AsyncGenerator<PreparedBatch> {
  const { type, format, locale } = options;
  const kind = INDEXED_KINDS[type];
  let records = 0;
  let problemCount = 0;
  let valid: Array<{ line: number; item: IndexedItem }> = [];
  let problems: ImportProblem[] = [];
  const inFlight: Array<Promise<PreparedBatch>> = [];

  const settle = async (
    batch: Array<{ line: number; item: IndexedItem }>,
    found: ImportProblem[],
    read: number,
  ): Promise<PreparedBatch> => {
    const resolved = await resolveReferences(
      type,
      batch.map((b) => b.item),
      namesOf,
    );
    const items: PreparedItem[] = [];
    resolved.forEach((r, i) => {
      if ('problems' in r) {
        found.push({
          line: batch[i]!.line,
          reason: reasonOf(new AppError('VALIDATION_FAILED', undefined, r.problems)),
        });
        problemCount++;
      }
    });
    if (problemCount === 0) {
      for (const r of resolved) if ('item' in r) items.push(prepareItem(kind, r.item));
    }
    found.sort((a, b) => a.line - b.line);
    return { items, problems: found, records: read };
  };
  const finish = () => {
    inFlight.push(settle(valid, problems, records));
    valid = [];
    problems = [];
  };

  let syntax: ImportProblem | undefined;
  try {
    for await (const record of importRecords(type, format, bytes, locale)) {
      records++;
      if ('error' in record) {
        problems.push({ line: record.line, reason: record.error });
        problemCount++;
      } else {
        try {
          valid.push({ line: record.line, item: validateItem(type, record.value) });
        } catch (error) {
          problems.push({ line: record.line, reason: reasonOf(error) });
          problemCount++;
        }
      }
      if (problemCount >= MAX_PROBLEMS) break;
      if (valid.length + problems.length >= BATCH) {
        finish();
        while (inFlight.length > LOOKAHEAD) yield await inFlight.shift()!;
      }
    }
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    syntax = { line: error.line, reason: error.message };
  }
  finish();
  while (inFlight.length > 0) yield await inFlight.shift()!;
  if (syntax) yield { items: [], problems: [syntax], records };
}

const FIELDS = 8;

/** A batch's rows as one flat array of strings, which a worker posts cheaply. */
export function packItems(items: readonly PreparedItem[]): Array<string | null> {
  const flat = new Array<string | null>(items.length * FIELDS);
  let i = 0;
  for (const item of items) {
    flat[i++] = item.id;
    flat[i++] = item.data;
    flat[i++] = item.sortKey;
    flat[i++] = item.searchText;
    flat[i++] = item.extraTerms;
    flat[i++] = item.facet;
    flat[i++] = item.tags;
    flat[i++] = item.terms;
  }
  return flat;
}

export function unpackItems(flat: ReadonlyArray<string | null>): PreparedItem[] {
  const items: PreparedItem[] = [];
  for (let i = 0; i < flat.length; i += FIELDS) {
    items.push({
      id: flat[i]!,
      data: flat[i + 1]!,
      sortKey: flat[i + 2]!,
      searchText: flat[i + 3]!,
      extraTerms: flat[i + 4]!,
      facet: flat[i + 5] ?? null,
      tags: flat[i + 6]!,
      terms: flat[i + 7]!,
    });
  }
  return items;
}
