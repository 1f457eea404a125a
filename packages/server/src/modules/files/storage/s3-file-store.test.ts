import { randomBytes } from 'node:crypto';
import { PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  createBucket,
  rgwClient,
  startRgw,
  type RgwServer,
} from '../../../test/ceph-rgw.js';
import {
  contentMd5,
  describeFileStoreContract,
  md5,
  newKey,
  readAll,
} from './file-store.contract.js';
import { S3FileStore } from './s3-file-store.js';

const BUCKET = 'cairn-test';
const MiB = 1024 * 1024;

let rgw: RgwServer;

beforeAll(async () => {
  rgw = await startRgw();
  await createBucket(rgw, BUCKET);
  const client = rgwClient(rgw);
  try {
    // Browsers may read a presigned PUT's ETag only if the bucket exposes it.
    await client.send(
      new PutBucketCorsCommand({
        Bucket: BUCKET,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedOrigins: ['*'],
              AllowedMethods: ['GET', 'PUT'],
              AllowedHeaders: ['*'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 3000,
            },
          ],
        },
      }),
    );
  } finally {
    client.destroy();
  }
}, RGW_START_TIMEOUT_MS);

afterAll(async () => {
  await rgw?.stop();
});

function makeStore(): S3FileStore {
  return new S3FileStore({
    region: 'us-east-1',
    bucket: BUCKET,
    endpoint: rgw.endpoint,
    accessKeyId: rgw.accessKeyId,
    secretAccessKey: rgw.secretAccessKey,
    forcePathStyle: true,
    // Failed streamed parts are expected here; the SDK would warn about each on the console.
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

describeFileStoreContract('S3 (Ceph RADOS Gateway)', () => {
  const store = makeStore();
  return Promise.resolve({ store, cleanup: () => Promise.resolve(store.close()) });
});

describe('S3FileStore presigned part URLs', () => {
  let store: S3FileStore;

  beforeAll(() => {
    store = makeStore();
  });

  afterAll(() => {
    store.close();
  });

  it('signs one URL per part that a client can PUT the bytes to directly', async () => {
    const key = newKey();
    const parts = [randomBytes(5 * MiB), randomBytes(1000)];
    const uploadId = await store.createMultipart(key, {
      size: 5 * MiB + 1000,
      partSize: 5 * MiB,
      parts: 2,
    });
    const before = Date.now();

    const presigned = await store.presignParts(key, uploadId, [1, 2], 600);

    expect(presigned.map((p) => p.part)).toEqual([1, 2]);
    for (const { url, expiration } of presigned) {
      expect(expiration).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      expect(Date.parse(expiration) - before).toBeGreaterThan(598_000);
      expect(Date.parse(expiration) - before).toBeLessThanOrEqual(600_000);
      const params = new URL(url).searchParams;
      const signedAt = params
        .get('X-Amz-Date')!
        .replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
      expect(Date.parse(expiration)).toBe(Date.parse(signedAt) + 600_000);
      expect(params.get('uploadId')).toBe(uploadId);
      expect(params.get('X-Amz-Expires')).toBe('600');
      // Checksum parameters would make the browser's PUT fail: it cannot compute them.
      expect([...params.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
    }
    for (const [i, { url }] of presigned.entries()) {
      const bytes = parts[i]!;
      const response = await fetch(url, {
        method: 'PUT',
        body: bytes,
        headers: { 'Content-MD5': contentMd5(bytes), Origin: 'https://cairn.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(`"${md5(bytes)}"`);
      expect(response.headers.get('access-control-expose-headers')).toMatch(/\bETag\b/);
    }
  });

  it('completes an upload sent through presigned URLs with the whole-file MD5', async () => {
    const key = newKey();
    const data = randomBytes(5 * MiB + 1000);
    const parts = [data.subarray(0, 5 * MiB), data.subarray(5 * MiB)];
    const uploadId = await store.createMultipart(key, {
      size: data.length,
      partSize: 5 * MiB,
      parts: 2,
    });
    const presigned = await store.presignParts(key, uploadId, [1, 2], 600);

    await Promise.all(
      presigned.map(async ({ part, url }) => {
        const bytes = parts[part - 1]!;
        const response = await fetch(url, {
          method: 'PUT',
          body: bytes,
          headers: { 'Content-MD5': contentMd5(bytes) },
        });
        expect(response.status).toBe(200);
      }),
    );

    expect(await store.completeMultipart(key, uploadId, 2)).toEqual({
      size: data.length,
      md5: md5(data),
    });
    expect((await readAll(await store.read(key))).equals(data)).toBe(true);
  });
});
