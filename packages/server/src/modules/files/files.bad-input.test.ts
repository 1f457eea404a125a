import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { newRecordId } from '../records/record-id.js';
import { FileStoreError } from './storage/file-store.js';

// The "Bad input" list for the files API, route by route: each mistake answers the 4xx
// InvenioRDM's files API gives, with its exact message, and the files list, the draft's revision
// and the stored bytes are what they were before.

const MAX_FILES = 3;
const MAX_BYTES = 1000;
const ALREADY_COMMITTED = (key: string) => `File with key "${key}" is already committed.`;
const NOT_FOUND = (key: string) => `File with key ${key} not found.`;
const WRONG_PART_SIZE =
  'Size of this part must be equal to part_size sent in multipart initialization.';
const PART_TOO_HIGH = 'Part number is higher than total parts sent in multipart initialization.';
const LOCKED =
  'Bucket is locked for modifications. To change the files of a published record, create a new version.';
const NO_PID = 'The persistent identifier does not exist.';
const NO_ROUTE = 'The requested URL was not found on the server.';
const RELATIVE_ONLY = 'File names must be relative paths without empty, "." or ".." parts.';
const CONTROL = 'File names must not contain control characters.';
const NUL = 'Text must not contain the NUL character (U+0000).';

type T = TestApp & { storeRoot: string };

