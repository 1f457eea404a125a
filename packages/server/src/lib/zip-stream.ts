import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * One file to put in an archive.
 *
 * `size` must be the exact number of bytes `open` yields: the archive's layout (and so
 * {@link zipSize}) is decided from it before any byte is read, and a file that turns out longer
 * or shorter fails the archive rather than corrupting it.
 */
export interface ZipEntry {
  /** Path inside the archive: relative, `/`-separated, no `..` segment. */
  name: string;
  size: number;
  mtime: Date;
  /** Opens the file's bytes; called only when the entry's turn comes, once. */
  open: () => Promise<NodeJS.ReadableStream | Readable>;
}

// Sizes and offsets from APPNOTE.TXT 6.3.10 (§4.3, §4.5); all integers little-endian.
const LOCAL_HEADER_LENGTH = 30;
const CENTRAL_HEADER_LENGTH = 46;
const DESCRIPTOR_LENGTH = 16;
const ZIP64_DESCRIPTOR_LENGTH = 24;
const END_LENGTH = 22;
const ZIP64_END_LENGTH = 56;
const ZIP64_LOCATOR_LENGTH = 20;
// Info-ZIP extended timestamp (0x5455) with the modification time only, in both headers.
const TIMESTAMP_FIELD_LENGTH = 9;
const ZIP64_FIELD_HEADER_LENGTH = 4;

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const DESCRIPTOR_SIGNATURE = 0x08074b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const END_SIGNATURE = 0x06054b50;

// Bit 3: the CRC follows the data in a descriptor (we only know it once the bytes have passed).
// Bit 11: names are UTF-8.
const FLAGS = (1 << 3) | (1 << 11);
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
// Unix, so that extractors honour the permission bits in the external attributes.
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
const REGULAR_FILE_MODE = 0o100644;
const EXTERNAL_ATTRIBUTES = (REGULAR_FILE_MODE << 16) >>> 0;
const METHOD_STORED = 0;

// A 32-bit (or 16-bit) field holding its maximum means "see the ZIP64 record" (§4.4.1.4), so the
// maximum itself already needs ZIP64.
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;

/** Where one entry sits and which ZIP64 fields it needs; everything {@link zipSize} depends on. */
interface EntryLayout {
  name: string;
  encodedName: Buffer;
  size: number;
  /** Offset of the local header from the start of the archive. */
  offset: number;
  /** The sizes overflow 32 bits: ZIP64 field in both headers, 8-byte sizes in the descriptor. */
  isLarge: boolean;
  /** The offset overflows 32 bits: the central header carries it in its ZIP64 field. */
  isFar: boolean;
}

function layOut(name: string, size: number, offset: number): EntryLayout {
  const encoded = Buffer.from(name, 'utf8');
  // Extractors write names as paths: refuse ones that would land outside the target folder or
  // read as a folder entry.
  if (
    name === '' ||
    name.startsWith('/') ||
    name.endsWith('/') ||
    name.includes('\0') ||
    name.split('/').includes('..')
  ) {
    throw new RangeError(`Zip entry name ${JSON.stringify(name)} is not a relative file path`);
  }
  if (encoded.length > MAX_16) throw new RangeError(`Zip entry name is too long: ${name}`);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new RangeError(`Zip entry ${name} has an invalid size: ${size}`);
  }
  return {
    name,
    encodedName: encoded,
    size,
    offset,
    isLarge: size >= MAX_32,
    isFar: offset >= MAX_32,
  };
}

function zip64LocalFieldLength(entry: EntryLayout): number {
  return entry.isLarge ? ZIP64_FIELD_HEADER_LENGTH + 16 : 0;
}

function zip64CentralFieldLength(entry: EntryLayout): number {
  // §4.5.3: only the fields whose 32-bit slot overflowed, in a fixed order.
  const length = (entry.isLarge ? 16 : 0) + (entry.isFar ? 8 : 0);
  return length === 0 ? 0 : ZIP64_FIELD_HEADER_LENGTH + length;
}

/** Bytes from the local header to the end of the data descriptor. */
function localLength(entry: EntryLayout): number {
  return (
    LOCAL_HEADER_LENGTH +
    entry.encodedName.length +
    TIMESTAMP_FIELD_LENGTH +
    zip64LocalFieldLength(entry) +
    entry.size +
    (entry.isLarge ? ZIP64_DESCRIPTOR_LENGTH : DESCRIPTOR_LENGTH)
  );
}

