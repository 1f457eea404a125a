/**
 * The contract every file store keeps (local disk, S3), as one test suite each store's test file
 * runs against its own harness. It is one file on purpose, longer than the others: it is the list
 * a new store is written against, case by case, and splitting it would let a store's test run
 * half of it without anyone noticing.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStoreError, type FileStore } from './file-store.js';

/** A fresh store for one test, and how to tidy up after it. */
export interface FileStoreHarness {
  store: FileStore;
  cleanup(): Promise<void>;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const EMPTY_MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
/** More than one part of the S3 store's streamed `put` (8 MiB). */
const LARGE = 8 * MiB + 100_000;
/** S3's smallest part other than the last. */
const PART = 5 * MiB;

/**
 * The behaviour every {@link FileStore} promises, as one Vitest suite: bodies stream in and out
 * byte for byte, limits fail with their reasons and leave nothing behind, multipart uploads
 * assemble in any order and give the whole-file MD5. Call it from each store's test file.
 */
export function describeFileStoreContract(
  name: string,
  make: () => Promise<FileStoreHarness>,
): void {
  describe(`FileStore contract: ${name}`, () => {
    let harness: FileStoreHarness;
    let store: FileStore;

    beforeEach(async () => {
      harness = await make();
      store = harness.store;
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    /** Frees an upload a test leaves open. */
    const tidy = (key: string, uploadId: string) => store.abortMultipart(key, uploadId);

    describe('put and read', () => {
      it('stores a small body and reads it back byte for byte', async () => {
        const key = newKey();
        const data = randomBytes(10_000);

        const stored = await store.put(key, streamOf(data, 1000), {
          maxSize: 10_000,
          expectedSize: 10_000,
        });

        expect(stored).toEqual({ size: 10_000, md5: md5(data) });
        expect(await readAll(await store.read(key))).toEqual(data);
      });

      it('stores an empty body with the MD5 of nothing', async () => {
        const key = newKey();

        const stored = await store.put(key, streamOf(Buffer.alloc(0)), { maxSize: 100 });

        expect(stored).toEqual({ size: 0, md5: EMPTY_MD5 });
        expect((await readAll(await store.read(key))).length).toBe(0);
      });

      it('streams a multi-MiB body through and back byte for byte', async () => {
        const key = newKey();
        const data = randomBytes(LARGE);

        const stored = await store.put(key, streamOf(data), { maxSize: 100 * MiB });

        expect(stored).toEqual({ size: LARGE, md5: md5(data) });
        const back = await readAll(await store.read(key));
        expect(back.length).toBe(LARGE);
        expect(back.equals(data)).toBe(true);
        // Across the S3 store's part boundary.
        const range = { start: 8 * MiB - 10, end: 8 * MiB + 9 };
        expect(await readAll(await store.read(key, range))).toEqual(
          data.subarray(range.start, range.end + 1),
        );
      });

      it('reads inclusive byte ranges', async () => {
        const key = newKey();
        const data = randomBytes(1000);
        await store.put(key, streamOf(data), { maxSize: 1000 });

        const slice = async (start: number, end: number) =>
          readAll(await store.read(key, { start, end }));

        expect(await slice(0, 1)).toEqual(data.subarray(0, 2));
        expect(await slice(10, 19)).toEqual(data.subarray(10, 20));
        expect(await slice(999, 999)).toEqual(data.subarray(999));
        expect(await slice(0, 999)).toEqual(data);
        // A last position past the end stops at the end, as in HTTP.
        expect(await slice(990, 5000)).toEqual(data.subarray(990));
      });

      it('reads the first byte alone (bytes=0-0)', async () => {
        const key = newKey();
        const data = randomBytes(1000);
        await store.put(key, streamOf(data), { maxSize: 1000 });

        expect(await readAll(await store.read(key, { start: 0, end: 0 }))).toEqual(
          data.subarray(0, 1),
        );
      });

      it('reports an absent object as not-found', async () => {
        await expectFailure(store.read(newKey()), 'not-found');
        await expectFailure(store.read(newKey(), { start: 0, end: 9 }), 'not-found');
      });

      it('replaces an object on a new put, and a failed put leaves it untouched', async () => {
        const key = newKey();
        const first = randomBytes(500);
        const second = randomBytes(700);
        await store.put(key, streamOf(first), { maxSize: 1000 });
        await store.put(key, streamOf(second), { maxSize: 1000 });
        expect(await readAll(await store.read(key))).toEqual(second);

        await expectFailure(
          store.put(key, streamOf(randomBytes(2000)), { maxSize: 1000 }),
          'too-large',
        );
        await expectFailure(
          store.put(key, failingAfter(randomBytes(300)), { maxSize: 1000 }),
          'aborted',
        );
        await expectFailure(
          store.put(key, streamOf(randomBytes(10)), { maxSize: 1000, expectedSize: 20 }),
          'size-mismatch',
        );

        expect(await readAll(await store.read(key))).toEqual(second);
      });
    });

    describe('limits and failures leave nothing behind', () => {
      it('cuts off a body at maxSize with too-large, without reading the rest', async () => {
        const key = newKey();
        const body = endless();

        // An endless body would never finish if the store read on past the limit.
        await expectFailure(store.put(key, body, { maxSize: MiB }), 'too-large');

        expect(body.destroyed).toBe(true);
        await expectFailure(store.read(key), 'not-found');
      });

      it('cuts off a body at maxSize after several MiB (past an S3 part)', async () => {
        const key = newKey();
        const body = endless();

        await expectFailure(store.put(key, body, { maxSize: LARGE }), 'too-large');

        expect(body.destroyed).toBe(true);
        await expectFailure(store.read(key), 'not-found');
      });

      it('refuses a body announced larger than maxSize', async () => {
        const key = newKey();

        await expectFailure(
          store.put(key, streamOf(randomBytes(2000)), { maxSize: 1000, expectedSize: 2000 }),
          'too-large',
        );

        await expectFailure(store.read(key), 'not-found');
      });

      it('rejects a body shorter than expectedSize with size-mismatch', async () => {
        const key = newKey();

        await expectFailure(
          store.put(key, streamOf(randomBytes(100)), { maxSize: 1000, expectedSize: 200 }),
          'size-mismatch',
        );

        await expectFailure(store.read(key), 'not-found');
      });

      it('rejects a body longer than expectedSize with size-mismatch', async () => {
        const key = newKey();

        await expectFailure(
          store.put(key, streamOf(randomBytes(300)), { maxSize: 1000, expectedSize: 200 }),
          'size-mismatch',
        );

        await expectFailure(store.read(key), 'not-found');
      });

      it('rejects a body that errors midway with aborted', async () => {
        const key = newKey();

        await expectFailure(
          store.put(key, failingAfter(randomBytes(64 * KiB)), { maxSize: MiB }),
          'aborted',
        );

        await expectFailure(store.read(key), 'not-found');
      });

      it('rejects a body that errors after several MiB (past an S3 part) with aborted', async () => {
        const key = newKey();

        await expectFailure(
          store.put(key, failingAfter(randomBytes(LARGE)), { maxSize: 100 * MiB }),
          'aborted',
        );

        await expectFailure(store.read(key), 'not-found');
      });
    });

    describe('multipart', () => {
      it('assembles parts sent out of order and in parallel', async () => {
        const key = newKey();
        const data = randomBytes(2 * PART + 1000);
        const parts = split(data, PART);
        const uploadId = await store.createMultipart(key, layout(data.length, PART));

        const sent = await Promise.all(
          [3, 1, 2].map((n) =>
            store.putPart(key, uploadId, n, streamOf(part(parts, n)), {
              expectedSize: part(parts, n).length,
              contentMd5: contentMd5(part(parts, n)),
            }),
          ),
        );

        expect(sent.map((p) => ({ part: p.part, size: p.size, md5: p.md5 }))).toEqual(
          [3, 1, 2].map((n) => ({
            part: n,
            size: part(parts, n).length,
            md5: md5(part(parts, n)),
          })),
        );
        await expectFailure(store.read(key), 'not-found');
        const stored = await store.completeMultipart(key, uploadId, 3);
        expect(stored).toEqual({ size: data.length, md5: md5(data) });
        const back = await readAll(await store.read(key));
        expect(back.equals(data)).toBe(true);
        // Completing frees the upload.
        await expectFailure(store.listParts(key, uploadId), 'not-found');
      });

      // A commit interrupted after the store assembled the parts (a crash, a lost answer) is sent
      // again: the store must then answer for the object it made, measured from its bytes.
      it('completes an upload again after completing it, measuring the object it made', async () => {
        const key = newKey();
        const data = randomBytes(PART + 1000);
        const parts = split(data, PART);
        const uploadId = await store.createMultipart(key, layout(data.length, PART));
        for (const n of [1, 2]) {
          await store.putPart(key, uploadId, n, streamOf(part(parts, n)), {
            expectedSize: part(parts, n).length,
          });
        }

        const first = await store.completeMultipart(key, uploadId, 2);
        const again = await store.completeMultipart(key, uploadId, 2);

        expect(first).toEqual({ size: data.length, md5: md5(data) });
        expect(again).toEqual(first);
        expect((await readAll(await store.read(key))).equals(data)).toBe(true);
        // Once the object is gone too, nothing is left to complete.
        await store.delete(key);
        await expectFailure(store.completeMultipart(key, uploadId, 2), 'not-found');
      });

      it('a re-sent part replaces the one sent before', async () => {
        const key = newKey();
        const data = randomBytes(PART + 1000);
        const parts = split(data, PART);
        const uploadId = await store.createMultipart(key, layout(data.length, PART));
        const wrong = randomBytes(1000);

        await store.putPart(key, uploadId, 2, streamOf(wrong), { expectedSize: 1000 });
        await store.putPart(key, uploadId, 1, streamOf(part(parts, 1)), { expectedSize: PART });
        await store.putPart(key, uploadId, 2, streamOf(part(parts, 2)), { expectedSize: 1000 });

        expect((await store.listParts(key, uploadId)).map((p) => p.md5)).toEqual([
          md5(part(parts, 1)),
          md5(part(parts, 2)),
        ]);
        expect(await store.completeMultipart(key, uploadId, 2)).toEqual({
          size: data.length,
          md5: md5(data),
        });
        expect((await readAll(await store.read(key))).equals(data)).toBe(true);
      });

      it('refuses a part whose Content-MD5 does not match with checksum-mismatch', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(3000, 1000));
        const bytes = randomBytes(1000);

        await expectFailure(
          store.putPart(key, uploadId, 1, streamOf(bytes), {
            expectedSize: 1000,
            contentMd5: contentMd5(randomBytes(1000)),
          }),
          'checksum-mismatch',
        );

        const accepted = await store.putPart(key, uploadId, 1, streamOf(bytes), {
          expectedSize: 1000,
          contentMd5: contentMd5(bytes),
        });
        expect(accepted).toMatchObject({ part: 1, size: 1000, md5: md5(bytes) });
        await tidy(key, uploadId);
      });

      it('refuses a part of the wrong size with size-mismatch', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(3000, 1000));

        await expectFailure(
          store.putPart(key, uploadId, 1, streamOf(randomBytes(999)), { expectedSize: 1000 }),
          'size-mismatch',
        );
        await expectFailure(
          store.putPart(key, uploadId, 1, streamOf(randomBytes(1001)), { expectedSize: 1000 }),
          'size-mismatch',
        );
        await expectFailure(
          store.putPart(key, uploadId, 1, failingAfter(randomBytes(500)), { expectedSize: 1000 }),
          'aborted',
        );
        await tidy(key, uploadId);
      });

      it('does not list parts it refused', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(3000, 1000));
        const bytes = randomBytes(1000);

        await expectFailure(
          store.putPart(key, uploadId, 1, streamOf(bytes), {
            expectedSize: 1000,
            contentMd5: contentMd5(randomBytes(1000)),
          }),
          'checksum-mismatch',
        );
        await expectFailure(
          store.putPart(key, uploadId, 2, streamOf(randomBytes(999)), { expectedSize: 1000 }),
          'size-mismatch',
        );
        await expectFailure(
          store.putPart(key, uploadId, 3, failingAfter(randomBytes(500)), { expectedSize: 1000 }),
          'aborted',
        );

        expect(await store.listParts(key, uploadId)).toEqual([]);
        await tidy(key, uploadId);
      });

      it('lists the parts received so far, ascending, with sizes and MD5s', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(2500, 1000));
        const third = randomBytes(500);
        const first = randomBytes(1000);
        expect(await store.listParts(key, uploadId)).toEqual([]);

        await store.putPart(key, uploadId, 3, streamOf(third), { expectedSize: 500 });
        await store.putPart(key, uploadId, 1, streamOf(first), { expectedSize: 1000 });

        expect(await store.listParts(key, uploadId)).toEqual([
          { part: 1, size: 1000, md5: md5(first), etag: expect.any(String) as unknown },
          { part: 3, size: 500, md5: md5(third), etag: expect.any(String) as unknown },
        ]);
        await tidy(key, uploadId);
      });

      it('refuses to complete with a part missing (missing-parts)', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(2500, 1000));
        await store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), { expectedSize: 1000 });
        await store.putPart(key, uploadId, 3, streamOf(randomBytes(500)), { expectedSize: 500 });

        await expectFailure(store.completeMultipart(key, uploadId, 3), 'missing-parts');

        await expectFailure(store.read(key), 'not-found');
        // The upload survives, so the client can send the missing part.
        expect((await store.listParts(key, uploadId)).map((p) => p.part)).toEqual([1, 3]);
        await tidy(key, uploadId);
      });

      it('abort frees the upload, and aborting twice is fine', async () => {
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(2000, 1000));
        await store.putPart(key, uploadId, 1, streamOf(randomBytes(1000)), {
          expectedSize: 1000,
        });

        await store.abortMultipart(key, uploadId);

        await expectFailure(store.listParts(key, uploadId), 'not-found');
        await expectFailure(store.completeMultipart(key, uploadId, 1), 'not-found');
        await expect(store.abortMultipart(key, uploadId)).resolves.toBeUndefined();
        await expectFailure(store.read(key), 'not-found');
      });

      it('reports unknown uploads as not-found', async () => {
        const key = newKey();
        const made = await store.createMultipart(key, layout(1000, 1000));
        const unknown = made.replace(/[0-9a-f]/, (c) => (c === '0' ? '1' : '0'));

        await expectFailure(
          store.putPart(key, unknown, 1, streamOf(randomBytes(10)), { expectedSize: 10 }),
          'not-found',
        );
        await expectFailure(store.listParts(key, unknown), 'not-found');
        await expectFailure(store.completeMultipart(key, unknown, 1), 'not-found');
        // An upload belongs to its key.
        await expectFailure(store.listParts(newKey(), made), 'not-found');
        await expect(store.abortMultipart(key, unknown)).resolves.toBeUndefined();
        await tidy(key, made);
      });

      it('lists uploads started before a cut-off as stale', async () => {
        const listStale = store.listStaleMultipart?.bind(store);
        if (!listStale) throw new Error('A store with multipart uploads must list stale ones.');
        const key = newKey();
        const uploadId = await store.createMultipart(key, layout(1000, 1000));

        const stale = await listStale(new Date(Date.now() + 60_000));
        const fresh = await listStale(new Date(Date.now() - 60_000));

        expect(stale).toContainEqual({ key, uploadId });
        expect(fresh).not.toContainEqual({ key, uploadId });
        await tidy(key, uploadId);
      });
    });

    describe('listing objects for the leftovers sweep', () => {
      it('lists stored objects in key order, a page at a time, only those untouched long enough', async () => {
        const listObjects = store.listObjects?.bind(store);
        if (!listObjects) throw new Error('A store must list its objects for the sweep.');
        const prefix = `${randomUUID()}/`;
        const keys = ['c', 'a', 'b/d'].map((name) => prefix + name);
        for (const key of keys) await store.put(key, streamOf(randomBytes(10)), { maxSize: 10 });
        const uploadId = await store.createMultipart(`${prefix}m`, layout(10, 10));

        // Another prefix's object, which a listing of this prefix never shows.
        const elsewhere = `${randomUUID()}/x`;
        await store.put(elsewhere, streamOf(randomBytes(10)), { maxSize: 10 });
        const later = new Date(Date.now() + 60_000);
        const all: string[] = [];
        let after: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page: { keys: string[]; next?: string } = await listObjects({
            prefix,
            ...(after === undefined ? {} : { after }),
            limit: 2,
            olderThan: later,
          });
          expect(page.keys.length).toBeLessThanOrEqual(2);
          all.push(...page.keys);
          if (page.next === undefined) break;
          after = page.next;
        }
        expect(all).toEqual([...keys].sort());
        // Nothing was untouched a minute ago.
        const recent = await listObjects({
          prefix,
          limit: 10,
          olderThan: new Date(Date.now() - 60_000),
        });
        expect(recent).toEqual({ keys: [] });
        await store.delete(elsewhere);
        await tidy(`${prefix}m`, uploadId);
      });
    });

    describe('delete', () => {
      it('removes the object, and deleting twice or never-stored keys is fine', async () => {
        const key = newKey();
        await store.put(key, streamOf(randomBytes(100)), { maxSize: 100 });

        await store.delete(key);

        await expectFailure(store.read(key), 'not-found');
        await expect(store.delete(key)).resolves.toBeUndefined();
        await expect(store.delete(newKey())).resolves.toBeUndefined();
      });
    });
  });
}

