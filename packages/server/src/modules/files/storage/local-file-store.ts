import { createHash, randomBytes, randomUUID, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
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
  type StoredBytes,
  type StoredPart,
} from './file-store.js';
import { MeteredBody, assertByteRange, contentMd5ToHex, partNumbers } from './store-support.js';

/** Where bytes wait until they are complete; inside the root so `rename` stays atomic. */
const TEMP_DIR = '.tmp';
const MULTIPART_DIR = '.multipart';
const MANIFEST = 'manifest.json';
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const DATA_FILE = 'data';
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

/** The whole-file MD5 over the parts received so far, in order (see #advanceHash). */
interface HashState {
  hash: Hash;
  /** The first part not hashed yet. */
  next: number;
  /** The MD5 of each part as it was when hashed. */
  hashed: string[];
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
 * After a crash, `.tmp` may hold orphaned temporary files; nothing reads them and they may be
 * deleted whenever no write is in progress.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';
  readonly #root: string;
  readonly #partLocks = new Map<string, Promise<void>>();
  readonly #hashes = new Map<string, HashState>();

  constructor({ root }: LocalFileStoreOptions) {
    this.#root = resolve(root);
  }

  async put(
    key: string,
    body: Readable,
    options: { expectedSize?: number; maxSize: number },
  ): Promise<StoredBytes> {
    const target = this.#objectPath(key);
    const metered = new MeteredBody(body, options);
    const temp = await this.#writeTemp(metered);
    await this.#moveInto(temp, target);
    return { size: metered.size, md5: metered.md5() };
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
    }
    return uploadId;
  }

  async putPart(
    key: string,
    uploadId: string,
    part: number,
    body: Readable,
    options: { expectedSize: number; contentMd5?: string },
  ): Promise<StoredPart> {
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
      const metered = new MeteredBody(body, { maxSize: expectedSize, expectedSize });
      let file;
      try {
        file = createWriteStream(join(dir, DATA_FILE), {
          flags: 'r+',
          start: (part - 1) * manifest.partSize,
          flush: true,
        });
        await once(file, 'ready');
      } catch (error) {
        if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
        throw error;
      }
      await pipeline(metered, file);
      const md5 = metered.md5();
      if (contentMd5 !== undefined && contentMd5ToHex(contentMd5) !== md5) {
        throw new FileStoreError(
          'checksum-mismatch',
          `Part ${part} does not match its Content-MD5.`,
        );
      }
      try {
        await writeFile(sidecarPath(dir, part), md5);
      } catch (error) {
        if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
        throw error;
      }
      void this.#advanceHash(uploadId, manifest).catch(() => undefined);
      return { part, size: metered.size, md5, etag: md5 };
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

  /**
   * Hashes the contiguous prefix of received parts while the rest still arrive, so that commit
   * of a 4 GiB upload does not wait for an MD5 over 4 GiB. Parts arrive roughly in order (the
   * uploaders send 1..n with a few in flight), so the prefix grows with the upload. The state is
   * an optimisation held by this process only: after a restart, commit hashes from scratch.
   */
  #advanceHash(uploadId: string, manifest: Manifest): Promise<void> {
    let state = this.#hashes.get(uploadId);
    if (!state) {
      state = { hash: createHash('md5'), next: 1, hashed: [], chain: Promise.resolve() };
      this.#hashes.set(uploadId, state);
    }
    const current = state;
    current.chain = current.chain.then(async () => {
      const dir = this.#uploadDir(uploadId);
      while (current.next <= manifest.parts) {
        const n = current.next;
        const md5 = await readSidecar(sidecarPath(dir, n));
        if (md5 === undefined) return;
        const start = (n - 1) * manifest.partSize;
        const end = Math.min(manifest.size, start + manifest.partSize) - 1;
        if (end >= start) {
          await this.#withPart(uploadId, n, async () => {
            for await (const chunk of createReadStream(join(dir, DATA_FILE), { start, end })) {
              current.hash.update(chunk as Buffer);
            }
          });
        }
        current.hashed[n] = md5;
        current.next = n + 1;
      }
    });
    return current.chain;
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const manifest = await this.#manifest(key, uploadId);
    const dir = this.#uploadDir(uploadId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
      throw error;
    }
    const parts = await Promise.all(
      names.map(async (name): Promise<StoredPart | undefined> => {
        const match = SIDECAR_FILE.exec(name);
        if (!match) return undefined;
        const part = Number(match[1]);
        const md5 = await readSidecar(join(dir, name));
        if (md5 === undefined || part > manifest.parts) return undefined;
        return { part, size: partLength(manifest, part), md5, etag: md5 };
      }),
    );
    return parts.filter((p) => p !== undefined).sort((a, b) => a.part - b.part);
  }

  async completeMultipart(key: string, uploadId: string, parts: number): Promise<StoredBytes> {
    if (!Number.isSafeInteger(parts) || parts < 1)
      throw new RangeError(`Invalid part count ${parts}.`);
    const target = this.#objectPath(key);
    const manifest = await this.#manifest(key, uploadId);
    const listed = await this.listParts(key, uploadId);
    const have = new Map(listed.map((p) => [p.part, p.md5]));
    const missing = partNumbers(parts).filter((n) => !have.has(n));
    if (missing.length > 0) {
      throw new FileStoreError('missing-parts', `Parts not received yet: ${missing.join(', ')}.`);
    }
    const dir = this.#uploadDir(uploadId);
    await this.#advanceHash(uploadId, manifest);
    const state = this.#hashes.get(uploadId);
    this.#hashes.delete(uploadId);
    // The running hash stands only if every part it read is still the part received (a re-send
    // after hashing, or a restart, means hashing the assembled bytes again).
    const valid =
      state !== undefined &&
      state.next > parts &&
      partNumbers(parts).every((n) => state.hashed[n] === have.get(n));
    let md5: string;
    if (valid) {
      md5 = state.hash.digest('hex');
    } else {
      const hash = createHash('md5');
      for await (const chunk of createReadStream(join(dir, DATA_FILE)))
        hash.update(chunk as Buffer);
      md5 = hash.digest('hex');
    }
    const data = await open(join(dir, DATA_FILE), 'r+');
    try {
      await data.sync();
    } finally {
      await data.close();
    }
    await this.#moveInto(join(dir, DATA_FILE), target);
    await rm(dir, { recursive: true, force: true });
    return { size: manifest.size, md5 };
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.#manifest(key, uploadId);
    } catch (error) {
      if (error instanceof FileStoreError && error.reason === 'not-found') return;
      throw error;
    }
    this.#hashes.delete(uploadId);
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
    try {
      await unlink(this.#objectPath(key));
    } catch (error) {
      if (!hasCode(error, 'ENOENT', 'ENOTDIR')) throw error;
    }
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

  /** Streams `source` into a new fsynced temporary file and returns its path; removes it on failure. */
  async #writeTemp(source: AsyncIterable<Buffer>): Promise<string> {
    const temp = this.#tempPath();
    await mkdir(dirname(temp), { recursive: true });
    const file = createWriteStream(temp, { flags: 'wx', flush: true });
    // Opened before any byte is read: were it still opening when the body fails, the file would
    // appear after the cleanup below had already run.
    await once(file, 'ready');
    try {
      await pipeline(source, file);
    } catch (error) {
      await rm(temp, { force: true });
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
    const segments = key.split('/');
    const unsafe =
      key.includes('\0') ||
      key.includes('\\') ||
      key.includes('..') ||
      isAbsolute(key) ||
      segments.some((s) => s === '' || s.startsWith('.'));
    const path = join(this.#root, ...segments);
    if (unsafe || !path.startsWith(this.#root + sep)) {
      throw new Error(`Refusing unsafe store key ${JSON.stringify(key)}.`);
    }
    return path;
  }
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

/** A part's MD5, or undefined when the sidecar is absent or torn (the part then counts as missing). */
async function readSidecar(path: string): Promise<string | undefined> {
  try {
    const md5 = await readFile(path, 'utf8');
    return MD5_HEX.test(md5) ? md5 : undefined;
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
