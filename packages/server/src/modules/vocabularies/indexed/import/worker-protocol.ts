import type { IndexedType } from '../kinds.js';
import type { ImportProblem } from './pipeline.js';

/**
 * Most names a worker keeps: a referenced vocabulary up to this size is sent whole before the
 * first bytes, a larger one is looked up as records need it.
 */
export const KNOWN_NAMES_MAX = 200_000;

/** What the main thread posts to an import's worker (worker.ts). */
export type ToWorker =
  /** Every item of the vocabulary the records refer to: no id outside it exists. */
  | { op: 'known'; type: IndexedType; entries: Array<[string, string]> }
  /** The dump's next bytes; the worker asks for each with `more`. */
  | { op: 'bytes'; chunk: Uint8Array | string }
  | { op: 'end' }
  /** The answer to `lookup` `id`: the names of the ids that exist. */
  | { op: 'names'; id: number; entries: Array<[string, string]> }
  /** A batch has been written. */
  | { op: 'written' };

/** What an import's worker posts to the main thread. */
export type FromWorker =
  | { op: 'more' }
  | { op: 'lookup'; id: number; type: IndexedType; ids: string[] }
  /** Rows as packItems lays them out. */
  | { op: 'batch'; rows: Array<string | null>; problems: ImportProblem[]; records: number }
  | { op: 'done' };