/** A key shaped like the files service's (`ab/cd/<uuid>`). */
export function newKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

export function md5(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** The base64 MD5 a client sends as `Content-MD5`. */
export function contentMd5(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('base64');
}

/** A byte stream of `bytes` in chunks, as a request body arrives. */
export function streamOf(bytes: Buffer, chunkSize = 64 * KiB): Readable {
  return Readable.from(
    (function* chunks() {
      for (let offset = 0; offset < bytes.length; offset += chunkSize) {
        yield bytes.subarray(offset, offset + chunkSize);
      }
    })(),
  );
}

/** A body that sends `bytes` and then fails, as a dropped connection does. */
function failingAfter(bytes: Buffer): Readable {
  return Readable.from(
    (async function* chunks() {
      yield* streamOf(bytes);
      await Promise.resolve();
      throw new Error('connection reset by peer');
    })(),
  );
}

/** A body that never ends. */
function endless(): Readable {
  const chunk = randomBytes(64 * KiB);
  return Readable.from(
    (function* chunks() {
      for (;;) yield chunk;
    })(),
  );
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Awaits a rejection that must be a {@link FileStoreError} with `reason`. */
export async function expectFailure(
  promise: Promise<unknown>,
  reason: FileStoreError['reason'],
): Promise<void> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(FileStoreError);
  expect((outcome as FileStoreError).reason).toBe(reason);
}

function layout(size: number, partSize: number): { size: number; partSize: number; parts: number } {
  return { size, partSize, parts: Math.max(1, Math.ceil(size / partSize)) };
}

function split(data: Buffer, partSize: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += partSize) {
    parts.push(data.subarray(offset, offset + partSize));
  }
  return parts;
}

/** Part `n` (1-based). */
function part(parts: Buffer[], n: number): Buffer {
  const bytes = parts[n - 1];
  if (!bytes) throw new Error(`No part ${n}.`);
  return bytes;
}