function centralLength(entry: EntryLayout): number {
  return (
    CENTRAL_HEADER_LENGTH +
    entry.encodedName.length +
    TIMESTAMP_FIELD_LENGTH +
    zip64CentralFieldLength(entry)
  );
}

function needsZip64End(count: number, centralOffset: number, centralSize: number): boolean {
  return count >= MAX_16 || centralOffset >= MAX_32 || centralSize >= MAX_32;
}

function endLength(count: number, centralOffset: number, centralSize: number): number {
  return needsZip64End(count, centralOffset, centralSize)
    ? ZIP64_END_LENGTH + ZIP64_LOCATOR_LENGTH + END_LENGTH
    : END_LENGTH;
}

/**
 * The exact byte length of the archive {@link zipStream} produces for these entries, in the same
 * order, so a download can announce its `Content-Length` before the first byte.
 *
 * Throws RangeError for a name or size {@link zipStream} would refuse.
 */
export function zipSize(entries: Iterable<Pick<ZipEntry, 'name' | 'size'>>): number {
  let offset = 0;
  let centralSize = 0;
  let count = 0;
  for (const { name, size } of entries) {
    const entry = layOut(name, size, offset);
    offset += localLength(entry);
    centralSize += centralLength(entry);
    count += 1;
  }
  return offset + centralSize + endLength(count, offset, centralSize);
}

/**
 * Streams a ZIP archive of the entries, stored without compression: research data is mostly
 * compressed already, and storing keeps the CPU free and the length predictable
 * ({@link zipSize}).
 *
 * Entries are opened one at a time, in order, only when the archive reaches them, and memory
 * stays bounded whatever the total size: bytes are pulled from a file only as fast as the
 * consumer reads the archive. ZIP64 records appear exactly where a size or offset needs them, so
 * archives and entries past 4 GiB work while small archives stay readable by old tools. Names are
 * flagged UTF-8.
 *
 * The stream is destroyed with the entry's own error when an entry's stream fails, and with a
 * RangeError when an entry is invalid or yields a different number of bytes than its `size`.
 * Destroying the archive stream destroys the entry stream being read.
 */
export function zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): Readable {
  return new ZipArchiveStream(entries);
}

class ZipArchiveStream extends Readable {
  readonly #chunks: AsyncGenerator<Uint8Array, void, undefined>;
  #isPulling = false;
  #current: Readable | undefined;

  constructor(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>) {
    super();
    this.#chunks = this.#generate(entries);
  }

  override _read(): void {
    // Node calls _read again while an earlier pull still awaits a file; one pull at a time keeps
    // the chunks in order.
    if (this.#isPulling) return;
    this.#isPulling = true;
    void this.#pull();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // The generator may be stuck awaiting a stalled file; ending that file lets it unwind, and
    // return() then runs its finally blocks (closing the file and the entry iterator).
    this.#current?.destroy();
    void this.#chunks.return(undefined).catch(() => undefined);
    callback(error);
  }

  async #pull(): Promise<void> {
    try {
      for (;;) {
        const next = await this.#chunks.next();
        if (this.destroyed) return;
        if (next.done === true) {
          this.push(null);
          return;
        }
        if (!this.push(next.value)) return;
      }
    } catch (error) {
      this.destroy(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.#isPulling = false;
    }
  }

  async *#generate(
    entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  ): AsyncGenerator<Uint8Array, void, undefined> {
    const centralHeaders: Buffer[] = [];
    let offset = 0;
    for await (const item of entries) {
      const entry = layOut(item.name, item.size, offset);
      const { mtime } = item;
      if (Number.isNaN(mtime.getTime())) {
        throw new RangeError(`Zip entry ${entry.name} has an invalid mtime`);
      }
      yield localHeader(entry, mtime);
      const crc = yield* this.#copy(entry, item);
      yield descriptor(entry, crc);
      centralHeaders.push(centralHeader(entry, mtime, crc));
      offset += localLength(entry);
    }
    let centralSize = 0;
    for (const header of centralHeaders) {
      yield header;
      centralSize += header.length;
    }
    yield end(centralHeaders.length, offset, centralSize);
  }

