import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const metadata = {
  title: 'Sediment cores',
  publication_date: '2024-05-01',
  resource_type: { id: 'dataset' },
  creators: [{ person_or_org: { type: 'personal', family_name: 'Curie', given_name: 'Marie' } }],
};

const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

describe.each(ENGINES)('files API on %s', (engine) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<TestApp['user']>>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
  });
  afterAll(() => t.close());

  async function draft() {
    const res = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: owner.headers,
      body: { metadata },
    });
    return res.json<{ id: string; revision_id: number }>();
  }

  it('uploads a file in one request, commits, publishes and downloads it with ranges', async () => {
    const { id, revision_id } = await draft();
    const bytes = Buffer.from('depth,value\n1,2\n3,4\n');
    const init = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'data/cores.csv', size: bytes.length }],
    });
    expect(init.statusCode).toBe(201);
    expect(init.json().entries[0]).toMatchObject({ key: 'data/cores.csv', status: 'pending' });
    const content = await t.request({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/data/cores.csv/content`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      body: bytes.toString(),
    });
    expect(content.statusCode, content.body).toBe(200);
    const commit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/data/cores.csv/commit`,
      headers: owner.headers,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({
      status: 'completed',
      size: bytes.length,
      checksum: `md5:${md5(bytes)}`,
      mimetype: 'text/csv',
    });
    const d = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(d.json().revision_id).toBeGreaterThan(revision_id);
    expect(d.json().files.entries['data/cores.csv'].checksum).toBe(`md5:${md5(bytes)}`);

    const published = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode, published.body).toBe(202);
    expect(published.json().files).toMatchObject({
      enabled: true,
      count: 1,
      total_bytes: bytes.length,
    });

    const download = await t.request({
      method: 'GET',
      url: `/api/records/${id}/files/data/cores.csv/content`,
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(bytes.toString());
    expect(download.headers['content-md5']).toBe(Buffer.from(md5(bytes), 'hex').toString('base64'));
    const range = await t.request({
      method: 'GET',
      url: `/api/records/${id}/files/data/cores.csv/content`,
      headers: { range: 'bytes=0-4' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('depth');
    expect(range.headers['content-range']).toBe(`bytes 0-4/${bytes.length}`);
    const bad = await t.request({
      method: 'GET',
      url: `/api/records/${id}/files/data/cores.csv/content`,
      headers: { range: 'bytes=999-' },
    });
    expect(bad.statusCode).toBe(416);
    const head = await t.request({
      method: 'HEAD',
      url: `/api/records/${id}/files/data/cores.csv/content`,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    const zip = await t.request({ method: 'GET', url: `/api/records/${id}/files-archive` });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(Number(zip.headers['content-length'])).toBe(zip.rawPayload.length);
  });

  it('stores and commits content in one request with ?commit=true (Cairn extension), and says why it cannot', async () => {
    const { id } = await draft();
    const bytes = Buffer.from('station,temp\n1,12.5\n');
    const wrong = `md5:${'0'.repeat(32)}`;
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [
        { key: 'raw/a.csv', size: bytes.length },
        { key: 'raw/b.csv', size: bytes.length, checksum: wrong },
        { key: 'raw/big.bin', size: 12, transfer: { type: 'M', parts: 2, part_size: 6 } },
      ],
    });
    const put = (key: string, query: string, body = bytes.toString()) =>
      t.request({
        method: 'PUT',
        url: `/api/records/${id}/draft/files/${key}?${query}`,
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        body,
      });

    const both = await put('raw/a.csv/content', 'commit=true');
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toMatchObject({
      key: 'raw/a.csv',
      status: 'completed',
      size: bytes.length,
      checksum: `md5:${md5(bytes)}`,
    });
    // Committed once: the contract's commit now finds nothing pending.
    const again = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/raw/a.csv/commit`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(400);

    // The commit refuses: the bytes stay stored, the file pending, as after a PUT and a commit.
    const refused = await put('raw/b.csv/content', 'commit=true');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/does not match the one announced/);
    const b = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/raw/b.csv`,
      headers: owner.headers,
    });
    expect(b.json().status).toBe('pending');

    const typo = await put('raw/b.csv/content', 'commit=yes');
    expect(typo.statusCode).toBe(400);
    expect(JSON.stringify(typo.json())).toMatch(/Must be true or false/);
    const part = await put('raw/big.bin/content/1', 'commit=true', 'abcdef');
    expect(part.statusCode).toBe(400);
    expect(part.json().message).toMatch(/Only content can be committed as it is sent/);

    const listing = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(listing.json().files.entries['raw/a.csv'].checksum).toBe(`md5:${md5(bytes)}`);
  });

  it('commits once when the same content?commit=true is sent many times at once', async () => {
    const { id } = await draft();
    const bytes = Buffer.from('same bytes, sent ten times at once\n');
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'once.txt', size: bytes.length }],
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request({
          method: 'PUT',
          url: `/api/records/${id}/draft/files/once.txt/content?commit=true`,
          headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
          body: bytes.toString(),
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    // One of them commits; each other finds the file committed (400) or being committed (409).
    expect(codes.filter((c) => c === 200).length, codes.join()).toBe(1);
    expect(
      codes.every((c) => c === 200 || c === 400 || c === 409),
      codes.join(),
    ).toBe(true);
    const file = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/once.txt`,
      headers: owner.headers,
    });
    expect(file.json()).toMatchObject({ status: 'completed', checksum: `md5:${md5(bytes)}` });
    const draftJson = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(draftJson.json().files).toMatchObject({ count: 1, total_bytes: bytes.length });
  });

  it('uploads a multipart file in parts out of order, lists received parts, and commits', async () => {
    const { id } = await draft();
    const bytes = crypto.randomBytes(25);
    const init = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'big.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } }],
    });
    expect(init.statusCode, init.body).toBe(201);
    const entry = init.json().entries[0];
    expect(entry.links.parts).toHaveLength(3);
    expect(entry.links.content).toBeUndefined();
    const put = (n: number, chunk: Buffer, extra: Record<string, string> = {}) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/records/${id}/draft/files/big.bin/content/${n}`,
        headers: { ...owner.headers, 'content-type': 'application/octet-stream', ...extra },
        payload: chunk,
      });
    expect((await put(3, bytes.subarray(20))).statusCode).toBe(200);
    const wrongMd5 = await put(1, bytes.subarray(0, 10), {
      'content-md5': Buffer.from(md5(Buffer.from('x')), 'hex').toString('base64'),
    });
    expect(wrongMd5.statusCode).toBe(400);
    expect(
      (
        await put(1, bytes.subarray(0, 10), {
          'content-md5': Buffer.from(md5(bytes.subarray(0, 10)), 'hex').toString('base64'),
        })
      ).statusCode,
    ).toBe(200);
    const wrongSize = await put(2, bytes.subarray(10, 15));
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().message).toBe(
      'Size of this part must be equal to part_size sent in multipart initialization.',
    );
    const parts = await t.request({
      method: 'GET',
      url: `/api/records/${id}/draft/files/big.bin/parts`,
      headers: owner.headers,
    });
    expect(parts.json().missing).toEqual([2]);
    const early = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/big.bin/commit`,
      headers: owner.headers,
    });
    expect(early.statusCode).toBe(400);
    expect((await put(2, bytes.subarray(10, 20))).statusCode).toBe(200);
    const commit = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/big.bin/commit`,
      headers: owner.headers,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json()).toMatchObject({
      status: 'completed',
      size: 25,
      checksum: `md5:${md5(bytes)}`,
      transfer: { type: 'L' },
    });
    const again = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/big.bin/commit`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(400);
  });

  it('enforces quotas before bytes are sent and refuses duplicates after normalisation', async () => {
    const { id } = await draft();
    const tooMany = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => ({ key })),
    });
    expect(tooMany.statusCode).toBe(400);
    const tooBig = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'huge.bin', size: 2e10 }],
    });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toMatch(/^File size limit exceeded/);
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'caf\u00e9.txt' }],
    });
    const dup = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'cafe\u0301.txt' }],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe('File with key cafe\u0301.txt already exists.');
    const bad = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: '../etc/passwd' }, { key: 'a\u0007b' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(['0.key', '1.key']);
  });

  it('imports the previous version’s files without copying bytes', async () => {
    const { id } = await draft();
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files`,
      headers: owner.headers,
      body: [{ key: 'a.txt' }],
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/a.txt/content`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: 'hello',
    });
    await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/files/a.txt/commit`,
      headers: owner.headers,
    });
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/records/${id}/draft/actions/publish`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(202);
    const v2 = (
      await t.request({
        method: 'POST',
        url: `/api/records/${id}/versions`,
        headers: owner.headers,
      })
    ).json();
    expect(v2.files.count).toBe(0);
    const imported = await t.request({
      method: 'POST',
      url: `/api/records/${v2.id}/draft/actions/files-import`,
      headers: owner.headers,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().entries[0]).toMatchObject({
      key: 'a.txt',
      status: 'completed',
      size: 5,
    });
    const read = await t.request({
      method: 'GET',
      url: `/api/records/${v2.id}/draft/files/a.txt/content`,
      headers: owner.headers,
    });
    expect(read.body).toBe('hello');
    expect(imported.json().entries[0].file_id).toBeDefined();
    const first = await t.request({
      method: 'POST',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
    });
    expect(first.json().files.entries['a.txt']).toBeDefined();
    const locked = await t.app.inject({
      method: 'PUT',
      url: `/api/records/${id}/draft/files/a.txt/content`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: 'x',
    });
    expect(locked.statusCode).toBe(403);
  });
});
