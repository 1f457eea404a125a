import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { zipSize, zipStream, type ZipEntry } from './zip-stream.js';

const run = promisify(execFile);
const hasUnzip = spawnSync('unzip', ['-v']).status === 0;
const hasPython = spawnSync('python3', ['--version']).status === 0;
const MTIME = new Date('2024-03-15T12:34:57Z');
// Info-ZIP extended timestamp 0x5455, 5 bytes: flags (mtime), MTIME in Unix seconds.
const TIMESTAMP_FIELD = '5554050001' + Buffer.from([0x71, 0x40, 0xf4, 0x65]).toString('hex');

/** Reads an archive with Python's zipfile; testzip() reads every entry and checks its CRC. */
const READ_ARCHIVE = `
import base64, json, sys, zipfile
path, check = sys.argv[1], sys.argv[2] == 'check'
with zipfile.ZipFile(path) as archive:
    entries = []
    for info in archive.infolist():
        entry = {key: getattr(info, key) for key in (
            'filename', 'file_size', 'compress_size', 'compress_type', 'flag_bits',
            'extract_version', 'create_system', 'external_attr', 'header_offset', 'CRC')}
        entry['date_time'] = list(info.date_time)
        entry['extra'] = info.extra.hex()
        if info.file_size <= 1 << 20:
            entry['data'] = base64.b64encode(archive.read(info)).decode()
        entries.append(entry)
    print(json.dumps({'bad': archive.testzip() if check else None, 'entries': entries}))
`;

interface PythonEntry {
  filename: string;
  file_size: number;
  compress_size: number;
  compress_type: number;
  flag_bits: number;
  extract_version: number;
  create_system: number;
  external_attr: number;
  header_offset: number;
  CRC: number;
  date_time: number[];
  extra: string;
  data?: string;
}

