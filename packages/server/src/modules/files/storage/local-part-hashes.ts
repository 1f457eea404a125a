import { join } from 'node:path';
import { Md5 } from './md5.js';
import { partNumbers } from './store-support.js';
import {
  DATA_FILE,
  partLength,
  readSidecar,
  sidecarPath,
  uploadDir,
  type Manifest,
} from './local-layout.js';

/**
 * The whole-file MD5 over parts 1..next-1, as they were received (see advanceHash). Held by this
 * process only: after a restart, commit hashes the stored parts from scratch.
 */
interface HashState {
  hash: Md5;
  /** The first part not hashed yet. */
  next: number;
  /** Which write of each hashed part went in (see #generations). */
  hashed: number[];
  /**
   * Who is adding a part to the hash: the part's own upload, as its bytes pass ('inline'), or
   * the catch-up reading it from disk ('disk'). Nobody else may touch the hash meanwhile.
   */
  busy?: 'inline' | 'disk';
  /** The hash took bytes that are not (or no longer) the file's: start again from part 1. */
  spoilt: boolean;
  chain: Promise<void>;
}

/**
 * What one process knows of the multipart uploads it takes in: a lock per part, so that two
 * writes of a part never interleave; how many times each part was written; and the running
 * whole-file MD5 that lets completion skip reading the whole file again.
 */
export class PartHashes {
  readonly #partLocks = new Map<string, Promise<void>>();
  readonly #hashes = new Map<string, HashState>();
  /** How many times each part (`<uploadId>:<n>`) has been written by this process. */
  readonly #generations = new Map<string, number>();

  constructor(private readonly root: string) {}

