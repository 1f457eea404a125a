import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

  it('refuses part numbers outside the announced layout', async () => {
    const key = newKey();
    const uploadId = await store.createMultipart(key, { size: 2000, partSize: 1000, parts: 2 });

    for (const part of [0, 3, 1.5]) {
      await expect(
        store.putPart(key, uploadId, part, streamOf(randomBytes(10)), { expectedSize: 10 }),
      ).rejects.toThrow(RangeError);
    }
  });
});
