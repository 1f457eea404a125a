import crypto from 'node:crypto';
import path from 'node:path';
import { CreateBucketCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../database/database.js';
import { RGW_START_TIMEOUT_MS, startRgw, type RgwServer } from '../../test/ceph-rgw.js';
import { ENGINES } from '../../test/databases.js';
import {
  createProcessDatabase,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';

// A multipart commit on S3 killed with the server: after CompleteMultipartUpload (the crash
// point), and wherever a kill lands while the commit completes the upload and reads the object
// back to hash it. Sent again after the restart, the commit completes with the bytes' MD5.

const MiB = 1024 * 1024;
const BUCKET = 'cairn-crash';
const GUARD_MS = 120_000;
const SCENARIO_MS = 300_000;
const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let rgw: RgwServer;
let s3: S3Client;

beforeAll(async () => {
  rgw = await startRgw();
  s3 = new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    forcePathStyle: true,
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
}, RGW_START_TIMEOUT_MS);

afterAll(async () => {
  s3?.destroy();
  await rgw?.stop();
});

describe.each(ENGINES)('a multipart commit on S3 killed with the server (%s)', (engine) => {
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let database: Awaited<ReturnType<typeof createProcessDatabase>> | undefined;
  let env: Record<string, string>;
  let server: ServerProcess;
  let db: DatabaseHandle;
  let auth: Record<string, string>;

  beforeAll(async () => {
    data = await tempDataDir();
    database = engine === 'postgres' ? await createProcessDatabase() : undefined;
    env = {
      NODE_ENV: 'test',
      CAIRN_DATA_DIR: data.dir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      CAIRN_STORAGE: 's3',
      CAIRN_S3_ENDPOINT: rgw.endpoint,
      CAIRN_S3_BUCKET: BUCKET,
      CAIRN_S3_ACCESS_KEY_ID: rgw.accessKeyId,
      CAIRN_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
      CAIRN_S3_FORCE_PATH_STYLE: 'true',
      CAIRN_COMMIT_LEASE_SECONDS: '2',
      CAIRN_SWEEP_INTERVAL_SECONDS: '0',
    };
    server = await startServerProcess(env);
    db = openDatabase(
      database
        ? { kind: 'postgres', url: database.url }
        : { kind: 'sqlite', file: path.join(data.dir, 'cairn.sqlite') },
    );
    auth = (await processUser(env)).headers;
  }, SCENARIO_MS);

  afterAll(async () => {
    await server?.kill();
    await db?.close();
    await database?.drop();
    await data?.remove();
  });

  async function call(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; bytes: Buffer; json: () => Record<string, any> }> {
    const res = await fetch(server.url + url, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      bytes,
      json: () => JSON.parse(bytes.toString('utf8')) as Record<string, any>,
    };
  }

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
    const row = await db.db
      .selectFrom('recordFiles')
      .select('status')
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.status;
  }

  /** Sends the commit until no dead commit's lease stands in the way; its JSON. */
  async function commitAgain(id: string, key: string): Promise<Record<string, any>> {
    const started = Date.now();
    for (;;) {
      const res = await call('POST', `/api/records/${id}/draft/files/${key}/commit`);
      if (res.status !== 409) {
        expect(res.status, res.bytes.toString()).toBe(200);
        return res.json();
      }
      if (Date.now() - started > GUARD_MS) throw new Error('The lease never ran out.');
      await sleep(100);
    }
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
      await server.kill();
      server = await startServerProcess({ ...env, CAIRN_TEST_CRASH_AT: 'store:moved-into-place' });
      await call('POST', `/api/records/${id}/draft/files/after-complete.bin/commit`).catch(
        () => undefined,
      );
      expect(await server.exited).toBeNull();
      expect(await statusOf(id, 'after-complete.bin')).toBe('committing');
      server = await startServerProcess(env);

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
      const started = Date.now();
      while ((await statusOf(id, 'while-hashing.bin')) !== 'committing') {
        if (Date.now() - started > GUARD_MS) throw new Error('The commit never started.');
        await sleep(5);
      }
      await server.kill();
      server = await startServerProcess(env);

      expect(await commitAgain(id, 'while-hashing.bin')).toMatchObject({
        checksum: `md5:${md5(bytes)}`,
      });
      await expectDownload(id, 'while-hashing.bin', bytes);
      // Whichever way it went, no upload is left open in the bucket for these files.
      const open = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
      const keys = await db.db.selectFrom('recordFiles').select('uploadKey').execute();
      const ours = new Set(keys.map((k) => k.uploadKey));
      expect((open.Uploads ?? []).filter((u) => ours.has(u.Key ?? null))).toEqual([]);
    },
    SCENARIO_MS,
  );
});
