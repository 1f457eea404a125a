import crypto from 'node:crypto';
import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBrowserBucket,
  RGW_START_TIMEOUT_MS,
  rgwClient,
  s3Environment,
  startRgw,
  type RgwServer,
} from '../../test/ceph-rgw.js';
import { ENGINES } from '../../test/databases.js';
import { startProcessHarness, until, type ProcessHarness } from '../../test/process-harness.js';

// A multipart commit on S3 killed with the server: after CompleteMultipartUpload (the crash
// point), and wherever a kill lands while the commit completes the upload and reads the object
// back to hash it. Sent again after the restart, the commit completes with the bytes' MD5.

const MiB = 1024 * 1024;
const BUCKET = 'cairn-crash';
const SCENARIO_MS = 300_000;
const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');

let rgw: RgwServer;
let s3: S3Client;

beforeAll(async () => {
  rgw = await startRgw();
  await createBrowserBucket(rgw, BUCKET);
  s3 = rgwClient(rgw);
}, RGW_START_TIMEOUT_MS);

afterAll(async () => {
  s3?.destroy();
  await rgw?.stop();
});

describe.each(ENGINES)('a multipart commit on S3 killed with the server (%s)', (engine) => {
  let h: ProcessHarness;

  beforeAll(async () => {
    h = await startProcessHarness(engine, {
      ...s3Environment(rgw, BUCKET),
      CAIRN_COMMIT_LEASE_SECONDS: '2',
      CAIRN_SWEEP_INTERVAL_SECONDS: '0',
    });
  }, SCENARIO_MS);

  afterAll(() => h?.close());

  const call = (method: string, url: string, body?: unknown) => h.api(method, url, body);

  /** A draft whose multipart file `key` has every part in the bucket; its id and bytes. */
  async function uploaded(key: string, partSize: number, parts: number) {
    const bytes = crypto.randomBytes(partSize * parts - 1000);
    const draft = await call('POST', '/api/records', {
      metadata: { title: 'Ice cores', resource_type: { id: 'dataset' } },
    });
    const id = draft.json().id as string;
    const init = await call('POST', `/api/records/${id}/draft/files`, [
      { key, size: bytes.length, transfer: { type: 'M', parts, part_size: partSize } },
    ]);
    expect(init.status, init.bytes.toString()).toBe(201);
    const links = init.json().entries[0].links.parts as Array<{ part: number; url: string }>;
    for (const link of links) {
      const part = bytes.subarray((link.part - 1) * partSize, link.part * partSize);
      const sent = await fetch(link.url, { method: 'PUT', body: new Uint8Array(part) });
      expect(sent.status).toBe(200);
    }
    return { id, bytes };
  }

  async function statusOf(id: string, key: string): Promise<string | undefined> {
    const row = await h.db.db
      .selectFrom('recordFiles')
      .select('status')
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.status;
  }

  /** Sends the commit until no dead commit's lease stands in the way; its JSON. */
  async function commitAgain(id: string, key: string): Promise<Record<string, any>> {
    const res = await until(`the commit of ${key}`, async () => {
      const attempt = await call('POST', `/api/records/${id}/draft/files/${key}/commit`);
      return attempt.status === 409 ? undefined : attempt;
    });
    expect(res.status, res.bytes.toString()).toBe(200);
    return res.json();
  }

  async function expectDownload(id: string, key: string, bytes: Buffer) {
    const read = await call('GET', `/api/records/${id}/draft/files/${key}/content`);
    expect(read.status).toBe(200);
    expect(md5(read.bytes)).toBe(md5(bytes));
  }

  it(
    'completes a commit killed after CompleteMultipartUpload, before the object was hashed',
    async () => {
      const { id, bytes } = await uploaded('after-complete.bin', 5 * MiB, 2);
      await h.restart({ CAIRN_TEST_CRASH_AT: 'store:moved-into-place' });
      await call('POST', `/api/records/${id}/draft/files/after-complete.bin/commit`).catch(
        () => undefined,
      );
      expect(await h.server.exited).toBeNull();
      expect(await statusOf(id, 'after-complete.bin')).toBe('committing');
      await h.restart();

      expect(await commitAgain(id, 'after-complete.bin')).toMatchObject({
        status: 'completed',
        size: bytes.length,
        checksum: `md5:${md5(bytes)}`,
      });
      await expectDownload(id, 'after-complete.bin', bytes);
    },
    SCENARIO_MS,
  );

  it(
    'completes a commit killed wherever the kill lands while it completes and hashes 48 MiB',
    async () => {
      const { id, bytes } = await uploaded('while-hashing.bin', 16 * MiB, 3);
      void call('POST', `/api/records/${id}/draft/files/while-hashing.bin/commit`).catch(
        () => undefined,
      );
      await until('the commit to start', async () => {
        return (await statusOf(id, 'while-hashing.bin')) === 'committing';
      });
      await h.restart();

      expect(await commitAgain(id, 'while-hashing.bin')).toMatchObject({
        checksum: `md5:${md5(bytes)}`,
      });
      await expectDownload(id, 'while-hashing.bin', bytes);
      // Whichever way it went, no upload is left open in the bucket for these files.
      const open = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
      const keys = await h.db.db.selectFrom('recordFiles').select('uploadKey').execute();
      const ours = new Set(keys.map((k) => k.uploadKey));
      expect((open.Uploads ?? []).filter((u) => ours.has(u.Key ?? null))).toEqual([]);
    },
    SCENARIO_MS,
  );
});
