import crypto from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import {
  createFilesTestApp,
  FilesApi,
  md5,
  PUBLISHABLE_METADATA,
  storedFiles,
  type Caller,
} from '../../test/files.js';
import { FileStoreError } from './storage/file-store.js';

// The files rules that span the draft's life: metadata-only records, the default preview, quotas,
// revisions, versions sharing bytes, downloads, archives, and the sweep of abandoned uploads. Bytes
// are checked in the store itself, not only through the API.

type T = TestApp & { storeRoot: string };

/** The entries of a stored (method 0) zip, read from its central directory, CRCs checked. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(method).toBe(0);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const bytes = zip.subarray(data, data + size);
    expect(crc32(bytes) >>> 0).toBe(crc);
    entries.set(name, bytes);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe.each(ENGINES)('files through the draft lifecycle (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  async function storeKeyOf(fileId: string): Promise<string> {
    const object = await t.services.database.db
      .selectFrom('fileObjects')
      .select('storeKey')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    return object.storeKey;
  }

  async function expectNotStored(storeKey: string): Promise<void> {
    await expect(t.services.store.read(storeKey)).rejects.toSatisfy(
      (e) => e instanceof FileStoreError && e.reason === 'not-found',
    );
  }

  async function readStored(storeKey: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await t.services.store.read(storeKey)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  }

  function saveDraft(id: string, files: object, headers: Record<string, string> = {}) {
    return t.request({
      method: 'PUT',
      url: `/api/records/${id}/draft`,
      headers: { ...owner.headers, ...headers },
      body: { metadata: PUBLISHABLE_METADATA, files },
    });
  }

  function publishing(id: string) {
    return t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/publish`,
      headers: owner.headers,
    });
  }

  function newVersion(id: string) {
    return t.request({
      method: 'POST',
      url: `/api/records/${id}/versions`,
      headers: owner.headers,
    });
  }

  function filesImport(id: string) {
    return t.request({
      method: 'POST',
      url: `/api/records/${id}/draft/actions/files-import`,
      headers: owner.headers,
    });
  }

  describe('default quota', () => {
    it('holds 5 files and 1e10 bytes per record', async () => {
      const { id } = await api.createDraft();
      const keys = ['1', '2', '3', '4', '5'].map((key) => ({ key }));
      expect((await api.init(id, keys)).statusCode).toBe(201);
      expectError(
        await api.init(id, [{ key: '6' }]),
        400,
        'VALIDATION_FAILED',
        'Uploading selected files will result in exceeding the max amount per record. This record may hold at most 5 files.',
      );
      const second = await api.createDraft();
      expect((await api.init(second.id, [{ key: 'huge.bin', size: 1e10 }])).statusCode).toBe(201);
      expectError(
        await api.init(second.id, [{ key: 'one-more.bin', size: 1 }]),
        400,
        'VALIDATION_FAILED',
        'File size limit exceeded. Uploading the selected files would result in 10000000001 bytes of storage use, exceeding the limit of 10000000000 bytes.',
      );
    });
  });

  describe('metadata-only records (files.enabled false)', () => {
    it('list no entries, refuse files (403), and publish without any', async () => {
      const { id } = await api.createDraft({
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
      });
      const list = await api.get(`/api/records/${id}/draft/files`);
      expect(list.json()).toEqual({
        enabled: false,
        links: {
          self: `https://cairn.test/api/records/${id}/draft/files`,
          archive: `https://cairn.test/api/records/${id}/draft/files-archive`,
        },
      });
      const before = await api.snapshot(id);
      expectError(
        await api.init(id, [{ key: 'a.txt' }]),
        403,
        'PERMISSION_DENIED',
        'Files are not enabled.',
      );
      expect(await api.snapshot(id)).toEqual(before);
      await api.publish(id);
      expect((await api.get(`/api/records/${id}/files`)).json()).toEqual({
        enabled: false,
        links: {
          self: `https://cairn.test/api/records/${id}/files`,
          archive: `https://cairn.test/api/records/${id}/files-archive`,
        },
      });
    });

    it('cannot be chosen while files exist (a draft error, files stay enabled)', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'a.txt', 'alpha');
      const refused = await saveDraft(id, { enabled: false });
      expect(refused.statusCode, refused.body).toBe(200);
      expect(refused.json().errors).toEqual([
        {
          field: 'files.enabled',
          messages: ['You must first delete all files to set the record to be metadata-only.'],
        },
      ]);
      expect(refused.json().files).toMatchObject({ enabled: true, count: 1 });
      expect((await api.delete(id, 'a.txt')).statusCode).toBe(204);
      const accepted = await saveDraft(id, { enabled: false });
      expect(accepted.json().errors).toBeUndefined();
      expect(accepted.json().files.enabled).toBe(false);
    });

    it('publish refuses files.enabled with no files, or with unfinished ones (400)', async () => {
      const { id } = await api.createDraft();
      expectValidationFailed(await publishing(id), [
        {
          field: 'files.enabled',
          messages: [
            'Missing uploaded files. To disable files for this record please mark it as metadata-only.',
          ],
        },
      ]);
      await api.upload(id, 'a.txt', 'alpha');
      await api.init(id, [{ key: 'b.txt' }]);
      expectValidationFailed(await publishing(id), [
        {
          field: 'files',
          messages: ['One or more files have not completed their transfer, please wait.'],
        },
      ]);
      expect((await api.delete(id, 'b.txt')).statusCode).toBe(204);
      await api.publish(id);
    });
  });

  describe('default_preview', () => {
    it('must name a file of the draft, and goes when that file is deleted', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'a.txt', 'alpha');
      await api.upload(id, 'b.txt', 'bravo');
      const missing = await saveDraft(id, { enabled: true, default_preview: 'missing.txt' });
      expect(missing.statusCode).toBe(200);
      expect(missing.json().errors).toEqual([
        {
          field: 'files.default_preview',
          messages: ['Default preview file not found: missing.txt.'],
        },
      ]);
      expect(missing.json().files.default_preview).toBeUndefined();
      expect((await api.get(`/api/records/${id}/draft/files`)).json().default_preview).toBeNull();

      const set = await saveDraft(id, { enabled: true, default_preview: 'a.txt' });
      expect(set.json().errors).toBeUndefined();
      expect((await api.get(`/api/records/${id}/draft/files`)).json().default_preview).toBe(
        'a.txt',
      );
      const { revision } = await api.snapshot(id);
      expect((await api.delete(id, 'a.txt')).statusCode).toBe(204);
      const draft = await api.draft(id);
      expect(draft.revision_id).toBe(revision + 1);
      expect(draft.files.default_preview).toBeUndefined();
      expect((await api.get(`/api/records/${id}/draft/files`)).json().default_preview).toBeNull();

      for (const cleared of [null, '']) {
        await saveDraft(id, { enabled: true, default_preview: 'b.txt' });
        expect((await api.draft(id)).files.default_preview).toBe('b.txt');
        const res = await saveDraft(id, { enabled: true, default_preview: cleared });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().files.default_preview).toBeUndefined();
      }
      await saveDraft(id, { enabled: true, default_preview: 'b.txt' });
      await api.publish(id);
      expect((await api.get(`/api/records/${id}/files`)).json().default_preview).toBe('b.txt');
    });
  });

  describe("the draft's revision", () => {
    it('goes up with every change of its files, so a stale If-Match is refused (412)', async () => {
      const { id, revision_id: created } = await api.createDraft();
      const revisions = [created];
      const step = async (
        change: Promise<{ statusCode: number; body: string }>,
        status: number,
      ) => {
        const res = await change;
        expect(res.statusCode, res.body).toBe(status);
        const now = (await api.draft(id)).revision_id as number;
        expect(now).toBeGreaterThan(revisions.at(-1)!);
        revisions.push(now);
      };
      await step(api.init(id, [{ key: 'a.txt' }, { key: 'b.txt' }]), 201);
      expect((await api.put(id, 'a.txt', 'alpha')).statusCode).toBe(200);
      await step(api.commit(id, 'a.txt'), 200);
      await step(
        t.request({
          method: 'PUT',
          url: `/api/records/${id}/draft/files/a.txt`,
          headers: owner.headers,
          body: { metadata: { description: 'first letter' } },
        }),
        200,
      );
      await step(api.delete(id, 'b.txt'), 204);
      await step(api.delete(id), 204);

      const stale = await saveDraft(id, { enabled: true }, { 'if-match': String(created) });
      expectError(
        stale,
        412,
        'REVISION_MISMATCH',
        `Revision id provided(${created}) doesn't match record's one(${revisions.at(-1)})`,
      );
    });
  });

  describe('versions share bytes', () => {
    it('imports the previous version’s files without copying a byte, and frees bytes only when nothing refers to them', async () => {
      const { id: v1 } = await api.createDraft();
      await api.upload(v1, 'a.txt', 'alpha');
      await api.upload(v1, 'b.txt', 'bravo');
      await api.publish(v1);
      const published = (await api.get(`/api/records/${v1}/files`)).json();
      const fileIds = Object.fromEntries(
        published.entries.map((e: { key: string; file_id: string }) => [e.key, e.file_id]),
      );
      const keyA = await storeKeyOf(fileIds['a.txt']);
      const keyB = await storeKeyOf(fileIds['b.txt']);
      const bytesBefore = await storedFiles(t.storeRoot);

      const draft = await newVersion(v1);
      expect(draft.statusCode, draft.body).toBe(201);
      const v2 = draft.json().id as string;
      const { revision } = await api.snapshot(v2);
      const imported = await filesImport(v2);
      expect(imported.statusCode, imported.body).toBe(201);
      expect(
        imported.json().entries.map((e: Record<string, unknown>) => [e.key, e.status, e.file_id]),
      ).toEqual([
        ['a.txt', 'completed', fileIds['a.txt']],
        ['b.txt', 'completed', fileIds['b.txt']],
      ]);
      expect((await api.draft(v2)).revision_id).toBeGreaterThan(revision);
      expect(await storedFiles(t.storeRoot)).toEqual(bytesBefore);

      const again = await filesImport(v2);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please remove all files first.',
        errors: [{ field: 'files.enabled', messages: ['Please remove all files first.'] }],
      });

      // Deleted from the new version, a.txt is still the first version's.
      expect((await api.delete(v2, 'a.txt')).statusCode).toBe(204);
      expect(await readStored(keyA)).toBe('alpha');
      expect((await api.get(`/api/records/${v1}/files/a.txt/content`)).body).toBe('alpha');

      // A file only the new version had goes with it; the shared ones stay.
      const c = await api.upload(v2, 'c.txt', 'charlie');
      const keyC = await storeKeyOf(c.file_id as string);
      expect(await readStored(keyC)).toBe('charlie');
      expect(
        (
          await t.request({
            method: 'DELETE',
            url: `/api/records/${v2}/draft`,
            headers: owner.headers,
          })
        ).statusCode,
      ).toBe(204);
      await expectNotStored(keyC);
      expect(await readStored(keyA)).toBe('alpha');
      expect(await readStored(keyB)).toBe('bravo');

      // Editing the first version and discarding the edit leaves its bytes alone.
      await t.request({ method: 'POST', url: `/api/records/${v1}/draft`, headers: owner.headers });
      expect(
        (
          await t.request({
            method: 'DELETE',
            url: `/api/records/${v1}/draft`,
            headers: owner.headers,
          })
        ).statusCode,
      ).toBe(204);
      expect(await readStored(keyA)).toBe('alpha');

      // A second version publishes the shared bytes: both versions read the same object.
      const v3 = (await newVersion(v1)).json().id as string;
      await filesImport(v3);
      await api.publish(v3);
      for (const record of [v1, v3]) {
        expect((await api.get(`/api/records/${record}/files/b.txt/content`)).body).toBe('bravo');
      }
      expect((await api.get(`/api/records/${v3}/files`)).json().entries[1].file_id).toBe(
        fileIds['b.txt'],
      );
      expect(await storedFiles(t.storeRoot)).toEqual(bytesBefore);
    });

    it('frees a draft’s own bytes when its file is deleted or the draft discarded', async () => {
      const { id } = await api.createDraft();
      const a = await api.upload(id, 'a.txt', 'alpha');
      const b = await api.upload(id, 'b.txt', 'bravo');
      const keyA = await storeKeyOf(a.file_id as string);
      const keyB = await storeKeyOf(b.file_id as string);
      expect((await api.delete(id, 'a.txt')).statusCode).toBe(204);
      await expectNotStored(keyA);
      expect(await readStored(keyB)).toBe('bravo');
      await t.request({
        method: 'DELETE',
        url: `/api/records/${id}/draft`,
        headers: owner.headers,
      });
      await expectNotStored(keyB);
    });

    it('refuses an import with nothing to import: first version (404), metadata-only (400)', async () => {
      const { id: first } = await api.createDraft();
      expectError(
        await filesImport(first),
        404,
        'PID_DOES_NOT_EXIST',
        'The persistent identifier does not exist.',
      );
      const { id: v1 } = await api.createDraft({
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
      });
      await api.publish(v1);
      const v2 = (await newVersion(v1)).json().id as string;
      const fieldError = (message: string) => ({
        status: 400,
        code: 'VALIDATION_FAILED',
        message,
        errors: [{ field: 'files.enabled', messages: [message] }],
      });
      expect((await filesImport(v2)).json()).toEqual(fieldError('Files support must be enabled.'));
      await saveDraft(v2, { enabled: true });
      const before = await api.snapshot(v2);
      expect((await filesImport(v2)).json()).toEqual(fieldError('The record has no files.'));
      expect(await api.snapshot(v2)).toEqual(before);
    });
  });

  describe('downloads', () => {
    const digits = '0123456789abcdefg';
    let id: string;
    let content: string;

    beforeAll(async () => {
      ({ id } = await api.createDraft());
      await api.upload(id, 'digits.txt', digits);
      await api.publish(id);
      content = `/api/records/${id}/files/digits.txt/content`;
    });

    it.each([
      ['bytes=0-9', '0123456789', 'bytes 0-9/17'],
      ['bytes=-5', 'cdefg', 'bytes 12-16/17'],
      ['bytes=10-', 'abcdefg', 'bytes 10-16/17'],
      ['bytes=5-100', '56789abcdefg', 'bytes 5-16/17'],
    ])('answers Range %s with 206', async (range, body, contentRange) => {
      const res = await api.as(undefined).get(content, { range });
      expect(res.statusCode).toBe(206);
      expect(res.body).toBe(body);
      expect(res.headers['content-range']).toBe(contentRange);
      expect(res.headers['content-length']).toBe(String(body.length));
    });

    it.each(['bytes=17-', 'bytes=abc', 'items=0-1', 'bytes=9-3'])(
      'answers Range %s with 416',
      async (range) => {
        const res = await api.as(undefined).get(content, { range });
        expect(res.statusCode).toBe(416);
        expect(res.headers['content-range']).toBe('bytes */17');
        expect(res.json()).toMatchObject({ status: 416 });
      },
    );

    it('answers several ranges with the whole file (200)', async () => {
      const res = await api.as(undefined).get(content, { range: 'bytes=0-1,4-5' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(digits);
    });

    it('sends the whole file with its headers, and HEAD with none of its bytes', async () => {
      const res = await api.as(undefined).get(content);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(digits);
      const hex = md5(digits);
      expect(res.headers).toMatchObject({
        'content-type': expect.stringMatching(/^text\/plain/),
        'content-length': '17',
        'accept-ranges': 'bytes',
        etag: `"${hex}"`,
        'content-md5': Buffer.from(hex, 'hex').toString('base64'),
        'content-security-policy': "default-src 'none';",
        'x-content-type-options': 'nosniff',
      });
      const head = await t.request({ method: 'HEAD', url: content });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe('17');
      expect(head.headers.etag).toBe(`"${hex}"`);
      const headRange = await t.request({
        method: 'HEAD',
        url: content,
        headers: { range: 'bytes=2-4' },
      });
      expect(headRange.statusCode).toBe(206);
      expect(headRange.body).toBe('');
      expect(headRange.headers['content-range']).toBe('bytes 2-4/17');
      expect(headRange.headers['content-length']).toBe('3');
    });

    it('lets only PDFs be framed, and only by this site (the landing page preview)', async () => {
      const draft = await api.createDraft();
      await api.upload(draft.id, 'paper.pdf', '%PDF-1.4\n%%EOF\n');
      const pdf = await api.get(`/api/records/${draft.id}/draft/files/paper.pdf/content`);
      expect(pdf.headers).toMatchObject({
        'content-type': expect.stringMatching(/^application\/pdf/),
        'content-security-policy': "default-src 'none'; frame-ancestors 'self';",
        'x-frame-options': 'sameorigin',
      });
      const text = await api.as(undefined).get(content);
      expect(text.headers['x-frame-options']).toBe('deny');
    });

    // An empty representation has no byte a range could start at: a plain GET is 200 with no
    // body, a range that starts somewhere is 416, and a suffix ("the last n bytes") is the whole
    // of it, which cannot be written as a 206's Content-Range, so the answer is the whole, 200.
    it('serves an empty file whole (200) and refuses ranges that start in it (416)', async () => {
      const draft = await api.createDraft();
      await api.upload(draft.id, 'empty.csv', '');
      await api.publish(draft.id);
      const empty = `/api/records/${draft.id}/files/empty.csv/content`;
      const whole = await api.as(undefined).get(empty);
      expect(whole.statusCode).toBe(200);
      expect(whole.body).toBe('');
      expect(whole.headers['content-length']).toBe('0');
      expect(whole.headers['content-range']).toBeUndefined();
      const head = await t.request({ method: 'HEAD', url: empty });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe('0');
      for (const range of ['bytes=0-', 'bytes=0-65535', 'bytes=0-0']) {
        const res = await api.as(undefined).get(empty, { range });
        expect(res.statusCode, range).toBe(416);
        expect(res.headers['content-range'], range).toBe('bytes */0');
      }
      const suffix = await api.as(undefined).get(empty, { range: 'bytes=-5' });
      expect(suffix.statusCode).toBe(200);
      expect(suffix.body).toBe('');
      expect(suffix.headers['content-range']).toBeUndefined();
      const zeroSuffix = await api.as(undefined).get(empty, { range: 'bytes=-0' });
      expect(zeroSuffix.statusCode).toBe(416);
    });

    it('serves ranges of draft files too, but no content of a pending file (404)', async () => {
      const draft = await api.createDraft();
      await api.upload(draft.id, 'digits.txt', digits);
      await api.init(draft.id, [{ key: 'pending.txt' }]);
      const res = await api.get(`/api/records/${draft.id}/draft/files/digits.txt/content`, {
        range: 'bytes=-3',
      });
      expect(res.statusCode).toBe(206);
      expect(res.body).toBe('efg');
      const head = await t.request({
        method: 'HEAD',
        url: `/api/records/${draft.id}/draft/files/pending.txt/content`,
        headers: owner.headers,
      });
      expect(head.statusCode).toBe(404);
    });
  });

  describe('files-archive', () => {
    it('streams every completed file of a draft or record as one zip', async () => {
      const { id } = await api.createDraft();
      const csv = crypto.randomBytes(3000);
      await api.upload(id, 'a.txt', 'alpha');
      await api.upload(id, 'folder/b.csv', csv);
      await api.init(id, [{ key: 'pending.txt' }]);
      await api.put(id, 'pending.txt', 'not committed');

      const draftZip = await api.get(`/api/records/${id}/draft/files-archive`);
      expect(draftZip.statusCode).toBe(200);
      expect(draftZip.headers['content-type']).toBe('application/zip');
      expect(draftZip.headers['content-disposition']).toBe(`attachment; filename="${id}.zip"`);
      expect(Number(draftZip.headers['content-length'])).toBe(draftZip.rawPayload.length);
      const entries = readZip(draftZip.rawPayload);
      expect([...entries.keys()]).toEqual(['a.txt', 'folder/b.csv']);
      expect(entries.get('a.txt')!.toString()).toBe('alpha');
      expect(entries.get('folder/b.csv')!.equals(csv)).toBe(true);

      await api.delete(id, 'pending.txt');
      await api.publish(id);
      const recordZip = await api.as(undefined).get(`/api/records/${id}/files-archive`);
      expect(recordZip.statusCode).toBe(200);
      expect([...readZip(recordZip.rawPayload).keys()]).toEqual(['a.txt', 'folder/b.csv']);
    });

    it('streams one folder with ?prefix=, its entries keeping their paths', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'raw/2024/a.csv', 'a');
      await api.upload(id, 'raw/2025/b.csv', 'b');
      await api.upload(id, 'rawdata.csv', 'not in the folder');
      await api.upload(id, 'README.txt', 'read me');
      const folder = await api.get(`/api/records/${id}/draft/files-archive?prefix=raw/2024/`);
      expect(folder.statusCode, folder.body).toBe(200);
      expect(folder.headers['content-disposition']).toBe(
        `attachment; filename="${id}-raw-2024.zip"`,
      );
      expect([...readZip(folder.rawPayload).keys()]).toEqual(['raw/2024/a.csv']);
      await api.publish(id);
      const raw = await api.as(undefined).get(`/api/records/${id}/files-archive?prefix=raw`);
      expect([...readZip(raw.rawPayload).keys()]).toEqual(['raw/2024/a.csv', 'raw/2025/b.csv']);
      expectError(
        await api.get(`/api/records/${id}/files-archive?prefix=nothing`),
        404,
        'NOT_FOUND',
        'No files in the folder nothing/',
      );
    });
  });

  it('sweeps nothing younger than CAIRN_PENDING_UPLOAD_MAX_AGE_HOURS (72 by default)', async () => {
    const { id } = await api.createDraft();
    await api.init(id, [
      { key: 'l.txt' },
      { key: 'm.bin', size: 20, transfer: { type: 'M', parts: 2, part_size: 10 } },
    ]);
    await api.put(id, 'l.txt', 'waiting');
    const before = await api.snapshot(id);
    const bytes = await storedFiles(t.storeRoot);
    expect(await t.services.files.sweepAbandoned()).toBe(0);
    expect(await api.snapshot(id)).toEqual(before);
    expect(await storedFiles(t.storeRoot)).toEqual(bytes);
  });
});

