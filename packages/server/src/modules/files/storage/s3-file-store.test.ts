import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentMd5,
  describeFileStoreContract,
  md5,
  newKey,
  readAll,
  type ContractGaps,
} from './file-store.contract.js';
import { S3FileStore } from './s3-file-store.js';

/** The part of s3rver's API (CommonJS, untyped) these tests use. */
interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverOptions = {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string; configs: string[] }>;
};
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rver;

const BUCKET = 'cairn-test';
const MiB = 1024 * 1024;
// Browsers may read a presigned PUT's ETag only if the bucket exposes it.
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * s3rver 3.7.1 (its last release) leaves out part of S3's multipart API: ListParts (GET
 * ?uploadId → 405), AbortMultipartUpload (DELETE ?uploadId → 405) and ListMultipartUploads
 * (GET ?uploads → 501), and it takes parts for upload ids it never issued. It reads
 * `Range: bytes=0-0` as the whole object. It also ignores Content-MD5 and does not check SigV4
 * signatures. The cases that need those run against the
 * local store only; for S3 they need a real S3-compatible server (AWS, MinIO…).
 */
const S3RVER_GAPS: ContractGaps = {
  listParts: 's3rver has no ListParts',
  abortMultipart: 's3rver has no AbortMultipartUpload',
  listMultipartUploads: 's3rver has no ListMultipartUploads',
  uploadIdValidation: 's3rver accepts parts for any upload id',
  firstByteRange: 's3rver answers bytes=0-0 with the whole object',
};

let s3rver: S3rver;
let directory: string;
let endpoint: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cairn-s3rver-'));
  s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [CORS] }],
  });
  const { address, port } = await s3rver.run();
  endpoint = `http://${address}:${port}`;
});

afterAll(async () => {
  await s3rver.close();
  await rm(directory, { recursive: true, force: true });
});

function makeStore(): S3FileStore {
  return new S3FileStore({
    endpoint,
    region: 'us-east-1',
    bucket: BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    // Failed streamed parts are expected here; the SDK would warn about each on the console.
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

describeFileStoreContract(
  'S3 (s3rver)',
  () => {
    const store = makeStore();
    return Promise.resolve({ store, cleanup: () => Promise.resolve(store.close()) });
  },
  S3RVER_GAPS,
);

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

  // s3rver has no ListParts, which completing needs (see S3RVER_GAPS); run against a real S3.
  it.skip('completes an upload sent through presigned URLs with the whole-file MD5 [skipped: s3rver has no ListParts]', async () => {
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
