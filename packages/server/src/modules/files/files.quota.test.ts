import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { expectError } from '../../test/assertions.js';
import { createFilesTestApp, FilesApi, md5, type Caller } from '../../test/files.js';

// The per-record quota under uploads that run side by side. The rule: bytes are reserved before
// they are stored (announced sizes at init, received bytes when a one-request upload ends) and
// refused there, so an upload that was accepted can always be committed; commit counts only the
// committed files, under the draft's lock, so committed files never pass the quota.

const MAX_FILES = 5;
const MAX_BYTES = 1000;
const TOO_LARGE = (key: string) =>
  `File size limit exceeded: ${key} is larger than announced or than this record's remaining quota.`;
const TOO_MANY = `Uploading selected files will result in exceeding the max amount per record. This record may hold at most ${MAX_FILES} files.`;

type T = TestApp & { storeRoot: string };

describe.each(ENGINES)('quotas under parallel uploads (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: String(MAX_FILES),
      CAIRN_FILES_MAX_BYTES_PER_RECORD: String(MAX_BYTES),
    });
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t.close());

  async function committedBytes(id: string, as = api): Promise<number> {
    return (await as.draft(id)).files.total_bytes as number;
  }

  it('lets every accepted upload of unannounced size commit, three of 600 bytes at once in 1,000', async () => {
    const { id } = await api.createDraft();
    const keys = ['a.bin', 'b.bin', 'c.bin'];
    expect(
      (
        await api.init(
          id,
          keys.map((key) => ({ key })),
        )
      ).statusCode,
    ).toBe(201);
    const bytes = keys.map(() => crypto.randomBytes(600));
    const puts = await Promise.all(keys.map((key, i) => api.put(id, key, bytes[i]!)));
    const accepted = keys.filter((_, i) => puts[i]!.statusCode === 200);
    expect(accepted).toHaveLength(1);
    puts.forEach((put, i) => {
      if (put.statusCode !== 200) expectError(put, 400, 'VALIDATION_FAILED', TOO_LARGE(keys[i]!));
    });
    const commits = await Promise.all(accepted.map((key) => api.commit(id, key)));
    for (const commit of commits) expect(commit.statusCode, commit.body).toBe(200);
    expect(await committedBytes(id)).toBe(600);
    // What is left of the quota still takes an upload, which completes too.
    const rest = keys.find((key) => !accepted.includes(key))!;
    expect((await api.put(id, rest, crypto.randomBytes(400))).statusCode).toBe(200);
    expect((await api.commit(id, rest)).statusCode).toBe(200);
    expect(await committedBytes(id)).toBe(1000);
  });

  it('completes uploads that fit together, announced or not, when they run at once', async () => {
    const { id } = await api.createDraft();
    const inits = await Promise.all([
      api.init(id, [{ key: 'a.bin', size: 300 }]),
      api.init(id, [{ key: 'b.bin' }]),
      api.init(id, [{ key: 'c.bin', size: 300 }]),
    ]);
    for (const init of inits) expect(init.statusCode, init.body).toBe(201);
    const bytes = [300, 300, 300].map((n) => crypto.randomBytes(n));
    const keys = ['a.bin', 'b.bin', 'c.bin'];
    const puts = await Promise.all(keys.map((key, i) => api.put(id, key, bytes[i]!)));
    for (const put of puts) expect(put.statusCode, put.body).toBe(200);
    const commits = await Promise.all(keys.map((key) => api.commit(id, key)));
    commits.forEach((commit, i) => {
      expect(commit.statusCode, commit.body).toBe(200);
      expect(commit.json().checksum).toBe(`md5:${md5(bytes[i]!)}`);
    });
    expect(await committedBytes(id)).toBe(900);
  });

  it('reserves announced sizes at init: of three 600-byte files announced at once, one is accepted', async () => {
    const { id } = await api.createDraft();
    const keys = ['a.bin', 'b.bin', 'c.bin'];
    const inits = await Promise.all(keys.map((key) => api.init(id, [{ key, size: 600 }])));
    const accepted = keys.filter((_, i) => inits[i]!.statusCode === 201);
    expect(accepted).toHaveLength(1);
    for (const init of inits) {
      if (init.statusCode !== 201)
        expectError(
          init,
          400,
          'VALIDATION_FAILED',
          `File size limit exceeded. Uploading the selected files would result in 1200 bytes of storage use, exceeding the limit of ${MAX_BYTES} bytes.`,
        );
    }
    const key = accepted[0]!;
    expect((await api.put(id, key, crypto.randomBytes(600))).statusCode).toBe(200);
    expect((await api.commit(id, key)).statusCode).toBe(200);
  });

  it('holds the file count under inits at once, and every accepted file completes', async () => {
    const { id } = await api.createDraft();
    const keys = Array.from({ length: 8 }, (_, i) => `f${i}.txt`);
    const inits = await Promise.all(keys.map((key) => api.init(id, [{ key }])));
    const accepted = keys.filter((_, i) => inits[i]!.statusCode === 201);
    expect(accepted).toHaveLength(MAX_FILES);
    for (const init of inits)
      if (init.statusCode !== 201) expectError(init, 400, 'VALIDATION_FAILED', TOO_MANY);
    const results = await Promise.all(
      accepted.map(async (key) => {
        const put = await api.put(id, key, key);
        return put.statusCode === 200 ? api.commit(id, key) : put;
      }),
    );
    for (const result of results) expect(result.statusCode, result.body).toBe(200);
    expect((await api.draft(id)).files.count).toBe(MAX_FILES);
  });

  it('never lets commits at once pass a quota lowered under uploads in flight; the refused file keeps its bytes', async () => {
    const user = await t.user();
    const mine = api.as(user);
    for (let round = 0; round < 3; round++) {
      await t.services.files.setUserQuota(user.id, null, 1000);
      const { id } = await mine.createDraft();
      const big = crypto.randomBytes(600);
      const small = crypto.randomBytes(400);
      expect(
        (
          await mine.init(id, [
            { key: 'big.bin', size: 600, transfer: { type: 'M', parts: 2, part_size: 300 } },
            { key: 'small.bin' },
          ])
        ).statusCode,
      ).toBe(201);
      expect((await mine.putPart(id, 'big.bin', 1, big.subarray(0, 300))).statusCode).toBe(200);
      expect((await mine.putPart(id, 'big.bin', 2, big.subarray(300))).statusCode).toBe(200);
      expect((await mine.put(id, 'small.bin', small)).statusCode).toBe(200);
      await t.services.files.setUserQuota(user.id, null, 700);

      const commits = await Promise.all([mine.commit(id, 'big.bin'), mine.commit(id, 'small.bin')]);
      expect(commits.map((c) => c.statusCode).sort()).toEqual([200, 400]);
      const refused = commits.find((c) => c.statusCode === 400)!;
      expect(refused.json().message).toMatch(
        /^File size limit exceeded\. Committing (big|small)\.bin would result in 1000 bytes of storage use, exceeding the limit of 700 bytes\.$/,
      );
      expect(await committedBytes(id, mine)).toBeLessThanOrEqual(700);

      // With room again, the refused file commits as it was: no byte has to be sent again.
      await t.services.files.setUserQuota(user.id, null, 1000);
      const key = commits[0].statusCode === 400 ? 'big.bin' : 'small.bin';
      const again = await mine.commit(id, key);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().checksum).toBe(`md5:${md5(key === 'big.bin' ? big : small)}`);
      const read = await mine.get(`/api/records/${id}/draft/files/${key}/content`);
      expect(read.rawPayload.equals(key === 'big.bin' ? big : small)).toBe(true);
      expect(await committedBytes(id, mine)).toBe(1000);
    }
  });
});
