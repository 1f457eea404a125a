import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import yauzl from 'yauzl';
import { AppError } from '../../errors.js';
import type { ByteRange } from './storage/file-store.js';

/**
 * What is inside a zip or tar file, for the landing page's preview and InvenioRDM's container
 * listing (`…/files/{key}/container`): a tree of directories and files, at most MAX_LISTED
 * entries. A zip's central directory sits at its end, so a zip is listed from a few ranged reads
 * of the store, whatever its size. A tar has no index: its headers are read in order, and a
 * gzipped one decompressed on the way, up to TAR_SCAN_BYTES of stored bytes; what lies beyond is
 * reported as truncated rather than read.
 */

export type ContainerFormat = 'zip' | 'tar' | 'tar.gz';

export interface ContainerFile {
  key: string;
  type: 'file';
  size: number;
  modified?: string;
}

export interface ContainerDirectory {
  key: string;
  type: 'directory';
  entries: ContainerEntry[];
}

export type ContainerEntry = ContainerFile | ContainerDirectory;

export interface ContainerListing {
  format: ContainerFormat;
  entries: ContainerEntry[];
  /** Entries (files and directories) in the archive, when known; null when a tar was cut short. */
  total: number | null;
  truncated: boolean;
}

/** Entries listed in one answer (InvenioRDM's default listing size). */
export const MAX_LISTED = 1000;
/** Stored bytes of a tar read at most for its listing. */
export const TAR_SCAN_BYTES = 256 * 1024 * 1024;
/** Bytes fetched at once while reading a zip's central directory, so entries cost no request each. */
const READ_AHEAD = 1024 * 1024;

/** The container format a file is, from its name and media type; undefined for the rest. */
export function containerFormat(key: string, mimetype: string): ContainerFormat | undefined {
  const name = key.toLowerCase();
  if (name.endsWith('.zip') || mimetype === 'application/zip') return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar') || mimetype === 'application/x-tar') return 'tar';
  return undefined;
}

type Open = (range?: ByteRange) => Promise<Readable>;

/** Lists the archive `key` of `size` bytes, read through `open`; 400 when it is not one. */
export async function listContainer(
  key: string,
  mimetype: string,
  size: number,
  open: Open,
): Promise<ContainerListing> {
  const format = containerFormat(key, mimetype);
  if (!format) throw new AppError('VALIDATION_FAILED', `File ${key} is not a zip or tar archive.`);
  try {
    return format === 'zip' ? await listZip(size, open) : await listTar(format, size, open);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'VALIDATION_FAILED',
      `File ${key} cannot be read as a ${format} archive: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A tree built from the archive's paths; directories implied by a path are made on the way. */
class Tree {
  readonly root: ContainerDirectory = { key: '', type: 'directory', entries: [] };
  readonly #dirs = new Map<string, ContainerDirectory>([['', this.root]]);
  listed = 0;

  get full(): boolean {
    return this.listed >= MAX_LISTED;
  }

  add(path: string, entry: { directory: boolean; size: number; modified?: Date }): void {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) return;
    const name = parts.pop()!;
    const parent = this.#dir(parts);
    if (!parent) return;
    if (entry.directory) {
      this.#dir([...parts, name]);
      return;
    }
    if (this.full) return;
    this.listed++;
    parent.entries.push({
      key: name,
      type: 'file',
      size: entry.size,
      ...(entry.modified && !Number.isNaN(entry.modified.getTime())
        ? { modified: entry.modified.toISOString() }
        : {}),
    });
  }

  #dir(parts: string[]): ContainerDirectory | undefined {
    let path = '';
    let dir = this.root;
    for (const part of parts) {
      path = path ? `${path}/${part}` : part;
      let next = this.#dirs.get(path);
      if (!next) {
        if (this.full) return undefined;
        this.listed++;
        next = { key: part, type: 'directory', entries: [] };
        dir.entries.push(next);
        this.#dirs.set(path, next);
      }
      dir = next;
    }
    return dir;
  }
}

/** yauzl's reader over the store, fetching READ_AHEAD at a time and keeping the last block. */
class StoreReader extends yauzl.RandomAccessReader {
  #block: { start: number; bytes: Buffer } | undefined;

  constructor(
    private readonly size: number,
    private readonly open: Open,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const stream = new Readable({ read() {} });
    this.open({ start, end: end - 1 }).then(
      (source) => source.on('data', (c) => stream.push(c)).on('end', () => stream.push(null)),
      (error: Error) => stream.destroy(error),
    );
    return stream;
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ): void {
    this.#bytes(position, length).then(
      (bytes) => {
        bytes.copy(buffer, offset);
        callback(null);
      },
      (error: Error) => callback(error),
    );
  }

  async #bytes(position: number, length: number): Promise<Buffer> {
    const block = this.#block;
    if (block && position >= block.start && position + length <= block.start + block.bytes.length)
      return block.bytes.subarray(position - block.start, position - block.start + length);
    if (length === 0) return Buffer.alloc(0);
    const end = Math.min(this.size, position + Math.max(length, READ_AHEAD)) - 1;
    const chunks: Buffer[] = [];
    await pipeline(
      await this.open({ start: position, end }),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    const bytes = Buffer.concat(chunks);
    if (bytes.length < length) throw new Error('the file ended before its central directory did');
    this.#block = { start: position, bytes };
    return bytes.subarray(0, length);
  }
}

async function listZip(size: number, open: Open): Promise<ContainerListing> {
  const reader = new StoreReader(size, open);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      reader,
      size,
      { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false },
      (error, file) => (error ? reject(error) : resolve(file)),
    ),
  );
  const tree = new Tree();
  let read = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        read++;
        const directory = entry.fileName.endsWith('/');
        tree.add(entry.fileName, {
          directory,
          size: entry.uncompressedSize,
          modified: entry.getLastModDate(),
        });
        if (tree.full) resolve();
        else zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return {
    format: 'zip',
    entries: tree.root.entries,
    total: zip.entryCount,
    truncated: read < zip.entryCount,
  };
}

async function listTar(
  format: 'tar' | 'tar.gz',
  size: number,
  open: Open,
): Promise<ContainerListing> {
  const tree = new Tree();
  const scanned = Math.min(size, TAR_SCAN_BYTES);
  const source = await open(scanned > 0 ? { start: 0, end: scanned - 1 } : undefined);
  const extract = tarStream.extract();
  let seen = 0;
  let stopped = false;
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      seen++;
      tree.add(header.name, {
        directory: header.type === 'directory',
        size: header.size ?? 0,
        ...(header.mtime ? { modified: header.mtime } : {}),
      });
      if (tree.full) {
        stopped = true;
        resolve();
        return;
      }
      stream.on('end', next);
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  const input = format === 'tar.gz' ? source.pipe(createGunzip()) : source;
  input.on('error', (error) => extract.destroy(error));
  input.pipe(extract);
  try {
    await done;
  } catch (error) {
    // The scan stopped at TAR_SCAN_BYTES inside an entry: what was listed stands.
    if (scanned < size && seen > 0) return cut(format, tree);
    throw error;
  } finally {
    source.destroy();
    extract.destroy();
  }
  if (stopped || scanned < size) return cut(format, tree);
  return { format, entries: tree.root.entries, total: seen, truncated: false };
}

function cut(format: ContainerFormat, tree: Tree): ContainerListing {
  return { format, entries: tree.root.entries, total: null, truncated: true };
}