  /** Passes the entry's bytes through, returning their CRC-32. */
  async *#copy(entry: EntryLayout, item: ZipEntry): AsyncGenerator<Uint8Array, number, undefined> {
    const source = await item.open();
    const stream = source instanceof Readable ? source : new Readable().wrap(source);
    this.#current = stream;
    try {
      // Destroyed while the file opened: the queued return() takes effect at the next yield.
      if (this.destroyed) return 0;
      let crc = 0;
      let length = 0;
      for await (const chunk of stream as AsyncIterable<unknown>) {
        if (!(chunk instanceof Uint8Array)) {
          // A string chunk means an encoding was set on the stream; its bytes are not the file's.
          throw new TypeError(`Zip entry ${entry.name} yielded text, not bytes`);
        }
        length += chunk.length;
        if (length > entry.size) {
          throw new RangeError(`Zip entry ${entry.name} is longer than ${entry.size}`);
        }
        crc = crc32(chunk, crc);
        if (chunk.length > 0) yield chunk;
      }
      if (length !== entry.size) {
        throw new RangeError(`Zip entry ${entry.name} has ${length} bytes, not ${entry.size}`);
      }
      return crc;
    } finally {
      this.#current = undefined;
      // Releases the file when we stop early; a no-op once it has ended.
      stream.destroy();
    }
  }
}

/** MS-DOS date and time (§4.4.6), in UTC: the server's zone means nothing to whoever unzips. */
function dosDateTime(mtime: Date): { date: number; time: number } {
  const year = mtime.getUTCFullYear();
  // The format covers 1980–2107 only.
  if (year < 1980) return { date: (1 << 5) | 1, time: 0 };
  if (year > 2107) return { date: (127 << 9) | (12 << 5) | 31, time: (23 << 11) | (59 << 5) | 29 };
  return {
    date: ((year - 1980) << 9) | ((mtime.getUTCMonth() + 1) << 5) | mtime.getUTCDate(),
    time: (mtime.getUTCHours() << 11) | (mtime.getUTCMinutes() << 5) | (mtime.getUTCSeconds() >> 1),
  };
}

/** The Info-ZIP extended timestamp: the exact instant, which DOS time cannot carry. */
function writeTimestampField(buffer: Buffer, at: number, mtime: Date): number {
  const seconds = Math.min(Math.max(Math.floor(mtime.getTime() / 1000), -(2 ** 31)), 2 ** 31 - 1);
  buffer.writeUInt16LE(0x5455, at);
  buffer.writeUInt16LE(TIMESTAMP_FIELD_LENGTH - 4, at + 2);
  buffer.writeUInt8(1, at + 4); // modification time present
  buffer.writeInt32LE(seconds, at + 5);
  return at + TIMESTAMP_FIELD_LENGTH;
}

function clamp32(value: number): number {
  return Math.min(value, MAX_32);
}

