import { createHash, randomBytes } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  contentMd5,
  describeFileStoreContract,
  expectFailure,
  md5,
  newKey,
  readAll,
  streamOf,
} from './file-store.contract.js';
import { LocalFileStore } from './local-file-store.js';
import { Md5 } from './md5.js';

describeFileStoreContract('local folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-local-store-'));
  return {
    store: new LocalFileStore({ root }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
});

describe('LocalFileStore', () => {
  let root: string;
  let store: LocalFileStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-local-store-'));
    store = new LocalFileStore({ root });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps an object at <root>/<key>', async () => {
    const key = newKey();
    await store.put(key, streamOf(randomBytes(100)), { maxSize: 100 });

    expect((await stat(join(root, ...key.split('/')))).size).toBe(100);
  });

  it.each([
    ['a parent step', '../outside'],
    ['a parent step inside', 'ab/../../outside'],
    ['an absolute path', '/etc/passwd'],
    ['a NUL byte', 'ab/c\0d'],
    ['a backslash', 'ab\\..\\cd'],
    ['an empty segment', 'ab//cd'],
    ['the empty key', ''],
    ["the store's temporary folder", '.tmp/x'],
    ["the store's multipart folder", '.multipart/x/manifest.json'],
  ])('refuses a key with %s', async (_, key) => {
    await expect(store.put(key, streamOf(Buffer.from('x')), { maxSize: 10 })).rejects.toThrow(
      /unsafe store key/,
    );
    await expect(store.read(key)).rejects.toThrow(/unsafe store key/);
    await expect(store.delete(key)).rejects.toThrow(/unsafe store key/);
    await expect(store.createMultipart(key, { size: 1, partSize: 1, parts: 1 })).rejects.toThrow(
      /unsafe store key/,
    );
  });

  it('leaves no temporary files behind when writes fail', async () => {
    const key = newKey();
    const failing = Readable.from(
      (async function* chunks() {
        yield randomBytes(1000);
        await Promise.resolve();
        throw new Error('connection reset by peer');
      })(),
    );
    await expectFailure(
      store.put(key, streamOf(randomBytes(2000)), { maxSize: 1000 }),
      'too-large',
    );
    await expectFailure(store.put(key, failing, { maxSize: 5000 }), 'aborted');
    const uploadId = await store.createMultipart(key, { size: 1000, partSize: 1000, parts: 1 });
    await expectFailure(
      store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), {
        expectedSize: 1000,
        contentMd5: contentMd5(randomBytes(10)),
      }),
      'checksum-mismatch',
    );
    await expectFailure(
      store.putPart(key, uploadId, 1, streamOf(randomBytes(10)), { expectedSize: 1000 }),
      'size-mismatch',
    );

    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    expect(await readdir(join(root, '.multipart', uploadId))).toEqual(['data', 'manifest.json']);
  });

  it('computes the whole-file MD5 right when a part is re-sent with other bytes after it was hashed', async () => {
    const key = newKey();
    const uploadId = await store.createMultipart(key, { size: 3000, partSize: 1000, parts: 3 });
    const first = randomBytes(1000);
    const second = randomBytes(1000);
    const third = randomBytes(1000);
    await store.putPart(key, uploadId, 2, streamOf(second), { expectedSize: 1000 });
    await store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), { expectedSize: 1000 });
    // Parts 1 and 2 form the prefix the running hash has read by now; replace part 1.
    await store.listParts(key, uploadId);
    await store.putPart(key, uploadId, 1, streamOf(first), { expectedSize: 1000 });
    await store.putPart(key, uploadId, 3, streamOf(third), { expectedSize: 1000 });
    const whole = Buffer.concat([first, second, third]);
    const done = await store.completeMultipart(key, uploadId, 3);
    expect(done).toEqual({ size: 3000, md5: createHash('md5').update(whole).digest('hex') });
    const read = Buffer.concat(await (await store.read(key)).toArray());
    expect(read.equals(whole)).toBe(true);
  });

  it('counts a part whose MD5 sidecar is missing (a crash mid-write) as not received', async () => {
    const key = newKey();
    const uploadId = await store.createMultipart(key, { size: 2000, partSize: 1000, parts: 2 });
    await store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), { expectedSize: 1000 });
    await store.putPart(key, uploadId, 2, streamOf(randomBytes(1000)), { expectedSize: 1000 });

    await unlink(join(root, '.multipart', uploadId, 'part-2.md5'));

    expect((await store.listParts(key, uploadId)).map((p) => p.part)).toEqual([1]);
    await expectFailure(store.completeMultipart(key, uploadId, 2), 'missing-parts');
  });

  it('resumes a multipart upload with a new store on the same folder (after a restart)', async () => {
    const key = newKey();
    const first = randomBytes(1000);
    const second = randomBytes(400);
    const uploadId = await store.createMultipart(key, { size: 1400, partSize: 1000, parts: 2 });
    await store.putPart(key, uploadId, 1, streamOf(first), { expectedSize: 1000 });

    const restarted = new LocalFileStore({ root });
    expect(await restarted.listParts(key, uploadId)).toEqual([
      { part: 1, size: 1000, md5: md5(first), etag: md5(first) },
    ]);
    await restarted.putPart(key, uploadId, 2, streamOf(second), { expectedSize: 400 });
    const whole = Buffer.concat([first, second]);

    expect(await restarted.completeMultipart(key, uploadId, 2)).toEqual({
      size: 1400,
      md5: md5(whole),
    });
    expect(await readAll(await restarted.read(key))).toEqual(whole);
    expect(await readdir(join(root, '.multipart'))).toEqual([]);
  });

  it('completes an upload whose completion was cut off after the rename (a crash), from a new store', async () => {
    const key = newKey();
    const data = randomBytes(2500);
    const uploadId = await store.createMultipart(key, { size: 2500, partSize: 1000, parts: 3 });
    for (const n of [1, 2, 3]) {
      const bytes = data.subarray((n - 1) * 1000, n * 1000);
      await store.putPart(key, uploadId, n, streamOf(bytes), { expectedSize: bytes.length });
    }
    // What a crash between moving the assembled bytes into place and tidying up leaves.
    const target = join(root, ...key.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await rename(join(root, '.multipart', uploadId, 'data'), target);

    const restarted = new LocalFileStore({ root });
    expect(await restarted.completeMultipart(key, uploadId, 3)).toEqual({
      size: 2500,
      md5: md5(data),
    });
    expect((await readAll(await restarted.read(key))).equals(data)).toBe(true);
    expect(await readdir(join(root, '.multipart'))).toEqual([]);
  });

  it('answers not-found, not a crash of its own, for an upload whose bytes are gone', async () => {
    const key = newKey();
    const uploadId = await store.createMultipart(key, { size: 1000, partSize: 1000, parts: 1 });
    await store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), { expectedSize: 1000 });
    await unlink(join(root, '.multipart', uploadId, 'data'));
    await expectFailure(store.completeMultipart(key, uploadId, 1), 'not-found');
  });

  it('sweeps temporary files a crash left, never those of writes in flight', async () => {
    // A killed upload's temporary file, and a killed multipart start's staging folder.
    await mkdir(join(root, '.tmp', 'staging'), { recursive: true });
    await writeFile(join(root, '.tmp', 'staging', 'manifest.json'), '{}');
    await writeFile(join(root, '.tmp', 'killed'), randomBytes(100));
    const body = new PassThrough();
    const key = newKey();
    const writing = store.put(key, body, { maxSize: 10_000 });
    body.write(randomBytes(1000));
    await vi.waitFor(async () => expect(await readdir(join(root, '.tmp'))).toHaveLength(3));
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(root, '.tmp', 'killed'), hourAgo, hourAgo);

    // Untouched for a minute: only the killed upload's file qualifies.
    expect(await store.sweepTemporary(new Date(Date.now() - 60_000))).toBe(1);
    expect((await readdir(join(root, '.tmp'))).sort()).toHaveLength(2);
    // Everything counts as untouched: the staging folder goes, the write in flight stays.
    expect(await store.sweepTemporary(new Date(Date.now() + 60_000))).toBe(1);
    expect(await readdir(join(root, '.tmp'))).toHaveLength(1);
    body.end(randomBytes(500));
    expect(await writing).toMatchObject({ size: 1500 });
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    expect(await store.sweepTemporary(new Date(Date.now() + 60_000))).toBe(0);
  });

  it('refuses part numbers outside the announced layout', async () => {
    const key = newKey();
    const uploadId = await store.createMultipart(key, { size: 2000, partSize: 1000, parts: 2 });

    for (const part of [0, 3, 1.5]) {
      await expect(
        store.putPart(key, uploadId, part, streamOf(randomBytes(10)), { expectedSize: 10 }),
      ).rejects.toThrow(RangeError);
    }
  });

  describe('the whole-file MD5 computed while parts arrive', () => {
    const PART = 64 * 1024;

    /** An upload of `count` parts of random bytes (the last one shorter). */
    async function upload(count: number) {
      const key = newKey();
      const parts = Array.from({ length: count }, (_, i) =>
        randomBytes(i === count - 1 ? PART / 2 + 3 : PART),
      );
      const size = parts.reduce((sum, p) => sum + p.length, 0);
      const uploadId = await store.createMultipart(key, { size, partSize: PART, parts: count });
      const send = (n: number, bytes: Buffer = parts[n - 1]!, s = store) =>
        s.putPart(key, uploadId, n, streamOf(bytes, 10_000), {
          expectedSize: parts[n - 1]!.length,
        });
      const commit = async (s = store) => {
        const done = await s.completeMultipart(key, uploadId, count);
        const whole = Buffer.concat(parts);
        expect(done).toEqual({ size: whole.length, md5: md5(whole) });
        expect((await readAll(await s.read(key))).equals(whole)).toBe(true);
      };
      return { key, uploadId, parts, send, commit };
    }

    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('hashes parts sent one after the other as they pass, reading nothing back', async () => {
      const fromDisk = vi.spyOn(Md5.prototype, 'updateFromFile');
      const u = await upload(5);

      for (let n = 1; n <= 5; n++) await u.send(n);
      await u.commit();

      expect(fromDisk).not.toHaveBeenCalled();
    });

    it('catches up from disk on parts that came early: in reverse, in parallel, shuffled', async () => {
      const fromDisk = vi.spyOn(Md5.prototype, 'updateFromFile');
      const reverse = await upload(6);
      for (let n = 6; n >= 1; n--) await reverse.send(n);
      await reverse.commit();
      // Part 1 passed through; 2..6 were on disk before it.
      expect(fromDisk.mock.calls.length).toBeGreaterThanOrEqual(5);

      const parallel = await upload(12);
      await Promise.all(parallel.parts.map((_, i) => parallel.send(i + 1)));
      await parallel.commit();

      const shuffled = await upload(12);
      const order = [7, 2, 12, 1, 3, 9, 4, 11, 5, 10, 6, 8];
      for (let i = 0; i < order.length; i += 3) {
        await Promise.all(order.slice(i, i + 3).map((n) => shuffled.send(n)));
      }
      await shuffled.commit();
    });

    it('follows parts re-sent with other bytes before and after they were hashed', async () => {
      const u = await upload(4);
      await u.send(1, randomBytes(PART));
      await u.send(2, randomBytes(PART));
      // Parts 1 and 2 are in the hash by now: their new bytes must replace them there.
      await u.send(1);
      await u.send(2);
      await u.send(4, randomBytes(u.parts[3]!.length));
      await u.send(3);
      await u.send(4);
      await u.commit();
    });

    it('survives parts that failed while they were being hashed', async () => {
      const u = await upload(3);
      const broken = Readable.from(
        (async function* chunks() {
          yield u.parts[0]!.subarray(0, 1000);
          await Promise.resolve();
          throw new Error('connection reset by peer');
        })(),
      );
      await expectFailure(
        store.putPart(u.key, u.uploadId, 1, broken, { expectedSize: PART }),
        'aborted',
      );
      await expectFailure(
        store.putPart(u.key, u.uploadId, 1, streamOf(u.parts[0]!), {
          expectedSize: PART,
          contentMd5: contentMd5(randomBytes(10)),
        }),
        'checksum-mismatch',
      );
      await expectFailure(u.send(1, randomBytes(PART - 1)), 'size-mismatch');
      await u.send(1);
      await u.send(2);
      await u.send(3);
      await u.commit();
    });

    it('forgets a hashed part whose re-send failed', async () => {
      const u = await upload(3);
      await u.send(1);
      await u.send(2);

      await expectFailure(u.send(2, randomBytes(10)), 'size-mismatch');
      await u.send(3);
      await expectFailure(store.completeMultipart(u.key, u.uploadId, 3), 'missing-parts');
      await u.send(2);

      await u.commit();
    });

    it('aborts an upload whose parts are being hashed, and refuses its late parts', async () => {
      const u = await upload(8);
      await Promise.all([2, 3, 4, 5, 6, 7, 8].map((n) => u.send(n)));
      const first = u.send(1);

      await first;
      await store.abortMultipart(u.key, u.uploadId);

      await expectFailure(u.send(2), 'not-found');
      await expectFailure(store.completeMultipart(u.key, u.uploadId, 8), 'not-found');
      expect(await readdir(join(root, '.multipart'))).toEqual([]);
      // The store goes on hashing other uploads.
      const next = await upload(2);
      await next.send(1);
      await next.send(2);
      await next.commit();
    });

    it('hashes the stored parts at commit after a restart', async () => {
      const u = await upload(4);
      await u.send(1);
      await u.send(2);

      const restarted = new LocalFileStore({ root });
      await u.send(4, u.parts[3], restarted);
      await u.send(3, u.parts[2], restarted);

      await u.commit(restarted);
    });
  });
});
