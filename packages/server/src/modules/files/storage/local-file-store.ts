import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  FileStoreError,
  type ByteRange,
  type FileStore,
  type ObjectListing,
  type StoredBytes,
  type PartReceipt,
  type StoredPart,
} from './file-store.js';
import { DeletionHolds } from './deletion-hold.js';
import { Md5 } from './md5.js';
import { MeteredBody, assertByteRange, contentMd5ToHex, partNumbers } from './store-support.js';
import { crashPoint } from '../../../lib/crash-points.js';

/** Where bytes wait until they are complete; inside the root so `rename` stays atomic. */
const TEMP_DIR = '.tmp';
const MULTIPART_DIR = '.multipart';
const MANIFEST = 'manifest.json';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const DATA_FILE = 'data';
/** Sidecar content of a part received whole but not hashed (no Content-MD5 came with it). */
const RECEIVED = 'received';
// Fewer, larger writes: the default 16 KiB buffer makes a 1 GiB upload 65,536 write calls.
const WRITE_BUFFER = 1024 * 1024;
const SIDECAR_FILE = /^part-([1-9][0-9]*)\.md5$/;
const MD5_HEX = /^[0-9a-f]{32}$/;

/** What `createMultipart` records about an upload, in `<root>/.multipart/<uploadId>/manifest.json`. */
interface Manifest {
  key: string;
  size: number;
  partSize: number;
  parts: number;
  createdAt: string;
}

/**
 * The whole-file MD5 over parts 1..next-1, as they were received (see #advanceHash). Held by this
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

function sidecarPath(dir: string, part: number): string {
  return join(dir, `part-${part}.md5`);
}

function partLength(manifest: Manifest, part: number): number {
  return part < manifest.parts
    ? manifest.partSize
    : manifest.size - manifest.partSize * (manifest.parts - 1);
}

export interface LocalFileStoreOptions {
  /** The folder that holds every object, plus the store's own `.tmp` and `.multipart`. */
  root: string;
}