async function readWithPython(
  file: string,
  { check = true } = {},
): Promise<{ bad: string | null; entries: PythonEntry[] }> {
  const { stdout } = await run('python3', ['-c', READ_ARCHIVE, file, check ? 'check' : 'list'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { bad: string | null; entries: PythonEntry[] };
}

/** An entry whose bytes arrive in several chunks, so the CRC spans chunk boundaries. */
function entryOf(name: string, content: Buffer | string, mtime = MTIME): ZipEntry {
  const bytes = Buffer.from(content);
  return {
    name,
    size: bytes.length,
    mtime,
    open: () => {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 4096) chunks.push(bytes.subarray(at, at + 4096));
      return Promise.resolve(Readable.from(chunks));
    },
  };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* asAsync<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cairn-zip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('zipStream', () => {
  const contents = {
    'README.md': '# Survey\n\nSee data/.\n',
    'empty.txt': '',
    'data/raw/table.csv': 'id,value\n'.concat('1,2.5\n'.repeat(5000)),
    'données/été.csv': 'ville,température\nMontréal,-12\n',
    'binary.bin': randomBytes(200_000),
  };
  const entries = () => Object.entries(contents).map(([name, content]) => entryOf(name, content));

  let archive: Buffer;
  let file: string;
  beforeAll(async () => {
    archive = await bytesOf(zipStream(asAsync(entries())));
    file = path.join(dir, 'survey.zip');
    await writeFile(file, archive);
  });

  it('has exactly the length zipSize announces', () => {
    expect(archive.length).toBe(zipSize(entries()));
  });

  it.skipIf(!hasPython)('round-trips every entry and its bytes through Python', async () => {
    const { bad, entries: read } = await readWithPython(file);
    expect(bad).toBeNull();
    expect(read.map((entry) => entry.filename)).toEqual(Object.keys(contents));
    for (const entry of read) {
      const expected = Buffer.from(contents[entry.filename as keyof typeof contents]);
      expect(Buffer.from(entry.data ?? '', 'base64').equals(expected)).toBe(true);
      expect(entry.file_size).toBe(expected.length);
      expect(entry.compress_size).toBe(expected.length);
      expect(entry.compress_type).toBe(0);
      // UTF-8 names and a data descriptor.
      expect(entry.flag_bits).toBe(0x0808);
      // Small archives carry no ZIP64 fields, so tools without ZIP64 read them.
      expect(entry.extract_version).toBe(20);
      expect(entry.extra).toBe(TIMESTAMP_FIELD);
      // DOS time has two-second resolution and no zone: UTC.
      expect(entry.date_time).toEqual([2024, 3, 15, 12, 34, 56]);
      expect(entry.create_system).toBe(3);
      expect(entry.external_attr >>> 16).toBe(0o100644);
    }
  });

  it.skipIf(!hasUnzip)('passes unzip -t and lists every name with unzip -l', async () => {
    const env = { ...process.env, LC_ALL: 'C.UTF-8' };
    const tested = await run('unzip', ['-t', file], { env });
    expect(tested.stdout).toContain('No errors detected');
    const listed = await run('unzip', ['-l', file], { env });
    for (const name of Object.keys(contents)) expect(listed.stdout).toContain(name);
    expect(listed.stdout).toMatch(/\s5 files\s*$/);
  });

  it.skipIf(!hasUnzip)('extracts folders, bytes and the exact modification time', async () => {
    const target = path.join(dir, 'extracted');
    await run('unzip', ['-q', '-o', file, '-d', target], {
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    });
    for (const [name, content] of Object.entries(contents)) {
      const extracted = path.join(target, ...name.split('/'));
      expect((await readFile(extracted)).equals(Buffer.from(content))).toBe(true);
      // The extended timestamp keeps the odd second that DOS time loses.
      expect((await stat(extracted)).mtime.getTime()).toBe(MTIME.getTime());
    }
  });

  it.skipIf(!hasPython)('produces a valid empty archive', async () => {
    const empty = await bytesOf(zipStream([]));
    expect(empty.length).toBe(22);
    expect(zipSize([])).toBe(22);
    const emptyFile = path.join(dir, 'empty.zip');
    await writeFile(emptyFile, empty);
    expect((await readWithPython(emptyFile)).entries).toEqual([]);
  });

  it.skipIf(!hasPython)(
    'writes ZIP64 end records from 65,535 entries on, and Python reads them',
    async () => {
      const many = Array.from({ length: 0xffff }, (_, i) => entryOf(`f/${i}.txt`, `${i}`));
      const bytes = await bytesOf(zipStream(many));
      expect(bytes.length).toBe(zipSize(many));
      // ZIP64 end of central directory record and locator precede the classic end record.
      expect(bytes.readUInt32LE(bytes.length - 22 - 20 - 56)).toBe(0x06064b50);
      expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(0xffff);
      const manyFile = path.join(dir, 'many.zip');
      await writeFile(manyFile, bytes);
      const { stdout } = await run('python3', [
        '-c',
        `import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
print(len(names), names[-1], z.read(names[-1]).decode(), z.testzip())`,
        manyFile,
      ]);
      expect(stdout.trim()).toBe('65535 f/65534.txt 65534 None');
    },
  );

  it('opens entries lazily, one at a time, in order', async () => {
    const log: string[] = [];
    let openNow = 0;
    let mostOpen = 0;
    const tracked = ['a', 'b', 'c'].map((name): ZipEntry => {
      const inner = entryOf(name, randomBytes(50_000));
      return {
        ...inner,
        open: async () => {
          log.push(`open ${name}`);
          openNow += 1;
          mostOpen = Math.max(mostOpen, openNow);
          const stream = (await inner.open()) as Readable;
          stream.once('close', () => {
            openNow -= 1;
            log.push(`close ${name}`);
          });
          return stream;
        },
      };
    });
    const stream = zipStream(asAsync(tracked));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual([]);
    await bytesOf(stream);
    expect(mostOpen).toBe(1);
    expect(log).toEqual(['open a', 'close a', 'open b', 'close b', 'open c', 'close c']);
  });

  it('reads an entry only as fast as the archive is consumed', async () => {
    const size = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 7);
    let produced = 0;
    const source = new Readable({
      read() {
        produced += chunk.length;
        this.push(chunk);
        if (produced === size) this.push(null);
      },
    });
    const stream = zipStream([
      { name: 'big.bin', size, mtime: MTIME, open: () => Promise.resolve(source) },
    ]);
    stream.once('readable', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(1024 * 1024);

    let length = 0;
    for await (const part of stream) length += (part as Buffer).length;
    expect(produced).toBe(size);
    expect(length).toBe(zipSize([{ name: 'big.bin', size }]));
  });

  it('fails with the error of an entry stream, and opens nothing after it', async () => {
    const failure = new Error('disk on fire');
    const opened: string[] = [];
    const failing: ZipEntry = {
      name: 'broken.bin',
      size: 100_000,
      mtime: MTIME,
      open: () => {
        opened.push('broken.bin');
        return Promise.resolve(
          Readable.from(
            (async function* () {
              yield Buffer.alloc(10_000);
              await Promise.resolve();
              throw failure;
            })(),
          ),
        );
      },
    };
    const after: ZipEntry = {
      ...entryOf('after.txt', 'after'),
      open: () => {
        opened.push('after.txt');
        return entryOf('after.txt', 'after').open();
      },
    };
    const stream = zipStream([entryOf('first.txt', 'first'), failing, after]);
    await expect(bytesOf(stream)).rejects.toBe(failure);
    expect(stream.destroyed).toBe(true);
    expect(opened).toEqual(['broken.bin']);
  });

  it('fails with the error of an entry that cannot be opened', async () => {
    const failure = new Error('no such object');
    const stream = zipStream([
      { name: 'gone.bin', size: 1, mtime: MTIME, open: () => Promise.reject(failure) },
    ]);
    await expect(bytesOf(stream)).rejects.toBe(failure);
  });

  it('fails when the entries themselves fail', async () => {
    const failure = new Error('database gone');
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield entryOf('a.txt', 'a');
      await Promise.resolve();
      throw failure;
    }
    await expect(bytesOf(zipStream(entries()))).rejects.toBe(failure);
  });

  it('fails when an entry is shorter or longer than its declared size', async () => {
    const shorter = { ...entryOf('short.txt', 'abc'), size: 4 };
    await expect(bytesOf(zipStream([shorter]))).rejects.toThrow(
      'Zip entry short.txt has 3 bytes, not 4',
    );
    const longer = { ...entryOf('long.txt', 'abcde'), size: 4 };
    await expect(bytesOf(zipStream([longer]))).rejects.toThrow(
      'Zip entry long.txt is longer than 4',
    );
  });

  it('fails when an entry yields text instead of bytes', async () => {
    const text: ZipEntry = {
      name: 'a.txt',
      size: 3,
      mtime: MTIME,
      open: () => Promise.resolve(Readable.from(['abc'])),
    };
    await expect(bytesOf(zipStream([text]))).rejects.toThrow(TypeError);
  });

  it('accepts a classic stream that is not a Readable', async () => {
    const classic = Readable.from([Buffer.from('classic')]) as NodeJS.ReadableStream;
    const wrapped: ZipEntry = {
      name: 'c.txt',
      size: 7,
      mtime: MTIME,
      // Hide the prototype so the archive has to wrap it.
      open: () =>
        Promise.resolve({
          on: classic.on.bind(classic),
          pause: classic.pause.bind(classic),
          resume: classic.resume.bind(classic),
        } as unknown as NodeJS.ReadableStream),
    };
    const bytes = await bytesOf(zipStream([wrapped]));
    expect(bytes.length).toBe(zipSize([wrapped]));
    expect(bytes.includes('classic')).toBe(true);
  });

  it('destroys a stalled entry, and closes the entries, when destroyed', async () => {
    // Yields its first bytes, then never another: a hung network read.
    const stalled = new Readable({ read() {} });
    stalled.push(Buffer.from('first'));
    let entriesClosed = false;
    async function* entries(): AsyncGenerator<ZipEntry> {
      try {
        yield { name: 'stalled.bin', size: 10, mtime: MTIME, open: () => Promise.resolve(stalled) };
        await Promise.resolve();
        yield entryOf('never.txt', 'never');
      } finally {
        entriesClosed = true;
      }
    }
    const stream = zipStream(entries());
    // Once its first bytes are out, the archive is waiting on the stalled entry.
    await new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        if (chunk.toString() === 'first') resolve();
      });
    });
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(stalled.destroyed).toBe(true);
    await vi.waitFor(() => expect(entriesClosed).toBe(true));
  });

  it('closes the entry and the entries when destroyed while the consumer is slow', async () => {
    const source = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    let entriesClosed = false;
    function* entries(): Generator<ZipEntry> {
      try {
        yield {
          name: 'slow.bin',
          size: 2 ** 30,
          mtime: MTIME,
          open: () => Promise.resolve(source),
        };
      } finally {
        entriesClosed = true;
      }
    }
    const stream = zipStream(entries());
    // Fill the archive's buffer, then leave it full: the archive waits on its reader.
    stream.once('readable', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await vi.waitFor(() => {
      expect(source.destroyed).toBe(true);
      expect(entriesClosed).toBe(true);
    });
  });

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['../outside.txt', 'parent'],
    ['data/../../outside.txt', 'nested parent'],
    ['folder/', 'folder'],
    ['nul\0.txt', 'NUL'],
    ['x'.repeat(70_000), 'too long'],
  ])('refuses the %j name (%s)', async (name) => {
    expect(() => zipSize([{ name, size: 1 }])).toThrow(RangeError);
    await expect(bytesOf(zipStream([entryOf(name, 'x')]))).rejects.toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses the size %d', async (size) => {
    expect(() => zipSize([{ name: 'a.txt', size }])).toThrow(RangeError);
    await expect(bytesOf(zipStream([{ ...entryOf('a.txt', 'x'), size }]))).rejects.toThrow(
      RangeError,
    );
  });

  it('refuses an invalid modification time', async () => {
    const entry = entryOf('a.txt', 'x', new Date(Number.NaN));
    await expect(bytesOf(zipStream([entry]))).rejects.toThrow(RangeError);
  });

  it.skipIf(!hasPython)('clamps modification times to the DOS range', async () => {
    const old = entryOf('old.txt', 'old', new Date('1970-01-01T00:00:00Z'));
    const future = entryOf('future.txt', 'future', new Date('2200-01-01T00:00:00Z'));
    const clampedFile = path.join(dir, 'clamped.zip');
    await writeFile(clampedFile, await bytesOf(zipStream([old, future])));
    const { entries: read } = await readWithPython(clampedFile);
    expect(read.map((entry) => entry.date_time)).toEqual([
      [1980, 1, 1, 0, 0, 0],
      [2107, 12, 31, 23, 59, 58],
    ]);
  });
});

