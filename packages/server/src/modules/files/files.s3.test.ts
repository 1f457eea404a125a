import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBrowserBucket,
  RGW_START_TIMEOUT_MS,
  s3Environment,
  startRgw,
  type RgwServer,
} from '../../test/ceph-rgw.js';
import { ENGINES } from '../../test/databases.js';
import { PUBLISHABLE_METADATA, md5, type Caller } from '../../test/files.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { FileStoreError } from './storage/file-store.js';

const MiB = 1024 * 1024;
const BUCKET = 'cairn-files';

let rgw: RgwServer;

beforeAll(async () => {
  rgw = await startRgw();
  await createBrowserBucket(rgw, BUCKET);
}, RGW_START_TIMEOUT_MS);

afterAll(async () => {
  await rgw?.stop();
});

const contentMd5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('base64');

// The files API end to end on CAIRN_STORAGE=s3, against Ceph's S3: what the store contract
// cannot show is that the service drives a real bucket right (presigned parts, the parts
// listing, commit's whole-file MD5, abort, ranges).
describe.each(ENGINES)('files API on S3 (Ceph RADOS Gateway) on %s', (engine) => {
  let t: TestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await createTestApp(engine, s3Environment(rgw, BUCKET));
    owner = await t.user();
  });
  afterAll(() => t.close());

  async function draftId(): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata: PUBLISHABLE_METADATA },
    });
    return res.json<{ id: string }>().id;
  }

  async function init(id: string, entry: Record<string, unknown>) {
    const res = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [entry],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().entries[0] as {
      links: { parts?: Array<{ part: number; url: string; expiration: string }> };
    };
  }

  it('stores a single upload in the bucket and serves it whole, by range and as HEAD', async () => {
    const id = await draftId();
    const bytes = crypto.randomBytes(100_000);
    await init(id, { key: 'data/a.bin', size: bytes.length });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/data/a.bin/content`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(put.statusCode, put.body).toBe(200);
    const commit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/data/a.bin/commit`,
      headers: owner.headers,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({ size: bytes.length, checksum: `md5:${md5(bytes)}` });

    const url = `/api/records/${id}/draft/files/data/a.bin/content`;
    const whole = await t.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const first = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...owner.headers, range: 'bytes=0-0' },
    });
    expect(first.statusCode).toBe(206);
    expect(first.rawPayload).toEqual(bytes.subarray(0, 1));
    expect(first.headers['content-range']).toBe(`bytes 0-0/${bytes.length}`);
    const tail = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...owner.headers, range: 'bytes=-10' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(bytes.subarray(bytes.length - 10));
    const head = await t.app.inject({ method: 'HEAD', url, headers: owner.headers });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
  });

  it('takes parts straight into the bucket through presigned URLs, resumes and commits', async () => {
    const id = await draftId();
    const bytes = crypto.randomBytes(2 * 5 * MiB + 1000);
    const parts = [0, 1, 2].map((i) => bytes.subarray(i * 5 * MiB, (i + 1) * 5 * MiB));
    const entry = await init(id, {
      key: 'big.bin',
      size: bytes.length,
      transfer: { type: 'M', parts: 3, part_size: 5 * MiB },
    });
    const links = entry.links.parts!;
    expect(links.map((l) => l.part)).toEqual([1, 2, 3]);
    expect(links.every((l) => l.url.startsWith(`${rgw.endpoint}/${BUCKET}/`))).toBe(true);
    const send = (n: number, body: Buffer, md5Of: Buffer = body) =>
      fetch(links[n - 1]!.url, {
        method: 'PUT',
        body,
        headers: { 'Content-MD5': contentMd5(md5Of) },
      });

    // The bucket itself refuses a part whose bytes do not match their Content-MD5.
    expect((await send(3, parts[2]!, parts[1])).status).toBe(400);
    expect((await send(3, parts[2]!)).status).toBe(200);
    expect((await send(1, parts[0]!)).status).toBe(200);
    const listed = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/big.bin/parts`,
      headers: owner.headers,
    });
    expect(listed.json()).toMatchObject({
      received: [
        { part: 1, size: 5 * MiB, checksum: `md5:${md5(parts[0]!)}` },
        { part: 3, size: 1000, checksum: `md5:${md5(parts[2]!)}` },
      ],
      missing: [2],
    });
    const early = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/big.bin/commit`,
      headers: owner.headers,
    });
    expect(early.statusCode).toBe(400);

    // A reload: the client asks for fresh links and sends what is missing.
    const refreshed = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/big.bin`,
      headers: owner.headers,
    });
    const fresh = (refreshed.json().links as { parts: Array<{ url: string }> }).parts;
    expect((await fetch(fresh[1]!.url, { method: 'PUT', body: parts[1] })).status).toBe(200);
    const commit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/big.bin/commit`,
      headers: owner.headers,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({
      status: 'completed',
      size: bytes.length,
      checksum: `md5:${md5(bytes)}`,
    });
    const back = await t.app.inject({
      method: 'GET',
      url: `/api/records/${id}/draft/files/big.bin/content`,
      headers: owner.headers,
    });
    expect(back.rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses a commit whose parts, sent straight to the bucket, add up to another size', async () => {
    // Presigned parts never pass through Cairn, so only the assembled object shows their size:
    // a file announced small (and counted so against the quota) must not become a large one.
    const id = await draftId();
    const entry = await init(id, {
      key: 'grown.bin',
      size: 5 * MiB + 10,
      transfer: { type: 'M', parts: 2, part_size: 5 * MiB },
    });
    const [first, second] = entry.links.parts!;
    expect(
      (await fetch(first!.url, { method: 'PUT', body: crypto.randomBytes(5 * MiB) })).status,
    ).toBe(200);
    expect(
      (await fetch(second!.url, { method: 'PUT', body: crypto.randomBytes(MiB) })).status,
    ).toBe(200);

    const commit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/grown.bin/commit`,
      headers: owner.headers,
    });
    expect(commit.statusCode, commit.body).toBe(400);
    expect(commit.json().message).toBe(
      'File size mismatch: grown.bin was announced as 5242890 bytes at initialisation.',
    );
    const file = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/grown.bin`,
      headers: owner.headers,
    });
    expect(file.json()).toMatchObject({ status: 'pending', size: 5 * MiB + 10 });
    expect(file.json().links.parts).toHaveLength(2);
    const listed = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
    });
    expect(listed.json().entries).toMatchObject([{ key: 'grown.bin', status: 'pending' }]);
  });

  it('deleting a pending multipart file aborts the upload in the bucket', async () => {
    const id = await draftId();
    const entry = await init(id, {
      key: 'gone.bin',
      size: 5 * MiB + 10,
      transfer: { type: 'M', parts: 2, part_size: 5 * MiB },
    });
    const link = entry.links.parts![1]!;
    expect((await fetch(link.url, { method: 'PUT', body: crypto.randomBytes(10) })).status).toBe(
      200,
    );
    const uploadId = new URL(link.url).searchParams.get('uploadId')!;
    const key = decodeURIComponent(new URL(link.url).pathname.slice(`/${BUCKET}/`.length));
    expect(await t.services.store.listParts(key, uploadId)).toHaveLength(1);

    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/records/${id}/draft/files/gone.bin`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);

    const failure = await t.services.store.listParts(key, uploadId).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(FileStoreError);
    expect((failure as FileStoreError).reason).toBe('not-found');
    expect((await fetch(link.url, { method: 'PUT', body: crypto.randomBytes(10) })).status).toBe(
      404,
    );
  });
});
