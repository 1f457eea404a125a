import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, type Caller } from '../../test/files.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { wellFormedFileKeys } from './0012_well_formed_file_keys.js';

/**
 * Before ill-formed text was refused where it enters, `POST …/draft/files` with
 * `[{"key":"a\ud800b"}]` stored the key as it came: SQLite wrote the surrogate as the bytes
 * ED A0 80, which read back as three U+FFFD that no request could name, so the pending file could
 * be neither read nor deleted and blocked publishing. PostgreSQL's driver wrote U+FFFD instead.
 */
describe.each(ENGINES)('file keys stored before ill-formed text was refused (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
  });
  afterAll(() => t?.close());

  /**
   * A pending file whose key and summary entry are what the old code stored for `key`: the row
   * as written, the summary from the row as read back (the engine's version of the key).
   */
  async function storedAsBefore(id: string, key: string): Promise<void> {
    const init = await api.init(id, [{ key: 'placeholder.txt' }]);
    expect(init.statusCode, init.body).toBe(201);
    const { db } = t.services.database;
    const row = await db
      .selectFrom('recordFiles')
      .select('id')
      .where('bucket', '=', `draft:${id}`)
      .where('key', '=', 'placeholder.txt')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('recordFiles')
      .set({ key, keyNormalized: key.normalize('NFC') })
      .where('id', '=', row.id)
      .execute();
    const { key: readBack } = await db
      .selectFrom('recordFiles')
      .select('key')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    const draft = await db
      .selectFrom('drafts')
      .select('filesSummary')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const summary = (
      typeof draft.filesSummary === 'string' ? JSON.parse(draft.filesSummary) : draft.filesSummary
    ) as { entries: Record<string, { key: string }> };
    const { 'placeholder.txt': entry, ...others } = summary.entries;
    summary.entries = { ...others, [readBack]: { ...entry!, key: readBack } };
    await db
      .updateTable('drafts')
      .set({ filesSummary: JSON.stringify(summary) as never })
      .where('id', '=', id)
      .execute();
  }

  it('become readable and deletable under the key they are listed with, and publish works', async () => {
    const { id } = await api.createDraft();
    await storedAsBefore(id, 'a\ud800b.txt');
    if (engine === 'sqlite') {
      const raw = await sql<{
        raw: Uint8Array;
      }>`select cast(key as blob) as raw from record_files where bucket = ${`draft:${id}`}`.execute(
        t.services.database.db,
      );
      expect(Buffer.from(raw.rows[0]!.raw).toString('hex')).toBe('61eda080622e747874');
    }
    const listed = (await api.get(`/api/records/${id}/draft/files`)).json().entries[0]
      .key as string;
    expect(listed).toBe(engine === 'sqlite' ? 'a\ufffd\ufffd\ufffdb.txt' : 'a\ufffdb.txt');

    await wellFormedFileKeys.up(t.services.database.db as never);

    const files = (await api.get(`/api/records/${id}/draft/files`)).json();
    expect(files.entries.map((e: { key: string }) => e.key)).toEqual([listed]);
    const draft = await api.draft(id);
    expect(Object.keys(draft.files.entries)).toEqual([listed]);
    const item = await api.get(`/api/records/${id}/draft/files/${encodeURIComponent(listed)}`);
    expect(item.statusCode, item.body).toBe(200);
    expect(item.json().key).toBe(listed);
    expect((await api.delete(id, encodeURIComponent(listed))).statusCode).toBe(204);
    expect((await api.get(`/api/records/${id}/draft/files`)).json().entries).toEqual([]);
    await api.upload(id, 'data.csv', 'a,b\n');
    await api.publish(id);
  });

  it('leave well-formed keys alone, and can run again', async () => {
    const { id } = await api.createDraft();
    await api.upload(id, 'ok-é.txt', 'fine');
    await storedAsBefore(id, 'b\udc00.txt');
    const listed = keysOf((await api.get(`/api/records/${id}/draft/files`)).json());
    await wellFormedFileKeys.up(t.services.database.db as never);
    await wellFormedFileKeys.up(t.services.database.db as never);
    const keys = keysOf((await api.get(`/api/records/${id}/draft/files`)).json());
    expect(keys).toEqual(listed);
    for (const key of keys) {
      const item = await api.get(`/api/records/${id}/draft/files/${encodeURIComponent(key)}`);
      expect(item.statusCode, `${key}: ${item.body}`).toBe(200);
    }
  });

  // PostgreSQL stored U+FFFD in the first place, so a second such key was refused as a duplicate.
  it.runIf(engine === 'sqlite')(
    'get a numbered name when the name they are listed with is taken',
    async () => {
      const { id } = await api.createDraft();
      await api.upload(id, 'c\ufffd\ufffd\ufffd.txt', 'taken');
      await storedAsBefore(id, 'c\ud800.txt');
      await wellFormedFileKeys.up(t.services.database.db as never);
      const keys = keysOf((await api.get(`/api/records/${id}/draft/files`)).json());
      expect(keys).toEqual(['c\ufffd\ufffd\ufffd (2).txt', 'c\ufffd\ufffd\ufffd.txt']);
      expect((await api.delete(id, encodeURIComponent(keys[0]!))).statusCode).toBe(204);
    },
  );
});

function keysOf(files: { entries: Array<{ key: string }> }): string[] {
  return files.entries.map((e) => e.key).sort();
}
