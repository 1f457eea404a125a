import { FilesUploadResultSchema, type FilesUploadResult } from '@cairn/shared';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { createFilesTestApp, FilesApi, md5, storedFiles, type Caller } from '../../test/files.js';

// Issue 20: a folder of small files goes many files a request (POST …/draft/files-upload, a Cairn
// extension). The requests here are built by Node's own fetch and FormData, as any client's would
// be, and sent over a socket to the listening app: the multipart encoding is not Cairn's.

type T = TestApp & { storeRoot: string };
type Listing = {
  entries: Array<{ key: string; status: string; checksum?: string; size?: number }>;
};

describe.each(ENGINES)('files uploaded many a request (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;
  let base: string;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: '200',
      CAIRN_FILES_MAX_BYTES_PER_RECORD: '100000',
    });
    owner = await t.user();
    api = new FilesApi(t, owner);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  const bytesOf = (key: string) => Buffer.from(`the content of ${key}\n`.repeat(3));

  function form(files: Array<{ key: string; bytes: Buffer; size?: number }>): FormData {
    const body = new FormData();
    body.append(
      'files',
      JSON.stringify(files.map((f) => ({ key: f.key, size: f.size ?? f.bytes.length }))),
    );
    for (const f of files) body.append('content', new Blob([f.bytes]), f.key);
    return body;
  }

  async function send(id: string, body: FormData | string, headers: Record<string, string> = {}) {
    const res = await fetch(`${base}/api/records/${id}/draft/files-upload`, {
      method: 'POST',
      headers: { ...owner.headers, ...headers },
      body,
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  }

  async function batch(id: string, files: Array<{ key: string; bytes: Buffer; size?: number }>) {
    const res = await send(id, form(files));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return FilesUploadResultSchema.parse(res.json);
  }

  async function draftWith(keys: string[]): Promise<string> {
    const { id } = await api.createDraft();
    const init = await api.init(
      id,
      keys.map((key) => ({ key })),
    );
    expect(init.statusCode, init.body).toBe(201);
    return id;
  }

  async function listing(id: string): Promise<Listing> {
    const res = await api.get(`/api/records/${id}/draft/files`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Listing>();
  }

  it('stores and commits every file, each with the checksum of its own bytes', async () => {
    const keys = ['raw/2024/a.csv', 'raw/2024/b.csv', 'notes/ré sumé "draft".txt', 'c.txt'];
    const id = await draftWith(keys);
    const result = await batch(
      id,
      keys.map((key) => ({ key, bytes: bytesOf(key) })),
    );
    expect(result.errors).toEqual([]);
    expect(result.entries.map((e) => [e.key, e.status, e.checksum])).toEqual(
      keys.map((key) => [key, 'completed', `md5:${md5(bytesOf(key))}`]),
    );
    const listed = await listing(id);
    expect(listed.entries.every((e) => e.status === 'completed')).toBe(true);
    for (const key of keys) {
      const content = await fetch(
        `${base}/api/records/${id}/draft/files/${encodeURIComponent(key).replaceAll('%2F', '/')}/content`,
        { headers: owner.headers },
      );
      expect(Buffer.from(await content.arrayBuffer()).toString()).toBe(bytesOf(key).toString());
    }
    const draft = await api.draft(id);
    expect(draft.files.count).toBe(keys.length);
    expect(draft.files.total_bytes).toBe(keys.reduce((sum, key) => sum + bytesOf(key).length, 0));
  });

  it('lists a refused file with its reason and goes on with the files after it', async () => {
    const id = await draftWith([
      'one.txt',
      'wrong-size.txt',
      'three.txt',
      'too-big.bin',
      'lies.bin',
    ]);
    const result = await batch(id, [
      { key: 'one.txt', bytes: bytesOf('one') },
      { key: 'never-announced.txt', bytes: bytesOf('x') },
      { key: 'wrong-size.txt', bytes: bytesOf('two'), size: 5 },
      { key: 'too-big.bin', bytes: Buffer.alloc(200_000, 7) },
      // Far more bytes than listed: refused once past the size, its rest skipped.
      { key: 'lies.bin', bytes: Buffer.alloc(300_000, 3), size: 10 },
      { key: 'three.txt', bytes: bytesOf('three') },
    ]);
    expect(result.entries.map((e) => e.key)).toEqual(['one.txt', 'three.txt']);
    expect(result.errors.map((e) => [e.key, e.status])).toEqual([
      ['never-announced.txt', 404],
      ['wrong-size.txt', 400],
      ['too-big.bin', 400],
      ['lies.bin', 400],
    ]);
    expect(result.errors[0]!.message).toMatch(/never-announced\.txt/);
    expect(result.errors[1]!.message).toMatch(/size/i);
    expect(result.errors[2]!.message).toMatch(/too-big\.bin/);
    const status = Object.fromEntries((await listing(id)).entries.map((e) => [e.key, e.status]));
    expect(status).toEqual({
      'one.txt': 'completed',
      'wrong-size.txt': 'pending',
      'three.txt': 'completed',
      'too-big.bin': 'pending',
      'lies.bin': 'pending',
    });
    // Nothing of the refused files' bytes stays in the store: two objects, no temporary.
    expect(
      (await storedFiles(t.storeRoot)).filter((f) => f.includes(id) || f.startsWith('.tmp')),
    ).toEqual([]);
  });

  it('says which files got no content and refuses a form without its list of files', async () => {
    const id = await draftWith(['a.txt', 'b.txt']);
    const body = new FormData();
    body.append(
      'files',
      JSON.stringify([
        { key: 'a.txt', size: 3 },
        { key: 'b.txt', size: 3 },
      ]),
    );
    body.append('content', new Blob(['aaa']), 'a.txt');
    const partial = await send(id, body);
    expect(partial.status).toBe(200);
    expect((partial.json as FilesUploadResult).errors).toEqual([
      expect.objectContaining({
        key: 'b.txt',
        status: 400,
        message: expect.stringMatching(/No content/),
      }),
    ]);

    const noList = new FormData();
    noList.append('content', new Blob(['bbb']), 'b.txt');
    const refused = await send(id, noList);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/"files" must come before/);

    const empty = new FormData();
    empty.append('other', 'x');
    expect((await send(id, empty)).json.message).toMatch(/"files" is missing/);

    const badJson = new FormData();
    badJson.append('files', '[{"key": "b.txt", "size": }');
    expect((await send(id, badJson)).status).toBe(400);

    const badList = new FormData();
    badList.append('files', JSON.stringify([{ key: 'b.txt' }]));
    const invalid = await send(id, badList);
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.json.errors)).toMatch(/size/);

    const asBytes = await send(id, 'aaa', { 'content-type': 'application/octet-stream' });
    expect(asBytes.status).toBe(415);
    const asJson = await send(id, '[]', { 'content-type': 'application/json' });
    expect(asJson.status).toBe(415);
    expect(asJson.json.message).toMatch(/multipart\/form-data/);
    expect((await listing(id)).entries.find((e) => e.key === 'b.txt')?.status).toBe('pending');
  });

  it('is refused to whoever may not change the draft, before a file is stored', async () => {
    const id = await draftWith(['a.txt']);
    const stranger = await t.user();
    const res = await fetch(`${base}/api/records/${id}/draft/files-upload`, {
      method: 'POST',
      headers: stranger.headers,
      body: form([{ key: 'a.txt', bytes: bytesOf('a') }]),
    });
    expect(res.status).toBe(403);
    const anonymous = await fetch(`${base}/api/records/${id}/draft/files-upload`, {
      method: 'POST',
      body: form([{ key: 'a.txt', bytes: bytesOf('a') }]),
    });
    expect([401, 403]).toContain(anonymous.status);
    expect((await listing(id)).entries[0]!.status).toBe('pending');
  });

  it('commits each file once when batches race, and keeps the counts exact', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
    const id = await draftWith(keys);
    const files = keys.map((key) => ({ key, bytes: bytesOf(key) }));
    // Two clients send overlapping halves at once, twice over.
    const results = await Promise.all([
      batch(id, files.slice(0, 25)),
      batch(id, files.slice(15)),
      batch(id, files.slice(0, 25)),
      batch(id, files.slice(15)),
    ]);
    const committed = results.flatMap((r) => r.entries.map((e) => e.key)).sort();
    expect(committed).toEqual(keys);
    for (const error of results.flatMap((r) => r.errors)) {
      expect(keys).toContain(error.key);
      expect([400, 409]).toContain(error.status);
    }
    const listed = await listing(id);
    expect(listed.entries.filter((e) => e.status === 'completed')).toHaveLength(keys.length);
    const draft = await api.draft(id);
    expect(draft.files.count).toBe(keys.length);
    expect(draft.files.total_bytes).toBe(files.reduce((sum, f) => sum + f.bytes.length, 0));
  });

  it('keeps the files committed before the connection dropped, and takes the rest again', async () => {
    const keys = ['a.txt', 'b.txt', 'c.txt'];
    const id = await draftWith(keys);
    const boundary = 'cairn-test-boundary';
    const head = (name: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`;
    const big = Buffer.alloc(40_000, 1);
    const manifest = JSON.stringify([
      { key: 'a.txt', size: 3 },
      { key: 'b.txt', size: big.length },
      { key: 'c.txt', size: 3 },
    ]);
    // The whole of a.txt, then half of b.txt, and the client is gone.
    const sentPart = Buffer.concat([
      Buffer.from(`${head('files')}${manifest}\r\n${head('content', 'a.txt')}aaa\r\n`),
      Buffer.from(head('content', 'b.txt')),
      big.subarray(0, 20_000),
    ]);
    const url = new URL(`${base}/api/records/${id}/draft/files-upload`);
    await new Promise<void>((resolve) => {
      const request = http.request(url, {
        method: 'POST',
        headers: {
          ...owner.headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(sentPart.length + 100_000),
        },
      });
      request.on('error', () => resolve());
      request.write(sentPart, () =>
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 300),
      );
    });
    const status = async () =>
      Object.fromEntries((await listing(id)).entries.map((e) => [e.key, e.status]));
    await expect
      .poll(status)
      .toEqual({ 'a.txt': 'completed', 'b.txt': 'pending', 'c.txt': 'pending' });

    // The client sends the batch again: what was committed is said to be, the rest is stored.
    const again = await batch(id, [
      { key: 'a.txt', bytes: Buffer.from('aaa') },
      { key: 'b.txt', bytes: big },
      { key: 'c.txt', bytes: Buffer.from('ccc') },
    ]);
    expect(again.entries.map((e) => e.key)).toEqual(['b.txt', 'c.txt']);
    expect(again.errors).toEqual([
      expect.objectContaining({
        key: 'a.txt',
        status: 400,
        message: expect.stringMatching(/already committed/),
      }),
    ]);
    expect(await status()).toEqual({
      'a.txt': 'completed',
      'b.txt': 'completed',
      'c.txt': 'completed',
    });
    const leftovers = (await storedFiles(t.storeRoot)).filter((f) => f.startsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });
});