// Its own app, where every pending upload is already abandoned and archives are capped at 10
// bytes; and its own block, so the app is created once the one above is closed (Kysely's migrator
// looks for its tables in every PostgreSQL schema, so a second app migrating beside one fails).
describe.each(ENGINES)('abandoned uploads and capped archives (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_PENDING_UPLOAD_MAX_AGE_HOURS: '0',
      CAIRN_ARCHIVE_MAX_BYTES: '10',
    });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  it('removes pending and multipart uploads past the age with their bytes, and nothing else', async () => {
    const { id } = await api.createDraft();
    const kept = await api.upload(id, 'keep.txt', 'kept');
    await api.init(id, [
      { key: 'l.txt' },
      { key: 'm.bin', size: 20, transfer: { type: 'M', parts: 2, part_size: 10 } },
    ]);
    await api.put(id, 'l.txt', 'abandoned');
    expect((await api.putPart(id, 'm.bin', 1, '0123456789')).statusCode).toBe(200);
    const preview = await t.request({
      method: 'PUT',
      url: `/api/records/${id}/draft`,
      headers: owner.headers,
      body: { metadata: PUBLISHABLE_METADATA, files: { enabled: true, default_preview: 'l.txt' } },
    });
    expect(preview.json().errors).toBeUndefined();
    const orphan = await t.services.store.createMultipart('uploads/or/orphan', {
      size: 10,
      partSize: 10,
      parts: 1,
    });
    const rows = await t.services.database.db
      .selectFrom('recordFiles')
      .select(['key', 'uploadKey', 'uploadId'])
      .where('bucket', '=', `draft:${id}`)
      .execute();
    const l = rows.find((r) => r.key === 'l.txt')!;
    const m = rows.find((r) => r.key === 'm.bin')!;
    const { revision } = await api.snapshot(id);
    await new Promise((r) => setTimeout(r, 20));

    expect(await t.services.files.sweepAbandoned()).toBe(3);

    const after = await api.snapshot(id);
    expect(after.revision).toBe(revision + 2);
    expect(after.files).toMatchObject({
      default_preview: null,
      entries: [{ key: 'keep.txt', status: 'completed' }],
    });
    expect((after.files as { entries: unknown[] }).entries).toHaveLength(1);
    const draft = await api.draft(id);
    expect(draft.files).toMatchObject({ count: 1, total_bytes: 4 });
    expect(draft.files.default_preview).toBeUndefined();
    await expect(t.services.store.read(l.uploadKey!)).rejects.toSatisfy(
      (e) => e instanceof FileStoreError && e.reason === 'not-found',
    );
    const left = await storedFiles(t.storeRoot);
    for (const uploadId of [m.uploadId!, orphan]) {
      expect(left).not.toContainEqual(expect.stringContaining(uploadId));
    }
    expect(left.filter((f) => !f.startsWith('.'))).toEqual([
      (
        await t.services.database.db
          .selectFrom('fileObjects')
          .select('storeKey')
          .where('id', '=', kept.file_id as string)
          .executeTakeFirstOrThrow()
      ).storeKey,
    ]);
    expectError(
      await api.get(`/api/records/${id}/draft/files/l.txt`),
      404,
      'NOT_FOUND',
      'File with key l.txt not found.',
    );
    expect(await t.services.files.sweepAbandoned()).toBe(0);
    expect((await api.get(`/api/records/${id}/draft/files/keep.txt/content`)).body).toBe('kept');
    await api.publish(id);
  });

  it('refuses an archive past CAIRN_ARCHIVE_MAX_BYTES (400)', async () => {
    const { id } = await api.createDraft();
    await api.upload(id, 'a.txt', '0123456789');
    expect((await api.get(`/api/records/${id}/draft/files-archive`)).statusCode).toBe(200);
    await api.upload(id, 'b.txt', '!');
    expectError(
      await api.get(`/api/records/${id}/draft/files-archive`),
      400,
      'VALIDATION_FAILED',
      'Archive download is only available for records with total file size up to 10 bytes.',
    );
  });
});
