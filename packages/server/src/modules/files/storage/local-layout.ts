import { lstat, mkdir, open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { FileStoreError, type ObjectListing } from './file-store.js';
import { Md5 } from './md5.js';

// How the local store lays its bytes out on disk, and how it reads that layout back.

/** Where bytes wait until they are complete; inside the root so `rename` stays atomic. */
export const TEMP_DIR = '.tmp';
export const MULTIPART_DIR = '.multipart';
export const MANIFEST = 'manifest.json';
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
export const DATA_FILE = 'data';
/** Sidecar content of a part received whole but not hashed (no Content-MD5 came with it). */
export const RECEIVED = 'received';
export const SIDECAR_FILE = /^part-([1-9][0-9]*)\.md5$/;
const MD5_HEX = /^[0-9a-f]{32}$/;

/** What `createMultipart` records about an upload, in `<root>/.multipart/<uploadId>/manifest.json`. */
export interface Manifest {
  key: string;
  size: number;
  partSize: number;
  parts: number;
  createdAt: string;
}

/** `<root>/.multipart/<uploadId>`: the folder of one multipart upload. */
export function uploadDir(root: string, uploadId: string): string {
  return join(root, MULTIPART_DIR, uploadId);
}

export function sidecarPath(dir: string, part: number): string {
  return join(dir, `part-${part}.md5`);
}

export function partLength(manifest: Manifest, part: number): number {
  return part < manifest.parts
    ? manifest.partSize
    : manifest.size - manifest.partSize * (manifest.parts - 1);
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

export async function readManifest(dir: string): Promise<Manifest | undefined> {
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
export async function readSidecar(path: string): Promise<string | null | undefined> {
  try {
    const content = await readFile(path, 'utf8');
    if (content === RECEIVED) return null;
    return MD5_HEX.test(content) ? content : undefined;
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/**
 * Runs `step`, and only when it fails for want of the folder `dir` creates the folder and runs it
 * again. The folders nearly always exist already: creating them before every write (a `mkdir`, its
 * EEXIST and a `stat`) cost a small file about as much CPU as its fsync.
 */
export async function inFolder<T>(dir: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!hasCode(error, 'ENOENT')) throw error;
  }
  await mkdir(dir, { recursive: true });
  return step();
}

/** Makes a rename durable: the directory entry, not only the file's bytes, must reach the disk. */
export async function syncDirectory(dir: string): Promise<void> {
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
export async function hashFile(path: string, start: number, end: number): Promise<string> {
  const hash = new Md5();
  try {
    await hash.updateFromFile(path, start, end);
  } catch (error) {
    hash.discard();
    throw error;
  }
  return hash.digest();
}

export function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

export function hasCode(error: unknown, ...codes: string[]): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    codes.includes((error as NodeJS.ErrnoException).code ?? '')
  );
}

export function objectNotFound(key: string): FileStoreError {
  return new FileStoreError('not-found', `No object under ${key}.`);
}

export function uploadNotFound(uploadId: string): FileStoreError {
  return new FileStoreError('not-found', `No multipart upload ${uploadId} for this key.`);
}

/** `work`, with a missing upload folder (completed or aborted meanwhile) said as such. */
export async function orUploadGone<T>(uploadId: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (hasCode(error, 'ENOENT')) throw uploadNotFound(uploadId);
    throw error;
  }
}

/**
 * One page of the objects under `top` (the folder of `options.prefix`), in key order: their keys
 * as `prefix` + the path below `top`, those older than `olderThan` only, and where the next page
 * starts when this one is full.
 */
export async function listObjectsPage(
  top: string,
  options: ObjectListing,
): Promise<{ keys: string[]; next?: string }> {
  const { prefix, after = '', limit, olderThan } = options;
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