describe.each(ENGINES)('bad input on the files API (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let other: Caller;
  let admin: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: String(MAX_FILES),
      CAIRN_FILES_MAX_BYTES_PER_RECORD: String(MAX_BYTES),
    });
    owner = await t.user();
    other = await t.user();
    admin = await t.user(undefined, { admin: true });
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  /** The stored row of a draft's file (where its bytes wait while it is pending). */
  async function rowOf(id: string, key: string) {
    return t.services.database.db
      .selectFrom('recordFiles')
      .selectAll()
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  async function expectNotStored(storeKey: string): Promise<void> {
    await expect(t.services.store.read(storeKey)).rejects.toSatisfy(
      (e) => e instanceof FileStoreError && e.reason === 'not-found',
    );
  }

  /** No write left a temporary file behind. */
  async function expectNoTemporaryFiles(): Promise<void> {
    expect((await storedFiles(t.storeRoot)).filter((f) => f.startsWith('.tmp'))).toEqual([]);
  }

  /**
   * Of two commits at once, one completed the file; the other arrived while the first held the
   * file (409, being committed) or after it had finished (400, already committed).
   */
  function expectOneCommitWon(results: LightMyRequestResponse[], key: string): void {
    const [won, lost] = [...results].sort((a, b) => a.statusCode - b.statusCode);
    expect(won!.statusCode, won!.body).toBe(200);
    if (lost!.statusCode === 409) {
      expectError(
        lost!,
        409,
        'CONFLICT',
        `File with key "${key}" is being committed by another request. If that request was cut off, send the commit again after 30 seconds.`,
      );
    } else expectError(lost!, 400, 'VALIDATION_FAILED', ALREADY_COMMITTED(key));
  }

  /** A draft with a multipart file `big.bin` of 25 bytes in parts of 10, 10 and 5. */
  async function multipartDraft(bytes = crypto.randomBytes(25)) {
    const { id } = await api.createDraft();
    const init = await api.init(id, [
      { key: 'big.bin', size: 25, transfer: { type: 'M', parts: 3, part_size: 10 } },
    ]);
    expect(init.statusCode, init.body).toBe(201);
    return { id, bytes };
  }

  describe('file keys', () => {
    const longestKey = Array.from({ length: 4 }, () => 'a'.repeat(255)).join('/');

    it.each([
      ['a parent folder', '../etc/passwd', RELATIVE_ONLY],
      ['a parent folder inside', 'data/../../secret', RELATIVE_ONLY],
      ['an absolute path', '/etc/passwd', RELATIVE_ONLY],
      ['a "." part', 'data/./x.csv', RELATIVE_ONLY],
      ['an empty folder', 'data//x.csv', RELATIVE_ONLY],
      ['a trailing slash', 'data/', RELATIVE_ONLY],
      ['a bell', 'a\u0007b', CONTROL],
      ['a line break', 'a\nb.txt', CONTROL],
      ['DEL', 'a\u007fb', CONTROL],
      ['a backslash', 'a\\b.txt', 'File names must use "/" between folders, not "\\".'],
      ['an empty key', '', 'Missing data for required field.'],
      ['over 1024 bytes', 'k'.repeat(1025), 'File names must be at most 1024 bytes long.'],
      ['over 1024 bytes of UTF-8', 'é'.repeat(513), 'File names must be at most 1024 bytes long.'],
      [
        'a name over 255 bytes',
        `data/${'y'.repeat(256)}`,
        'Each folder or file name must be at most 255 bytes long.',
      ],
    ])('refuses %s (400) and creates nothing', async (_name, key, message) => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectValidationFailed(await api.init(id, [{ key }]), [
        { field: '0.key', messages: [message] },
      ]);
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('refuses a key or metadata holding U+0000 (400), which PostgreSQL cannot store', async () => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectValidationFailed(await api.init(id, '[{"key": "a\\u0000b"}]'), [
        { field: '0.key', messages: [NUL] },
      ]);
      expectValidationFailed(
        await api.init(id, '[{"key": "notes.txt", "metadata": {"note": "a\\u0000b"}}]'),
        [{ field: '0.metadata.note', messages: [NUL] }],
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('answers 400 for a NUL and 404 for an over-long key or "..", in the URL, on every file route', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'a.txt', 'hello');
      const before = await api.snapshot(id);
      const nul = [{ field: 'key', messages: [NUL] }];
      expectValidationFailed(await api.get(`/api/records/${id}/draft/files/a%00b`), nul);
      expectValidationFailed(await api.get(`/api/records/${id}/draft/files/a%00b/content`), nul);
      expectValidationFailed(await api.put(id, 'a%00b', 'x'), nul);
      expectValidationFailed(await api.commit(id, 'a%00b'), nul);
      expectValidationFailed(await api.delete(id, 'a%00b'), nul);
      const key = 'x'.repeat(2000);
      expectError(
        await api.get(`/api/records/${id}/draft/files/${key}`),
        404,
        'NOT_FOUND',
        NOT_FOUND(key),
      );
      expectError(
        await api.get(`/api/records/${id}/draft/files/${key}/content`),
        404,
        'NOT_FOUND',
        NOT_FOUND(key),
      );
      expectError(await api.put(id, key, 'x'), 404, 'NOT_FOUND', NOT_FOUND(key));
      expectError(await api.commit(id, key), 404, 'NOT_FOUND', NOT_FOUND(key));
      expectError(await api.delete(id, key), 404, 'NOT_FOUND', NOT_FOUND(key));
      // ".." in a URL is resolved before routing, so it never reaches a file route.
      expectError(
        await api.get(`/api/records/${id}/draft/files/../../x`),
        404,
        'NOT_FOUND',
        NO_ROUTE,
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('accepts the longest key (1024 bytes, 255 per name) on every route', async () => {
      const { id } = await api.createDraft();
      const committed = await api.upload(id, longestKey, 'edge');
      expect(committed).toMatchObject({ key: longestKey, status: 'completed', size: 4 });
      const read = await api.get(`/api/records/${id}/draft/files/${longestKey}/content`);
      expect(read.body).toBe('edge');
    });
  });

  describe('the init body', () => {
    it.each([
      ['an object instead of a list', { key: 'a' }, '0._schema', 'Invalid input type.'],
      ['a string entry', ['a.txt'], '0._schema', 'Invalid input type.'],
      ['no key', [{ size: 1 }], '0.key', 'Missing data for required field.'],
      ['a number key', [{ key: 5 }], '0.key', 'Not a valid string.'],
      ['an unknown field', [{ key: 'a', foo: 1 }], '0.foo', 'Unknown field.'],
      [
        'an unknown transfer field',
        [{ key: 'a', transfer: { type: 'L', bar: 1 } }],
        '0.transfer.bar',
        'Unknown field.',
      ],
      [
        'a string transfer',
        [{ key: 'a', transfer: 'L' }],
        '0.transfer',
        'Transfer metadata must be a dictionary.',
      ],
      ['a negative size', [{ key: 'a', size: -1 }], '0.size', 'Not a valid integer.'],
      ['a fractional size', [{ key: 'a', size: 1.5 }], '0.size', 'Not a valid integer.'],
      ['a string size', [{ key: 'a', size: '10' }], '0.size', 'Not a valid integer.'],
      [
        'a checksum that is not MD5',
        [{ key: 'a', checksum: `sha1:${'0'.repeat(40)}` }],
        '0.checksum',
        'Checksum must look like md5:<32 hexadecimal digits>.',
      ],
      ['list metadata', [{ key: 'a', metadata: [] }], '0.metadata', 'Not a valid mapping type.'],
    ])('refuses %s (400) and creates nothing', async (_name, body, field, message) => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectValidationFailed(await api.init(id, body), [{ field, messages: [message] }]);
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('lists every problem of every entry at once', async () => {
      const { id } = await api.createDraft();
      expectValidationFailed(
        await api.init(id, [{ key: '../x' }, { key: 'ok.txt', size: 'big' }, { key: 'fine.txt' }]),
        [
          { field: '0.key', messages: [RELATIVE_ONLY] },
          { field: '1.size', messages: ['Not a valid integer.'] },
        ],
      );
      expect((await api.snapshot(id)).files).toMatchObject({ entries: [] });
    });

    it('refuses an empty list, malformed JSON and duplicates (400)', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'a.txt', 'hello');
      const before = await api.snapshot(id);
      expectError(await api.init(id, []), 400, 'VALIDATION_FAILED', 'No files to upload.');
      expectError(
        await api.init(id, '[{"key": '),
        400,
        'INVALID_JSON',
        'Unable to decode JSON data in request body.',
      );
      expectError(
        await api.init(id, [{ key: 'b.txt' }, { key: 'b.txt' }]),
        400,
        'VALIDATION_FAILED',
        'File with key b.txt already exists.',
      );
      // All or nothing: the new b.txt is not created because a.txt exists.
      expectError(
        await api.init(id, [{ key: 'b.txt' }, { key: 'a.txt' }]),
        400,
        'VALIDATION_FAILED',
        'File with key a.txt already exists.',
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('refuses file metadata that is not a mapping, and clears it with none', async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'm.txt', 'hello');
      const put = (body: unknown) =>
        t.request({
          method: 'PUT',
          url: `/api/records/${id}/draft/files/m.txt`,
          headers: owner.headers,
          body: body as object,
        });
      expect((await put({ metadata: { page: 1 } })).json().metadata).toEqual({ page: 1 });
      for (const metadata of [[], 'x', 7])
        expectValidationFailed(await put({ metadata }), [
          { field: 'metadata', messages: ['Not a valid mapping type.'] },
        ]);
      expect((await put([1])).statusCode).toBe(200);
      expect((await put({ metadata: null })).json().metadata).toBeNull();
    });

    it('refuses a body that is not JSON (415)', async () => {
      const { id } = await api.createDraft();
      const res = await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft/files`,
        headers: { ...owner.headers, 'content-type': 'text/plain' },
        body: '[{"key": "a"}]',
      });
      expectError(
        res,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        "Invalid 'Content-Type' header. Expected one of: application/json",
      );
    });
  });

  describe('transfer types', () => {
    it.each(['F', 'R'])('refuses %s to a depositor (403)', async (type) => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectError(
        await api.init(id, [
          { key: 'remote.bin', transfer: { type, url: 'https://example.org/x' } },
        ]),
        403,
        'PERMISSION_DENIED',
        `Transfer type ${type} is reserved to administrators.`,
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it('tells an administrator that F is not supported here (400)', async () => {
      const { id } = await api.createDraft();
      expectValidationFailed(
        await api
          .as(admin)
          .init(id, [{ key: 'remote.bin', transfer: { type: 'F', url: 'https://example.org/x' } }]),
        [
          {
            field: '0.transfer.type',
            messages: ['Transfer type F is not supported by this repository; use L or M.'],
          },
        ],
      );
    });

    it('refuses an unknown transfer type with a clear message (400)', async () => {
      const { id } = await api.createDraft();
      expectValidationFailed(await api.init(id, [{ key: 'a', transfer: { type: 'X' } }]), [
        {
          field: '0.transfer.type',
          messages: ['Unsupported transfer type X; use L (one request) or M (multipart).'],
        },
      ]);
    });

    it('answers the multipart refusals as upstream does (400 with the message)', async () => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectError(
        await api.init(id, [{ key: 'm', transfer: { type: 'M', parts: 2, part_size: 10 } }]),
        400,
        'VALIDATION_FAILED',
        'Multipart file transfer requires file size.',
      );
      expectError(
        await api.init(id, [{ key: 'm', size: 20, transfer: { type: 'M', parts: 2 } }]),
        400,
        'VALIDATION_FAILED',
        'Multipart file transfer to local storage requires part_size.',
      );
      expectValidationFailed(
        await api.init(id, [{ key: 'm', size: 20, transfer: { type: 'M', part_size: 10 } }]),
        [{ field: '0.transfer.parts', messages: ['Multipart file transfer requires parts.'] }],
      );
      expectValidationFailed(
        await api.init(id, [
          { key: 'm', size: 20, transfer: { type: 'M', parts: 0, part_size: 10 } },
        ]),
        [
          {
            field: '0.transfer.parts',
            messages: ['Parts must be a whole number from 1 to 10000.'],
          },
        ],
      );
      expectValidationFailed(
        await api.init(id, [
          { key: 'm', size: 20, transfer: { type: 'M', parts: 2, part_size: 0 } },
        ]),
        [
          {
            field: '0.transfer.part_size',
            messages: ['part_size must be a whole number of bytes from 1 to 5368709120.'],
          },
        ],
      );
      expectValidationFailed(
        await api.init(id, [
          { key: 'm', size: 50, transfer: { type: 'M', parts: 2, part_size: 10 } },
        ]),
        [
          {
            field: '0.transfer.part_size',
            messages: ['2 parts of 10 bytes do not add up to a file of 50 bytes.'],
          },
        ],
      );
      expectValidationFailed(
        await api.init(id, [
          { key: 'm', size: 15, transfer: { type: 'M', parts: 3, part_size: 10 } },
        ]),
        [
          {
            field: '0.transfer.part_size',
            messages: ['3 parts of 10 bytes do not add up to a file of 15 bytes.'],
          },
        ],
      );
      expect(await api.snapshot(id)).toEqual(before);
      expect(await storedFiles(t.storeRoot)).not.toContainEqual(
        expect.stringMatching(/^\.multipart/),
      );
    });
  });

  describe('content and parts', () => {
    it('refuses content that is not application/octet-stream (415)', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'a.txt' }]);
      const before = await api.snapshot(id);
      for (const type of [
        'text/plain',
        'application/json',
        'application/octet-stream; charset=x',
      ]) {
        expectError(
          await api.put(id, 'a.txt', 'hello', { 'content-type': type }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          "Invalid 'Content-Type' header. Expected one of: application/octet-stream",
        );
      }
      expectError(
        await api.commit(id, 'a.txt'),
        400,
        'VALIDATION_FAILED',
        'The content of a.txt has not been uploaded yet.',
      );
      expect(await api.snapshot(id)).toEqual(before);
      // No Content-Type at all means octet-stream.
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/records/${id}/draft/files/a.txt/content`,
        headers: owner.headers,
        payload: Buffer.from('hello'),
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('refuses content of another size than announced, keeping nothing', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'five.txt', size: 5 }]);
      const before = await api.snapshot(id);
      const { uploadKey } = (await rowOf(id, 'five.txt'))!;
      for (const bytes of ['1234', '123456']) {
        expectError(
          await api.put(id, 'five.txt', bytes),
          400,
          'VALIDATION_FAILED',
          'File size mismatch: five.txt was announced as 5 bytes at initialisation.',
        );
      }
      await expectNotStored(uploadKey!);
      await expectNoTemporaryFiles();
      expect(await api.snapshot(id)).toEqual(before);
      expect((await api.put(id, 'five.txt', '12345')).statusCode).toBe(200);
      expect((await api.commit(id, 'five.txt')).json()).toMatchObject({
        size: 5,
        checksum: `md5:${md5('12345')}`,
      });
    });

    it('refuses parts of the wrong size, out of range, or on the wrong kind of file', async () => {
      const { id, bytes } = await multipartDraft();
      await api.init(id, [{ key: 'small.txt' }]);
      const before = await api.snapshot(id);
      const cases: Array<[number | string, Buffer, string]> = [
        [1, bytes.subarray(0, 9), WRONG_PART_SIZE],
        [1, bytes.subarray(0, 11), WRONG_PART_SIZE],
        [3, bytes.subarray(20, 24), WRONG_PART_SIZE],
        [3, Buffer.concat([bytes.subarray(20), Buffer.from('!')]), WRONG_PART_SIZE],
        [0, bytes.subarray(0, 10), 'Part numbers start at 1.'],
        [4, bytes.subarray(0, 10), PART_TOO_HIGH],
        ['99999999999999999999', bytes.subarray(0, 10), PART_TOO_HIGH],
      ];
      for (const [part, chunk, message] of cases) {
        expectError(
          await api.putPart(id, 'big.bin', part, chunk),
          400,
          'VALIDATION_FAILED',
          message,
        );
      }
      const wrongMd5 = await t.app.inject({
        method: 'PUT',
        url: `/api/records/${id}/draft/files/big.bin/content/1`,
        headers: {
          ...owner.headers,
          'content-type': 'application/octet-stream',
          'content-md5': Buffer.from(md5('other'), 'hex').toString('base64'),
        },
        payload: bytes.subarray(0, 10),
      });
      expectError(
        wrongMd5,
        400,
        'VALIDATION_FAILED',
        'The Content-MD5 of the part does not match the bytes received; the part was discarded.',
      );
      expectError(
        await api.put(id, 'big.bin', bytes),
        400,
        'VALIDATION_FAILED',
        'Can not set content for multipart file, use the parts instead.',
      );
      expectError(
        await api.putPart(id, 'small.txt', 1, 'x'),
        400,
        'VALIDATION_FAILED',
        'This file was not initialised for a multipart transfer; upload its content in one request.',
      );
      const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
      expect(parts.json()).toMatchObject({ received: [], missing: [1, 2, 3] });
      await expectNoTemporaryFiles();
      expect(await api.snapshot(id)).toEqual(before);

      for (const [n, chunk] of [
        [1, bytes.subarray(0, 10)],
        [2, bytes.subarray(10, 20)],
        [3, bytes.subarray(20)],
      ] as const) {
        expect((await api.putPart(id, 'big.bin', n, chunk)).statusCode).toBe(200);
      }
      expect((await api.commit(id, 'big.bin')).json()).toMatchObject({
        status: 'completed',
        size: 25,
        checksum: `md5:${md5(bytes)}`,
      });
    });

    it('refuses a commit before every part arrived, and takes it once they have', async () => {
      const { id, bytes } = await multipartDraft();
      await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10));
      await api.putPart(id, 'big.bin', 3, bytes.subarray(20));
      const before = await api.snapshot(id);
      expectError(
        await api.commit(id, 'big.bin'),
        400,
        'VALIDATION_FAILED',
        'Parts not received yet: 2.',
      );
      expect(await api.snapshot(id)).toEqual(before);
      const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
      expect(parts.json()).toMatchObject({ missing: [2] });
      expect(parts.json().received.map((p: { part: number }) => p.part)).toEqual([1, 3]);
      await api.putPart(id, 'big.bin', 2, bytes.subarray(10, 20));
      expect((await api.commit(id, 'big.bin')).json()).toMatchObject({
        status: 'completed',
        checksum: `md5:${md5(bytes)}`,
      });
    });

    it('refuses a multipart commit whose bytes miss the announced checksum, and lets the parts be sent again', async () => {
      const bytes = crypto.randomBytes(15);
      const { id } = await api.createDraft();
      await api.init(id, [
        {
          key: 'm.bin',
          size: 15,
          checksum: `md5:${md5(bytes)}`,
          transfer: { type: 'M', parts: 2, part_size: 10 },
        },
      ]);
      const wrong = Buffer.from(bytes);
      wrong[0] = (wrong[0]! + 1) % 256;
      await api.putPart(id, 'm.bin', 1, wrong.subarray(0, 10));
      await api.putPart(id, 'm.bin', 2, wrong.subarray(10));
      const before = await api.snapshot(id);
      const { uploadKey } = (await rowOf(id, 'm.bin'))!;
      expectError(
        await api.commit(id, 'm.bin'),
        400,
        'VALIDATION_FAILED',
        `The checksum of the received bytes (md5:${md5(wrong)}) does not match the one announced (md5:${md5(bytes)}). Upload the content again.`,
      );
      await expectNotStored(uploadKey!);
      const item = await api.get(`/api/records/${id}/draft/files/m.bin`);
      expect(item.json()).toMatchObject({ status: 'pending', transfer: { type: 'M' } });
      const parts = await api.get(`/api/records/${id}/draft/files/m.bin/parts`);
      expect(parts.json()).toMatchObject({ received: [], missing: [1, 2] });
      expect((await api.snapshot(id)).revision).toBe(before.revision);
      await api.putPart(id, 'm.bin', 1, bytes.subarray(0, 10));
      await api.putPart(id, 'm.bin', 2, bytes.subarray(10));
      expect((await api.commit(id, 'm.bin')).json()).toMatchObject({
        status: 'completed',
        checksum: `md5:${md5(bytes)}`,
      });
    });

    it('lets exactly one of two simultaneous commits win', async () => {
      const { id, bytes } = await multipartDraft();
      await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10));
      await api.putPart(id, 'big.bin', 2, bytes.subarray(10, 20));
      await api.putPart(id, 'big.bin', 3, bytes.subarray(20));
      await api.upload(id, 'small.txt', 'x');
      const { revision } = await api.snapshot(id);
      const { uploadKey, uploadId } = (await rowOf(id, 'big.bin'))!;

      const results = await Promise.all([api.commit(id, 'big.bin'), api.commit(id, 'big.bin')]);
      expectOneCommitWon(results, 'big.bin');

      const objects = await t.services.database.db
        .selectFrom('fileObjects')
        .selectAll()
        .where('storeKey', '=', uploadKey!)
        .execute();
      expect(objects).toHaveLength(1);
      expect(objects[0]!.checksum).toBe(`md5:${md5(bytes)}`);
      expect(await storedFiles(t.storeRoot)).not.toContainEqual(expect.stringContaining(uploadId!));
      const after = await api.snapshot(id);
      expect(after.revision).toBe(revision + 1);
      expect(after.files).toMatchObject({
        entries: [
          { key: 'big.bin', status: 'completed', size: 25 },
          { key: 'small.txt', status: 'completed' },
        ],
      });
      const read = await api.get(`/api/records/${id}/draft/files/big.bin/content`);
      expect(read.rawPayload.equals(bytes)).toBe(true);
    });

    it('lets exactly one of two simultaneous commits of a one-request upload win', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'a.txt' }]);
      await api.put(id, 'a.txt', 'hello');
      const results = await Promise.all([api.commit(id, 'a.txt'), api.commit(id, 'a.txt')]);
      expectOneCommitWon(results, 'a.txt');
      const { uploadKey } = (await rowOf(id, 'a.txt'))!;
      const objects = await t.services.database.db
        .selectFrom('fileObjects')
        .select('id')
        .where('storeKey', '=', uploadKey!)
        .execute();
      expect(objects).toHaveLength(1);
    });

    it('refuses content sent to a committed file (400) and keeps its bytes', async () => {
      const { id, bytes } = await multipartDraft();
      await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10));
      await api.putPart(id, 'big.bin', 2, bytes.subarray(10, 20));
      await api.putPart(id, 'big.bin', 3, bytes.subarray(20));
      await api.commit(id, 'big.bin');
      await api.upload(id, 'a.txt', 'hello');
      const before = await api.snapshot(id);
      expectError(
        await api.put(id, 'a.txt', 'bye'),
        400,
        'VALIDATION_FAILED',
        ALREADY_COMMITTED('a.txt'),
      );
      expectError(
        await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10)),
        400,
        'VALIDATION_FAILED',
        ALREADY_COMMITTED('big.bin'),
      );
      expectError(
        await api.put(id, 'big.bin', bytes),
        400,
        'VALIDATION_FAILED',
        ALREADY_COMMITTED('big.bin'),
      );
      expectError(
        await api.commit(id, 'a.txt'),
        400,
        'VALIDATION_FAILED',
        ALREADY_COMMITTED('a.txt'),
      );
      expect(await api.snapshot(id)).toEqual(before);
      expect((await api.get(`/api/records/${id}/draft/files/a.txt/content`)).body).toBe('hello');
      await expectNoTemporaryFiles();
    });

    it('answers 404 for files that do not exist, and for content not committed yet', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'p.txt' }]);
      const before = await api.snapshot(id);
      const files = `/api/records/${id}/draft/files`;
      expectError(await api.get(`${files}/nope.txt`), 404, 'NOT_FOUND', NOT_FOUND('nope.txt'));
      expectError(
        await api.get(`${files}/nope.txt/content`),
        404,
        'NOT_FOUND',
        NOT_FOUND('nope.txt'),
      );
      expectError(await api.put(id, 'nope.txt', 'x'), 404, 'NOT_FOUND', NOT_FOUND('nope.txt'));
      expectError(
        await api.putPart(id, 'nope.txt', 1, 'x'),
        404,
        'NOT_FOUND',
        NOT_FOUND('nope.txt'),
      );
      expectError(await api.commit(id, 'nope.txt'), 404, 'NOT_FOUND', NOT_FOUND('nope.txt'));
      expectError(
        await t.request({
          method: 'PUT',
          url: `${files}/nope.txt`,
          headers: owner.headers,
          body: { metadata: {} },
        }),
        404,
        'NOT_FOUND',
        NOT_FOUND('nope.txt'),
      );
      expectError(await api.delete(id, 'nope.txt'), 404, 'NOT_FOUND', NOT_FOUND('nope.txt'));
      expectError(
        await api.get(`${files}/p.txt/content`),
        404,
        'NOT_FOUND',
        'File with key p.txt has no content yet (its upload is not committed).',
      );
      expect(await api.snapshot(id)).toEqual(before);
    });
  });

  describe('quotas, checked before bytes are stored', () => {
    it('refuses more files than the configured maximum (400)', async () => {
      const { id } = await api.createDraft();
      const message = `Uploading selected files will result in exceeding the max amount per record. This record may hold at most ${MAX_FILES} files.`;
      const before = await api.snapshot(id);
      expectError(
        await api.init(id, [{ key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'd' }]),
        400,
        'VALIDATION_FAILED',
        message,
      );
      expect(await api.snapshot(id)).toEqual(before);
      expect((await api.init(id, [{ key: 'a' }, { key: 'b' }])).statusCode).toBe(201);
      const two = await api.snapshot(id);
      expectError(
        await api.init(id, [{ key: 'c' }, { key: 'd' }]),
        400,
        'VALIDATION_FAILED',
        message,
      );
      expect(await api.snapshot(id)).toEqual(two);
      expect((await api.init(id, [{ key: 'c' }])).statusCode).toBe(201);
    });

    it('refuses announced bytes past the configured maximum (400)', async () => {
      const { id } = await api.createDraft();
      const before = await api.snapshot(id);
      expectError(
        await api.init(id, [{ key: 'big', size: MAX_BYTES + 1 }]),
        400,
        'VALIDATION_FAILED',
        `File size limit exceeded. Uploading the selected files would result in ${MAX_BYTES + 1} bytes of storage use, exceeding the limit of ${MAX_BYTES} bytes.`,
      );
      expect(await api.snapshot(id)).toEqual(before);
      await api.upload(id, 'six-hundred.bin', crypto.randomBytes(600));
      expectError(
        await api.init(id, [{ key: 'more', size: 401 }]),
        400,
        'VALIDATION_FAILED',
        `File size limit exceeded. Uploading the selected files would result in 1001 bytes of storage use, exceeding the limit of ${MAX_BYTES} bytes.`,
      );
      expect((await api.init(id, [{ key: 'more', size: 400 }])).statusCode).toBe(201);
    });

    it('stops content of unannounced size at the remaining quota, storing nothing', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'a.bin' }, { key: 'b.bin' }]);
      const before = await api.snapshot(id);
      const { uploadKey } = (await rowOf(id, 'a.bin'))!;
      expectError(
        await api.put(id, 'a.bin', crypto.randomBytes(MAX_BYTES + 1)),
        400,
        'VALIDATION_FAILED',
        "File size limit exceeded: a.bin is larger than announced or than this record's remaining quota.",
      );
      await expectNotStored(uploadKey!);
      await expectNoTemporaryFiles();
      expect(await api.snapshot(id)).toEqual(before);
      // Bytes received by a pending file count: two files cannot each fill the quota.
      expect((await api.put(id, 'a.bin', crypto.randomBytes(600))).statusCode).toBe(200);
      expectError(
        await api.put(id, 'b.bin', crypto.randomBytes(600)),
        400,
        'VALIDATION_FAILED',
        "File size limit exceeded: b.bin is larger than announced or than this record's remaining quota.",
      );
      expect((await api.put(id, 'b.bin', crypto.randomBytes(400))).statusCode).toBe(200);
      expect((await api.commit(id, 'a.bin')).statusCode).toBe(200);
      expect((await api.commit(id, 'b.bin')).statusCode).toBe(200);
    });

    it("applies a user's own quota instead of the configured one, and the default again once cleared", async () => {
      const user = await t.user();
      const mine = api.as(user);
      const { id } = await mine.createDraft();
      await t.services.files.setUserQuota(user.id, 1, 10);
      expectError(
        await mine.init(id, [{ key: 'a' }, { key: 'b' }]),
        400,
        'VALIDATION_FAILED',
        'Uploading selected files will result in exceeding the max amount per record. This record may hold at most 1 files.',
      );
      expectError(
        await mine.init(id, [{ key: 'a', size: 11 }]),
        400,
        'VALIDATION_FAILED',
        'File size limit exceeded. Uploading the selected files would result in 11 bytes of storage use, exceeding the limit of 10 bytes.',
      );
      expect((await mine.init(id, [{ key: 'a' }])).statusCode).toBe(201);
      expectError(
        await mine.put(id, 'a', '01234567890'),
        400,
        'VALIDATION_FAILED',
        "File size limit exceeded: a is larger than announced or than this record's remaining quota.",
      );
      // The quota is the draft owner's, whoever uploads (an administrator here).
      expectError(
        await mine.as(admin).init(id, [{ key: 'b' }]),
        400,
        'VALIDATION_FAILED',
        'Uploading selected files will result in exceeding the max amount per record. This record may hold at most 1 files.',
      );
      await t.services.files.setUserQuota(user.id, null, null);
      expect((await mine.init(id, [{ key: 'b' }, { key: 'c' }])).statusCode).toBe(201);
      expect((await mine.put(id, 'a', crypto.randomBytes(500))).statusCode).toBe(200);
    });
  });

  describe('a connection dropped mid-upload', () => {
    let origin: string;

    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });

    /**
     * Sends the first half of `bytes` to `url` (announcing them all), waits until the server is
     * streaming them into the store (`method`), drops the connection, and waits until the store
     * has given up on them.
     */
    async function dropHalfway(url: string, bytes: Buffer, method: 'put' | 'putPart') {
      const store = t.services.store;
      const original = (method === 'put'
        ? store.put.bind(store)
        : store.putPart.bind(store)) as unknown as (...args: unknown[]) => Promise<unknown>;
      let storing: Promise<unknown> | undefined;
      let onStoring: () => void = () => {};
      const started = new Promise<void>((resolve) => (onStoring = resolve));
      const spy = vi.spyOn(store, method).mockImplementation(((...args: unknown[]) => {
        storing = original(...args);
        onStoring();
        return storing;
      }) as never);
      const request = http.request(`${origin}${url}`, {
        method: 'PUT',
        headers: {
          ...owner.headers,
          'content-type': 'application/octet-stream',
          'content-length': String(bytes.length),
        },
      });
      request.on('error', () => {});
      try {
        request.write(bytes.subarray(0, bytes.length / 2));
        await started;
      } finally {
        request.destroy();
        spy.mockRestore();
      }
      await expect(storing).rejects.toSatisfy(
        (e) => e instanceof FileStoreError && e.reason === 'aborted',
      );
    }

    it('leaves a one-request upload pending with no content, and a full upload works after', async () => {
      const bytes = crypto.randomBytes(800);
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'data.bin', size: bytes.length }]);
      const before = await api.snapshot(id);
      const { uploadKey } = (await rowOf(id, 'data.bin'))!;

      await dropHalfway(`/api/records/${id}/draft/files/data.bin/content`, bytes, 'put');
      await expectNoTemporaryFiles();

      expect(await api.snapshot(id)).toEqual(before);
      expect((await api.get(`/api/records/${id}/draft/files/data.bin`)).json()).toMatchObject({
        status: 'pending',
      });
      expect(await rowOf(id, 'data.bin')).toMatchObject({ uploadedSize: null, objectId: null });
      await expectNotStored(uploadKey!);
      expectError(
        await api.commit(id, 'data.bin'),
        400,
        'VALIDATION_FAILED',
        'The content of data.bin has not been uploaded yet.',
      );
      expect((await api.put(id, 'data.bin', bytes)).statusCode).toBe(200);
      expect((await api.commit(id, 'data.bin')).json()).toMatchObject({
        status: 'completed',
        size: bytes.length,
        checksum: `md5:${md5(bytes)}`,
      });
    });

    it('keeps the bytes of an earlier upload when a re-upload is dropped', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'data.bin' }]);
      await api.put(id, 'data.bin', 'first');
      await dropHalfway(
        `/api/records/${id}/draft/files/data.bin/content`,
        crypto.randomBytes(800),
        'put',
      );
      expect((await api.commit(id, 'data.bin')).json()).toMatchObject({
        size: 5,
        checksum: `md5:${md5('first')}`,
      });
    });

    it('leaves a multipart part missing, and the part can be sent again', async () => {
      const bytes = crypto.randomBytes(800);
      const { id } = await api.createDraft();
      await api.init(id, [
        { key: 'big.bin', size: 800, transfer: { type: 'M', parts: 2, part_size: 400 } },
      ]);
      const first = bytes.subarray(0, 400);
      await dropHalfway(`/api/records/${id}/draft/files/big.bin/content/1`, first, 'putPart');
      const parts = await api.get(`/api/records/${id}/draft/files/big.bin/parts`);
      expect(parts.json()).toMatchObject({ received: [], missing: [1, 2] });
      expect((await api.putPart(id, 'big.bin', 1, first)).statusCode).toBe(200);
      expect((await api.putPart(id, 'big.bin', 2, bytes.subarray(400))).statusCode).toBe(200);
      expect((await api.commit(id, 'big.bin')).json()).toMatchObject({
        checksum: `md5:${md5(bytes)}`,
      });
    });
  });

  describe('deleting unfinished files', () => {
    it('deletes a pending file with its bytes (204), then answers 404, which counts as deleted', async () => {
      const { id } = await api.createDraft();
      await api.init(id, [{ key: 'p.txt' }]);
      await api.put(id, 'p.txt', 'half done');
      const { uploadKey } = (await rowOf(id, 'p.txt'))!;
      const { revision } = await api.snapshot(id);
      const res = await api.delete(id, 'p.txt');
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      await expectNotStored(uploadKey!);
      expectError(
        await api.get(`/api/records/${id}/draft/files/p.txt`),
        404,
        'NOT_FOUND',
        NOT_FOUND('p.txt'),
      );
      expectError(await api.delete(id, 'p.txt'), 404, 'NOT_FOUND', NOT_FOUND('p.txt'));
      const after = await api.snapshot(id);
      expect(after.revision).toBe(revision + 1);
      expect(after.files).toMatchObject({ entries: [] });
      expect((await api.draft(id)).files).toMatchObject({ count: 0, entries: {} });
    });

    it('aborts a pending multipart upload, freeing its parts', async () => {
      const { id, bytes } = await multipartDraft();
      await api.putPart(id, 'big.bin', 1, bytes.subarray(0, 10));
      const { uploadId } = (await rowOf(id, 'big.bin'))!;
      expect(await storedFiles(t.storeRoot)).toContainEqual(expect.stringContaining(uploadId!));
      expect((await api.delete(id, 'big.bin')).statusCode).toBe(204);
      expect(await storedFiles(t.storeRoot)).not.toContainEqual(expect.stringContaining(uploadId!));
      expectError(await api.delete(id, 'big.bin'), 404, 'NOT_FOUND', NOT_FOUND('big.bin'));
    });
  });

  describe('empty files', () => {
    it('are accepted by default, with the MD5 of nothing', async () => {
      const { id } = await api.createDraft();
      const committed = await api.upload(id, 'empty.txt', '');
      expect(committed).toMatchObject({
        size: 0,
        checksum: 'md5:d41d8cd98f00b204e9800998ecf8427e',
      });
      const read = await api.get(`/api/records/${id}/draft/files/empty.txt/content`);
      expect(read.statusCode).toBe(200);
      expect(read.body).toBe('');
    });
  });

  describe('who may touch a draft’s files', () => {
    let id: string;
    const routes: Array<{
      name: string;
      method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
      path: string;
      body?: object;
      bytes?: string;
    }> = [
      { name: 'list', method: 'GET', path: '/draft/files' },
      { name: 'init', method: 'POST', path: '/draft/files', body: [{ key: 'x.txt' }] },
      { name: 'delete all', method: 'DELETE', path: '/draft/files' },
      { name: 'item', method: 'GET', path: '/draft/files/a.txt' },
      { name: 'metadata', method: 'PUT', path: '/draft/files/a.txt', body: { metadata: {} } },
      { name: 'download', method: 'GET', path: '/draft/files/a.txt/content' },
      { name: 'download head', method: 'HEAD', path: '/draft/files/a.txt/content' },
      { name: 'content', method: 'PUT', path: '/draft/files/p.txt/content', bytes: 'x' },
      { name: 'part', method: 'PUT', path: '/draft/files/big.bin/content/1', bytes: '0123456789' },
      { name: 'parts', method: 'GET', path: '/draft/files/big.bin/parts' },
      { name: 'commit', method: 'POST', path: '/draft/files/p.txt/commit' },
      { name: 'delete', method: 'DELETE', path: '/draft/files/a.txt' },
      { name: 'archive', method: 'GET', path: '/draft/files-archive' },
      { name: 'files-import', method: 'POST', path: '/draft/actions/files-import' },
    ];

    beforeAll(async () => {
      ({ id } = await multipartDraft());
      await api.upload(id, 'a.txt', 'hello');
      await api.init(id, [{ key: 'p.txt' }]);
      await api.put(id, 'p.txt', 'pending');
    });

    function send(route: (typeof routes)[number], recordId: string, headers: object) {
      return t.app.inject({
        method: route.method,
        url: `/api/records/${recordId}${route.path}`,
        headers: {
          ...headers,
          ...(route.bytes !== undefined ? { 'content-type': 'application/octet-stream' } : {}),
          ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(route.bytes !== undefined ? { payload: route.bytes } : {}),
        ...(route.body !== undefined ? { payload: JSON.stringify(route.body) } : {}),
      });
    }

    function expectStatusOnly(
      res: Awaited<ReturnType<typeof send>>,
      route: (typeof routes)[number],
      status: number,
      code: Parameters<typeof expectError>[2],
      message: string,
    ) {
      if (route.method === 'HEAD') expect(res.statusCode).toBe(status);
      else expectError(res, status, code, message);
    }

    it.each(routes)('$name: another user gets 403 and changes nothing', async (route) => {
      const before = await api.snapshot(id);
      expectStatusOnly(
        await send(route, id, other.headers),
        route,
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it.each(routes)('$name: anonymous gets 403 and changes nothing', async (route) => {
      const before = await api.snapshot(id);
      expectStatusOnly(
        await send(route, id, {}),
        route,
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      expect(await api.snapshot(id)).toEqual(before);
    });

    it.each(routes)('$name: an unknown draft is 404', async (route) => {
      expectStatusOnly(
        await send(route, newRecordId(), owner.headers),
        route,
        404,
        'PID_DOES_NOT_EXIST',
        NO_PID,
      );
    });

    describe('with a session cookie', () => {
      const csrf = 'a-fixed-csrf-token-for-files-0001';
      let cookie: string;

      beforeAll(async () => {
        cookie = `cairn_session=${(await t.services.users.createSession(owner.id)).token}; csrftoken=${csrf}`;
      });

      it.each(routes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD'))(
        '$name without X-CSRFToken is 403 and changes nothing',
        async (route) => {
          const before = await api.snapshot(id);
          expectError(
            await send(route, id, { cookie }),
            403,
            'CSRF_FAILED',
            'CSRF token missing or incorrect. Reload the page and try again.',
          );
          expect(await api.snapshot(id)).toEqual(before);
        },
      );

      it('uploads with the header', async () => {
        const res = await send(
          routes.find((r) => r.name === 'content')!,
          id,
          {
            cookie,
            'x-csrftoken': csrf,
          },
        );
        expect(res.statusCode, res.body).toBe(200);
      });
    });
  });

  describe('published records', () => {
    async function published(access?: object) {
      const { id } = await api.createDraft({
        metadata: PUBLISHABLE_METADATA,
        ...(access ? { access } : {}),
      });
      await api.upload(id, 'a.txt', 'hello');
      await api.publish(id);
      return id;
    }

    it('have no write routes on their own bucket (404)', async () => {
      const id = await published();
      const before = (await api.get(`/api/records/${id}/files`)).json();
      const attempts = [
        { method: 'POST' as const, url: `/api/records/${id}/files`, payload: '[{"key":"b"}]' },
        { method: 'DELETE' as const, url: `/api/records/${id}/files` },
        { method: 'PUT' as const, url: `/api/records/${id}/files/a.txt`, payload: '{}' },
        { method: 'DELETE' as const, url: `/api/records/${id}/files/a.txt` },
        { method: 'POST' as const, url: `/api/records/${id}/files/a.txt/commit` },
        {
          method: 'PUT' as const,
          url: `/api/records/${id}/files/a.txt/content`,
          payload: 'bye',
          type: 'application/octet-stream',
        },
      ];
      for (const { type, ...attempt } of attempts) {
        const res = await t.app.inject({
          ...attempt,
          headers: { ...owner.headers, 'content-type': type ?? 'application/json' },
        });
        expectError(res, 404, 'NOT_FOUND', NO_ROUTE);
      }
      expect((await api.get(`/api/records/${id}/files`)).json()).toEqual(before);
      expect((await api.get(`/api/records/${id}/files/a.txt/content`)).body).toBe('hello');
    });

    it('give their files to anyone when public, and restricted files to the owner only (403)', async () => {
      const open = await published();
      const closed = await published({ record: 'public', files: 'restricted' });
      const reads = (id: string) => [
        `/api/records/${id}/files`,
        `/api/records/${id}/files/a.txt`,
        `/api/records/${id}/files/a.txt/content`,
        `/api/records/${id}/files-archive`,
      ];
      for (const url of reads(open)) {
        expect((await api.as(undefined).get(url)).statusCode, url).toBe(200);
        expect((await api.as(other).get(url)).statusCode, url).toBe(200);
      }
      for (const url of reads(closed)) {
        expectError(
          await api.as(undefined).get(url),
          403,
          'PERMISSION_DENIED',
          'Permission denied.',
        );
        expectError(await api.as(other).get(url), 403, 'PERMISSION_DENIED', 'Permission denied.');
        expect((await api.get(url)).statusCode, url).toBe(200);
        expect((await api.as(admin).get(url)).statusCode, url).toBe(200);
      }
      expect((await api.as(undefined).get(`/api/records/${closed}`)).statusCode).toBe(200);
    });

    it('lock their files in an edit draft (403), while init and removing what it added stay possible', async () => {
      const id = await published();
      const edit = await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft`,
        headers: owner.headers,
      });
      expect(edit.statusCode, edit.body).toBe(201);
      const before = await api.snapshot(id);
      expectError(await api.put(id, 'a.txt', 'bye'), 403, 'PERMISSION_DENIED', LOCKED);
      expectError(await api.delete(id, 'a.txt'), 403, 'PERMISSION_DENIED', LOCKED);
      expectError(await api.delete(id), 403, 'PERMISSION_DENIED', LOCKED);
      expect(await api.snapshot(id)).toEqual(before);

      // As upstream: init answers 201, the content is refused.
      expect((await api.init(id, [{ key: 'new.txt' }])).statusCode).toBe(201);
      expectError(await api.put(id, 'new.txt', 'x'), 403, 'PERMISSION_DENIED', LOCKED);
      expect(
        (
          await api.init(id, [
            { key: 'm.bin', size: 20, transfer: { type: 'M', parts: 2, part_size: 10 } },
          ])
        ).statusCode,
      ).toBe(201);
      expectError(
        await api.putPart(id, 'm.bin', 1, '0123456789'),
        403,
        'PERMISSION_DENIED',
        LOCKED,
      );
      const { uploadId } = (await rowOf(id, 'm.bin'))!;
      const publishBlocked = await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft/actions/publish`,
        headers: owner.headers,
      });
      expect(publishBlocked.statusCode).toBe(400);
      expect((await api.delete(id, 'new.txt')).statusCode).toBe(204);
      expect((await api.delete(id, 'm.bin')).statusCode).toBe(204);
      expect((await api.snapshot(id)).files).toEqual(before.files);
      await api.publish(id);
      expect((await api.get(`/api/records/${id}/files/a.txt/content`)).body).toBe('hello');
      expect(await storedFiles(t.storeRoot)).not.toContainEqual(expect.stringContaining(uploadId!));
    });
  });

  it('keeps every byte in the store folder under uploads/ (keys never become paths)', async () => {
    const { id } = await api.createDraft();
    await api.upload(id, 'folder/x.txt', 'x');
    for (const file of await storedFiles(t.storeRoot)) {
      expect(file.split(path.sep)[0]).toMatch(/^(uploads|\.multipart|\.tmp)$/);
    }
  });
});

// Its own block, so its app is created once the one above is closed: Kysely's migrator looks for
// its tables in every PostgreSQL schema, so a second app migrating beside a migrated one fails.
describe.each(ENGINES)('empty files refused by CAIRN_FILES_ALLOW_EMPTY=false (%s)', (engine) => {
  let strict: T;
  let strictApi: FilesApi;

  beforeAll(async () => {
    strict = await createFilesTestApp(engine, { CAIRN_FILES_ALLOW_EMPTY: 'false' });
    strictApi = new FilesApi(strict, await strict.user());
  });
  afterAll(() => strict.close());

  it('refuses an empty file announced at init, or committed empty, keeping it pending', async () => {
    const { id } = await strictApi.createDraft();
    const before = await strictApi.snapshot(id);
    expectError(
      await strictApi.init(id, [{ key: 'empty.txt', size: 0 }]),
      400,
      'VALIDATION_FAILED',
      'Empty files are not accepted: empty.txt.',
    );
    expect(await strictApi.snapshot(id)).toEqual(before);
    await strictApi.init(id, [{ key: 'empty.txt' }]);
    await strictApi.put(id, 'empty.txt', '');
    const pending = await strictApi.snapshot(id);
    expectError(
      await strictApi.commit(id, 'empty.txt'),
      400,
      'VALIDATION_FAILED',
      'Empty files are not accepted.',
    );
    expect(await strictApi.snapshot(id)).toEqual(pending);
    expect((await strictApi.put(id, 'empty.txt', 'now with bytes')).statusCode).toBe(200);
    expect((await strictApi.commit(id, 'empty.txt')).statusCode).toBe(200);
  });
});
