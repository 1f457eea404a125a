import { setImmediate as nextTurn } from 'node:timers/promises';
import { moduleWorker } from '../../../../lib/module-worker.js';
import { crashPoint } from '../../../../lib/crash-points.js';
import type { IndexedType } from '../kinds.js';
import type { UpsertCounts } from '../items.writes.js';
import type { VocabularyItemsService } from '../items.service.js';
import { MAX_PROBLEMS, unpackItems, type ImportProblem, type PipelineOptions } from './pipeline.js';
import type { ImportFormat } from './sources.js';
import { REFERENCED } from '../prepare.js';
import { KNOWN_NAMES_MAX, type FromWorker, type ToWorker } from './worker-protocol.js';

export type { ImportProblem };

/** The import stored nothing: the file has these problems (the first ones, up to a limit). */
export class ImportFailed extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(problems.map((p) => `line ${p.line}: ${p.reason}`).join('\n'));
    this.name = 'ImportFailed';
  }
}

/** The import stopped before the end of the file (its worker thread failed); nothing was stored. */
export class ImportAborted extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImportAborted';
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
  /**
   * Heap limit of the worker thread, in MB. Reading holds a record at a time, so this is plenty
   * for any dump; a runaway record (a JSON item that never ends) fails the import instead of
   * taking the machine's memory.
   */
  workerHeapMb?: number;
}

const WORKER_HEAP_MB = 512;
// Chunks of the dump handed to the worker before it asks for them: this thread answers only
// between two batches, and the worker should not have to wait for that.
const CHUNKS_AHEAD = 4;

type Batch = Extract<FromWorker, { op: 'batch' }>;

/** The worker's batches in order, or the reason there will be no more. */
class Inbox {
  private readonly queue: Array<Batch | 'done'> = [];
  private waiting: { resolve: (m: Batch | 'done') => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;

  push(message: Batch | 'done') {
    if (this.waiting) {
      this.waiting.resolve(message);
      this.waiting = undefined;
    } else this.queue.push(message);
  }

  fail(error: Error) {
    this.failure ??= error;
    this.waiting?.reject(error);
    this.waiting = undefined;
  }

  next(): Promise<Batch | 'done'> {
    if (this.failure) return Promise.reject(this.failure);
    const first = this.queue.shift();
    if (first) return Promise.resolve(first);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

/**
 * Streams a dump into one vocabulary in a single transaction. A worker thread reads, validates
 * and prepares the records (pipeline.ts) while this thread writes the batches it posts, so that
 * an import keeps two cores busy; memory stays bounded by the few chunks and batches in flight.
 * The first problem stops the writing, the rest of the file is still read to report up to
 * MAX_PROBLEMS, and nothing is stored unless all is well; neither is anything when the worker
 * fails or the bytes cannot be read. Re-importing the same dump changes nothing (unchanged items
 * are not rewritten).
 */
export async function importVocabulary(
  items: VocabularyItemsService,
  type: IndexedType,
  bytes: AsyncIterable<Buffer | string>,
  options: ImportOptions,
): Promise<ImportResult> {
  const result: ImportResult = { records: 0, inserted: 0, updated: 0, unchanged: 0 };
  const workerData: PipelineOptions = { type, format: options.format, locale: options.locale };
  const heapMb = options.workerHeapMb ?? WORKER_HEAP_MB;
  const worker = moduleWorker(new URL('./worker.js', import.meta.url), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
  const post = (message: ToWorker, transfer?: ArrayBuffer[]) =>
    worker.postMessage(message, transfer);
  const inbox = new Inbox();
  let done = false;
  let credit = CHUNKS_AHEAD;
  let wakePump: (() => void) | undefined;
  let lookup: (message: Extract<FromWorker, { op: 'lookup' }>) => void = () => {};
  worker.on('message', (message: FromWorker) => {
    if (message.op === 'more') {
      credit++;
      wakePump?.();
    } else if (message.op === 'lookup') {
      lookup(message);
    } else {
      if (message.op === 'done') done = true;
      inbox.push(message.op === 'done' ? 'done' : message);
    }
  });
  worker.on('error', (error: Error & { code?: string }) => {
    inbox.fail(
      new ImportAborted(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `Reading the file needed more than ${heapMb} MB of memory: is a record unterminated?`
          : `The import's worker thread failed: ${error.message}`,
        { cause: error },
      ),
    );
  });
  worker.on('messageerror', (error) => inbox.fail(error));
  worker.on('exit', (code) => {
    if (!done)
      inbox.fail(new ImportAborted(`The import's worker thread stopped (exit code ${code}).`));
  });
  const stopPump = () => {
    done = true;
    wakePump?.();
  };
  const pump = async () => {
    for await (const chunk of bytes) {
      while (credit === 0 && !done) await new Promise<void>((resolve) => (wakePump = resolve));
      if (done) return;
      credit--;
      if (typeof chunk === 'string') post({ op: 'bytes', chunk });
      else {
        // A copy of just these bytes, moved rather than cloned: a chunk may be a view of a far
        // larger buffer, all of which a clone would copy.
        const copy = new Uint8Array(chunk);
        post({ op: 'bytes', chunk: copy }, [copy.buffer]);
      }
    }
    post({ op: 'end' });
  };

  try {
    await items.bulkTransaction(type, async (trx, bulk) => {
      lookup = ({ id, type: referenced, ids }) => {
        items.referenceNames(referenced, ids, trx).then(
          (names) => post({ op: 'names', id, entries: [...names] }),
          (error: Error) => inbox.fail(error),
        );
      };
      // A vocabulary of organisations is small beside a dump of names: sent whole, while the
      // worker starts, it spares a lookup per batch, each a round trip to this busy thread.
      const referenced = REFERENCED[type];
      const names = referenced && (await items.allNames(referenced, KNOWN_NAMES_MAX, trx));
      if (referenced && names) post({ op: 'known', type: referenced, entries: [...names] });
      pump().catch((error: Error) => inbox.fail(error));
      const problems: ImportProblem[] = [];
      for (;;) {
        const batch = await inbox.next();
        if (batch === 'done') break;
        result.records = batch.records;
        problems.push(...batch.problems);
        if (problems.length === 0 && batch.rows.length > 0) {
          const counts = await items.writePrepared(type, unpackItems(batch.rows), trx, bulk);
          result.inserted += counts.inserted;
          result.updated += counts.updated;
          result.unchanged += counts.unchanged;
          crashPoint('vocabularies-import:batch-written');
        }
        post({ op: 'written' });
        options.onBatch?.(result.records);
        // Writing resolves in microtasks only: let the worker's lookups and requests for bytes
        // through before the next batch.
        await nextTurn();
      }
      // Throwing rolls the transaction back: a file with problems leaves nothing behind.
      if (problems.length > 0) throw new ImportFailed(problems.slice(0, MAX_PROBLEMS));
    });
  } finally {
    stopPump();
    await worker.terminate();
  }
  return result;
}
