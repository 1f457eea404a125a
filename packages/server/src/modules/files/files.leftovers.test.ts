import crypto from 'node:crypto';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { createFilesTestApp, FilesApi, md5, storedFiles, type Caller } from '../../test/files.js';

// What a killed upload leaves in the store, and the sweep that frees it (at start and then
// periodically): temporary files, multipart uploads and objects no row refers to, object rows
// no file refers to. Uploads in progress, pending or committed files are never touched.

type T = TestApp & { storeRoot: string };

describe.each(ENGINES)('leftovers of killed uploads (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    // Pending uploads stay for the default 72 hours; leftovers go once untouched for 10 minutes.
    t = await createFilesTestApp(engine, { CAIRN_UPLOAD_LEFTOVER_MINUTES: '10' });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  const age = async (relative: string) => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path.join(t.storeRoot, relative), hourAgo, hourAgo);
  };

  it('frees what killed uploads left behind, and nothing that is in use', async () => {
    const { id } = await api.createDraft();
    const done = crypto.randomBytes(100);
    await api.upload(id, 'done.bin', done);
    await api.init(id, [
      { key: 'waiting.txt' },
      { key: 'parts.bin', size: 20, transfer: { type: 'M', parts: 2, part_size: 10 } },
    ]);
    await api.put(id, 'waiting.txt', 'sent, not committed');
    await api.putPart(id, 'parts.bin', 1, '0123456789');
    const inUse = await storedFiles(t.storeRoot);
    const store = t.services.store;

    // A killed one-request upload: its temporary file; a killed multipart start: its staging.
    await mkdir(path.join(t.storeRoot, '.tmp', 'staging'), { recursive: true });
    await writeFile(path.join(t.storeRoot, '.tmp', 'staging', 'manifest.json'), '{}');
    await writeFile(path.join(t.storeRoot, '.tmp', 'killed'), crypto.randomBytes(100));
    await age('.tmp/killed');
    await age('.tmp/staging/manifest.json');
    await age('.tmp/staging');
    // A multipart upload whose row is gone, an object stored by an upload killed before its row
    // knew it, and an object row whose file was deleted by a request killed before the bytes.
    const orphanUpload = await store.createMultipart('uploads/zz/orphan-upload', {
      size: 10,
      partSize: 10,
      parts: 1,
    });
    // Started an hour ago, as its manifest says.
    const manifest = path.join(t.storeRoot, '.multipart', orphanUpload, 'manifest.json');
    const started = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    started.createdAt = new Date(Date.now() - 3_600_000).toISOString();
    await writeFile(manifest, JSON.stringify(started));
    await store.put('uploads/zz/orphan-object', Readable.from([Buffer.from('lost')]), {
      maxSize: 10,
    });
    await age('uploads/zz/orphan-object');
    await store.put('uploads/zz/released-object', Readable.from([Buffer.from('released')]), {
      maxSize: 10,
    });
    await age('uploads/zz/released-object');
    await t.services.database.db
      .insertInto('fileObjects')
      .values({
        id: crypto.randomUUID(),
        storeKey: 'uploads/zz/released-object',
        size: 8,
        checksum: `md5:${md5('released')}`,
        createdAt: new Date(Date.now() - 3_600_000).toISOString(),
      })
      .execute();
    // Left the same way a minute ago: maybe another server's upload still running.
    await writeFile(path.join(t.storeRoot, '.tmp', 'recent'), 'x');
    await store.put('uploads/zz/recent-object', Readable.from([Buffer.from('recent')]), {
      maxSize: 10,
    });

    const swept = await t.services.files.sweepAbandoned();

    expect(swept).toBe(5);
    expect(await storedFiles(t.storeRoot)).toEqual(
      [...inUse, '.tmp/recent', 'uploads/zz/recent-object'].sort(),
    );
    const objects = await t.services.database.db
      .selectFrom('fileObjects')
      .select('storeKey')
      .execute();
    expect(objects.map((o) => o.storeKey)).not.toContain('uploads/zz/released-object');
    // What is in use still works: the committed file reads, the pending ones complete.
    const read = await api.get(`/api/records/${id}/draft/files/done.bin/content`);
    expect(read.rawPayload.equals(done)).toBe(true);
    expect((await api.commit(id, 'waiting.txt')).statusCode).toBe(200);
    expect((await api.putPart(id, 'parts.bin', 2, 'abcdefghij')).statusCode).toBe(200);
    const parts = await api.commit(id, 'parts.bin');
    expect(parts.json()).toMatchObject({ checksum: `md5:${md5('0123456789abcdefghij')}` });
    expect(await t.services.files.sweepAbandoned()).toBe(0);
  });
});
