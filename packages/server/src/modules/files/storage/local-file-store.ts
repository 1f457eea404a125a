import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
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
import { MeteredBody, assertByteRange, contentMd5ToHex, partNumbers } from './store-support.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PartHashes } from './local-part-hashes.js';
import {
  DATA_FILE,
  MANIFEST,
  MULTIPART_DIR,
  RECEIVED,
  SIDECAR_FILE,
  TEMP_DIR,
  UPLOAD_ID,
  hasCode,
  hashFile,
  inFolder,
  isCount,
  listObjectsPage,
  localObjectPath,
  objectNotFound,
  orUploadGone,
  partLength,
  readManifest,
  readSidecar,
  sidecarPath,
  syncDirectory,
  uploadDir,
  uploadNotFound,
  type Manifest,
} from './local-layout.js';

// Fewer, larger writes: the default 16 KiB buffer makes a 1 GiB upload 65,536 write calls.
const WRITE_BUFFER = 1024 * 1024;

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
  readonly #parts: PartHashes;
  /** Temporary files and folders this process is writing: never a crash's leftovers. */
  readonly #inFlight = new Set<string>();

  constructor({ root }: LocalFileStoreOptions) {
    this.#root = resolve(root);
    this.#holds = new DeletionHolds(this.#root);
    this.#parts = new PartHashes(this.#root);
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
    return this.#parts.withPart(uploadId, part, async () => {
      // A part counts only once its sidecar exists. Dropping it before overwriting the part's
      // bytes means a failed or torn re-send leaves the part missing (to be sent again), never
      // listed with the MD5 of bytes it no longer holds.
      await rm(sidecarPath(dir, part), { force: true });
      const generation = this.#parts.nextGeneration(uploadId, part);
      // The part's own MD5 is needed now only to check a Content-MD5; otherwise it is computed if
      // and when a resuming client lists the parts. Hashing every byte twice (the part, and the
      // whole file) would halve what one core can take in. The whole file's MD5 takes the bytes
      // as they pass when this part is the next one it needs.
      const inline = this.#parts.claimInline(uploadId, part);
      const metered = new MeteredBody(
        body,
        { maxSize: expectedSize, expectedSize },
        { hash: contentMd5 !== undefined, ...(inline ? { alsoInto: inline.hash } : {}) },
      );
      let received = false;
      let md5: string | undefined;
      try {
        const file = createWriteStream(join(dir, DATA_FILE), {
          flags: 'r+',
          highWaterMark: WRITE_BUFFER,
          start: (part - 1) * manifest.partSize,
          flush: true,
        });
        await orUploadGone(uploadId, once(file, 'ready'));
        await pipeline(metered, file);
        md5 = contentMd5 === undefined ? undefined : await metered.md5();
        if (contentMd5 !== undefined && contentMd5ToHex(contentMd5) !== md5) {
          throw new FileStoreError(
            'checksum-mismatch',
            `Part ${part} does not match its Content-MD5.`,
          );
        }
        await orUploadGone(uploadId, writeFile(sidecarPath(dir, part), md5 ?? RECEIVED));
        received = true;
      } finally {
        if (inline)
          this.#parts.releaseInline(uploadId, inline, part, received ? generation : undefined);
        // Parts after this one may be waiting on disk for it (or, when it failed inline, the
        // hash starts again from part 1): in the background either way. Not after an abort.
        if (this.#parts.follows(uploadId)) void this.#parts.advanceHash(uploadId, manifest);
      }
      return { part, size: metered.size, ...(md5 ? { md5, etag: md5 } : {}) };
    });
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
        (await this.#parts.withPart(uploadId, part, async () => {
          const again = await readSidecar(sidecarPath(dir, part));
          if (again !== null) return again;
          const start = (part - 1) * manifest.partSize;
          // The upload may be completed (or aborted) meanwhile, by another request or server.
          const hex = await orUploadGone(
            uploadId,
            hashFile(join(dir, DATA_FILE), start, start + partLength(manifest, part) - 1),
          );
          await orUploadGone(uploadId, writeFile(sidecarPath(dir, part), hex));
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
    const names = await orUploadGone(uploadId, readdir(dir));
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
    const running = await this.#parts.finish(uploadId, manifest, parts);
    let md5: string;
    try {
      md5 = running
        ? await running.digest()
        : await hashFile(join(dir, DATA_FILE), 0, manifest.size - 1);
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
    this.#parts.forget(uploadId, parts);
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
        this.#parts.forget(uploadId, manifest?.parts ?? 0);
        await rm(dir, { recursive: true, force: true });
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
    this.#parts.forget(uploadId);
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
    if (!options.prefix.endsWith('/'))
      throw new RangeError(`A prefix ends with "/": ${options.prefix}.`);
    return listObjectsPage(this.#objectPath(`${options.prefix}x`).slice(0, -1), options);
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
      // Opened before any byte is read: were it still opening when the body fails, the file
      // would appear after the cleanup below had already run.
      const file = await inFolder(dirname(temp), async () => {
        const opening = createWriteStream(temp, {
          flags: 'wx',
          flush: true,
          highWaterMark: WRITE_BUFFER,
        });
        await once(opening, 'ready');
        return opening;
      });
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
      await inFolder(dirname(target), () => rename(temp, target));
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
    return uploadDir(this.#root, uploadId);
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