describe('zipStream past 4 GiB', () => {
  const GiB = 1024 * 1024 * 1024;
  const zeros = Buffer.alloc(16 * 1024 * 1024);
  const bigSize = 4.5 * GiB;

  /** 4.5 GiB of zeros without allocating them: the same zero chunk, over and over. */
  const bigEntry: ZipEntry = {
    name: 'huge/zeros.bin',
    size: bigSize,
    mtime: MTIME,
    open: () =>
      Promise.resolve(
        Readable.from(
          (function* () {
            for (let left = bigSize; left > 0; left -= zeros.length) {
              yield left >= zeros.length ? zeros : zeros.subarray(0, left);
            }
          })(),
        ),
      ),
  };
  const entries = [bigEntry, entryOf('after.txt', 'written past 4 GiB')];

  /**
   * Writes the archive as a sparse file: zero chunks become holes, so the 4.5 GiB archive takes
   * a few kilobytes of disk and reads back exactly as streamed.
   */
  async function writeSparse(stream: Readable, file: string): Promise<number> {
    const handle = await open(file, 'w');
    let position = 0;
    try {
      await pipeline(
        stream,
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            const at = position;
            position += chunk.length;
            if (chunk.length === zeros.length && chunk.equals(zeros)) {
              callback();
              return;
            }
            handle.write(chunk, 0, chunk.length, at).then(() => callback(), callback);
          },
        }),
      );
      await handle.truncate(position);
    } finally {
      await handle.close();
    }
    return position;
  }

  it.skipIf(!hasPython)(
    'writes ZIP64 sizes and offsets that Python reads',
    async () => {
      const file = path.join(dir, 'huge.zip');
      const length = await writeSparse(zipStream(entries), file);
      expect(length).toBe(zipSize(entries));
      expect(length).toBeGreaterThan(bigSize);

      // Reading 4.5 GiB back through testzip() takes 5-15 s (unzip -t: 30 s); the layout is proven
      // by reading the entry that follows it, and the CRC by comparison with a known value.
      const { entries: read } = await readWithPython(file, { check: false });
      const [big, after] = read;
      expect(big).toMatchObject({
        filename: 'huge/zeros.bin',
        file_size: bigSize,
        compress_size: bigSize,
        extract_version: 45,
        header_offset: 0,
      });
      expect(after).toMatchObject({ filename: 'after.txt', extract_version: 45 });
      expect(after?.header_offset).toBeGreaterThan(4 * GiB);
      expect(Buffer.from(after?.data ?? '', 'base64').toString()).toBe('written past 4 GiB');

      // CRC-32 of 4.5 GiB of zeros, as Python's zlib.crc32 computes it.
      expect(big?.CRC).toBe(0xe90177c6);
    },
    120_000,
  );
});