function localHeader(entry: EntryLayout, mtime: Date): Buffer {
  const extraLength = TIMESTAMP_FIELD_LENGTH + zip64LocalFieldLength(entry);
  const buffer = Buffer.alloc(LOCAL_HEADER_LENGTH + entry.encodedName.length + extraLength);
  const { date, time } = dosDateTime(mtime);
  buffer.writeUInt32LE(LOCAL_HEADER_SIGNATURE, 0);
  buffer.writeUInt16LE(entry.isLarge ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  buffer.writeUInt16LE(FLAGS, 6);
  buffer.writeUInt16LE(METHOD_STORED, 8);
  buffer.writeUInt16LE(time, 10);
  buffer.writeUInt16LE(date, 12);
  // CRC left 0 for the descriptor. The sizes are known, and §4.4.4 says readers honouring bit 3
  // ignore them, but streaming readers (which cannot find the end of stored data otherwise) use
  // them when they are not zero.
  buffer.writeUInt32LE(clamp32(entry.size), 18);
  buffer.writeUInt32LE(clamp32(entry.size), 22);
  buffer.writeUInt16LE(entry.encodedName.length, 26);
  buffer.writeUInt16LE(extraLength, 28);
  entry.encodedName.copy(buffer, LOCAL_HEADER_LENGTH);
  const at = writeTimestampField(buffer, LOCAL_HEADER_LENGTH + entry.encodedName.length, mtime);
  if (entry.isLarge) {
    // §4.5.3: in a local header the ZIP64 field holds both sizes. Its presence is also what tells
    // readers (libarchive among them) that the descriptor has 8-byte sizes.
    buffer.writeUInt16LE(0x0001, at);
    buffer.writeUInt16LE(16, at + 2);
    buffer.writeBigUInt64LE(BigInt(entry.size), at + 4);
    buffer.writeBigUInt64LE(BigInt(entry.size), at + 12);
  }
  return buffer;
}

function descriptor(entry: EntryLayout, crc: number): Buffer {
  // §4.3.9.3: the signature is optional, but libarchive finds the end of stored data by it and the
  // macOS Archive Utility expects it.
  if (entry.isLarge) {
    const buffer = Buffer.alloc(ZIP64_DESCRIPTOR_LENGTH);
    buffer.writeUInt32LE(DESCRIPTOR_SIGNATURE, 0);
    buffer.writeUInt32LE(crc, 4);
    buffer.writeBigUInt64LE(BigInt(entry.size), 8);
    buffer.writeBigUInt64LE(BigInt(entry.size), 16);
    return buffer;
  }
  const buffer = Buffer.alloc(DESCRIPTOR_LENGTH);
  buffer.writeUInt32LE(DESCRIPTOR_SIGNATURE, 0);
  buffer.writeUInt32LE(crc, 4);
  buffer.writeUInt32LE(entry.size, 8);
  buffer.writeUInt32LE(entry.size, 12);
  return buffer;
}

function centralHeader(entry: EntryLayout, mtime: Date, crc: number): Buffer {
  const zip64Length = zip64CentralFieldLength(entry);
  const extraLength = TIMESTAMP_FIELD_LENGTH + zip64Length;
  const buffer = Buffer.alloc(centralLength(entry));
  const { date, time } = dosDateTime(mtime);
  buffer.writeUInt32LE(CENTRAL_HEADER_SIGNATURE, 0);
  buffer.writeUInt16LE(VERSION_MADE_BY, 4);
  buffer.writeUInt16LE(zip64Length > 0 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  buffer.writeUInt16LE(FLAGS, 8);
  buffer.writeUInt16LE(METHOD_STORED, 10);
  buffer.writeUInt16LE(time, 12);
  buffer.writeUInt16LE(date, 14);
  buffer.writeUInt32LE(crc, 16);
  buffer.writeUInt32LE(clamp32(entry.size), 20);
  buffer.writeUInt32LE(clamp32(entry.size), 24);
  buffer.writeUInt16LE(entry.encodedName.length, 28);
  buffer.writeUInt16LE(extraLength, 30);
  // Comment length, disk number and internal attributes stay 0.
  buffer.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  buffer.writeUInt32LE(clamp32(entry.offset), 42);
  entry.encodedName.copy(buffer, CENTRAL_HEADER_LENGTH);
  let at = writeTimestampField(buffer, CENTRAL_HEADER_LENGTH + entry.encodedName.length, mtime);
  if (zip64Length > 0) {
    buffer.writeUInt16LE(0x0001, at);
    buffer.writeUInt16LE(zip64Length - ZIP64_FIELD_HEADER_LENGTH, at + 2);
    at += ZIP64_FIELD_HEADER_LENGTH;
    if (entry.isLarge) {
      buffer.writeBigUInt64LE(BigInt(entry.size), at);
      buffer.writeBigUInt64LE(BigInt(entry.size), at + 8);
      at += 16;
    }
    if (entry.isFar) buffer.writeBigUInt64LE(BigInt(entry.offset), at);
  }
  return buffer;
}

function end(count: number, centralOffset: number, centralSize: number): Buffer {
  const buffer = Buffer.alloc(endLength(count, centralOffset, centralSize));
  let at = 0;
  if (needsZip64End(count, centralOffset, centralSize)) {
    buffer.writeUInt32LE(ZIP64_END_SIGNATURE, 0);
    // §4.3.14.1: the record's size excludes its first 12 bytes.
    buffer.writeBigUInt64LE(BigInt(ZIP64_END_LENGTH - 12), 4);
    buffer.writeUInt16LE(VERSION_MADE_BY, 12);
    buffer.writeUInt16LE(VERSION_ZIP64, 14);
    // Disk numbers (single-disk archive) stay 0.
    buffer.writeBigUInt64LE(BigInt(count), 24);
    buffer.writeBigUInt64LE(BigInt(count), 32);
    buffer.writeBigUInt64LE(BigInt(centralSize), 40);
    buffer.writeBigUInt64LE(BigInt(centralOffset), 48);
    at = ZIP64_END_LENGTH;
    buffer.writeUInt32LE(ZIP64_LOCATOR_SIGNATURE, at);
    buffer.writeBigUInt64LE(BigInt(centralOffset + centralSize), at + 8);
    buffer.writeUInt32LE(1, at + 16); // total number of disks
    at += ZIP64_LOCATOR_LENGTH;
  }
  buffer.writeUInt32LE(END_SIGNATURE, at);
  buffer.writeUInt16LE(Math.min(count, MAX_16), at + 8);
  buffer.writeUInt16LE(Math.min(count, MAX_16), at + 10);
  buffer.writeUInt32LE(clamp32(centralSize), at + 12);
  buffer.writeUInt32LE(clamp32(centralOffset), at + 16);
  return buffer;
}
