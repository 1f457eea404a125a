import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { readJson } from '../../database/schema.js';
import { createFilesTestApp, FilesApi, md5, type Caller } from '../../test/files.js';
import { FilesRepository } from './files.repository.js';
import { summarise, type FilesSummary } from './files.summary.js';

// A draft's files summary is changed by each file change, under the draft's lock, by what that
// one file contributes, instead of being counted again from every entry. These changes run side
// by side here; after each round the stored summary must be what a count of the bucket gives,
// and what the files API lists.

type T = TestApp & { storeRoot: string };

describe.each(ENGINES)('the files summary under changes at once (%s)', (engine) => {
  let t: T;
  let owner: Caller;
  let api: FilesApi;
  let repo: FilesRepository;

  beforeAll(async () => {
    t = await createFilesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: '100',
      CAIRN_FILES_MAX_BYTES_PER_RECORD: '100000',
    });
    owner = await t.user();
    api = new FilesApi(t, owner);
    repo = new FilesRepository(t.services.database.db, engine);
  });
  afterAll(() => t.close());

  async function storedSummary(id: string): Promise<FilesSummary> {
    const row = await t.services.database.db
      .selectFrom('drafts')
      .select('filesSummary')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return readJson<FilesSummary>(row.filesSummary);
  }

  /** The stored summary is a count of the bucket, and the draft shows what the files API lists. */
  async function expectCounted(id: string): Promise<FilesSummary> {
    const stored = await storedSummary(id);
    expect(stored).toEqual(summarise(await repo.listStored(`draft:${id}`)));
    const files = (await api.draft(id)).files as Record<string, any>;
    const listed = (await api.get(`/api/records/${id}/draft/files`)).json().entries as Array<{
      key: string;
      status: string;
      size?: number;
      checksum?: string;
      metadata: Record<string, unknown> | null;
    }>;
    const completed = listed.filter((f) => f.status === 'completed');
    expect(files.count).toBe(listed.length);
    expect(files.total_bytes).toBe(completed.reduce((sum, f) => sum + f.size!, 0));
    expect(Object.keys(files.entries).sort()).toEqual(listed.map((f) => f.key).sort());
    for (const file of listed) {
      expect(files.entries[file.key]).toMatchObject({
        size: file.size ?? 0,
        checksum: file.checksum ?? null,
        metadata: file.metadata ?? {},
        ...(file.status === 'completed' ? {} : { status: 'pending' }),
      });
    }
    return stored;
  }

  it('matches a count after 20 commits at once and then 10 deletes at once', async () => {
    const { id } = await api.createDraft();
    const keys = Array.from({ length: 20 }, (_, i) => `part-${i}.bin`);
    const bytes = keys.map((_, i) => crypto.randomBytes(100 + i));
    // Half announce their size, half do not: each holds the quota its own way until committed.
    const init = await api.init(
      id,
      keys.map((key, i) => (i % 2 === 0 ? { key, size: bytes[i]!.length } : { key })),
    );
    expect(init.statusCode, init.body).toBe(201);
    const puts = await Promise.all(keys.map((key, i) => api.put(id, key, bytes[i]!)));
    for (const put of puts) expect(put.statusCode, put.body).toBe(200);
    expect(await expectCounted(id)).toMatchObject({
      count: 20,
      pending: 20,
      reserved_bytes: bytes.reduce((sum, b) => sum + b.length, 0),
    });

    const commits = await Promise.all(keys.map((key) => api.commit(id, key)));
    commits.forEach((commit, i) => {
      expect(commit.statusCode, commit.body).toBe(200);
      expect(commit.json().checksum).toBe(`md5:${md5(bytes[i]!)}`);
    });
    expect(await expectCounted(id)).toMatchObject({
      count: 20,
      pending: 0,
      reserved_bytes: 0,
      total_bytes: bytes.reduce((sum, b) => sum + b.length, 0),
    });

    const deletes = await Promise.all(keys.slice(0, 10).map((key) => api.delete(id, key)));
    for (const deleted of deletes) expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await expectCounted(id)).toMatchObject({
      count: 10,
      total_bytes: bytes.slice(10).reduce((sum, b) => sum + b.length, 0),
    });
  });

  it('matches a count after inits, uploads, commits, metadata changes and deletes at once', async () => {
    const { id } = await api.createDraft();
    const keys = Array.from({ length: 12 }, (_, i) => `f${i}.txt`);
    const inits = await Promise.all(keys.map((key) => api.init(id, [{ key }])));
    for (const init of inits) expect(init.statusCode, init.body).toBe(201);
    const puts = await Promise.all(keys.map((key) => api.put(id, key, `${key} `.repeat(10))));
    for (const put of puts) expect(put.statusCode, put.body).toBe(200);
    await expectCounted(id);

    // Each third committed, given metadata, or deleted; a new file announced beside them.
    const results = await Promise.all([
      ...keys.map((key, i) =>
        i % 3 === 0
          ? api.commit(id, key)
          : i % 3 === 1
            ? t.request({
                method: 'PUT',
                url: `/api/records/${id}/draft/files/${key}`,
                headers: owner.headers,
                body: { metadata: { description: key } },
              })
            : api.delete(id, key),
      ),
      api.init(id, [{ key: 'late.csv', size: 42 }]),
    ]);
    for (const result of results) expect(result.statusCode, result.body).toBeLessThan(300);
    expect(await expectCounted(id)).toMatchObject({
      count: 9,
      pending: 5,
      reserved_bytes: 70 * 3 + 80 + 42,
    });

    // Content sent again replaces what an upload holds against the quota.
    const again = await Promise.all(
      keys.filter((_, i) => i % 3 === 1).map((key) => api.put(id, key, 'short')),
    );
    for (const put of again) expect(put.statusCode, put.body).toBe(200);
    expect(await expectCounted(id)).toMatchObject({ reserved_bytes: 4 * 5 + 42 });
  });

  it('counts a summary stored before it kept the bytes uploads hold, at its next change', async () => {
    const { id } = await api.createDraft();
    await api.upload(id, 'done.txt', 'committed bytes');
    await api.init(id, [{ key: 'half.txt' }]);
    expect((await api.put(id, 'half.txt', 'x'.repeat(500))).statusCode).toBe(200);
    // As the previous release wrote it: no reserved bytes, and a commit in progress shown as such.
    const { reserved_bytes: _, ...older } = await storedSummary(id);
    older.entries!['half.txt']!.status = 'committing';
    await t.services.database.db
      .updateTable('drafts')
      .set({ filesSummary: JSON.stringify(older) })
      .where('id', '=', id)
      .execute();

    // The 500 bytes half.txt holds count against the quota of this change.
    await t.services.files.setUserQuota(owner.id, null, 15 + 500 + 100);
    try {
      const init = await api.init(id, [{ key: 'more.txt', size: 101 }]);
      expect(init.statusCode, init.body).toBe(400);
      expect((await api.init(id, [{ key: 'more.txt', size: 100 }])).statusCode).toBe(201);
    } finally {
      await t.services.files.setUserQuota(owner.id, null, null);
    }
    expect(await expectCounted(id)).toMatchObject({ count: 3, reserved_bytes: 600 });
  });
});