  /** Runs `fn` alone for one part of one upload: two writes of a part must never interleave. */
  async withPart<T>(uploadId: string, part: number, fn: () => Promise<T>): Promise<T> {
    const lockKey = `${uploadId}:${part}`;
    const previous = this.#partLocks.get(lockKey) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#partLocks.set(lockKey, settled);
    try {
      return await run;
    } finally {
      if (this.#partLocks.get(lockKey) === settled) this.#partLocks.delete(lockKey);
    }
  }

  /** Counts a new write of the part, and returns which one it is. */
  nextGeneration(uploadId: string, part: number): number {
    const lockKey = `${uploadId}:${part}`;
    const generation = (this.#generations.get(lockKey) ?? 0) + 1;
    this.#generations.set(lockKey, generation);
    return generation;
  }

  /** Whether this process still follows the upload's hash (not aborted or completed since). */
  follows(uploadId: string): boolean {
    return this.#hashes.has(uploadId);
  }

  /** This process's running hash of the upload, made on first use. */
  #hashState(uploadId: string): HashState {
    let state = this.#hashes.get(uploadId);
    if (!state) {
      state = { hash: new Md5(), next: 1, hashed: [], spoilt: false, chain: Promise.resolve() };
      this.#hashes.set(uploadId, state);
    }
    return state;
  }

  /**
   * Lets part `part` feed the whole-file hash as it arrives, when it is the next part the hash
   * needs and nobody else is adding to it; a re-send of a part already hashed spoils the hash.
   */
  claimInline(uploadId: string, part: number): HashState | undefined {
    const state = this.#hashState(uploadId);
    if (part < state.next) state.spoilt = true;
    if (state.busy !== undefined || state.spoilt || state.next !== part) return undefined;
    state.busy = 'inline';
    return state;
  }

  /** Ends an inline claim: the part is in the hash (`generation` of it), or its bytes spoilt it. */
  releaseInline(
    uploadId: string,
    state: HashState,
    part: number,
    generation: number | undefined,
  ): void {
    state.busy = undefined;
    if (generation === undefined) state.spoilt = true;
    else {
      state.hashed[part] = generation;
      state.next = part + 1;
    }
    // Aborted or completed meanwhile: the hash was left to this upload to let go of.
    if (this.#hashes.get(uploadId) !== state) state.hash.discard();
  }

  /** Forgets the running hash (an abort, a read that failed): commit then hashes from disk. */
  #dropHash(uploadId: string, state: HashState): void {
    if (this.#hashes.get(uploadId) === state) this.#hashes.delete(uploadId);
    // An inline part still feeds it; releaseInline lets it go.
    if (state.busy !== 'inline') state.hash.discard();
  }

  /**
   * Keeps the whole-file MD5 following the contiguous prefix of received parts while the rest
   * still arrive, so that commit of a 4 GiB upload does not wait for an MD5 over 4 GiB. A part
   * that arrives when it is the next one needed is hashed as it passes (claimInline); parts that
   * arrived earlier than that (several in flight, or out of order) are read back from disk here,
   * by the MD5 worker itself, once the parts before them are in. Never fails: on any error the
   * hash is dropped and commit reads the whole file.
   */
  advanceHash(uploadId: string, manifest: Manifest): Promise<void> {
    const current = this.#hashState(uploadId);
    current.chain = current.chain
      .then(() => this.#catchUp(uploadId, manifest, current))
      .catch(() => this.#dropHash(uploadId, current));
    return current.chain;
  }

  async #catchUp(uploadId: string, manifest: Manifest, current: HashState): Promise<void> {
    const dir = uploadDir(this.root, uploadId);
    for (;;) {
      if (this.#hashes.get(uploadId) !== current || current.busy !== undefined) return;
      if (current.spoilt) {
        current.hash.discard();
        current.hash = new Md5();
        current.next = 1;
        current.hashed = [];
        current.spoilt = false;
      }
      const n = current.next;
      if (n > manifest.parts) return;
      if ((await readSidecar(sidecarPath(dir, n))) === undefined) return;
      // Looked again after the wait: an inline part may have taken over, or spoilt the hash.
      if (current.busy !== undefined || current.spoilt || current.next !== n) continue;
      if (this.#hashes.get(uploadId) !== current) return;
      current.busy = 'disk';
      let added = false;
      try {
        added = await this.withPart(uploadId, n, async () => {
          // A re-send may have failed while this waited for the part: then it is missing again.
          if ((await readSidecar(sidecarPath(dir, n))) === undefined) return false;
          const start = (n - 1) * manifest.partSize;
          await current.hash.updateFromFile(
            join(dir, DATA_FILE),
            start,
            start + partLength(manifest, n) - 1,
          );
          current.hashed[n] = this.#generations.get(`${uploadId}:${n}`) ?? 0;
          current.next = n + 1;
          return true;
        });
      } finally {
        current.busy = undefined;
      }
      if (!added) return;
    }
  }

  /**
   * The running hash of a completed upload's parts, once it has caught up, when it covers every
   * part, each as last received (a re-send after hashing, or a restart, means hashing the
   * assembled bytes again: undefined). The upload's hash is this process's no longer.
   */
  async finish(uploadId: string, manifest: Manifest, parts: number): Promise<Md5 | undefined> {
    await this.advanceHash(uploadId, manifest);
    const state = this.#hashes.get(uploadId);
    this.#hashes.delete(uploadId);
    const valid =
      state !== undefined &&
      state.busy === undefined &&
      !state.spoilt &&
      state.next > parts &&
      partNumbers(parts).every(
        (n) => state.hashed[n] === (this.#generations.get(`${uploadId}:${n}`) ?? 0),
      );
    if (valid) return state.hash;
    if (state) this.#dropHash(uploadId, state);
    return undefined;
  }

  /** Forgets the upload's running hash, and its parts' writes (all of them, or 1..`parts`). */
  forget(uploadId: string, parts?: number): void {
    const state = this.#hashes.get(uploadId);
    if (state) this.#dropHash(uploadId, state);
    if (parts === undefined) {
      for (const lockKey of this.#generations.keys()) {
        if (lockKey.startsWith(`${uploadId}:`)) this.#generations.delete(lockKey);
      }
    } else {
      for (let n = 1; n <= parts; n++) this.#generations.delete(`${uploadId}:${n}`);
    }
  }
}