/**
 * File bytes in a local folder: each object is a file at `<root>/<key>`.
 *
 * Every write goes to a temporary file under `<root>/.tmp`, is fsynced, and only then renamed
 * into place, so a crash or a dropped connection never leaves a partial file under a key.
 * A multipart upload is a folder holding a manifest, one preallocated `data` file into which each
 * part is written at its offset, and the MD5 of each received part in `part-<n>.md5`. Completion
 * renames `data` into place (no byte is copied) once the whole-file MD5, computed while the
 * parts arrived, is complete. Keys are the files service's own (`ab/cd/<uuid>`); anything that could leave the
 * root or reach the store's dot-folders is refused with an Error.
 *
 * After a crash, `.tmp` may hold orphaned temporary files; nothing reads them, and
 * `sweepTemporary` deletes those no write of this process is using once they are old enough
 * that no other process is writing them either.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';
  readonly #root: string;
  readonly #holds: DeletionHolds;
  readonly #partLocks = new Map<string, Promise<void>>();
  readonly #hashes = new Map<string, HashState>();
  /** How many times each part (`<uploadId>:<n>`) has been written by this process. */
  readonly #generations = new Map<string, number>();
  /** Temporary files and folders this process is writing: never a crash's leftovers. */
  readonly #inFlight = new Set<string>();

  constructor({ root }: LocalFileStoreOptions) {
    this.#root = resolve(root);
    this.#holds = new DeletionHolds(this.#root);
  }

  async put(
    key: string,
    body: Readable,
    options: { expectedSize?: number; maxSize: number },
  ): Promise<StoredBytes> {
    const target = this.#objectPath(key);
    const metered = new MeteredBody(body, options);
    const temp = await this.#writeTemp(metered);
    try {
      await this.#moveInto(temp, target);
    } finally {
      this.#inFlight.delete(temp);
    }
    return { size: metered.size, md5: await metered.md5() };
  }

  async createMultipart(
    key: string,
    options: { size: number; partSize: number; parts: number },
  ): Promise<string> {
    this.#objectPath(key);
    const { size, partSize, parts } = options;
    if (!isCount(size) || !isCount(partSize) || partSize < 1 || !isCount(parts) || parts < 1) {
      throw new RangeError(`Invalid multipart layout: ${JSON.stringify(options)}.`);
    }
    const uploadId = randomBytes(16).toString('hex');
    const manifest: Manifest = { key, size, partSize, parts, createdAt: new Date().toISOString() };
    // Built aside and renamed into place, so an upload folder always has its manifest.
    const staging = this.#tempPath();
    this.#inFlight.add(staging);
    await mkdir(staging, { recursive: true });
    try {
      await writeFile(join(staging, MANIFEST), JSON.stringify(manifest), { flush: true });
      // Sparse: the file takes disk space only as parts arrive.
      const data = await open(join(staging, DATA_FILE), 'wx');
      await data.truncate(size);
      await data.close();
      await mkdir(join(this.#root, MULTIPART_DIR), { recursive: true });
      await rename(staging, this.#uploadDir(uploadId));
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    } finally {
      this.#inFlight.delete(staging);
    }
    return uploadId;
  }

  async putPart(
    key: string,
    uploadId: string,
    part: number,
    body: Readable,
    options: { expectedSize: number; contentMd5?: string },
  ): Promise<PartReceipt> {
    const manifest = await this.#manifest(key, uploadId);
    if (!Number.isSafeInteger(part) || part < 1 || part > manifest.parts) {
      throw new RangeError(`Part ${part} is not one of 1..${manifest.parts}.`);
    }
    const { expectedSize, contentMd5 } = options;
    const dir = this.#uploadDir(uploadId);
    return this.#withPart(uploadId, part, async () => {
      // A part counts only once its sidecar exists. Dropping it before overwriting the part's
      // bytes means a failed or torn re-send leaves the part missing (to be sent again), never
      // listed with the MD5 of bytes it no longer holds.
      await rm(sidecarPath(dir, part), { force: true });
      const lockKey = `${uploadId}:${part}`;
      const generation = (this.#generations.get(lockKey) ?? 0) + 1;
      this.#generations.set(lockKey, generation);
      // The part's own MD5 is needed now only to check a Content-MD5; otherwise it is computed if
      // and when a resuming client lists the parts. Hashing every byte twice (the part, and the
      // whole file) would halve what one core can take in. The whole file's MD5 takes the bytes
      // as they pass when this part is the next one it needs.
      const inline = this.#claimInline(uploadId, part);
      const metered = new MeteredBody(
        body,
        { maxSize: expectedSize, expectedSize },
        { hash: contentMd5 !== undefined, ...(inline ? { alsoInto: inline.hash } : {}) },
      );
      let received = false;
      let md5: string | undefined;
      try {
        let file;
        try {
          file = createWriteStream(join(dir, DATA_FILE), {
            flags: 'r+',
            highWaterMark: WRITE_BUFFER,
            start: (part - 1) * manifest.partSize,
            flush: true,
          });
          await once(file, 'ready');
        } catch (error) {
          if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
          throw error;
        }
        await pipeline(metered, file);
        md5 = contentMd5 === undefined ? undefined : await metered.md5();
        if (contentMd5 !== undefined && contentMd5ToHex(contentMd5) !== md5) {
          throw new FileStoreError(
            'checksum-mismatch',
            `Part ${part} does not match its Content-MD5.`,
          );
        }
        try {
          await writeFile(sidecarPath(dir, part), md5 ?? RECEIVED);
        } catch (error) {
          if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
          throw error;
        }
        received = true;
      } finally {
        if (inline) this.#releaseInline(uploadId, inline, part, received ? generation : undefined);
        // Parts after this one may be waiting on disk for it (or, when it failed inline, the
        // hash starts again from part 1): in the background either way. Not after an abort.
        if (this.#hashes.has(uploadId)) void this.#advanceHash(uploadId, manifest);
      }
      return { part, size: metered.size, ...(md5 ? { md5, etag: md5 } : {}) };
    });
  }

  /** Runs `fn` alone for one part of one upload: two writes of a part must never interleave. */
  async #withPart<T>(uploadId: string, part: number, fn: () => Promise<T>): Promise<T> {
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
  #claimInline(uploadId: string, part: number): HashState | undefined {
    const state = this.#hashState(uploadId);
    if (part < state.next) state.spoilt = true;
    if (state.busy !== undefined || state.spoilt || state.next !== part) return undefined;
    state.busy = 'inline';
    return state;
  }

  /** Ends an inline claim: the part is in the hash (`generation` of it), or its bytes spoilt it. */
  #releaseInline(
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
    // An inline part still feeds it; #releaseInline lets it go.
    if (state.busy !== 'inline') state.hash.discard();
  }

  /**
   * Keeps the whole-file MD5 following the contiguous prefix of received parts while the rest
   * still arrive, so that commit of a 4 GiB upload does not wait for an MD5 over 4 GiB. A part
   * that arrives when it is the next one needed is hashed as it passes (#claimInline); parts that
   * arrived earlier than that (several in flight, or out of order) are read back from disk here,
   * by the MD5 worker itself, once the parts before them are in. Never fails: on any error the
   * hash is dropped and commit reads the whole file.
   */
  #advanceHash(uploadId: string, manifest: Manifest): Promise<void> {
    const current = this.#hashState(uploadId);
    current.chain = current.chain
      .then(() => this.#catchUp(uploadId, manifest, current))
      .catch(() => this.#dropHash(uploadId, current));
    return current.chain;
  }

  async #catchUp(uploadId: string, manifest: Manifest, current: HashState): Promise<void> {
    const dir = this.#uploadDir(uploadId);
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
        added = await this.#withPart(uploadId, n, async () => {
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

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const manifest = await this.#manifest(key, uploadId);
    const dir = this.#uploadDir(uploadId);
    const received = await this.#receivedParts(uploadId);
    const parts: StoredPart[] = [];
    for (const [part, sidecar] of [...received].sort((a, b) => a[0] - b[0])) {
      if (part > manifest.parts) continue;
      // Parts taken without a Content-MD5 were not hashed: a resuming client asks rarely, so
      // their MD5 is computed now, once, and kept.
      const md5 =
        sidecar ??
        (await this.#withPart(uploadId, part, async () => {
          const again = await readSidecar(sidecarPath(dir, part));
          if (again !== null) return again;
          const start = (part - 1) * manifest.partSize;
          const hash = new Md5();
          try {
            await hash.updateFromFile(
              join(dir, DATA_FILE),
              start,
              start + partLength(manifest, part) - 1,
            );
          } catch (error) {
            hash.discard();
            if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
            throw error;
          }
          const hex = await hash.digest();
          try {
            await writeFile(sidecarPath(dir, part), hex);
          } catch (error) {
            // Completed (or aborted) meanwhile, by another request or another server.
            if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
            throw error;
          }
          return hex;
        }));
      if (md5 === undefined) continue;
      parts.push({ part, size: partLength(manifest, part), md5, etag: md5 });
    }
    return parts;
  }

  /** The parts whose sidecar says they were received: their MD5, or null when not computed. */
  async #receivedParts(uploadId: string): Promise<Map<number, string | null>> {
    const dir = this.#uploadDir(uploadId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
      throw error;
    }
    const found = new Map<number, string | null>();
    await Promise.all(
      names.map(async (name) => {
        const match = SIDECAR_FILE.exec(name);
        if (!match) return;
        const sidecar = await readSidecar(join(dir, name));
        if (sidecar !== undefined) found.set(Number(match[1]), sidecar);
      }),
    );
    return found;
  }

  #forgetGenerations(uploadId: string, parts: number): void {
    for (let n = 1; n <= parts; n++) this.#generations.delete(`${uploadId}:${n}`);
  }

  async completeMultipart(key: string, uploadId: string, parts: number): Promise<StoredBytes> {
    if (!Number.isSafeInteger(parts) || parts < 1)
      throw new RangeError(`Invalid part count ${parts}.`);
    const target = this.#objectPath(key);
    // Sent again after the bytes were moved into place (a crash before the tidy-up, or an answer
    // that never arrived): the object under the upload's own key is that upload's.
    const done = await this.#completedEarlier(key, uploadId, target);
    if (done) return done;
    const manifest = await this.#manifest(key, uploadId);
    const have = await this.#receivedParts(uploadId);
    const missing = partNumbers(parts).filter((n) => !have.has(n));
    if (missing.length > 0) {
      throw new FileStoreError('missing-parts', `Parts not received yet: ${missing.join(', ')}.`);
    }
    const dir = this.#uploadDir(uploadId);
    await this.#advanceHash(uploadId, manifest);
    const state = this.#hashes.get(uploadId);
    this.#hashes.delete(uploadId);
    // The running hash stands only if it covers every part, each as last received (a re-send
    // after hashing, or a restart, means hashing the assembled bytes again).
    const valid =
      state !== undefined &&
      state.busy === undefined &&
      !state.spoilt &&
      state.next > parts &&
      partNumbers(parts).every(
        (n) => state.hashed[n] === (this.#generations.get(`${uploadId}:${n}`) ?? 0),
      );
    let md5: string;
    try {
      if (valid) {
        md5 = await state.hash.digest();
      } else {
        if (state) this.#dropHash(uploadId, state);
        md5 = await hashFile(join(dir, DATA_FILE), 0, manifest.size - 1);
      }
      const data = await open(join(dir, DATA_FILE), 'r+');
      try {
        await data.sync();
      } finally {
        await data.close();
      }
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
      // Completed meanwhile by another request (a commit taken over), or its bytes are gone.
      const other = await this.#completedEarlier(key, uploadId, target);
      if (other) return other;
      throw uploadNotFound(uploadId);
    }
    await this.#moveInto(join(dir, DATA_FILE), target);
    crashPoint('store:moved-into-place');
    // The object is complete: a folder left behind (another server listing the parts wrote into
    // it meanwhile) is no reason to fail, and the leftovers sweep takes it.
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    this.#forgetGenerations(uploadId, parts);
    return { size: manifest.size, md5 };
  }

  /**
   * The size and MD5 of the object an earlier completion of this upload moved into place, read
   * from its bytes, after removing what is left of the upload's folder; undefined when there is
   * no such object.
   */
  async #completedEarlier(
    key: string,
    uploadId: string,
    target: string,
  ): Promise<StoredBytes | undefined> {
    let size: number;
    try {
      const info = await stat(target);
      if (!info.isFile()) return undefined;
      size = info.size;
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
      throw error;
    }
    const md5 = await hashFile(target, 0, size - 1);
    if (UPLOAD_ID.test(uploadId)) {
      const dir = this.#uploadDir(uploadId);
      const manifest = await readManifest(dir);
      // Only this upload's folder: a torn one without a manifest, or one naming this key.
      if (manifest === undefined || manifest.key === key) {
        const state = this.#hashes.get(uploadId);
        if (state) this.#dropHash(uploadId, state);
        await rm(dir, { recursive: true, force: true });
        if (manifest) this.#forgetGenerations(uploadId, manifest.parts);
      }
    }
    return { size, md5 };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.#manifest(key, uploadId);
    } catch (error) {
      if (error instanceof FileStoreError && error.reason === 'not-found') return;
      throw error;
    }
    const state = this.#hashes.get(uploadId);
    if (state) this.#dropHash(uploadId, state);
    for (const lockKey of this.#generations.keys()) {
      if (lockKey.startsWith(`${uploadId}:`)) this.#generations.delete(lockKey);
    }
    await rm(this.#uploadDir(uploadId), { recursive: true, force: true });
  }

  async read(key: string, byteRange?: ByteRange): Promise<Readable> {
    if (byteRange) assertByteRange(byteRange);
    const path = this.#objectPath(key);
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR')) throw objectNotFound(key);
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile()) throw objectNotFound(key);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream(byteRange ? { start: byteRange.start, end: byteRange.end } : {});
  }

  async delete(key: string): Promise<void> {
    const path = this.#objectPath(key);
    // A backup is copying the store: the bytes stay until it is done (see DeletionHolds).
    if (await this.#holds.held()) return this.#holds.defer(key);
    await this.#unlink(path);
    await this.purgeDeferred();
  }

  /** Deletes what was held back while a backup ran, once none runs; the count deleted. */
  purgeDeferred(): Promise<number> {
    return this.#holds.purge((deferred) => this.#unlink(this.#objectPath(deferred)));
  }

  async #unlink(path: string): Promise<void> {
    try {
      await unlink(path);
    } catch (error) {
      if (!hasCode(error, 'ENOENT', 'ENOTDIR')) throw error;
    }
  }

  /** Writes and removes a small file where uploads are written: the store's disk takes bytes. */
  async probe(signal: AbortSignal): Promise<void> {
    const probe = this.#tempPath();
    await mkdir(dirname(probe), { recursive: true });
    await writeFile(probe, 'probe', { signal });
    await rm(probe, { force: true });
  }

  async listStaleMultipart(olderThan: Date): Promise<Array<{ key: string; uploadId: string }>> {
    let ids: string[];
    try {
      ids = await readdir(join(this.#root, MULTIPART_DIR));
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return [];
      throw error;
    }
    const uploads = await Promise.all(
      ids
        .filter((id) => UPLOAD_ID.test(id))
        .map(async (uploadId) => {
          const manifest = await readManifest(this.#uploadDir(uploadId));
          if (!manifest || !(Date.parse(manifest.createdAt) < olderThan.getTime()))
            return undefined;
          return { key: manifest.key, uploadId };
        }),
    );
    return uploads.filter((u) => u !== undefined);
  }

  async listObjects(options: ObjectListing): Promise<{ keys: string[]; next?: string }> {
    const { prefix, after = '', limit, olderThan } = options;
    if (!prefix.endsWith('/')) throw new RangeError(`A prefix ends with "/": ${prefix}.`);
    const top = this.#objectPath(`${prefix}x`).slice(0, -1);
    const keys: string[] = [];
    let examined = 0;
    let last = '';
    let full = false;
    // Depth first in key order, skipping whole folders that lie before `after`: a page costs
    // the folders it passes through, not the whole store.
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (hasCode(error, 'ENOENT', 'ENOTDIR')) return;
        throw error;
      }
      const ordered = entries
        .map((e) => ({ entry: e, sortKey: e.isDirectory() ? `${e.name}/` : e.name }))
        .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
      for (const { entry, sortKey } of ordered) {
        if (full) return;
        const key = keyPrefix + sortKey;
        if (entry.isDirectory()) {
          // Every key inside starts with `key`: all of them come before `after`, or none.
          if (key < after && !after.startsWith(key)) continue;
          await walk(join(dir, entry.name), key);
        } else if (entry.isFile() && key > after) {
          const info = await lstat(join(dir, entry.name)).catch(() => undefined);
          if (info && info.mtime < olderThan) keys.push(key);
          // A page is `limit` objects looked at, old enough or not, as S3's pages are.
          last = key;
          if (++examined >= limit) {
            full = true;
            return;
          }
        }
      }
    };
    await walk(top, prefix);
    return full ? { keys, next: last } : { keys };
  }

  async sweepTemporary(olderThan: Date): Promise<number> {
    const dir = join(this.#root, TEMP_DIR);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(dir, name);
      if (this.#inFlight.has(path)) continue;
      const info = await lstat(path).catch(() => undefined);
      if (!info || !(info.mtime < olderThan)) continue;
      await rm(path, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }

  /** Streams `source` into a new fsynced temporary file and returns its path; removes it on failure. */
  async #writeTemp(source: AsyncIterable<Buffer>): Promise<string> {
    const temp = this.#tempPath();
    this.#inFlight.add(temp);
    try {
      await mkdir(dirname(temp), { recursive: true });
      const file = createWriteStream(temp, {
        flags: 'wx',
        flush: true,
        highWaterMark: WRITE_BUFFER,
      });
      // Opened before any byte is read: were it still opening when the body fails, the file
      // would appear after the cleanup below had already run.
      await once(file, 'ready');
      try {
        await pipeline(source, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    } catch (error) {
      this.#inFlight.delete(temp);
      throw error;
    }
    return temp;
  }

  /** Atomically replaces `target` with the finished temporary file. */
  async #moveInto(temp: string, target: string): Promise<void> {
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(dirname(target));
  }

  #tempPath(): string {
    return join(this.#root, TEMP_DIR, randomUUID());
  }

  #uploadDir(uploadId: string): string {
    return join(this.#root, MULTIPART_DIR, uploadId);
  }

  /** The upload's manifest; 'not-found' for unknown ids and for ids that belong to another key. */
  async #manifest(key: string, uploadId: string): Promise<Manifest> {
    this.#objectPath(key);
    const manifest = UPLOAD_ID.test(uploadId)
      ? await readManifest(this.#uploadDir(uploadId))
      : undefined;
    if (manifest?.key !== key) throw uploadNotFound(uploadId);
    return manifest;
  }

  /** `<root>/<key>`, refusing keys that could escape the root or reach the dot-folders. */
  #objectPath(key: string): string {
    return localObjectPath(this.#root, key);
  }
}

/**
 * Where a local store under `root` keeps the object `key`, refusing keys that could escape the
 * root or reach the store's dot-folders (backups read and write stores through it too).
 */
export function localObjectPath(root: string, key: string): string {
  const segments = key.split('/');
  const unsafe =
    key.includes('\0') ||
    key.includes('\\') ||
    key.includes('..') ||
    isAbsolute(key) ||
    segments.some((s) => s === '' || s.startsWith('.'));
  const path = join(root, ...segments);
  if (unsafe || !path.startsWith(root + sep)) {
    throw new Error(`Refusing unsafe store key ${JSON.stringify(key)}.`);
  }
  return path;
}

async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
    return typeof manifest.key === 'string' && typeof manifest.createdAt === 'string'
      ? manifest
      : undefined;
  } catch (error) {
    if (hasCode(error, 'ENOENT') || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * A part's sidecar: its MD5, null when it was received without one, or undefined when the sidecar
 * is absent or torn (the part then counts as missing).
 */
async function readSidecar(path: string): Promise<string | null | undefined> {
  try {
    const content = await readFile(path, 'utf8');
    if (content === RECEIVED) return null;
    return MD5_HEX.test(content) ? content : undefined;
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Makes a rename durable: the directory entry, not only the file's bytes, must reach the disk. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename stands regardless.
    if (!hasCode(error, 'EISDIR', 'EPERM', 'EINVAL', 'EBADF')) throw error;
  } finally {
    await handle?.close();
  }
}

/** The hex MD5 of bytes `start..end` of the file at `path`, read by the MD5 worker. */
async function hashFile(path: string, start: number, end: number): Promise<string> {
  const hash = new Md5();
  try {
    await hash.updateFromFile(path, start, end);
  } catch (error) {
    hash.discard();
    throw error;
  }
  return hash.digest();
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    codes.includes((error as NodeJS.ErrnoException).code ?? '')
  );
}

function objectNotFound(key: string): FileStoreError {
  return new FileStoreError('not-found', `No object under ${key}.`);
}

function uploadNotFound(uploadId: string): FileStoreError {
  return new FileStoreError('not-found', `No multipart upload ${uploadId} for this key.`);
}
